"""The Voyage phase, rule by rule (reference §3.4, §4.1–§4.4)."""

from __future__ import annotations

import math

import pytest

from erebus.games.iceandsnow import kit
from erebus.games.iceandsnow.actions import Action
from erebus.games.iceandsnow.events import (
    AttritionPenalty,
    CardsRevealed,
    DynamitePlaced,
    GameOver,
    RegionMapped,
    SectionPlaced,
    Towing,
)
from iceandsnow.rulekit import (
    RULES,
    TRACKS,
    C,
    assert_illegal,
    at_voyage,
    calm,
    crew,
    deltas,
    fresh,
    of_type,
    resolve,
    take,
)

TOW_PP = {int(k): int(v) for k, v in TRACKS["towing"]["pp"].items()}
TOW_MAX = int(TRACKS["towing"]["max"])


def routes_from(anchor: str, section: str, side: str) -> set[str]:
    sec = next(s for s in C.sections if s.id == section)
    return {r.dst for r in sec.sides[side].routes if r.src == anchor}


def zone(track: str, effect: str) -> list[int]:
    tr = C.health if track == "health" else C.morale
    return sorted(k for k, v in tr.effects.items() if v == effect)


# ---------------------------------------------------------------- step 1: leader


@pytest.mark.parametrize("leader", [0, 1, 2])
def test_leader_check_helm_holder_with_dynamite_chooses_the_destination(leader: int) -> None:
    st = fresh(3)
    kit.start_round(st, leader=leader)
    assert st.pending == "destination"
    assert st.current_player == leader
    assert st.leader == leader


# ---------------------------------------------------------------- step 2: destination


def test_destination_choices_are_exactly_the_routes_leaving_the_anchor() -> None:
    st = fresh()
    kit.start_round(st, leader=0)
    got = {a.to for a in st.legal_actions()}
    assert got == routes_from("cape_york", "east", "A")
    assert all(a.kind == "destination" for a in st.legal_actions())


def test_destination_one_way_no_going_back_and_no_staying() -> None:
    st = fresh()
    kit.set_fleet(st, "lancaster_sound")
    kit.start_round(st, leader=0)
    assert {a.to for a in st.legal_actions()} == {"croker_bay", "arctic_bay"}
    # north_water -> lancaster_sound exists, but only in that direction
    assert_illegal(st, Action("destination", to="north_water"))
    assert_illegal(st, Action("destination", to="lancaster_sound"))
    assert_illegal(st, {"type": "destination", "to": "cape_liverpool"})


@pytest.mark.parametrize("side", ["A", "B"])
def test_destination_on_section_edge_leader_places_next_section_on_chosen_side(side: str) -> None:
    st = fresh()
    kit.set_fleet(st, "lancaster_sound")
    kit.start_round(st, leader=0)
    st.apply(Action("destination", to="croker_bay"))
    assert st.pending == "section" and st.current_player == 0
    assert {a.side for a in st.legal_actions()} == {"A", "B"}
    ev = st.apply(Action("section", side=side))
    assert [(e.section, e.side) for e in of_type(ev, SectionPlaced)] == [("central_east", side)]
    assert st.sections == [("east", "A"), ("central_east", side)]
    st.apply(Action("voyage", voyage="open"))
    resolve(st)
    kit.start_round(st, leader=0)
    assert {a.to for a in st.legal_actions()} == routes_from("croker_bay", "central_east", side)


def test_destination_inside_placed_sections_places_no_section() -> None:
    st = fresh()
    ev = at_voyage(st, "north_water")
    assert not of_type(ev, SectionPlaced)
    assert st.sections == [("east", "A")]


# ---------------------------------------------------------------- step 3: icebreaking


def test_icebreaking_leader_places_one_dynamite_on_the_destination() -> None:
    st = fresh()
    kit.set_player(st, 0, dynamite=3)
    kit.set_player(st, 1, dynamite=3)
    ev = at_voyage(st, "north_water")
    assert [(e.seat, e.anchor, e.count) for e in of_type(ev, DynamitePlaced)] == [
        (0, "north_water", 1)
    ]
    assert st.player(0)["dynamite"] == 2
    assert st.player(1)["dynamite"] == 3


def test_icebreaking_extra_route_dynamite_is_paid_by_the_leader() -> None:
    st = fresh()
    kit.set_player(st, 0, dynamite=3)
    kit.set_player(st, 1, dynamite=3)
    at_voyage(st, "pond_inlet")  # cape_york -> pond_inlet needs +1 dynamite
    assert st.player(0)["dynamite"] == 1
    assert st.player(1)["dynamite"] == 3


