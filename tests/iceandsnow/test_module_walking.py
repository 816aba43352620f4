"""Walking on Ice (reference §9.1; seed 001 l. 933–1129): one test per rule.

Abandoning the ships (when, voluntary or forced, the procedure and its worked
example), the sled board (maintenance, its food cap and cargo, towing a sled),
food cans, guilt, the Crossing phase, the action tiles, the final-round tile,
the game-end changes and the route types of the module's map.  The walking
event cards and upgrades 12–13 are in ``test_module_walking_cards.py``.
"""

from __future__ import annotations

import pytest

from erebus.core.errors import IllegalAction
from erebus.games.iceandsnow import kit, scoring, walking_rules
from erebus.games.iceandsnow.actions import Action
from erebus.games.iceandsnow.events import (
    DynamitePlaced,
    EventRevealed,
    RegionMapped,
    ShipsAbandoned,
    Towing,
    TrackChanged,
)
from erebus.games.iceandsnow.layout import CANS, DYN, FOOD, FUEL, HEALTH, RIFLES, TOW, F
from erebus.games.iceandsnow.state import new_game
from erebus.games.iceandsnow.walking import WalkingState
from iceandsnow.walkkit import (
    NO,
    WALK,
    YES,
    abandoned,
    action_phase,
    at_leader_check,
    cans,
    crossing,
    next_walk,
    settle,
    takes,
    walking,
)

# -- the module and its map ------------------------------------------------------------


def test_the_module_is_refused_with_a_solo_scenario() -> None:
    with pytest.raises(ValueError, match="walking_on_ice"):
        new_game(1, 1, {**WALK, "scenario": "lost-expedition"})


def test_a_walking_game_plays_the_modules_two_sections() -> None:
    st = walking()
    assert isinstance(st, WalkingState)
    names = [s.name for s in st.content.sections]
    assert names == [
        "East",
        "Central East",
        "Central West (Walking on Ice)",
        "West (Walking on Ice)",
    ]
    base = kit.game(2, 1)
    assert not isinstance(base, WalkingState)
    assert "Walking on Ice" not in " ".join(s.name for s in base.content.sections)
    assert "walk_deck" not in base.to_json() and "walk_deck" in st.to_json()


def test_walking_routes_open_only_after_abandoning() -> None:
    st = walking()
    at_leader_check(st, "victory_point")
    st.apply(NO)
    dests = {a.to for a in st.legal_actions()}
    assert "erebus_bay" not in dests and "cambridge_bay" in dests
    st = abandoned(anchor="victory_point")
    assert {"erebus_bay", "cambridge_bay"} <= {a.to for a in st.legal_actions()}


def test_broken_ice_route_lowers_every_fuel_by_one_more() -> None:
    st = walking()
    at_leader_check(st, "bellot_strait")  # Central West side A placed
    ev = crossing(st, "gjoa_haven", "open")  # a broken-ice route
    assert [st.p(s, FUEL) for s in range(2)] == [4, 4]  # 6 - 1 (open sea) - 1
    assert any(isinstance(e, TrackChanged) and e.track == "fuel" for e in ev)


def test_ice_route_needs_one_more_dynamite_and_fuel() -> None:
    st = walking()
    kit.set_player(st, 0, dynamite=3)
    at_leader_check(st, "victory_point")
    ev = crossing(st, "cambridge_bay", "open")  # an ice route
    assert sum(e.count for e in ev if isinstance(e, DynamitePlaced)) == 2
    assert [st.p(s, FUEL) for s in range(2)] == [4, 4]


def test_after_abandoning_route_fuel_is_ignored_and_ice_dynamite_kept() -> None:
    st = abandoned(anchor="victory_point", dynamite=3)
    ev = crossing(st, "cambridge_bay", "walk")
    assert sum(e.count for e in ev if isinstance(e, DynamitePlaced)) == 2
    assert [st.p(s, FUEL) for s in range(2)] == [0, 0]


# -- abandoning the ships ------------------------------------------------------------------


def test_no_abandoning_before_central_west_is_placed() -> None:
    st = walking()
    at_leader_check(st, "port_leopold")  # Central East
    assert st.pending == "destination"


