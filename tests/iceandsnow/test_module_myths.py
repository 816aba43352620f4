"""Inuit Myths (§9.2; seed l. 1160–1209): the creature token, the creature cards
37–44, the curse cylinders, upgrade 14 Inuit Ritual Room; one test per rule and
per card, whole random games with the module (and each solo scenario) under the
base game's invariants, views and determinizations.

Positions are built with the kit; the rules run through ``apply`` and the flow's
own steps (``_run`` from the Card setup step)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as hs

from erebus.bots import make_bot
from erebus.games import iceandsnow as game
from erebus.games.iceandsnow import encoding, kit, myths
from erebus.games.iceandsnow.actions import Action
from erebus.games.iceandsnow.events import (
    AttritionPenalty,
    CreatureGone,
    CreatureMoved,
    CreatureRevealed,
    CurseChanged,
    InuitHeld,
)
from erebus.games.iceandsnow.layout import INF, PAWNS, F
from erebus.games.iceandsnow.spec import SPEC
from erebus.games.iceandsnow.state import State
from erebus.terminal import iceandsnow_screen as screen
from iceandsnow.rulekit import resolve
from iceandsnow.test_invariants import run_game
from support.bots import assert_same_choice, play_legal
from support.whole_game import fuzz_settings

MYTHS = {"modules": ["inuit_myths"]}
RITUAL_ROOM = 14


def island_anchor(st: State, region: str | None = None) -> str:
    """An anchor of an island region (``region`` if given) on the East section."""
    for a in st.tables.anchors.values():
        r = st.content.regions[a.region]
        if r.island and (region is None or a.region == region):
            return a.id
    raise AssertionError("no island anchor")


def sea_anchor(st: State) -> str:
    return next(a.id for a in st.tables.anchors.values() if not st.content.regions[a.region].island)


def card_setup(st: State, fleet: str) -> list[Any]:
    """Run the flow from the Card setup step with the fleet at ``fleet``."""
    st.fleet = fleet
    st.step, st.phase, st.decisions = "cards", "flow", []
    ev: list[Any] = []
    st._run(ev)
    return ev


def with_card(number: int, players: int = 2, **player: Any) -> State:
    """An Action phase (leader 0) with creature ``number`` just revealed."""
    st = kit.game(players, 3, MYTHS)
    for s in range(players):
        kit.set_player(st, s, **{"health": 6, "morale": 6, "food": 30, **player})
    st.cr_deck.remove(number)
    st.cr_deck.insert(0, number)
    st.leader = 0
    card_setup(st, island_anchor(st))
    assert st.cr_active == [number] and st.pending == "action"
    kit.start_action_phase(st, leader=0)
    return st


def takes(st: State, space: str) -> list[Action]:
    return [a for a in st.legal_actions() if a.kind == "take" and a.space == space]


# ------------------------------------------------------------------ set-up, options


def test_setup_shuffles_the_8_creature_cards_and_nobody_is_cursed() -> None:
    st = game.new_game(3, 5, MYTHS)
    assert sorted(st.cr_deck) == list(range(37, 45)) and st.cr_deck != sorted(st.cr_deck)
    assert st.creature_at is None and st.cr_active == [] and st.curse == [0, 0, 0]
    assert st.player(0)["curse"] is False and st.player(0)["held_inuit"] == 0


def test_without_the_module_nothing_changes() -> None:
    st = game.new_game(2, 5)
    d = st.to_json()
    assert not {"cr_deck", "curse", "creature_at"} & set(d)
    assert "curse" not in st.player(0)
    assert len(st.upg_left) == 12 and not st.upgrade_in_game(RITUAL_ROOM)


def test_ritual_room_only_with_the_module_whatever_the_upgrade_set() -> None:
    st = game.new_game(2, 5, MYTHS)
    assert st.upgrade_in_game(RITUAL_ROOM) and st.upg_left[RITUAL_ROOM] == 2
    assert st.content.upgrades[RITUAL_ROOM].cost == 3


def test_module_options_need_the_module() -> None:
    with pytest.raises(ValueError, match="needs the inuit_myths module"):
        game.new_game(2, 1, {"curse_check": "attrition"})
    st = game.new_game(2, 1, {**MYTHS, "curse_check": "attrition", "creature_officer": "only"})
    assert st.options["curse_check"] == "attrition"
    assert game.new_game(2, 1, MYTHS).options["creature_officer"] == "listed"
    with pytest.raises(ValueError, match="curse_check"):
        game.new_game(2, 1, {**MYTHS, "curse_check": "never"})


@pytest.mark.parametrize("scenario", ["lost-expedition", "magnetic-north-pole"])
def test_playable_with_the_solo_scenarios(scenario: str) -> None:
    st = game.new_game(1, 2, {**MYTHS, "scenario": scenario})
    assert st.options["modules"] == ["inuit_myths"] and len(st.cr_deck) == 8


# ------------------------------------------------------------------ the creature token


def test_st_patrick_example_token_placed_and_one_card_revealed() -> None:
    """The seed's example: arriving on St. Patrick Island, which has no token."""
    st = kit.game(2, 3, MYTHS)
    top = st.cr_deck[0]
    ev = card_setup(st, island_anchor(st, "st_patrick"))
    assert st.creature_at == "st_patrick"
    assert CreatureMoved("st_patrick") in ev
    assert [e.number for e in ev if isinstance(e, CreatureRevealed)] == [top]
    assert st.cr_active == [top] and len(st.cr_deck) == 7