def test_icebreaking_leader_without_dynamite_next_clockwise_with_dynamite_pays() -> None:
    st = fresh(4)
    for seat, dyn in enumerate((5, 0, 0, 2)):
        kit.set_player(st, seat, dynamite=dyn)
    ev = at_voyage(st, "north_water", leader=1)
    # seat 2 is next clockwise but has none: seat 3 pays, not seat 0
    assert [(e.seat, e.count) for e in of_type(ev, DynamitePlaced)] == [(3, 1)]
    assert [st.player(s)["dynamite"] for s in range(4)] == [5, 0, 0, 1]


def test_icebreaking_partial_payment_chain_one_dynamite_at_a_time() -> None:
    """R5: the leader pays as far as they can, then the next players clockwise."""
    st = fresh(3)
    for seat, dyn in enumerate((1, 0, 1)):
        kit.set_player(st, seat, dynamite=dyn)
    ev = at_voyage(st, "pond_inlet", leader=0)  # costs 2
    assert [(e.seat, e.count) for e in of_type(ev, DynamitePlaced)] == [(0, 1), (2, 1)]
    assert [st.player(s)["dynamite"] for s in range(3)] == [0, 0, 0]


@pytest.mark.parametrize(("dest", "dyn"), [("north_water", (0, 0)), ("pond_inlet", (1, 0))])
def test_icebreaking_nobody_can_pay_everybody_loses(dest: str, dyn: tuple[int, int]) -> None:
    st = fresh()
    kit.set_player(st, 0, dynamite=dyn[0])
    kit.set_player(st, 1, dynamite=dyn[1])
    kit.start_round(st, leader=0)
    ev = st.apply(Action("destination", to=dest))
    assert st.is_over and st.outcome == "lost"
    assert [e.outcome for e in of_type(ev, GameOver)] == ["lost"]
    assert st.legal_actions() == []


# ---------------------------------------------------------------- step 4: attrition


def test_attrition_every_player_loses_one_health_and_one_morale() -> None:
    st = fresh(3)
    for s, (h, m) in enumerate(((6, 6), (7, 8), (5, 4))):
        kit.set_player(st, s, health=h, morale=m)
    at_voyage(st, "north_water")
    assert [(st.player(s)["health"], st.player(s)["morale"]) for s in range(3)] == [
        (6 - RULES["attrition"]["health"], 6 - RULES["attrition"]["morale"]),
        (7 - 1, 8 - 1),
        (5 - 1, 4 - 1),
    ]


@pytest.mark.parametrize("space", zone("health", "scurvy"))
def test_scurvy_two_crew_of_choice_go_to_the_infirmary_and_cannot_act(space: int) -> None:
    st = fresh()
    kit.set_player(st, 0, health=space + 1)
    kit.start_round(st, leader=0)
    ev = st.apply(Action("destination", to="north_water"))
    assert [e.penalty for e in of_type(ev, AttritionPenalty) if e.seat == 0] == ["scurvy"]
    assert st.pending == "infirmary" and st.current_player == 0
    opts = st.legal_actions()
    assert all(sum(a.crew) == 2 for a in opts)
    assert crew(captain=1, scientist=1) in {a.crew for a in opts}
    st.apply(Action("infirmary", crew=crew(captain=1, scientist=1)))
    st.apply(Action("voyage", voyage="open"))
    resolve(st)
    assert st.pending == "action" and st.current_player == 0
    used = [a.crew for a in st.legal_actions() if a.kind == "take"]
    assert used and all(c[0] == 0 and c[2] == 0 for c in used)
    assert max(sum(c) for c in used) == 4  # carpenter + 3 sailors left


def test_treatment_room_3_cancels_scurvy() -> None:
    st = fresh()
    kit.set_player(st, 0, health=zone("health", "scurvy")[-1] + 1, upgrades=[3])
    kit.start_round(st, leader=0)
    ev = st.apply(Action("destination", to="north_water"))
    assert st.pending == "voyage"
    assert "scurvy" not in [e.penalty for e in of_type(ev, AttritionPenalty)]


def test_death_at_health_zero_minus_5_pp_moves_to_1_and_loses_a_sailor() -> None:
    st = fresh()
    kit.set_player(st, 0, health=1, pp=20, sailors=3)
    kit.start_round(st, leader=0)
    ev = st.apply(Action("destination", to="north_water"))
    assert st.player(0)["health"] == 1
    assert st.player(0)["pp"] == 20 - 5
    assert st.player(0)["crew"]["sailors"] == 2
    # space 1's effect (scurvy) is not applied after moving up
    assert [e.penalty for e in of_type(ev, AttritionPenalty) if e.seat == 0] == ["death"]
    assert st.pending == "voyage"