def test_the_leader_decides_at_the_end_of_the_leader_check() -> None:
    st = walking()
    at_leader_check(st, "peel_sound", leader=1)
    assert st.pending == "abandon" and st.current_player == 1
    assert set(st.legal_actions()) == {YES, NO}
    st.apply(NO)
    assert st.pending == "destination" and st.abandoned is None


def test_forced_when_every_players_fuel_is_below_4() -> None:
    st = walking()
    kit.set_player(st, 0, fuel=3)
    kit.set_player(st, 1, fuel=4)
    at_leader_check(st)
    assert st.pending == "abandon"  # one ship still has 4
    st = walking()
    kit.set_player(st, 0, fuel=3)
    kit.set_player(st, 1, fuel=0)
    ev: list[object] = []
    kit.set_fleet(st, "peel_sound")
    st.leader = 0
    st.step, st.phase = "round", "flow"
    st._run(ev)
    assert st.abandoned == "forced"
    assert next(e for e in ev if isinstance(e, ShipsAbandoned)).how == "forced"
    assert st.guilt == [0, 0]  # no guilt for a forced abandonment


def test_voluntary_guilt_counts_every_players_fuel() -> None:
    st = walking(3)
    for s, f in enumerate((9, 5, 2)):
        kit.set_player(st, s, fuel=f)
    at_leader_check(st, leader=0)
    st.apply(YES)
    settle(st)
    assert st.guilt == [3 + 1, 0, 0]  # +3 for fuel 8+, +1 for 4-7, none below 4


def test_no_abandon_decision_once_abandoned() -> None:
    st = abandoned()
    crossing(st, "victory_point")
    settle(st)
    kit.start_round(st, leader=0)
    assert st.pending == "destination"
    assert all(a.kind != "abandon" for a in st.legal_actions())


def test_the_voyage_decks_go_to_the_box_and_the_walking_deck_is_shuffled() -> None:
    st = abandoned()
    assert st.ev_open == [] and st.ev_coastal == []
    assert st.ev_open_disc == [] and st.ev_coastal_disc == []
    assert sorted(st.walk_deck) == list(range(29, 37))
    ev = crossing(st, "victory_point")
    revealed = [e.number for e in ev if isinstance(e, EventRevealed)]
    assert len(revealed) == 1 and 29 <= revealed[0] <= 36


def test_laia_example() -> None:
    """§9.1's example: sled 3, food 35, fuel 3, 2 tiles, 10 resources + 3 wood + 5 cans."""
    st = walking()
    kit.set_player(st, 0, sled=3, food=35, fuel=3, dynamite=4, wood=2, rifles=4, dogs=5)
    kit.set_player(st, 0, upgrades=[2, 6])
    kit.set_player(st, 1, fuel=9)
    at_leader_check(st, leader=1)
    st.apply(YES)
    p = st.player(0)
    assert (p["maintenance"], p["food"], p["fuel"], p["wood"], p["cans"]) == (3, 28, 0, 5, 5)
    assert p["cargo"] == 18 and p["cargo_cap"] == 10 and p["upgrades"] == [2, 6]
    assert p["guilt"] == 0 and p["dogs"] == 5  # dogs are no cargo
    keep = {"dynamite": 2, "wood": 3, "rifles": 2, "cans": 3}
    while st.pending == "cargo" and st.current_player == 1:  # the leader goes first
        st.apply(st.legal_actions()[0])
    while st.pending == "cargo" and st.current_player == 0:
        r = next(k for k in keep if st.player(0)[k] > keep[k])
        st.apply(Action("discard", resource=r))
    p = st.player(0)
    assert {k: p[k] for k in keep} == keep and p["cargo"] == 10


def test_four_upgrade_tiles_drop_one_to_the_box_without_bonuses() -> None:
    st = walking()
    kit.set_player(st, 0, upgrades=[1, 2, 3, 4], morale=6, wood=0, dynamite=1, rifles=0)
    left = st.upg_left[:]
    at_leader_check(st)
    st.apply(YES)
    assert st.pending == "drop_upgrade" and st.current_player == 0
    assert {a.tile for a in st.legal_actions()} == {1, 2, 3, 4}
    morale = st.player(0)["morale"]
    st.apply(Action("drop_upgrade", tile=3))
    assert st.upgrades[0] == [1, 2, 4] and st.upg_left == left
    assert st.player(0)["morale"] == morale