def test_no_card_when_the_token_is_already_on_that_island() -> None:
    st = kit.game(2, 3, MYTHS)
    anchor = island_anchor(st)
    card_setup(st, anchor)
    n = len(st.cr_deck)
    ev = card_setup(st, anchor)
    assert not any(isinstance(e, CreatureRevealed | CreatureMoved) for e in ev)
    assert len(st.cr_deck) == n


def test_no_card_when_the_fleet_is_not_in_an_island_region() -> None:
    st = kit.game(2, 3, MYTHS)
    ev = card_setup(st, sea_anchor(st))
    assert st.creature_at is None and len(st.cr_deck) == 8
    assert not any(isinstance(e, CreatureRevealed) for e in ev)


def test_a_spent_deck_reveals_nothing_but_the_token_still_moves() -> None:
    """Decision M5: the 8 cards are not reshuffled."""
    st = kit.game(2, 3, MYTHS)
    st.cr_box, st.cr_deck = st.cr_deck, []
    ev = card_setup(st, island_anchor(st))
    assert st.creature_at is not None and st.cr_active == []
    assert not any(isinstance(e, CreatureRevealed) for e in ev)


def test_round_cards_go_back_to_the_box_at_cleanup() -> None:
    st = with_card(39)
    ev: list[Any] = []
    st._step_cleanup(ev)
    assert st.cr_active == [] and st.cr_box == [39]
    assert CreatureGone(39, "Sedna") in ev


# --------------------------------------------------------------------- 37 Ijiraq


def test_37_ijiraq_holds_every_inuk_who_is_not_fed_and_cannot_act() -> None:
    st = kit.game(2, 3, MYTHS)
    kit.set_player(st, 0, inuit=2)
    st.pv[F * 0 + PAWNS] = 2
    st.pv[F * 0 + INF + 4] = 1  # one of them in the infirmary: it goes too
    fed = st.fed_count(0)
    st.cr_deck.remove(37)
    st.cr_deck.insert(0, 37)
    ev = card_setup(st, island_anchor(st))
    assert InuitHeld(0, 2, True) in ev
    assert st.held_inuit == [2, 0] and st.p(0, PAWNS) == 0 and st.p(0, INF + 4) == 0
    assert st.avail_crew(0)[4] == 0
    assert st.fed_count(0) == fed - 2


def test_37_an_inuk_received_while_it_is_in_play_goes_on_the_card() -> None:
    st = with_card(37)
    ev: list[Any] = []
    st._hire(1, 1, "test", ev, at_once=True)
    assert st.held_inuit[1] == 1 and st.p(1, PAWNS) == 0
    # hired in the Action phase: joins at Boarding, onto the card
    hire = takes(st, "hire_inuk")[0]
    st.apply(hire)
    st._step_board([])
    assert st.held_inuit[0] == 1