def test_treatment_room_does_not_cancel_death() -> None:
    st = fresh()
    kit.set_player(st, 0, health=1, pp=20, upgrades=[3])
    at_voyage(st, "north_water")
    assert st.player(0)["pp"] == 15 and st.player(0)["health"] == 1


def test_score_may_go_below_zero_in_multiplayer() -> None:
    """Decision A6."""
    st = fresh()
    kit.set_player(st, 0, health=1, pp=2)
    at_voyage(st, "north_water")
    assert st.player(0)["pp"] == -3
    assert not st.is_over


def test_death_without_sailors_still_costs_5_pp() -> None:
    st = fresh()
    kit.set_player(st, 0, health=1, pp=20, sailors=0)
    at_voyage(st, "north_water")
    assert st.player(0)["pp"] == 15
    assert st.player(0)["crew"]["sailors"] == 0
    assert st.player(0)["health"] == 1


def test_death_at_morale_zero_moves_to_1_without_mutiny() -> None:
    st = fresh()
    kit.set_player(st, 0, morale=1, pp=20, sailors=3, food=20)
    ev = at_voyage(st, "north_water")
    assert st.player(0)["morale"] == 1
    assert st.player(0)["pp"] == 15
    assert st.player(0)["crew"]["sailors"] == 2
    assert st.player(0)["food"] == 20  # no mutiny for space 1
    assert [e.penalty for e in of_type(ev, AttritionPenalty) if e.seat == 0] == ["death"]


@pytest.mark.parametrize(("sailors", "inuit"), [(3, 0), (2, 0), (3, 1), (0, 0)])
def test_mutiny_lowers_food_by_half_the_crew_rounded_up(sailors: int, inuit: int) -> None:
    st = fresh()
    kit.set_player(st, 0, morale=zone("morale", "mutiny")[-1] + 1, food=20)
    kit.set_player(st, 0, sailors=sailors, inuit=inuit)
    ev = at_voyage(st, "north_water")
    assert "mutiny" in [e.penalty for e in of_type(ev, AttritionPenalty) if e.seat == 0]
    assert st.player(0)["food"] == 20 - math.ceil((3 + sailors + inuit) / 2)


def test_mutiny_every_space_of_the_zone() -> None:
    for space in zone("morale", "mutiny"):
        st = fresh()
        kit.set_player(st, 0, morale=space + 1, food=20)
        at_voyage(st, "north_water")
        assert st.player(0)["food"] == 17, space


def test_saloon_6_cancels_mutiny() -> None:
    st = fresh()
    kit.set_player(st, 0, morale=zone("morale", "mutiny")[-1] + 1, food=20, upgrades=[6])
    ev = at_voyage(st, "north_water")
    assert st.player(0)["food"] == 20
    assert "mutiny" not in [e.penalty for e in of_type(ev, AttritionPenalty)]


def test_mutiny_without_enough_food_uses_the_food_shortage_rules() -> None:
    st = fresh()
    kit.set_player(st, 0, morale=3, food=1, dogs=2, pp=20, species=[])
    at_voyage(st, "north_water")
    # needs 3, has 1: one dog (+2 food, -2 PP) covers it
    assert st.player(0)["dogs"] == 1
    assert st.player(0)["food"] == 0
    assert st.player(0)["pp"] == 18


# ---------------------------------------------------------------- §3.4 overflow


def test_health_above_maximum_gives_1_pp_per_point() -> None:
    st = fresh()
    card = min((h for h in C.hunting.values() if h.health > 0), key=lambda h: (h.prey, -h.health))
    kit.set_player(st, 0, health=C.health.max, pp=10, rifles=card.prey)
    kit.reveal(st, hunting=[card.id])
    kit.start_action_phase(st, leader=0)
    ev = take(st, "hunt", crew(scientist=1, sailors=card.prey - 1), card=card.id)
    assert st.player(0)["health"] == C.health.max
    assert deltas(ev, "health overflow") == {0: card.health}
    assert st.player(0)["pp"] == 10 + card.health