def test_the_sled_board_holds_three_upgrades() -> None:
    st = abandoned()
    kit.set_player(st, 0, upgrades=[1, 2, 3], wood=5)
    action_phase(st)
    assert takes(st, "upgrade_ship") == []
    kit.set_player(st, 0, upgrades=[1, 2])
    assert takes(st, "upgrade_ship")


def test_maintenance_starts_at_the_sled_level() -> None:
    st = abandoned(sled=2)
    assert st.maint == [2, 2]


# -- maintenance ---------------------------------------------------------------------------


def test_maintenance_example_lower_to_1() -> None:
    """§9.1: lowering maintenance to 1 cuts food to 20 and cargo from 8 to 6 resources,
    the player choosing the 2 discarded."""
    st = abandoned(sled=2)
    kit.set_player(st, 0, food=24, dynamite=4, wood=0, rifles=2)
    cans(st, 0, 2)
    assert st.player(0)["cargo"] == 8 and st.maint[0] == 2
    ev: list[object] = []
    walking_rules.lower_maintenance(st, [0], "test", ev)
    st._legal = None
    assert st.maint[0] == 1 and st.p(0, FOOD) == 20
    assert TrackChanged(0, "food", 24, 20, "test") in ev
    assert st.pending == "cargo" and st.current_player == 0
    assert {a.resource for a in st.legal_actions()} == {"dynamite", "rifles", "cans"}
    st.apply(Action("discard", resource="cans"))
    assert st.pending == "cargo"
    st.apply(Action("discard", resource="rifles"))
    assert st.pending != "cargo" and st.player(0)["cargo"] == 6
    assert (st.p(0, DYN), st.p(0, RIFLES), st.p(0, CANS)) == (4, 1, 1)


def test_food_never_above_the_maintenance_cap() -> None:
    st = abandoned(sled=1, food=15)
    action_phase(st)
    st._gain(0, "food", 30, "test", [])
    assert st.p(0, FOOD) == 20


def test_maintenance_never_above_the_sled_level() -> None:
    st = abandoned(sled=2)
    kit.set_player(st, 0, sled=2)
    st.maint[0] = 1
    action_phase(st)
    acts = [a for a in takes(st, "sled_maintenance") if sum(a.crew or ()) == 3]
    st.apply(acts[0])
    assert st.maint[0] == 2


def test_a_sled_at_maintenance_1_is_towed() -> None:
    st = abandoned(sled=3)
    st.maint[:] = [1, 3]
    kit.set_player(st, 0, food=15)
    kit.set_player(st, 1, food=15)
    tow0 = [st.p(s, TOW) for s in range(2)]
    pp0 = st.scores()
    ev = crossing(st, "victory_point", "march")
    settle(st)
    assert any(isinstance(e, Towing) for e in ev)
    assert st.maint == [1, 1]  # seat 1: -1 itself, -1 to tow seat 0
    assert st.p(0, TOW) == tow0[0] - 1 and st.p(1, TOW) == tow0[1] + 1
    assert st.scores()[1] > pp0[1]


# -- the crossing phase -------------------------------------------------------------------


def test_walk_feeds_the_crew_instead_of_lowering_fuel() -> None:
    st = abandoned(sled=2)
    kit.set_player(st, 0, food=19)
    next_walk(st, 30)
    ev = crossing(st, "victory_point", "walk")
    foods = [e for e in ev if isinstance(e, TrackChanged) and e.track == "food" and e.seat == 0]
    assert [(f.old, f.new) for f in foods] == [(19, 19 - st.fed_count(0))]
    assert all(not (isinstance(e, TrackChanged) and e.track == "fuel") for e in ev)
    assert st.maint == [2, 2]  # a Walk keeps the maintenance


def test_forced_march_maps_the_region_and_lowers_maintenance() -> None:
    st = abandoned(sled=3)
    pp = st.scores()[0]
    next_walk(st, 30)
    ev = crossing(st, "victory_point", "march")
    assert [(e.seat, e.region) for e in ev if isinstance(e, RegionMapped)] == [(0, "king_william")]
    assert st.maint == [2, 2]
    assert st.scores()[0] == pp + 1


