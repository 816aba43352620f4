"""Legendary Expeditions (§9.3, seed l. 1262–1320): the interactive explorer abilities
C Ross (Inuit Apprentice), D Kellett (Excellent Tracker), G Collinson (Great
Discovery) and H Belcher (Despotic Tendencies) — one test per rule, the hidden
information of Kellett's look, JSON round trips in the middle of their decisions,
illegal actions refused with the state untouched, and bots through whole games.

Readings: docs/iceandsnow-decisions.md L10–L19.  Positions are built with the kit;
the rules run through ``legal_actions`` / ``apply``."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as hs

from erebus.bots import make_bot
from erebus.core.errors import IllegalAction
from erebus.games.iceandsnow import encoding, kit, legends_explorers
from erebus.games.iceandsnow.actions import Action
from erebus.games.iceandsnow.events import (
    RegionMapped,
    RouteForced,
    TopCardLooked,
    VoyageChosen,
)
from erebus.games.iceandsnow.layout import FUEL, PROXY, SLED, TURNS, USED, F
from erebus.games.iceandsnow.spec import SPEC
from erebus.games.iceandsnow.state import State
from iceandsnow import test_module_legends_games as legends_games
from iceandsnow.legendskit import legends, legends_on  # noqa: F401
from support.bots import assert_same_choice, play_legal
from support.whole_game import fuzz_settings

ROSS, KELLETT, COLLINSON, BELCHER = "C", "D", "G", "H"
#: the whole-game checker's card accounting fixture, while its module has one
_kept_cards = getattr(legends_games, "_kept_cards", None)


def roundtrip(st: State) -> State:
    """The state through JSON text and back: equal, with the same legal actions."""
    back = State.from_json(json.loads(json.dumps(st.to_json())))
    assert back == st
    assert back.legal_actions() == st.legal_actions()
    return back


def refused(st: State, action: Action | dict[str, Any]) -> None:
    """``action`` is illegal and leaves the state exactly as it was."""
    before = json.dumps(st.to_json(), sort_keys=True)
    with pytest.raises(IllegalAction):
        st.apply(action)
    assert json.dumps(st.to_json(), sort_keys=True) == before


def action_turn(st: State, seat: int) -> State:
    """Jump to the Action phase with ``seat`` to act first (as the leader)."""
    return kit.start_action_phase(st, leader=seat)


def busy(st: State, seat: int, crew: tuple[int, int, int, int, int]) -> State:
    """Mark ``crew`` of ``seat`` as already placed this round."""
    for i, k in enumerate(crew):
        st.pv[F * seat + USED + i] = k
    st._legal = None
    return st


# ---------------------------------------------------------------- C Ross


def test_ross_may_use_a_sailor_as_the_inuk_an_action_asks_for() -> None:
    """Improve the Sled needs the carpenter or an Inuk: with the carpenter busy and
    no Inuk, Ross may place 2 sailors, one playing the Inuk (proxy "inuit")."""
    st = action_turn(legends(2, 1, explorers=[ROSS, "A"]), 0)
    kit.set_player(st, 0, wood=3, sled=1, inuit=0)
    busy(st, 0, (0, 1, 0, 0, 0))
    sled = [a for a in st.legal_actions() if a.kind == "take" and a.space == "improve_sled"]
    assert all(a.proxy == "inuit" for a in sled)
    two_sailors = Action("take", space="improve_sled", crew=(0, 0, 0, 2, 0), proxy="inuit")
    assert two_sailors in sled
    st.apply(two_sailors)
    assert st.pv[F * 0 + SLED] == 2
    assert st.pv[F * 0 + PROXY] & legends_explorers.INUK_BIT


HARE = {"type": "take", "space": "hunt", "crew": {"sailors": 1}, "card": "hunt_arctic_hare_1"}


def test_ross_uses_the_apprentice_once_per_round() -> None:
    st = action_turn(legends(2, 1, explorers=[ROSS, "A"]), 0)
    kit.set_player(st, 0, wood=3, sled=1, inuit=0, rifles=3)
    busy(st, 0, (0, 1, 1, 0, 0))
    kit.reveal(st, hunting=["hunt_arctic_hare_1"])
    assert Action.from_json({**HARE, "proxy": "inuit"}) in st.legal_actions()
    take = next(a for a in st.legal_actions() if a.proxy == "inuit" and a.space == "improve_sled")
    st.apply(take)
    assert st.current_player == 1
    st.apply(Action("pass"))
    assert st.current_player == 0
    assert not any(a.proxy == "inuit" for a in st.legal_actions())
    refused(st, {**HARE, "proxy": "inuit"})
    # the next round's Action phase gives the use back
    action_turn(st, 0)
    busy(st, 0, (0, 1, 1, 0, 0))
    assert any(a.proxy == "inuit" for a in st.legal_actions())


def test_other_explorers_have_no_apprentice_and_ross_needs_it_only_without_an_inuk() -> None:
    st = action_turn(legends(2, 1, explorers=["A", ROSS]), 0)
    busy(st, 0, (0, 1, 0, 0, 0))
    kit.set_player(st, 0, wood=3, inuit=0)
    assert not any(a.proxy == "inuit" for a in st.legal_actions())
    st = action_turn(legends(2, 1, explorers=[ROSS, "A"]), 0)
    kit.set_player(st, 0, wood=3, inuit=1)
    for a in st.legal_actions():
        if a.proxy == "inuit":
            assert a.crew is not None and a.crew[4] == 0, "an Inuk is there: no stand-in"
            sp = st.tables.spaces[st.tables.space_index[a.space]] if a.space else None
            assert sp is None or not any(
                a.crew[{"captain": 0, "carpenter": 1, "scientist": 2}[r]]
                for r in sp.need
                if r != "inuit"
            )


def test_ross_builds_a_shelter_without_an_inuk() -> None:
    """Build Shelter needs 1 Inuk + 1 crew (§6.2): Ross's sailor may be the Inuk."""
    st = action_turn(legends(2, 1, explorers=[ROSS, "A"], modes=["shelters"]), 0)
    kit.set_player(st, 0, inuit=0)
    shelters = [a for a in st.legal_actions() if a.space == "build_shelter"]
    assert shelters and all(a.proxy == "inuit" for a in shelters)
    other = action_turn(legends(2, 1, explorers=["A", ROSS], modes=["shelters"]), 0)
    kit.set_player(other, 0, inuit=0)
    assert not any(a.space == "build_shelter" for a in other.legal_actions())