def test_37_build_an_inukshuk_returns_crew_and_every_held_inuk_to_the_infirmaries() -> None:
    st = kit.game(2, 3, MYTHS)
    for s in range(2):
        kit.set_player(st, s, health=6, morale=6, food=30)
    st.pv[F * 1 + PAWNS] = 1
    kit.set_player(st, 1, inuit=1)
    st.cr_deck.remove(37)
    st.cr_deck.insert(0, 37)
    card_setup(st, island_anchor(st))
    kit.start_action_phase(st, leader=0)
    builds = takes(st, myths.CREATURE_SPACE)
    assert builds and all(sum(a.crew or ()) == 2 and a.card == "37" for a in builds)
    a = builds[0]
    ev = st.apply(a)
    assert st.cr_active == [] and st.cr_box == [37] and st.held_inuit == [0, 0]
    assert st.p(1, PAWNS) == 1 and st.p(1, INF + 4) == 1  # back, in the infirmary
    assert [st.p(0, INF + i) for i in range(5)] == list(a.crew or ())  # the 2 crew too
    assert InuitHeld(1, 1, False) in ev
    assert takes(st, myths.CREATURE_SPACE) == []


# ----------------------------------------------------------------- 38 Chūripaku


def test_38_every_player_takes_a_curse_one_space_right_of_health() -> None:
    st = with_card(38, health=5)
    assert st.curse == [1, 1]
    assert myths.curse_space(st, 0) == 4  # decision M3: "right" = 1 lower
    st._gain(0, "health", 1, "test", [])
    assert myths.curse_space(st, 0) == 5  # the cylinders move together


def test_38_the_curse_triggers_scurvy_where_health_would_not() -> None:
    st = with_card(38, health=4)
    kit.set_player(st, 0, health=4)
    ev: list[Any] = []
    st._lower(0, "health", 1, "attrition", ev, effect=True)  # health 3, curse 2: scurvy
    assert AttritionPenalty(0, "scurvy (curse)") in ev
    assert st.pending == "infirmary" or sum(st.pv[F * 0 + INF : F * 0 + INF + 5]) == 2


def test_38_the_curse_triggers_death() -> None:
    st = with_card(38)
    kit.set_player(st, 0, health=2, sailors=3)
    pp = st.scores()[0]
    ev: list[Any] = []
    st._lower(0, "health", 1, "attrition", ev, effect=True)  # health 1, curse 0: death
    assert AttritionPenalty(0, "death (curse)") in ev
    assert st.scores()[0] == pp + int(st.rules["death_pp"])
    assert st.p(0, 2) == 2 and st.owned_crew(0)[3] == 2  # both cylinders up 1, a sailor lost


def test_38_with_curse_check_attrition_an_event_drop_does_not_trigger_it() -> None:
    st = kit.game(2, 3, {**MYTHS, "curse_check": "attrition"})
    st.curse = [1, 1]
    kit.set_player(st, 0, health=4)
    ev: list[Any] = []
    st._lower(0, "health", 1, "Damaged Food Cans", ev, effect=True)
    assert not any(isinstance(e, AttritionPenalty) for e in ev)
    st._lower(0, "health", 0, "attrition", ev, effect=True)
    assert AttritionPenalty(0, "scurvy (curse)") in ev


def test_38_visit_the_shaman_lifts_your_curse_once_card_leaves_when_all_did() -> None:
    st = with_card(38)
    visits = takes(st, myths.CREATURE_SPACE)
    assert visits and all(sum(a.crew or ()) == 1 for a in visits)
    ev = st.apply(visits[0])
    assert st.curse == [0, 1] and st.cr_active == [38]
    assert CurseChanged(0, False) in ev and st.player(0)["curse"] is False
    assert takes(st, myths.CREATURE_SPACE) != []  # seat 1 to act
    st.apply(takes(st, myths.CREATURE_SPACE)[0])
    assert st.curse == [0, 0] and st.cr_active == [] and st.cr_box == [38]


def test_38_the_card_stays_across_rounds_until_everyone_visited() -> None:
    st = with_card(38)
    st._step_cleanup([])
    assert st.cr_active == [38]


# --------------------------------------------------------------- 39–44 requirements


def test_39_sedna_carpenter_actions_need_one_more_crew_not_counted() -> None:
    st = with_card(39, wood=3, sailors=3, dogs=2)
    cabins = takes(st, "build_cabin")
    assert cabins and all(sum(a.crew or ()) == 3 and (a.crew or ())[1] for a in cabins)
    recycle = [a for a in takes(st, "recycle_wood") if sum(a.crew or ()) == 2]
    assert recycle and all(sum(a.crew or ()) >= 2 for a in takes(st, "recycle_wood"))
    wood = st.p(0, 9)
    st.apply(recycle[0])
    assert st.p(0, 9) == wood + 1  # 2 crew, the extra one does not count
    # the captain's actions are untouched
    assert any(sum(a.crew or ()) == 2 for a in takes(st, "explore"))