def test_walk_does_not_map() -> None:
    st = abandoned(sled=3)
    next_walk(st, 30)
    ev = crossing(st, "victory_point", "walk")
    assert not any(isinstance(e, RegionMapped) for e in ev)
    assert st.maint == [3, 3]


def test_forced_march_needs_total_maintenance_of_2_per_player() -> None:
    st = abandoned(sled=2)
    st.maint[:] = [1, 2]
    st._legal = None
    st.apply(Action("destination", to="victory_point"))
    assert {a.voyage for a in st.legal_actions()} == {"walk"}
    st = abandoned(sled=2)
    st.apply(Action("destination", to="victory_point"))
    assert {a.voyage for a in st.legal_actions()} == {"walk", "march"}


def test_coastal_and_open_are_no_crossing_types() -> None:
    st = abandoned()
    st.apply(Action("destination", to="victory_point"))
    with pytest.raises(IllegalAction):
        st.apply(Action("voyage", voyage="open"))


def test_the_crew_eats_in_the_crossing_and_in_the_boarding_phase() -> None:
    st = abandoned(food=20, sled=2)
    kit.set_player(st, 0, food=20)
    kit.set_player(st, 1, food=20)
    next_walk(st, 30)
    crossing(st, "victory_point", "walk")
    settle(st)
    fed = st.fed_count(0)
    assert st.p(0, FOOD) == 20 - fed
    ev = kit.start_boarding(st)
    eats = [e for e in ev if isinstance(e, TrackChanged) and e.track == "food" and e.seat == 0]
    assert [(e.old - e.new, e.reason) for e in eats] == [(fed, "feeding")]


# -- food cans ------------------------------------------------------------------------------


def test_open_a_can_on_your_turn_food_5_health_minus_1_no_turn_used() -> None:
    st = abandoned(food=10, health=6)
    action_phase(st)
    kit.set_player(st, 0, food=10, health=6)
    k = st.p(0, CANS)
    st.apply(Action("open_can"))
    assert (st.p(0, FOOD), st.p(0, HEALTH), st.p(0, CANS)) == (15, 5, k - 1)
    assert st.current_player == 0 and st.pending == "action"


def test_a_can_lowering_health_into_scurvy_applies_it_and_raises_guilt() -> None:
    st = abandoned(health=6)
    action_phase(st)
    kit.set_player(st, 0, health=3)  # 3 -> 2: scurvy
    assert st.guilt[0] == 0
    st.apply(Action("open_can"))
    settle(st)
    assert st.guilt[0] == 1
    assert sum(st.pv[F * 0 + 25 : F * 0 + 30]) == 2  # two crew in the infirmary


def test_no_cans_no_open_can() -> None:
    st = abandoned()
    cans(st, 0, 0)
    action_phase(st)
    assert Action("open_can") not in st.legal_actions()


def test_cans_count_as_5_food_for_build_a_cabin_without_health() -> None:
    st = abandoned(wood=2)
    action_phase(st)
    kit.set_player(st, 0, wood=2, food=10, health=5)
    cans(st, 0, 2)
    pp = st.scores()[0]
    a = next(x for x in takes(st, "build_cabin") if x.cans == 2 and x.food == 4)
    st.apply(a)
    assert (st.p(0, CANS), st.p(0, FOOD), st.p(0, HEALTH)) == (0, 6, 5)
    assert st.scores()[0] == pp + 5 + (4 + 10) // 2


def test_a_can_in_a_food_shortage_is_offered_first() -> None:
    st = abandoned()
    kit.set_player(st, 0, food=2)
    kit.set_player(st, 1, food=20)
    cans(st, 0, 2)
    next_walk(st, 30)
    crossing(st, "victory_point", "walk")  # feeding 6 crew with 2 food
    assert st.pending == "cans" and st.current_player == 0
    assert set(st.legal_actions()) == {Action("open_can"), Action("pass")}
    health = st.p(0, HEALTH)
    st.apply(Action("open_can"))  # 2 + 5 = 7 food: enough for 6
    assert (st.p(0, FOOD), st.p(0, HEALTH), st.p(0, CANS)) == (1, health - 1, 1)
    assert st.pending != "cans"