def test_ross_proxy_is_a_wire_action_and_keeps_the_action_space_small() -> None:
    a = Action("take", space="improve_sled", crew=(0, 0, 0, 2, 0), proxy="inuit")
    assert Action.from_json(json.loads(json.dumps(a.to_json()))) == a
    st = action_turn(legends(2, 1, explorers=[ROSS, "A"], upgrades="all"), 0)
    kit.set_player(st, 0, wood=9, rifles=9, dynamite=9, dogs=9, sailors=6, food=20)
    st.upgrades[0] = [1, 4, 5]
    kit.reveal(st, hunting=["hunt_musk_ox_1", "hunt_harp_seal_1", "hunt_arctic_hare_1"])
    n = len(st.legal_actions())
    assert n < encoding.MAX_ACTIONS
    without = action_turn(legends(2, 1, explorers=["A", ROSS], upgrades="all"), 0)
    kit.set_player(without, 0, wood=9, rifles=9, dynamite=9, dogs=9, sailors=6, food=20)
    without.upgrades[0] = [1, 4, 5]
    kit.reveal(without, hunting=["hunt_musk_ox_1", "hunt_harp_seal_1", "hunt_arctic_hare_1"])
    assert n <= 2 * len(without.legal_actions())


# ---------------------------------------------------------------- D Kellett