def test_39_creature_officer_only_spares_spaces_an_inuk_can_take() -> None:
    st = kit.game(2, 3, {**MYTHS, "creature_officer": "only"})
    for s in range(2):
        kit.set_player(st, s, health=6, morale=6, food=30, wood=3)
    st.cr_deck.remove(39)
    st.cr_deck.insert(0, 39)
    card_setup(st, island_anchor(st))
    kit.start_action_phase(st, leader=0)
    assert all(sum(a.crew or ()) == 2 for a in takes(st, "improve_sled"))
    assert all(sum(a.crew or ()) == 3 for a in takes(st, "build_cabin"))


def test_40_tuniit_captain_actions_pay_a_dynamite_or_own_5_rifles() -> None:
    st = with_card(40, dynamite=1, rifles=0, dogs=2)
    st.apply(takes(st, "explore")[0])
    assert st.p(0, 8) == 0  # paid the dynamite
    st = with_card(40, dynamite=0, rifles=4, dogs=2)
    assert takes(st, "explore") == [] and takes(st, "hire_inuk") == []
    assert takes(st, "discover") or takes(st, "build_cabin") or takes(st, "recycle_wood")
    st = with_card(40, dynamite=0, rifles=5, dogs=2)
    st.apply(takes(st, "explore")[0])
    assert (st.p(0, 8), st.p(0, 10)) == (0, 5)  # owning the rifles is enough


def test_41_amarok_captain_actions_lower_food_by_4() -> None:
    st = with_card(41, food=10, dogs=2)
    st.apply(takes(st, "explore")[0])
    assert st.p(0, 1) == 6
    st = with_card(41, food=3, dogs=2)
    assert takes(st, "explore") == [] and takes(st, "hire_inuk") == []
    assert takes(st, "recycle_wood")


def test_42_mahaha_scientist_actions_pay_1_more_resource() -> None:
    st = with_card(42, dynamite=0, wood=1, rifles=0, dogs=0)
    # Experiment needs its 1 wood: nothing left to pay, so it is not legal
    assert takes(st, "experiment") == []
    kit.set_player(st, 0, wood=2)
    st._legal = None
    ex = takes(st, "experiment")
    assert ex
    st.apply(ex[0])
    resolve(st)
    assert st.p(0, 9) == 0  # 1 for the experiment, 1 for Mahaha


def test_43_inupasugjuk_scientist_actions_cost_1_health_no_scurvy_but_death() -> None:
    st = with_card(43, health=3)
    lab = takes(st, "discover") or takes(st, "experiment") or takes(st, "hunt")
    assert lab
    ev = st.apply(lab[0])
    assert st.p(0, 2) == 2 and not any(isinstance(e, AttritionPenalty) for e in ev)
    st = with_card(43, health=1, sailors=3, wood=2)
    ex = takes(st, "experiment")
    assert ex
    pp = st.scores()[0]
    ev = st.apply(ex[0])
    assert AttritionPenalty(0, "death") in ev and st.p(0, 2) == 1
    assert st.scores()[0] == pp + int(st.rules["death_pp"])


def test_44_taqriaqsuit_1_or_2_crew_lower_morale_no_mutiny_but_death() -> None:
    st = with_card(44, morale=3, dogs=2, sailors=3)
    three = [a for a in takes(st, "explore") if sum(a.crew or ()) == 3]
    st.apply(three[0])
    assert st.p(0, 3) == 3 + int(st.rules["explore_morale"])
    st = with_card(44, morale=3, dogs=2, sailors=3)
    two = [a for a in takes(st, "explore") if sum(a.crew or ()) == 2]
    ev = st.apply(two[0])
    assert st.p(0, 3) == 3 - 1 + int(st.rules["explore_morale"])
    assert not any(isinstance(e, AttritionPenalty) for e in ev)  # 2 is a Mutiny space


def test_44_mutiny_space_not_applied_death_space_applied() -> None:
    st = with_card(44)
    ev: list[Any] = []
    kit.set_player(st, 0, morale=3)
    myths.lower_death_only(st, 0, "morale", 1, "creature", ev)
    assert st.p(0, 3) == 2 and not ev[1:]
    myths.lower_death_only(st, 0, "morale", 2, "creature", ev)
    assert AttritionPenalty(0, "death") in ev and st.p(0, 3) == 1