def test_declining_the_cans_goes_on_with_the_food_shortage() -> None:
    st = abandoned(dogs=3)
    kit.set_player(st, 0, food=2, dogs=3)
    kit.set_player(st, 1, food=20)
    next_walk(st, 30)
    crossing(st, "victory_point", "walk")
    assert st.pending == "cans"
    st.apply(Action("pass"))
    assert st.p(0, CANS) > 0 and st.p(0, 11) == 1  # two dogs eaten: 2 + 2 + 2 = 6


def test_twenty_cans_in_the_box() -> None:
    st = abandoned(4)
    assert sum(st.p(s, CANS) for s in range(4)) == 20
    st._gain(0, "cans", 2, "test", [])
    assert st.p(0, CANS) == 5  # the box is empty
    st._gain(1, "cans", -1, "test", [])
    st._gain(0, "cans", 2, "test", [])
    assert st.p(0, CANS) == 6


# -- guilt ---------------------------------------------------------------------------------


def test_scurvy_and_mutiny_raise_guilt_after_abandoning() -> None:
    st = abandoned(health=3, morale=3)
    kit.set_player(st, 0, health=3, morale=3)
    kit.set_player(st, 1, health=6, morale=6)
    crossing(st, "victory_point", "walk")  # attrition: 3 -> 2 scurvy, 3 -> 2 mutiny
    settle(st)
    assert st.guilt == [2, 0]


def test_a_cancelled_scurvy_or_mutiny_raises_no_guilt() -> None:
    st = abandoned(health=3, morale=3)
    kit.set_player(st, 0, health=3, morale=3, upgrades=[3, 6])
    crossing(st, "victory_point", "walk")
    settle(st)
    assert st.guilt[0] == 0


def test_no_guilt_before_abandoning() -> None:
    st = walking()
    kit.set_player(st, 0, health=3, morale=3)
    at_leader_check(st)
    crossing(st, "victory_point", "open")
    settle(st)
    assert st.guilt == [0, 0]


def test_jordi_example_guilt_times_the_final_anchor_modifier() -> None:
    """§9.1: 54 PP, modifier −3, guilt 5 → 54 − 15 = 39."""
    st = abandoned(anchor="simpson_strait")
    st.fleet = "starvation_cove"
    st.guilt[:] = [5, 0]
    assert scoring.guilt_penalties(st) == [(0, -15, "guilt 5 × 3")]
    assert st.tables.anchors["starvation_cove"].guilt == 3
    assert 54 - 15 == 39


def test_the_passage_final_anchors_show_a_modifier_too() -> None:
    st = abandoned()
    st.fleet = "point_barrow"
    st.guilt[:] = [4, 1]
    assert scoring.guilt_penalties(st) == [(0, -4, "guilt 4 × 1"), (1, -1, "guilt 1 × 1")]


def test_no_guilt_penalty_without_abandoning() -> None:
    st = walking()
    st.fleet = "point_barrow"
    st.guilt[:] = [4, 1]
    assert scoring.guilt_penalties(st) == []


# -- the action tiles ------------------------------------------------------------------------


def test_the_tiles_lie_beside_the_board_before_abandoning() -> None:
    st = walking()
    kit.set_player(st, 0, wood=3)
    action_phase(st)
    spaces = {a.space for a in st.legal_actions() if a.kind == "take"}
    assert {"visit_inuit", "experiment", "recycle_wood"} <= spaces
    assert not spaces & {"revisit_inuit", "tin_refining", "sled_maintenance"}


def test_the_tiles_cover_their_spaces_after_abandoning() -> None:
    st = abandoned(wood=3)
    action_phase(st)
    spaces = {a.space for a in st.legal_actions() if a.kind == "take"}
    assert {"revisit_inuit", "tin_refining", "sled_maintenance"} <= spaces
    assert not spaces & {"visit_inuit", "experiment", "recycle_wood"}


def test_revisit_the_inuit_gives_2_wood_and_1_dog() -> None:
    st = abandoned(wood=0, dogs=3, dynamite=1, rifles=0)
    action_phase(st)
    a = takes(st, "revisit_inuit")[0]
    assert sum(a.crew or ()) == 3
    st.apply(a)
    p = st.player(0)
    assert (p["wood"], p["dogs"], p["fuel"]) == (2, 4, 0)