def kellett(deck_top: str = "polar_bear_1", row: tuple[str, ...] = ("arctic_fox_1",)) -> State:
    st = action_turn(legends(2, 3, explorers=[KELLETT, "A"]), 0)
    kit.reveal(st, species=list(row))
    st.sp_deck.remove(deck_top)
    st.sp_deck.insert(0, deck_top)
    st._legal = None
    return st


def test_kellett_looks_at_the_species_deck_then_must_discover() -> None:
    st = kellett()
    look = Action("track", space="discover")
    assert look in st.legal_actions()
    events = st.apply(look)
    assert [e for e in events if isinstance(e, TopCardLooked)]
    assert any(SPEC.reveals_hidden(e) for e in events), "the look is an undo barrier"
    assert st.current_player == 0 and st.pv[F * 0 + TURNS] == 0, "the look is no turn"
    legal = st.legal_actions()
    assert {a.space for a in legal} == {"discover"}, "bound to Discover, no pass"
    assert {a.card for a in legal} == {"polar_bear_1", "arctic_fox_1"}
    take = next(a for a in legal if a.card == "polar_bear_1")
    st.apply(take)
    assert "polar_bear_1" in st.species[0]
    assert "polar_bear_1" not in st.sp_deck and st.sp_rev == ["arctic_fox_1"]


def test_a_card_kellett_leaves_stays_on_top_and_he_keeps_knowing_it() -> None:
    st = kellett()
    st.apply(Action("track", space="discover"))
    st.apply(next(a for a in st.legal_actions() if a.card == "arctic_fox_1"))
    assert st.sp_deck[0] == "polar_bear_1", "the card he did not take stays on top"
    assert legends_explorers.looked_card(st, 0, "species") == "polar_bear_1"
    assert st.view(0)["ex_peek"][0][:2] == ["species", "polar_bear_1"]
    assert "polar_bear_1" not in json.dumps(st.view(1)["ex_peek"])
    # a top card he knows needs no second look
    busy(action_turn(st, 0), 0, (0, 0, 0, 0, 0))
    assert Action("track", space="discover") not in st.legal_actions()
    assert any(a.card == "polar_bear_1" for a in st.legal_actions())


def test_kellett_may_discover_without_looking_and_others_never_look() -> None:
    st = kellett()
    plain = [a for a in st.legal_actions() if a.kind == "take" and a.space == "discover"]
    assert {a.card for a in plain} == {"arctic_fox_1"}, "no look, no top card"
    other = action_turn(legends(2, 3, explorers=["A", KELLETT]), 0)
    assert not any(a.kind == "track" for a in other.legal_actions())


def test_kellett_hunts_the_top_hunting_card_with_its_prey_in_crew_and_rifles() -> None:
    st = action_turn(legends(2, 3, explorers=[KELLETT, "A"]), 0)
    kit.set_player(st, 0, rifles=2)
    kit.reveal(st, hunting=["hunt_arctic_hare_1"])
    st.hu_deck.remove("hunt_caribou_1")
    st.hu_deck.insert(0, "hunt_caribou_1")
    st._legal = None
    st.apply(Action("track", space="hunt"))
    legal = st.legal_actions()
    assert {a.space for a in legal} == {"hunt"}
    top = [a for a in legal if a.card == "hunt_caribou_1"]
    assert top and all(a.crew is not None and sum(a.crew) == 2 for a in top)
    st.apply(top[0])
    assert "hunt_caribou_1" in st.hu_disc and st.hu_rev == ["hunt_arctic_hare_1"]


def test_an_unusable_look_binds_kellett_to_nothing() -> None:
    """Top card prey 4 with 1 rifle and no revealed card: the look shows it, he goes on."""
    st = action_turn(legends(2, 3, explorers=[KELLETT, "A"]), 0)
    kit.set_player(st, 0, rifles=1)
    kit.reveal(st, hunting=[])
    st.hu_deck.remove("hunt_polar_bear_1")
    st.hu_deck.insert(0, "hunt_polar_bear_1")
    st._legal = None
    st.apply(Action("track", space="hunt"))
    legal = st.legal_actions()
    assert Action("pass") in legal and not any(a.space == "hunt" for a in legal)
    assert Action("track", space="hunt") not in legal, "no second look at a known card"