def test_morale_above_maximum_gives_1_pp_per_point() -> None:
    st = fresh()
    kit.set_player(st, 0, morale=C.morale.max, pp=10, sled=1, dogs=1)
    kit.start_action_phase(st, leader=0)
    ev = take(st, "explore", crew(captain=1, sailors=1))
    assert st.player(0)["morale"] == C.morale.max
    assert deltas(ev, "morale overflow") == {0: RULES["explore_morale"]}


def test_fuel_above_maximum_gives_1_morale_per_point() -> None:
    st = fresh()
    kit.set_player(st, 0, fuel=TRACKS["fuel"]["max"] - 1, morale=4, wood=2)
    kit.start_action_phase(st, leader=0)
    take(st, "experiment", crew(scientist=1, sailors=2))
    assert st.player(0)["fuel"] == TRACKS["fuel"]["max"]
    assert st.player(0)["morale"] == 5  # 1 point of fuel over the maximum


def test_fuel_overflow_at_morale_maximum_becomes_pp() -> None:
    st = fresh()
    kit.set_player(st, 0, fuel=TRACKS["fuel"]["max"], morale=C.morale.max, wood=2, pp=10)
    kit.start_action_phase(st, leader=0)
    take(st, "experiment", crew(scientist=1, sailors=2))
    assert st.player(0)["morale"] == C.morale.max
    assert st.player(0)["pp"] == 12


# ---------------------------------------------------------------- step 5: voyage types


@pytest.mark.parametrize(("voyage", "cost"), [("coastal", 2), ("open", 1)])
def test_voyage_fuel_cost_for_every_player(voyage: str, cost: int) -> None:
    st = fresh(3)
    at_voyage(st, "north_water")
    st.apply(Action("voyage", voyage=voyage))
    assert [st.player(s)["fuel"] for s in range(3)] == [6 - cost] * 3


@pytest.mark.parametrize("players", [2, 3, 4])
def test_coastal_allowed_when_total_fuel_is_at_least_players_times_2(players: int) -> None:
    st = fresh(players)
    at_voyage(st, "north_water")
    for s in range(players):
        kit.set_player(st, s, fuel=0)
    kit.set_player(st, 0, fuel=2 * players)
    assert {a.voyage for a in st.legal_actions()} == {"coastal", "open"}
    kit.set_player(st, 0, fuel=2 * players - 1)
    assert [a.voyage for a in st.legal_actions()] == ["open"]
    assert_illegal(st, Action("voyage", voyage="coastal"))


def test_voyage_type_is_chosen_by_the_leader() -> None:
    st = fresh(3)
    at_voyage(st, "north_water", leader=2)
    assert st.pending == "voyage" and st.current_player == 2


# ---------------------------------------------------------------- §4.4 fuel bands


@pytest.mark.parametrize(
    ("fuel", "voyage", "morale_gain"),
    [
        (10, "open", 1),
        (10, "coastal", 1),
        (9, "open", 1),
        (9, "coastal", 0),
        (8, "open", 0),
        (6, "coastal", 0),
        (5, "open", 0),
    ],
)
def test_fuel_band_8_to_10_gives_1_morale(fuel: int, voyage: str, morale_gain: int) -> None:
    st = fresh()
    at_voyage(st, "north_water")
    kit.set_player(st, 0, fuel=fuel)
    st.apply(Action("voyage", voyage=voyage))
    assert st.pending == "action"  # no discard
    assert st.player(0)["morale"] == 5 + morale_gain


@pytest.mark.parametrize(
    ("fuel", "voyage"), [(4, "open"), (5, "coastal"), (1, "open"), (2, "coastal")]
)
def test_fuel_band_0_to_3_discards_one_resource_of_choice(fuel: int, voyage: str) -> None:
    st = fresh()
    at_voyage(st, "north_water")
    kit.set_player(st, 0, fuel=fuel, dynamite=1, wood=1, rifles=1, dogs=1)
    kit.set_player(st, 1, fuel=9)
    st.apply(Action("voyage", voyage=voyage))
    assert st.pending == "discard" and st.current_player == 0
    assert {a.resource for a in st.legal_actions()} == {"dynamite", "wood", "rifles", "dogs"}
    st.apply(Action("discard", resource="rifles"))
    p = st.player(0)
    assert (p["dynamite"], p["wood"], p["rifles"], p["dogs"]) == (1, 1, 0, 1)
    assert st.pending == "action"


def test_fuel_band_0_to_3_without_resources_discards_nothing() -> None:
    st = fresh()
    at_voyage(st, "north_water")
    kit.set_player(st, 0, fuel=3, dynamite=0, wood=0, rifles=0, dogs=0)
    st.apply(Action("voyage", voyage="open"))
    assert st.pending == "action"