def test_revisit_the_inuit_with_an_inuk_instead_of_the_captain() -> None:
    st = abandoned()
    kit.set_player(st, 0, inuit=1)
    action_phase(st)
    assert any(a.crew[0] == 0 and a.crew[4] == 1 for a in takes(st, "revisit_inuit") if a.crew)


def test_tin_refining_pays_a_can_for_1_dynamite_and_8_food() -> None:
    st = abandoned(food=10, dynamite=1, rifles=0, wood=0)
    action_phase(st)
    kit.set_player(st, 0, food=10)
    k = st.p(0, CANS)
    a = takes(st, "tin_refining")[0]
    assert a.crew is not None and a.crew[2] == 1 and sum(a.crew) == 3
    st.apply(a)
    assert (st.p(0, CANS), st.p(0, DYN), st.p(0, FOOD)) == (k - 1, 2, 18)
    cans(st, 1, 0)
    st.current = 1
    st._legal = None
    assert takes(st, "tin_refining") == []


def test_sled_maintenance_raises_by_the_crew_count() -> None:
    st = abandoned(sled=4)
    st.maint[0] = 1
    action_phase(st)
    a = next(x for x in takes(st, "sled_maintenance") if sum(x.crew or ()) == 2)
    assert a.crew is not None and a.crew[1] == 1
    st.apply(a)
    assert st.maint[0] == 3


def test_the_final_round_tile() -> None:
    st = abandoned(anchor="simpson_strait", dogs=5, wood=4)
    st.maint[0] = 3
    st.final_round = True
    action_phase(st)
    spaces = {a.space for a in st.legal_actions() if a.kind == "take"}
    assert {"document_sled", "vow_dogs"} <= spaces
    assert not spaces & {"document_methods", "vow_carpenter"}
    pp = st.scores()[0]
    st.apply(takes(st, "document_sled")[0])
    assert st.scores()[0] == pp + 9
    st.current = 0
    st.pv[F * 0 + 32] = 0
    pp = st.scores()[0]
    st._legal = None
    vow = [a for a in takes(st, "vow_dogs")]
    assert vow
    st.apply(vow[0])
    assert st.scores()[0] == pp + 5


# -- the game end ----------------------------------------------------------------------------


def test_the_new_final_area_ends_the_game_with_a_walk_and_the_guilt_penalty() -> None:
    st = abandoned(anchor="simpson_strait", food=20, dynamite=3)
    st.final_round = True
    st.final_voyage = True
    st.guilt[:] = [2, 0]
    st.leader = 0
    kit.start_round(st, leader=0)
    assert st.pending == "destination"
    pp = st.scores()
    ev = st.apply(Action("destination", to="starvation_cove"))
    assert st.is_over and st.reason == "the expedition survived on foot"
    assert not any(isinstance(e, EventRevealed) for e in ev)  # the last crossing: no event
    assert any(
        isinstance(e, TrackChanged) and e.track == "food" and e.reason.startswith("walk")
        for e in ev
    )
    deltas = [e for e in ev if getattr(e, "reason", "") == "final anchor point"]
    assert deltas == []  # no final-anchor PP at the new final anchor
    guilt = [e for e in ev if getattr(e, "reason", "").startswith("guilt")]
    assert [(e.seat, e.delta) for e in guilt] == [(0, -6)]  # guilt 2 × modifier 3
    assert st.scores()[0] < pp[0]


def test_the_ships_can_still_reach_the_passage_s_final_anchor() -> None:
    st = walking()
    kit.set_fleet(st, "cape_parry", "A")
    st.final_round = True
    st.final_voyage = True
    kit.start_round(st, leader=0)
    if st.pending == "abandon":
        st.apply(NO)
    st.apply(Action("destination", to="herschel_island"))
    assert st.is_over and st.reason == "the expedition completed the Northwest Passage"


# -- hidden information -------------------------------------------------------------------------


def test_the_walking_deck_order_is_hidden() -> None:
    st = abandoned()
    v = st.view(1)
    assert v["walk_deck"] == 8 and sorted(v["pools"]["walk_deck"]) == list(range(29, 37))
    d = type(st).from_view(v, 7)
    assert sorted(d.walk_deck) == sorted(st.walk_deck)
    assert d.legal_actions() == st.legal_actions()
    d.resample_hidden(9)
    assert sorted(d.walk_deck) == sorted(st.walk_deck)