def test_a_look_whose_take_became_impossible_binds_kellett_no_more() -> None:
    """Found by `erebus bench` with every module: Kellett looked, then opened food cans
    (a free action of Walking on Ice) until his scientist went to the infirmary, and
    was left with no legal action at all.  The binding lapses instead (L12)."""
    st = kellett()
    st.apply(Action("track", space="discover"))
    assert {a.space for a in st.legal_actions()} == {"discover"}
    busy(st, 0, (0, 0, 1, 0, 0))  # the scientist is no longer free
    legal = st.legal_actions()
    assert legal, "never a position without a legal action"
    assert Action("pass") in legal and not any(a.space == "discover" for a in legal)


def test_orca_sighting_keeps_a_walrus_top_card_out_of_kellett_hunt() -> None:
    st = action_turn(legends(2, 3, explorers=[KELLETT, "A"]), 0)
    kit.set_player(st, 0, rifles=3)
    kit.reveal(st, hunting=["hunt_arctic_hare_1"])
    st.hu_deck.remove("hunt_walrus_1")
    st.hu_deck.insert(0, "hunt_walrus_1")
    st.round_mods = ("no_walrus",)
    st._legal = None
    st.apply(Action("track", space="hunt"))
    assert {a.card for a in st.legal_actions()} == {"hunt_arctic_hare_1"}


def test_kellett_look_round_trips_and_refuses_other_actions() -> None:
    st = kellett()
    st.apply(Action("track", space="discover"))
    st = roundtrip(st)
    refused(st, Action("pass"))
    refused(st, Action("track", space="discover"))
    refused(st, {"type": "take", "space": "ice_fishing", "crew": {"sailors": 1}})
    refused(
        st,
        {
            "type": "take",
            "space": "discover",
            "crew": {"scientist": 1, "sailors": 1},
            "card": "narwhal_2",
        },
    )


def test_the_looked_at_card_is_hidden_from_the_other_seat_and_its_bots() -> None:
    st = kellett()
    st.apply(Action("track", space="discover"))
    # Kellett's own determinizations keep the card on top
    mine = State.from_view(st.view(0), seed=11)
    assert mine.sp_deck[0] == "polar_bear_1"
    assert mine.legal_actions() == st.legal_actions()
    again = st.clone()
    again.resample_hidden(99, seat=0)
    assert again.sp_deck[0] == "polar_bear_1"
    # the other seat sees that he looks, never which card
    view = st.view(1)
    assert view["ex_peek"][0] == ["species", None, "discover"]
    assert "polar_bear_1" not in json.dumps(view["ex_peek"])
    assert view["pools"]["sp_deck"] == sorted(st.sp_deck)
    tops = set()
    for seed in range(8):
        theirs = State.from_view(view, seed=seed)
        tops.add(theirs.sp_deck[0])
        assert legends_explorers.looked_card(theirs, 0, "species") == theirs.sp_deck[0]
        other = st.clone()
        other.resample_hidden(seed, seat=1)
        assert other.view(1) == view
    assert len(tops) > 1, "the other seat's worlds vary the top card"


def test_the_look_reshuffles_an_empty_species_deck() -> None:
    st = kellett()
    st.sp_disc = st.sp_deck
    st.sp_deck = []
    st._legal = None
    st.apply(Action("track", space="discover"))
    assert st.sp_deck and legends_explorers.looked_card(st, 0, "species") == st.sp_deck[0]


# ---------------------------------------------------------------- G Collinson


