"""Amundsen's Voyage (Myths & Legends solo scenario, reference §9.5, seed l. 1433–1491)
and set J of Legendary Expeditions (Amundsen, the Gjøa, event 53) with the readings
AV1–AV6 of docs/iceandsnow-decisions.md.

Positions are built with the kit; the rules run through ``apply`` and the flow's
own steps."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as hs

from erebus.bots import make_bot
from erebus.games import iceandsnow as game
from erebus.games.iceandsnow import kit
from erebus.games.iceandsnow.actions import Action
from erebus.games.iceandsnow.amundsen import AmundsenState
from erebus.games.iceandsnow.events import EventRevealed, ScenarioProgress
from erebus.games.iceandsnow.layout import DOGS, HEALTH, MORALE, F
from erebus.games.iceandsnow.state import State
from iceandsnow.datakit import broken
from iceandsnow.legendskit import legends, legends_on  # noqa: F401
from iceandsnow.rulekit import of_type, take, takes
from iceandsnow.test_invariants import run_game
from support.bots import play_legal
from support.whole_game import fuzz_settings

AV = {"scenario": "amundsens-voyage"}


def amundsen(seed: int = 1, **opts: Any) -> AmundsenState:
    st = game.new_game(1, seed, {**AV, **opts})
    assert isinstance(st, AmundsenState)
    return st


def action_phase(st: State) -> State:
    kit.start_action_phase(st, leader=0)
    while st.pending != "action":
        st.apply(st.legal_actions()[0])
    return st


# ------------------------------------------------------------------------ set-up


def test_setup_follows_the_seed() -> None:
    st = amundsen(3)
    assert st.options["modes"] == ["survival"]
    assert st.options["modules"] == ["legendary_expeditions"] and st.options["explorers"] == ["J"]
    assert st.explorer == ["J"]
    p = st.player(0)
    assert (p["dynamite"], p["wood"], p["rifles"]) == (8, 5, 3)
    assert p["dogs"] == 0  # Amundsen places no dogs (AV6)
    assert st.ev_open == [] and len(st.ev_coastal) == 12
    assert 53 in st.ev_coastal and 55 in st.ev_coastal
    coastal = [x for x in st.ev_coastal if x not in (53, 55)]
    assert all(13 <= x <= 24 for x in coastal) and len(coastal) == 10
    assert sorted(st.ev_box) == sorted([*range(1, 13), *(set(range(13, 25)) - set(coastal))])
    assert st.am_cyl == [1, 1, 1] and st.am_founded is False


def test_the_shipped_data_has_the_seed_values() -> None:
    sc = game.default_content().scenarios["amundsens-voyage"]
    assert sc["start"] == {"dynamite": 8, "wood": 5, "rifles": 3}  # seed l. 1451
    assert sc["cylinders"] == {"health": 1, "morale": 2}  # l. 1452
    assert sc["explore_remove"] == {"right": 7, "left": 10}  # l. 1487-1488
    assert sc["coastal_deck"] == {"remove_random": 2, "add": [53, 55]}  # l. 1455
    assert sc["explorer"] == "J" and sc["haven_card"]["number"] == 55


def test_the_scenario_refuses_another_explorer() -> None:
    with pytest.raises(ValueError, match="set J"):
        game.new_game(1, 1, {**AV, "explorers": ["A"]})


# ------------------------------------------------------------------ the voyage


def test_open_sea_cannot_be_chosen() -> None:
    st = amundsen()
    st.apply(st.legal_actions()[0])
    while st.pending == "section":
        st.apply(st.legal_actions()[0])
    assert st.pending == "voyage"
    assert [a.voyage for a in st.legal_actions()] == ["coastal"]


@pytest.mark.parametrize(("reading", "voyage"), [("open", "open"), ("coastal", "coastal")])
def test_the_final_voyage(reading: str, voyage: str) -> None:
    st = amundsen(amundsen_final=reading)
    st.final_voyage = True
    st._legal = None
    assert st.voyage_options() == [voyage]


# ------------------------------------------------------------------ the cylinders


def test_black_cylinders_limit_health_and_morale() -> None:
    st = amundsen()
    kit.set_player(st, 0, health=6, morale=6)
    ev: list[Any] = []
    st._raise(0, "health", 3, "test", ev)
    st._raise(0, "morale", 3, "test", ev)
    assert st.pv[HEALTH] == st.content.health.max - 1
    assert st.pv[MORALE] == st.content.morale.max - 2
    assert st.scores() == [10]  # the stopped gain is overflow: no PP in solo (AV2)
    st.am_cyl = [0, 0, 1]  # the right morale cylinder removed: the left one blocks 1
    st._raise(0, "health", 3, "test", ev)
    st._raise(0, "morale", 3, "test", ev)
    assert st.pv[HEALTH] == st.content.health.max
    assert st.pv[MORALE] == st.content.morale.max - 1


def test_a_varied_diet_removes_the_health_cylinder() -> None:
    st = amundsen()
    kit.set_player(st, 0, food=0, species=["caribou_1", "caribou_2", "musk_ox_1"])
    st._lower_food(0, 3, "test", [])
    while st.pending == "eat":
        st.apply(Action("eat", card="caribou_1" if "caribou_1" in st.species[0] else "musk_ox_1"))
    eaten = {st.content.species[c].species for c in st.sp_eaten}
    assert (st.am_cyl[0] == 0) == (len(eaten) >= 2)
    kit.set_player(st, 0, food=0)
    st._lower_food(0, 30, "test", [])
    while st.pending == "eat":
        st.apply(st.legal_actions()[0])
    assert st.am_cyl[0] == 0  # two species over the game (AV3)


@pytest.mark.parametrize(
    ("sled", "reading", "left"),
    [(2, "both", [0, 0, 1]), (3, "both", [0, 0, 0]), (3, "one", [0, 1, 0])],
)
def test_explore_removes_the_morale_cylinders(sled: int, reading: str, left: list[int]) -> None:
    st = action_phase(amundsen(amundsen_explore=reading))
    st.am_cyl = [0, 1, 1]
    kit.set_player(st, 0, sled=sled)  # 8 or 11 PP: the dog track counts as 7 dogs
    ev = take(st, "explore", crew=(1, 0, 0, 1, 0))
    assert st.am_cyl == left
    assert of_type(ev, ScenarioProgress)


# ------------------------------------------------------------------ Gjøa Haven


def test_gjoa_haven_is_founded_only_in_the_round_of_event_55() -> None:
    st = amundsen()
    kit.next_event(st, "coastal", 55)
    st.apply(st.legal_actions()[0])
    while st.pending == "section":
        st.apply(st.legal_actions()[0])
    ev = st.apply(Action("voyage", voyage="coastal"))
    while st.pending not in ("action",):
        ev += st.apply(st.legal_actions()[0])
    assert [e.number for e in of_type(ev, EventRevealed)] == [55] and st.am_haven == st.round
    crew = st.crew_count(0)
    take(st, "build_cabin", crew=(0, 1, 0, 1, 0), food=crew)
    assert st.am_founded and st.objectives_missing() == []


def test_too_little_food_or_another_round_does_not_found_it() -> None:
    st = action_phase(amundsen())
    st.am_haven = st.round
    take(st, "build_cabin", crew=(0, 1, 0, 1, 0), food=st.crew_count(0) - 1)
    assert not st.am_founded
    st = action_phase(amundsen())
    st.am_haven = st.round - 1
    take(st, "build_cabin", crew=(0, 1, 0, 1, 0), food=20)
    assert not st.am_founded


def test_completing_the_passage_wins_only_with_gjoa_haven() -> None:
    for founded, outcome in ((True, "won"), (False, "lost")):
        st = amundsen()
        st.am_founded = founded
        final = next(a for a in st.tables.anchors.values() if a.final_pp is not None)
        kit.set_fleet(st, final.id)
        st.step, st.phase, st.voyage = "final", "flow", "open"
        st._run([])
        assert st.outcome == outcome
        if not founded:
            assert "Gjøa Haven" in st.reason


def test_zero_pp_loses() -> None:
    st = amundsen()
    kit.set_player(st, 0, pp=1, food=0, sailors=0)
    kit.start_boarding(st)
    assert st.is_over and st.outcome == "lost"


# ------------------------------------------------------------------ set J


def test_amundsen_improves_the_sled_without_wood() -> None:
    st = action_phase(amundsen())
    kit.set_player(st, 0, wood=0)
    wood = st.player(0)["wood"]
    take(st, "improve_sled", crew=(0, 1, 0, 1, 0))
    assert st.player(0)["sled"] == 2 and st.player(0)["wood"] == wood


def test_amundsen_never_places_dogs_and_explores_with_seven() -> None:
    st = action_phase(amundsen())
    ev: list[Any] = []
    st._gain(0, "dogs", 2, "test", ev)
    assert st.pv[DOGS] == 0 and not ev
    assert takes(st, "explore")  # no dog needed: the track counts as 7
    kit.set_player(st, 0, sled=5)
    from erebus.games.iceandsnow.action_phase import explore_pp

    assert explore_pp(st, 0) == st.content.tracks["dogs"]["explore_pp"][7]


def test_event_53_lets_one_inuk_improve_the_sled_alone() -> None:
    st = action_phase(amundsen())
    kit.set_player(st, 0, inuit=1)
    assert (0, 0, 0, 0, 1) not in [a.crew for a in takes(st, "improve_sled")]
    st.ex_held = [["sled_master"]]
    st._legal = None
    take(st, "improve_sled", crew=(0, 0, 0, 0, 1))
    assert st.player(0)["sled"] == 2


def test_amundsen_searches_with_seven_dogs_in_lost_expedition() -> None:
    from erebus.games.iceandsnow.action_phase import available_sled_level

    st = kit.game(
        1,
        2,
        {"scenario": "lost-expedition", "modules": ["legendary_expeditions"], "explorers": ["J"]},
    )
    kit.set_player(st, 0, sled=4)
    assert st.pv[DOGS] == 0 and available_sled_level(st, 0) == 4


def test_set_j_in_a_multiplayer_game() -> None:
    st = legends(2, 3, explorers=["J", "A"])
    assert st.player(0)["dogs"] == 0 and st.player(1)["dogs"] == 3
    ev: list[Any] = []
    st._gain(1, "dogs", 1, "test", ev)
    st._gain(0, "dogs", 1, "test", ev)
    assert st.player(1)["dogs"] == 4 and st.player(0)["dogs"] == 0


# ------------------------------------------------------------ hidden information


def test_events_53_and_55_stay_in_the_deck_of_a_determinization() -> None:
    st = amundsen(5)
    for seed in range(5):
        world = game.determinize(json.loads(json.dumps(st.view(0))), seed)
        assert 53 in world.ev_coastal and 55 in world.ev_coastal
        assert len(world.ev_coastal) == 12 and world.ev_open == []
        assert world.view(0) == st.view(0)


def test_json_round_trip() -> None:
    st = action_phase(amundsen())
    st.am_cyl = [0, 1, 0]
    d = st.to_json()
    back = State.from_json(json.loads(json.dumps(d)))
    assert isinstance(back, AmundsenState) and back.to_json() == d
    assert back.legal_actions() == st.legal_actions()


def test_broken_scenario_data_is_refused_at_load() -> None:
    def cylinders(raw: dict[str, Any]) -> None:
        raw["scenarios"]["amundsens-voyage"]["cylinders"] = {"health": 2, "morale": 2}

    assert "black cylinder" in broken(cylinders)


# ------------------------------------------------------------------ whole games


@pytest.mark.parametrize("seed", [0, 1])
def test_seeded_games_keep_every_invariant(seed: int) -> None:
    run_game(1, 600 + seed, AV, seed, view_every=2)


def test_seeded_games_with_inuit_myths_keep_every_invariant() -> None:
    run_game(1, 610, {**AV, "modules": ["inuit_myths"]}, 3, view_every=3)


@fuzz_settings(examples=10)
@given(seed=hs.integers(0, 2**32), policy=hs.integers(0, 2**16))
def test_random_games_keep_every_invariant(seed: int, policy: int) -> None:
    run_game(1, seed, AV, policy, view_every=4)


def test_random_games_reach_the_scenario_rules() -> None:
    seen: set[str] = set()
    for seed in range(12):
        st = game.new_game(1, seed, AV)
        assert isinstance(st, AmundsenState)
        rnd = random.Random(seed)
        while not st.is_over:
            a = rnd.choice(st.legal_actions())
            assert st.pv[HEALTH] <= st.track_limit("health")
            assert st.pv[MORALE] <= st.track_limit("morale")
            for e in st.apply(a):
                if isinstance(e, EventRevealed):
                    seen.add(str(e.number))
                if isinstance(e, ScenarioProgress):
                    seen.add(e.what.split(" (")[0])
    assert {"55", "53"} <= seen


@pytest.mark.parametrize("name", ["random", "greedy", "mcts"])
def test_bots_play_the_scenario_to_the_end(name: str) -> None:
    st = game.new_game(1, 7, AV)
    play_legal(st, [make_bot(name, seed=1, iterations=8)])
    assert st.outcome in ("won", "lost")
    assert st.pv[F * 0 + DOGS] == 0