def test_a_walking_game_round_trips_through_json() -> None:
    st = abandoned(sled=2)
    crossing(st, "victory_point", "march")
    again = type(st).from_json(st.to_json())
    assert again == st and isinstance(again, WalkingState)
    assert again.legal_actions() == st.legal_actions()


# -- the reading options (docs/iceandsnow-decisions.md W1–W3) ---------------------------------


def test_option_walking_forced_any() -> None:
    for option, forced in (("all", False), ("any", True)):
        st = walking(walking_forced=option)
        kit.set_player(st, 0, fuel=3)
        kit.set_player(st, 1, fuel=9)
        at_leader_check(st)
        assert (st.abandoned == "forced") is forced, option
        assert (st.pending == "abandon") is not forced


def test_option_walking_order() -> None:
    for option in ("event_first", "crossing_first"):
        st = walking(walking_order=option)
        for s in range(2):
            kit.set_player(st, s, fuel=3)
        at_leader_check(st)
        settle(st)
        next_walk(st, 35)
        ev = crossing(st, "victory_point", "walk")
        kinds = [
            "event" if isinstance(e, EventRevealed) else "feed"
            for e in ev
            if isinstance(e, EventRevealed)
            or (isinstance(e, TrackChanged) and e.track == "food" and "feeding" in e.reason)
        ]
        want = "event" if option == "event_first" else "feed"
        assert kinds[0] == want, option


def test_option_walking_final_pp() -> None:
    for option, pp in (("none", 0), ("lowest", 6)):
        st = walking(walking_final_pp=option)
        for s in range(2):
            kit.set_player(st, s, fuel=3, food=25, dynamite=3)
        at_leader_check(st, "simpson_strait")
        settle(st)
        st.final_round = st.final_voyage = True
        kit.start_round(st, leader=0)
        ev = st.apply(Action("destination", to="starvation_cove"))
        got = [e.delta for e in ev if getattr(e, "reason", "") == "final anchor point"]
        assert got == ([pp] if pp else []), option


def test_the_rl_observation_holds_the_sled_board() -> None:
    from erebus.games.iceandsnow.encoding import encoder, observe

    st = walking()
    enc = encoder(st.content)
    o, k = enc.layout["walking"]
    assert not observe(st, 0)[o : o + k].any()
    st = abandoned(sled=2)
    st.guilt[:] = [4, 0]
    obs = observe(st, 1)  # seat 1 observes: seat 0 is slot 1
    assert obs[o] == 1 and obs[o + 1] == 1.0  # abandoned, 8 walking events left
    assert obs[o + 2 + 5] == pytest.approx(2 / 5) and obs[o + 2 + 6] == pytest.approx(4 / 20)
    assert obs.shape == (enc.size,)


def test_a_walking_event_is_one_hot_in_the_event_block_only() -> None:
    """Walking on Ice's event cards (29–36) are numbered past the base deck's: each has
    its own place in the event block, and nothing of it spills into the next block."""
    from erebus.games.iceandsnow.encoding import encoder, observe

    st = abandoned(sled=2)
    enc = encoder(st.content)
    o, k = enc.layout["event"]
    so, sk = enc.layout["spaces"]
    assert st.content.walking is not None
    before = observe(st, 0)
    for number in st.content.walking.events:
        assert number < k
        st.event = number
        obs = observe(st, 0)
        assert obs[o : o + k].sum() == 1 and obs[o + number] == 1
        assert (obs[so : so + sk] == before[so : so + sk]).all()


def test_the_terminal_shows_the_sled_board_guilt_and_cans() -> None:
    from erebus.terminal.iceandsnow_screen import describe, render_text

    st = abandoned(sled=2)
    st.guilt[:] = [3, 0]
    text = render_text(st, seat=0, names=["Ann", "Bob"])
    assert "maintenance 2 (food ≤ 24)" in text and "cargo" in text
    assert " cans    5" in text and " guilt   3" in text
    assert "Tin refining" in text and "Experiment" not in text
    assert "walking events 8" in text
    assert describe(st, Action("voyage", voyage="march")).startswith("forced march")
    assert describe(st, YES).startswith("abandon the ships")