def at_mapping(explorer: str, region_anchor: str = "philpots_island", **opts: Any) -> State:
    st = legends(2, 1, explorers=[explorer, "B"], **opts)
    st.leader = 0
    kit.set_fleet(st, region_anchor)
    st.voyage = "coastal"
    st.decisions, st.phase, st.step = [], "flow", "mapevent"
    return st


@pytest.mark.parametrize(("explorer", "pp"), [(COLLINSON, 3), ("A", 1)])
def test_collinson_scores_3_pp_for_charting(explorer: str, pp: int) -> None:
    st = at_mapping(explorer)
    ev: list[Any] = []
    st._run(ev)
    assert any(isinstance(e, RegionMapped) and e.region == "devon" for e in ev)
    mapped = [e for e in ev if getattr(e, "reason", "") == "mapping"]
    assert [(e.seat, e.delta) for e in mapped] == [(0, pp)]


def collinson_turn(**opts: Any) -> State:
    st = legends(2, 1, explorers=[COLLINSON, "A"], **opts)
    return action_turn(st, 0)


def test_collinson_charts_a_region_a_route_leads_to_for_fuel() -> None:
    st = collinson_turn()
    targets = {a.to for a in st.legal_actions() if a.kind == "chart"}
    routes = st.destinations()
    assert targets == {st.region_of(to) for to, _ in routes} - set(st.mapped)
    fuel, pp, tokens = st.p(0, FUEL), st.scores()[0], st.carto_tokens
    events = st.apply(Action("chart", to="devon"))
    assert "devon" in st.mapped and st.carto_tokens == tokens - 1
    assert st.p(0, FUEL) == fuel - 1 and st.scores()[0] == pp + 1
    assert any(isinstance(e, RegionMapped) for e in events)
    assert st.current_player == 0 and st.pv[F * 0 + TURNS] == 0, "no turn used"
    assert Action("chart", to="devon") not in st.legal_actions()


def test_collinson_special_mapping_scores_3_with_the_reading_option() -> None:
    st = collinson_turn(collinson_special_pp="mapping")
    pp = st.scores()[0]
    st.apply(Action("chart", to="devon"))
    assert st.scores()[0] == pp + 3


def test_collinson_cannot_chart_without_fuel_or_tokens() -> None:
    st = collinson_turn()
    kit.set_player(st, 0, fuel=0)
    assert not any(a.kind == "chart" for a in st.legal_actions())
    refused(st, Action("chart", to="devon"))
    st = collinson_turn()
    st.carto_tokens = 0
    st._legal = None
    assert not any(a.kind == "chart" for a in st.legal_actions())
    other = action_turn(legends(2, 1, explorers=["A", COLLINSON]), 0)
    assert not any(a.kind == "chart" for a in other.legal_actions())


def test_collinson_charts_with_maintenance_after_abandoning_the_ships() -> None:
    st = collinson_turn(modules=["walking_on_ice"])
    st.abandoned = "voluntary"
    kit.set_player(st, 0, fuel=0, sled=3)
    st.maint[0] = 2
    st._legal = None
    target = next(a for a in st.legal_actions() if a.kind == "chart")
    st.apply(target)
    assert st.maint[0] == 1 and target.to in st.mapped
    assert not any(a.kind == "chart" for a in st.legal_actions()), "maintenance 1 is the floor"


def test_collinson_charts_at_his_destination_choice() -> None:
    st = legends(2, 1, explorers=[COLLINSON, "A"])
    kit.start_round(st, leader=0)
    assert st.pending == "destination" and st.current_player == 0
    charts = [a for a in st.legal_actions() if a.kind == "chart"]
    assert charts
    st.apply(charts[0])
    assert st.pending == "destination" and st.current_player == 0
    roundtrip(st)


# ---------------------------------------------------------------- H Belcher


def belcher_round(uses: int = 0) -> State:
    """Belcher (seat 1) is not the leader (seat 0) at the Destination step."""
    st = legends(2, 1, explorers=["A", BELCHER])
    kit.start_round(st, leader=0)
    st.ex_despot[1] = uses
    assert st.pending == "destination"
    return st