def test_38_the_treatment_room_cancels_the_curse_scurvy() -> None:
    st = with_card(38)
    kit.set_player(st, 0, health=4, upgrades=[3])
    ev: list[Any] = []
    st._lower(0, "health", 1, "attrition", ev, effect=True)
    assert AttritionPenalty(0, "scurvy (curse; cancelled by the Treatment Room)") in ev
    assert st.pending == "action"


def test_38_a_health_death_is_not_doubled_by_the_curse() -> None:
    st = with_card(38)
    kit.set_player(st, 0, health=1, sailors=3)
    ev: list[Any] = []
    st._lower(0, "health", 1, "attrition", ev, effect=True)  # health 0: Death, both up
    assert [e.penalty for e in ev if isinstance(e, AttritionPenalty)] == ["death"]


def test_39_sedna_collect_counts_only_the_crew_the_action_needs() -> None:
    st = with_card(39, wood=2, sailors=3)
    st.boxes[4 * st.tables.columns.index("carpenter") + 1] = 3  # 3 wood in the box
    collects = takes(st, "collect_carpenter")
    assert collects
    for a in collects:
        assert a.take is not None and a.crew is not None
        assert sum(a.take) == min(3, sum(a.crew) - 1) and sum(a.crew) >= 2


def test_39_sedna_vow_of_silence_takes_the_officer_plus_one_or_any_three() -> None:
    st = with_card(39, sailors=3)
    st.final_round = True
    vows = takes(st, "vow_carpenter")
    assert vows
    for a in vows:
        crew = a.crew or ()
        assert (sum(crew) == 2 and crew[1]) or sum(crew) == 3


def test_42_mahaha_asks_which_resource_when_several_are_left() -> None:
    st = with_card(42, dynamite=1, wood=2, rifles=1, dogs=0)
    st.apply(takes(st, "experiment")[0])
    assert st.pending == "discard" and st.current_player == 0
    st.apply(Action("discard", resource="rifles"))
    assert (st.p(0, 9), st.p(0, 10)) == (1, 0)


def test_41_amarok_food_needs_room_for_a_cabin_too() -> None:
    """Build a Cabin is a carpenter action: Amarok (captain) leaves it alone."""
    st = with_card(41, food=3, wood=2)
    assert takes(st, "build_cabin")


def test_37_a_held_inuk_cannot_build_a_shelter() -> None:
    st = kit.game(2, 3, {**MYTHS, "modes": ["shelters"]})
    for s in range(2):
        kit.set_player(st, s, health=6, morale=6, food=30)
    st.pv[F * 0 + PAWNS] = 1
    kit.set_player(st, 0, inuit=1)
    st.cr_deck.remove(37)
    st.cr_deck.insert(0, 37)
    card_setup(st, island_anchor(st))
    kit.start_action_phase(st, leader=0)
    assert takes(st, "build_shelter") == []


def test_14_ritual_room_wards_39_to_43_not_44() -> None:
    for num in (39, 40, 41, 42, 43):
        st = with_card(num)
        kit.set_player(st, 0, upgrades=[RITUAL_ROOM])
        assert myths.extras(st, 0) == () and myths.extras(st, 1) != ()
    st = with_card(44)
    kit.set_player(st, 0, upgrades=[RITUAL_ROOM])
    assert myths.extras(st, 0) != ()


def test_14_ritual_room_is_built_with_upgrade_the_ship() -> None:
    st = kit.game(2, 3, MYTHS)
    kit.set_player(st, 0, wood=3)
    kit.start_action_phase(st, leader=0)
    ups = [a for a in takes(st, "upgrade_ship") if a.tile == RITUAL_ROOM]
    assert ups
    st.apply(ups[0])
    assert RITUAL_ROOM in st.upgrades[0] and st.upg_left[RITUAL_ROOM] == 1


# ------------------------------------------------------ hidden info, wire, encoding


def test_the_creature_deck_order_is_hidden_and_determinized() -> None:
    st = game.new_game(2, 9, MYTHS)
    v = st.view(0)
    assert v["cr_deck"] == 8 and v["pools"]["cr_deck"] == list(range(37, 45))
    world = game.determinize(json.loads(json.dumps(v)), 77)
    assert sorted(world.cr_deck) == list(range(37, 45)) and world.view(0) == v
    worlds = set()
    for seed in range(6):
        w = world.clone()
        w.resample_hidden(seed, 0)
        worlds.add(tuple(w.cr_deck))
    assert len(worlds) > 1


def test_a_revealed_creature_is_an_undo_barrier() -> None:
    """The server does not let a player take back a move that revealed a creature."""
    assert SPEC.reveals_hidden(CreatureRevealed(37, "Ijiraq"))
    assert not SPEC.reveals_hidden(CreatureMoved("devon"))