def test_fuel_stays_at_0_and_a_player_already_at_0_still_discards() -> None:
    st = fresh()
    at_voyage(st, "north_water")
    kit.set_player(st, 0, fuel=8)
    kit.set_player(st, 1, fuel=0, dynamite=0, wood=2, rifles=0, dogs=0)
    st.apply(Action("voyage", voyage="open"))
    assert st.player(1)["fuel"] == 0
    assert st.player(1)["wood"] == 1  # the single kind is discarded at once


# ---------------------------------------------------------------- mapping


def test_coastal_voyage_maps_the_destination_region_and_gives_the_leader_1_pp() -> None:
    st = fresh()
    at_voyage(st, "philpots_island", leader=1)
    before = [st.player(s)["pp"] for s in range(2)]
    ev = st.apply(Action("voyage", voyage="coastal"))
    assert [(e.seat, e.region) for e in of_type(ev, RegionMapped)] == [(1, "devon")]
    assert deltas(ev, "mapping") == {1: RULES["mapping_pp"]}
    assert st.mapped_regions == ["devon"]
    assert [st.player(s)["pp"] for s in range(2)] == [before[0], before[1] + 1]


def test_open_sea_voyage_does_not_map() -> None:
    st = fresh()
    at_voyage(st, "philpots_island")
    ev = st.apply(Action("voyage", voyage="open"))
    assert not of_type(ev, RegionMapped)
    assert st.mapped_regions == []


def test_a_region_is_mapped_only_once() -> None:
    st = fresh()
    at_voyage(st, "philpots_island")  # Devon
    st.apply(Action("voyage", voyage="coastal"))
    resolve(st)
    calm(st)
    ev = at_voyage(st, "croker_bay")  # Devon again
    ev += st.apply(Action("voyage", voyage="coastal"))
    assert not of_type(ev, RegionMapped)
    assert "mapping" not in {e.reason for e in ev if hasattr(e, "reason")}
    assert st.mapped_regions == ["devon"]


# ---------------------------------------------------------------- step 6: card setup


@pytest.mark.parametrize("players", [2, 3, 4])
def test_card_setup_reveals_hunting_cards_by_player_count(players: int) -> None:
    st = fresh(players)
    at_voyage(st, "north_water")
    ev = st.apply(Action("voyage", voyage="open"))
    resolve(st)
    expected = {2: 2, 3: 2, 4: 3}[players]
    assert expected == RULES["hunting_cards_per_round"][str(players)]
    assert len(st.hunting_cards) == expected
    assert [len(e.cards) for e in of_type(ev, CardsRevealed) if e.deck == "hunting"] == [expected]


@pytest.mark.parametrize(
    ("start", "dest", "side"),
    [
        ("cape_york", "north_water", "A"),
        ("cape_york", "philpots_island", "A"),
        ("cape_york", "cape_liverpool", "A"),
        ("griffith_island", "mclintock_channel", "B"),
    ],
)
def test_card_setup_reveals_species_cards_by_the_destination_region(
    start: str, dest: str, side: str
) -> None:
    st = fresh()
    kit.set_fleet(st, start, side=side)
    ev = at_voyage(st, dest, side=side)
    ev += st.apply(Action("voyage", voyage="open"))
    resolve(st)
    want = C.regions[region_of(dest)].species
    assert len(st.species_cards) == want


def region_of(anchor: str) -> str:
    for sec in C.sections:
        for side in sec.sides.values():
            for a in side.anchors:
                if a.id == anchor:
                    return a.region
    raise KeyError(anchor)


def test_card_setup_devon_reveals_2_species_cards() -> None:
    st = fresh()
    at_voyage(st, "philpots_island")
    assert region_of("philpots_island") == "devon"
    st.apply(Action("voyage", voyage="open"))
    assert len(st.species_cards) == 2


# ---------------------------------------------------------------- towing