def test_belcher_forces_another_route_and_chooses_the_voyage_type() -> None:
    st = belcher_round()
    first = st.legal_actions()[0]
    st.apply(first)
    assert st.pending == "despot" and st.current_player == 1
    assert st.dest is None, "the route is not set yet"
    wire = SPEC.wire_view(st, 1)["decision"]
    assert wire["to"] == first.to and wire["leader"] == 0
    st = roundtrip(st)
    events = st.apply(Action("despot", use=True))
    assert [e for e in events if isinstance(e, RouteForced)]
    assert st.pending == "destination" and st.current_player == 0
    assert first not in st.legal_actions()
    refused(st, first)
    st.apply(st.legal_actions()[0])
    while st.pending == "section":
        st.apply(st.legal_actions()[0])
    assert st.dest != first.to and st.ex_despot[1] == 1
    assert st.pending == "voyage" and st.current_player == 1, "Belcher chooses the voyage type"
    refused(st, Action("despot", use=True))
    events = st.apply(st.legal_actions()[0])
    assert [e.seat for e in events if isinstance(e, VoyageChosen)] == [1]
    assert st.ex_voyager is None


def test_belcher_may_let_the_leaders_route_stand() -> None:
    st = belcher_round()
    first = st.legal_actions()[0]
    st.apply(first)
    st.apply(Action("despot", use=False))
    assert st.dest == first.to and st.ex_despot[1] == 0
    while st.pending == "section":
        st.apply(st.legal_actions()[0])
    assert st.pending == "voyage" and st.current_player == 0