def test_json_round_trip_keeps_the_module_state() -> None:
    st = with_card(38)
    st.held_inuit = [1, 0]
    back = State.from_json(json.loads(json.dumps(st.to_json())))
    assert back == st and back.curse == [1, 1] and back.cr_active == [38]
    bad = st.to_json()
    bad["cr_active"] = [99]
    with pytest.raises(ValueError):
        State.from_json(bad)


def test_encoding_shows_creatures_and_curses() -> None:
    st = with_card(38)
    enc = encoding.encoder(st.content)
    obs = enc.encode(st, 0)
    o, k = enc.layout["myths"]
    block = obs[o : o + k]
    assert block[enc.creatures.index(38)] == 1
    assert block[-2 * encoding.MAX_SEATS] == 1  # seat 0 cursed
    base = enc.encode(game.new_game(2, 1), 0)
    assert not base[o : o + k].any()


def test_terminal_shows_the_creature_and_the_curse() -> None:
    st = with_card(38)
    text = screen.render_text(st, 0)
    assert "Creatures: token on" in text and "Chūripaku" in text
    assert "curse" in text and "cylinder at health" in text
    a = takes(st, myths.CREATURE_SPACE)[0]
    assert "Visit the Shaman" in screen.describe(st, a)


# ------------------------------------------------------------------ bots


@pytest.mark.parametrize(
    ("players", "options"),
    [(3, MYTHS), (1, {**MYTHS, "scenario": "lost-expedition"})],
    ids=["3p", "le"],
)
def test_every_bot_plays_whole_games_with_the_module(players: int, options: dict[str, Any]) -> None:
    names = ["mcts", "greedy", "random"]
    state = game.new_game(players, seed=players, options=options)
    play_legal(state, [make_bot(names[i], seed=i, iterations=8) for i in range(players)])


def test_bots_do_not_see_the_creature_deck_order() -> None:
    """The creature deck resampled (with the other hidden cards): same choice."""
    state = with_card(38)
    seat = state.current_player
    other = state.clone()
    other.resample_hidden(987654321, seat=seat)
    assert other.cr_deck != state.cr_deck and sorted(other.cr_deck) == sorted(state.cr_deck)
    assert state.view(seat) == other.view(seat)
    for name in ("greedy", "mcts"):
        assert_same_choice(name, state, other)


# ------------------------------------------------------------------ whole games


@pytest.mark.parametrize(
    ("players", "options"),
    [
        (2, MYTHS),
        (3, {**MYTHS, "modes": ["survival"], "upgrades": "all"}),
        (4, {**MYTHS, "curse_check": "attrition", "creature_officer": "only"}),
        (1, {**MYTHS, "scenario": "lost-expedition"}),
        (1, {**MYTHS, "scenario": "magnetic-north-pole"}),
    ],
    ids=["2p", "3p-surv", "4p-readings", "le", "mnp"],
)
def test_seeded_games_with_the_module_keep_every_invariant(
    players: int, options: dict[str, Any]
) -> None:
    for seed in range(2):
        run_game(players, 300 + seed, options, seed, view_every=2)


@fuzz_settings(examples=30)
@given(
    players=hs.integers(1, 4),
    scenario=hs.sampled_from(["lost-expedition", "magnetic-north-pole"]),
    seed=hs.integers(0, 2**32),
    policy=hs.integers(0, 2**16),
)
def test_random_games_with_the_module_keep_every_invariant(
    players: int, scenario: str, seed: int, policy: int
) -> None:
    opts: dict[str, Any] = dict(MYTHS)
    if players == 1:
        opts["scenario"] = scenario
    run_game(players, seed, opts, policy, view_every=4)


def test_random_games_meet_the_creatures() -> None:
    """The whole-game tests really reach the module's rules."""
    seen: set[str] = set()
    for seed in range(10):
        st = game.new_game(2 + seed % 3, seed, MYTHS)
        rnd = random.Random(seed)
        while not st.is_over:
            legal = st.legal_actions()
            a = rnd.choice(legal)
            if a.space == myths.CREATURE_SPACE:
                seen.add(f"take {a.card}")
            for e in st.apply(a):
                if isinstance(e, CreatureRevealed):
                    seen.add(str(e.number))
    assert {"take 38"} <= seen and len({s for s in seen if s.isdigit()}) >= 6