def test_towing_a_tower_that_runs_dry_is_helped_by_the_next_tower() -> None:
    st = fresh(3)
    at_voyage(st, "north_water", leader=0)
    for seat, fuel in enumerate((3, 6, 0)):
        kit.set_player(st, seat, fuel=fuel, towing=0, pp=20, dynamite=1, wood=1, rifles=0, dogs=0)
    ev = st.apply(Action("voyage", voyage="coastal"))
    # seat 0: 3 -> 1; seat 1: 6 -> 4; seat 2: missing 2
    towing = of_type(ev, Towing)
    assert [(t.towed, t.towing, t.missing) for t in towing] == [((2,), (0, 1), 2)]
    assert deltas(ev, "towed") == {2: -TOW_PP[-1]}
    assert deltas(ev, "towing") == {0: TOW_PP[-1], 1: TOW_PP[-1]}
    assert [st.player(s)["fuel"] for s in range(3)] == [0, 3, 0]
    assert [st.player(s)["towing"] for s in range(3)] == [1, 1, -1]
    # the 0-3 discard applies to the voyage's own lowering only (seats 0 and 2),
    # not to seat 1's fuel given away in towing
    assert st.pending == "discard"
    seats = []
    while st.pending == "discard":
        seats.append(st.current_player)
        st.apply(st.legal_actions()[0])
    assert seats == [0, 2]


def test_towing_uninvolved_player_at_0_with_nothing_missing() -> None:
    st = fresh(3)
    at_voyage(st, "north_water", leader=0)
    for seat, fuel in enumerate((5, 1, 0)):
        kit.set_player(st, seat, fuel=fuel, towing=0, pp=20)
    ev = st.apply(Action("voyage", voyage="open"))
    assert [(t.towed, t.towing) for t in of_type(ev, Towing)] == [((2,), (0,))]
    assert st.player(1)["towing"] == 0 and st.player(1)["fuel"] == 0
    assert 1 not in deltas(ev)
    assert st.player(0)["fuel"] == 3


def test_towing_track_maximum_cannot_be_exceeded_but_pp_are_gained() -> None:
    st = fresh()
    at_voyage(st, "north_water", leader=0)
    kit.set_player(st, 0, fuel=5, towing=TOW_MAX, pp=20)
    kit.set_player(st, 1, fuel=0, towing=0, pp=20)
    ev = st.apply(Action("voyage", voyage="open"))
    assert st.player(0)["towing"] == TOW_MAX
    assert deltas(ev, "towing") == {0: TOW_PP[-1]}
    assert st.player(1)["towing"] == -1


def test_towed_player_loses_the_pp_of_the_new_level_and_fuel_stays_0() -> None:
    st = fresh()
    at_voyage(st, "north_water", leader=0)
    kit.set_player(st, 0, fuel=9, towing=0, pp=20)
    kit.set_player(st, 1, fuel=0, towing=-1, pp=20)
    ev = st.apply(Action("voyage", voyage="open"))
    assert st.player(1)["towing"] == -2
    assert deltas(ev, "towed") == {1: -TOW_PP[-2]}
    assert st.player(1)["fuel"] == 0
    assert deltas(ev, "towing") == {0: TOW_PP[-2]}


@pytest.mark.parametrize(("option", "gain"), [("per_player", 1), ("per_fuel", 2)])
def test_towing_pp_basis_option(option: str, gain: int) -> None:
    """Decision 6: once per towed player supplied (default) or once per fuel."""
    st = fresh(2, options={"towing_pp": option})
    at_voyage(st, "north_water", leader=0)
    kit.set_player(st, 0, fuel=9, towing=0, pp=20)
    kit.set_player(st, 1, fuel=0, towing=0, pp=20)
    ev = st.apply(Action("voyage", voyage="coastal"))
    assert deltas(ev, "towing") == {0: gain * TOW_PP[-1]}


def test_not_enough_fuel_for_towing_everybody_loses() -> None:
    st = fresh(3)
    at_voyage(st, "north_water", leader=0)
    for seat, fuel in enumerate((2, 0, 0)):
        kit.set_player(st, seat, fuel=fuel)
    ev = st.apply(Action("voyage", voyage="open"))
    # seat 0 keeps 1 fuel, but 2 are missing
    assert st.is_over and st.outcome == "lost"
    assert of_type(ev, GameOver)[0].outcome == "lost"


def test_towing_players_act_clockwise_starting_with_the_leader() -> None:
    st = fresh(3)
    at_voyage(st, "north_water", leader=2)
    for seat, fuel in enumerate((6, 0, 6)):
        kit.set_player(st, seat, fuel=fuel, towing=0, pp=20)
    ev = st.apply(Action("voyage", voyage="open"))
    # seat 2 (the leader) supplies the missing fuel; seat 0 is not needed
    assert deltas(ev, "towing") == {2: TOW_PP[-1]}
    assert [st.player(s)["fuel"] for s in range(3)] == [5, 0, 4]
    assert [st.player(s)["towing"] for s in range(3)] == [0, -1, 1]