def test_belcher_forces_only_onto_a_route_the_table_can_pay(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The other route needs 1 extra dynamite: not valid while the table holds 1."""
    routes = [("cape_liverpool", 0), ("philpots_island", 1)]
    for held, asked in ((1, False), (2, True)):
        st = belcher_round()
        monkeypatch.setattr(type(st), "destinations", lambda self: routes)
        kit.set_player(st, 0, dynamite=held)
        kit.set_player(st, 1, dynamite=0)
        st.apply(Action("destination", to="cape_liverpool"))
        assert (st.pending == "despot") is asked


def test_belcher_forces_twice_per_game_only() -> None:
    st = belcher_round(uses=2)
    st.apply(st.legal_actions()[0])
    assert st.pending != "despot"


def test_belcher_as_leader_or_with_a_single_route_is_not_asked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    st = legends(2, 1, explorers=["A", BELCHER])
    kit.start_round(st, leader=1)
    st.apply(st.legal_actions()[0])
    assert st.pending != "despot"
    st = belcher_round()
    only = st.destinations()[0]
    monkeypatch.setattr(type(st), "destinations", lambda self: [only])
    st.apply(Action("destination", to=only[0]))
    assert st.pending != "despot"


# ---------------------------------------------------------------- whole games


@pytest.mark.parametrize(
    ("explorers", "opts"),
    [
        ([ROSS, KELLETT], {}),
        ([COLLINSON, BELCHER, KELLETT], {"modes": ["shelters"]}),
        ([BELCHER, COLLINSON, ROSS, KELLETT], {"collinson_special_pp": "mapping"}),
        ([KELLETT, COLLINSON, BELCHER], {"extra": ["walking_on_ice"]}),
        ([ROSS, KELLETT, COLLINSON, BELCHER], {"extra": ["inuit_myths"], "upgrades": "all"}),
    ],
    ids=["CD", "GHD-shelters", "HGCD-3pp", "DGH-walking", "CDGH-myths"],
)
def test_seeded_games_with_the_abilities_keep_every_invariant(
    explorers: list[str], opts: dict[str, Any]
) -> None:
    """The module's whole-game checker (test_module_legends_games.py) on these sets."""
    opts = dict(opts)
    modules = ["legendary_expeditions", *opts.pop("extra", [])]
    options = {**opts, "modules": modules, "explorers": explorers}
    for seed in range(2):
        legends_games.run(len(explorers), 500 + seed, options, seed)


@fuzz_settings(examples=15)
@given(
    players=hs.integers(2, 4),
    extra=hs.sampled_from(((), ("inuit_myths",), ("walking_on_ice",))),
    special=hs.sampled_from(("special", "mapping")),
    seed=hs.integers(0, 2**32),
    policy=hs.integers(0, 2**16),
)
def test_random_games_with_the_abilities_keep_every_invariant(
    players: int, extra: tuple[str, ...], special: str, seed: int, policy: int
) -> None:
    letters = [ROSS, KELLETT, COLLINSON, BELCHER]
    random.Random(seed).shuffle(letters)
    options = {
        "modules": ["legendary_expeditions", *extra],
        "explorers": letters[:players],
        "collinson_special_pp": special,
    }
    legends_games.run(players, seed, options, policy)


def test_random_games_use_every_ability() -> None:
    seen: set[str] = set()
    for seed in range(6):
        st = legends(4, seed, explorers=[ROSS, KELLETT, COLLINSON, BELCHER])
        rnd = random.Random(seed)
        while not st.is_over:
            a = rnd.choice(st.legal_actions())
            if a.kind in ("track", "chart", "despot"):
                seen.add(a.kind)
            if a.proxy == "inuit":
                seen.add("apprentice")
            st.apply(a)
    assert seen == {"track", "chart", "despot", "apprentice"}


@pytest.mark.parametrize("shift", [0, 1])
def test_every_bot_plays_whole_games_with_the_abilities(shift: int) -> None:
    names = ["mcts", "greedy", "random", "greedy"]
    names = names[shift:] + names[:shift]
    st = legends(4, 7 + shift, explorers=[KELLETT, BELCHER, COLLINSON, ROSS])
    play_legal(st, [make_bot(names[i], seed=i, iterations=8) for i in range(4)])


def test_bots_do_not_see_the_card_kellett_knows() -> None:
    """Seat 1 decides while Kellett knows the species deck's top card: dealing the
    hidden cards anew (the top card included) changes no bot's choice."""
    st = kellett()
    st.apply(Action("track", space="discover"))
    st.apply(next(a for a in st.legal_actions() if a.card == "arctic_fox_1"))
    assert st.current_player == 1 and legends_explorers.looked_card(st, 0, "species")
    other = st.clone()
    other.resample_hidden(987654321, seat=1)
    assert other.sp_deck[0] != st.sp_deck[0]
    assert st.view(1) == other.view(1)
    for name in ("greedy", "mcts"):
        assert_same_choice(name, st, other)


# ---------------------------------------------------------------- the browser's view


def test_the_wire_view_lists_the_free_actions_and_hides_kellett_card() -> None:
    """Charts and looks are the decision's ``free`` actions (with the options, every
    legal action); the card Kellett looked at is in no other seat's view."""
    seen: set[str] = set()
    for seed in range(3):
        st = legends(4, seed, explorers=[KELLETT, COLLINSON, BELCHER, ROSS])
        rnd = random.Random(seed)
        while not st.is_over:
            seat = st.current_player
            assert seat is not None
            d = SPEC.wire_view(st, seat)["decision"]
            legal = [a.to_json() for a in st.legal_actions()]
            free = [f["action"] for f in d.get("free", [])]
            seen.update(f["kind"] for f in d.get("free", []))
            assert free == [a for a in legal if a["type"] in ("track", "chart", "open_can")]
            if d["kind"] in ("destination", "voyage", "despot"):
                assert [o["action"] for o in d["options"]] + free == legal
            top = legends_explorers.looked_card(st, 0, "species")
            if top is not None:
                for other in (1, 2, 3, None):
                    assert top not in json.dumps(SPEC.wire_view(st, other))
            st.apply(rnd.choice(st.legal_actions()))
    assert {"track", "chart"} <= seen
