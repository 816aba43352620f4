"""Every card: events 1–28 (§8.1), investors (§8.2), ship upgrades 1–11 (§8.3)."""

from __future__ import annotations

import math
from typing import Any

import pytest

from erebus.games.iceandsnow import kit, new_game
from erebus.games.iceandsnow.actions import Action
from erebus.games.iceandsnow.events import (
    AttritionPenalty,
    CardsRevealed,
    CrewToInfirmary,
    EventRevealed,
    RegionMapped,
    Towing,
)
from erebus.games.iceandsnow.state import State
from iceandsnow.rulekit import (
    RULES,
    TRACKS,
    C,
    action_phase,
    assert_illegal,
    at_voyage,
    calm,
    crew,
    deltas,
    fresh,
    of_type,
    pass_all,
    resolve,
    spaces,
    take,
    takes,
)

EXTRA = {"extra_events": True}
ALL = {"upgrades": "all"}
SLED_PP = TRACKS["sled"]["explore_pp"]
DOG_PP = TRACKS["dogs"]["explore_pp"]
OPEN_EVENTS = set(range(1, 13))
COASTAL_EVENTS = set(range(13, 25))


def voyage_of(number: int) -> str:
    return "open" if C.events[number].deck == "open" else "coastal"


def reveal(
    st: State, number: int, dest: str = "north_water", leader: int = 0, **seat0: Any
) -> list[Any]:
    """Sail to ``dest`` with event ``number`` on top of its deck.  After the
    attrition every seat is set to health 5, morale 5, fuel 6 (``seat0`` then
    overrides seat 0), so the voyage itself has no band effect; returns the
    events from the voyage choice on (queued decisions left pending)."""
    at_voyage(st, dest, leader=leader)
    for s in range(st.n):
        kit.set_player(st, s, health=5, morale=5, fuel=6)
    if seat0:
        kit.set_player(st, 0, **seat0)
    v = voyage_of(number)
    kit.next_event(st, v, number)
    return st.apply(Action("voyage", voyage=v))


def after_voyage_fuel(number: int) -> int:
    return 6 - RULES["voyage_fuel"][voyage_of(number)]


# ================================================================ events: decks


def test_event_decks_open_1_to_12_coastal_13_to_24() -> None:
    """Decision 1: open sea = 1–12, coastal = 13–24; 14 cards each with 25–28."""
    assert {n for n, e in C.events.items() if e.deck == "open" and not e.optional} == OPEN_EVENTS
    assert {n for n, e in C.events.items() if e.deck == "coastal" and not e.optional} == (
        COASTAL_EVENTS
    )
    st = fresh()
    v = st.view(None)["pools"]
    assert set(v["ev_open"]) == OPEN_EVENTS and set(v["ev_coastal"]) == COASTAL_EVENTS


def test_extra_events_25_26_open_27_28_coastal_replace_a_card() -> None:
    """Decision 2."""
    assert {n: C.events[n].deck for n in (25, 26, 27, 28)} == {
        25: "open",
        26: "open",
        27: "coastal",
        28: "coastal",
    }
    st = fresh(options=EXTRA)
    assert len(st.ev_open) == 12 and len(st.ev_coastal) == 12
    assert {25, 26} <= set(st.ev_open) and {27, 28} <= set(st.ev_coastal)


@pytest.mark.parametrize("number", sorted(OPEN_EVENTS | COASTAL_EVENTS))
def test_event_is_revealed_by_the_matching_voyage(number: int) -> None:
    st = fresh()
    ev = reveal(st, number)
    assert [e.number for e in of_type(ev, EventRevealed)] == [number]
    assert st.current_event == number


# ================================================================ immediate events


def test_event_1_aurora_each_player_morale_plus_1() -> None:
    st = fresh(3)
    reveal(st, 1)
    assert [st.player(s)["morale"] for s in range(3)] == [6, 6, 6]


def test_event_1_at_maximum_morale_overflows_to_pp() -> None:
    st = fresh()
    ev = reveal(st, 1, morale=C.morale.max)
    assert st.player(0)["morale"] == C.morale.max
    assert deltas(ev, "morale overflow") == {0: 1}


@pytest.mark.parametrize(("number", "loss"), [(2, 1), (14, 1), (6, 2), (15, 2)])
def test_events_2_6_14_15_fuel_loss_without_band_effects(number: int, loss: int) -> None:
    st = fresh(2)
    at_voyage(st, "north_water")
    v = voyage_of(number)
    for s in range(2):
        kit.set_player(st, s, fuel=4 + RULES["voyage_fuel"][v], health=5, morale=5)
    kit.next_event(st, v, number)
    ev = st.apply(Action("voyage", voyage=v))
    after = 4 - loss
    assert [st.player(s)["fuel"] for s in range(2)] == [after, after]
    assert after <= 3  # in the 0-3 band, but events do not apply it
    assert st.pending == "action"
    assert [st.player(s)["morale"] for s in range(2)] == [5, 5]
    assert not of_type(ev, Towing)


@pytest.mark.parametrize(("number", "loss"), [(2, 1), (14, 1), (6, 2), (15, 2)])
def test_events_2_6_14_15_trigger_towing(number: int, loss: int) -> None:
    st = fresh(2)
    at_voyage(st, "north_water", leader=0)
    v = voyage_of(number)
    cost = RULES["voyage_fuel"][v]
    kit.set_player(st, 0, fuel=9, towing=0, pp=20)
    kit.set_player(st, 1, fuel=cost, towing=0, pp=20, dynamite=0, wood=0, rifles=0, dogs=0)
    kit.next_event(st, v, number)
    ev = st.apply(Action("voyage", voyage=v))
    resolve(st)
    towing = of_type(ev, Towing)
    assert [(t.towed, t.towing, t.missing) for t in towing] == [((1,), (0,), loss)]
    assert st.player(1)["fuel"] == 0 and st.player(1)["towing"] == -1
    assert st.player(0)["fuel"] == 9 - cost - loss - loss


@pytest.mark.parametrize("number", [2, 6, 14, 15, 18])
def test_fuel_events_can_end_the_game_by_lack_of_fuel(number: int) -> None:
    st = fresh(2)
    at_voyage(st, "north_water")
    v = voyage_of(number)
    cost = RULES["voyage_fuel"][v]
    for s in range(2):
        kit.set_player(st, s, fuel=cost, wood=0, dynamite=0, rifles=0, dogs=0)
    if v == "coastal":  # coastal needs players x 2 fuel in total
        assert cost * 2 >= 2 * 2
    kit.next_event(st, v, number)
    st.apply(Action("voyage", voyage=v))
    assert st.is_over and st.outcome == "lost"


def test_event_3_good_weather_each_player_fuel_plus_1() -> None:
    st = fresh(2)
    reveal(st, 3)
    assert [st.player(s)["fuel"] for s in range(2)] == [6, 6]


def test_event_3_into_8_to_10_gives_no_band_morale() -> None:
    st = fresh(2)
    reveal(st, 3, fuel=8)  # open voyage: 7 (no band), event: 8
    assert st.player(0)["fuel"] == 8
    assert st.player(0)["morale"] == 5


def test_event_fuel_gain_above_maximum_overflows_to_morale() -> None:
    st = fresh(2)
    reveal(st, 20, fuel=9)  # coastal voyage: 7
    take(st, "event", crew(sailors=2))
    assert st.player(0)["fuel"] == 10
    assert st.player(0)["morale"] == 5 + 0
    st2 = fresh(2)
    reveal(st2, 20, fuel=10)  # 8 (+1 morale band), event +3 -> 11: 1 over
    take(st2, "event", crew(sailors=2))
    assert st2.player(0)["fuel"] == 10
    assert st2.player(0)["morale"] == 5 + 1 + 1


def test_event_4_freezing_wind_sled_counts_1_lower_this_round() -> None:
    st = fresh(2)
    reveal(st, 4, sled=3, dogs=10, pp=10)
    kit.set_player(st, 1, sled=1, dogs=10)
    ev = take(st, "explore", crew(captain=1, sailors=1))
    assert deltas(ev, "explore") == {0: SLED_PP[2]}
    assert st.player(0)["sled"] == 3  # the track itself is not lowered
    # seat 1 at sled 1 counts 0: no Explore
    assert st.current_player == 1
    assert "explore" not in spaces(st)
    assert_illegal(st, Action("take", space="explore", crew=crew(captain=1, sailors=1)))


def test_event_4_lasts_only_this_round() -> None:
    st = fresh(2)
    reveal(st, 4, sled=1, dogs=3)
    assert "explore" not in spaces(st)
    assert_illegal(st, Action("take", space="explore", crew=crew(captain=1, sailors=1)))
    calm(st)
    at_voyage(st, "philpots_island")
    kit.next_event(st, "open", 1)
    st.apply(Action("voyage", voyage="open"))
    resolve(st)
    assert "explore" in spaces(st)


def test_event_5_endless_twilight_morale_minus_1_applying_mutiny() -> None:
    st = fresh(2)
    mutiny = max(k for k, v in C.morale.effects.items() if v == "mutiny")
    ev = reveal(st, 5, morale=mutiny + 1, food=20)
    assert st.player(0)["morale"] == mutiny
    assert st.player(1)["morale"] == 4
    assert "mutiny" in [e.penalty for e in of_type(ev, AttritionPenalty) if e.seat == 0]
    assert st.player(0)["food"] == 20 - math.ceil(6 / 2)


def test_event_5_applies_death_at_zero() -> None:
    st = fresh(2)
    reveal(st, 5, morale=1, pp=20, sailors=3)
    assert st.player(0)["morale"] == 1
    assert st.player(0)["pp"] == 15
    assert st.player(0)["crew"]["sailors"] == 2


def test_event_7_great_storm_each_player_discards_1_resource_of_choice() -> None:
    st = fresh(3)
    at_voyage(st, "north_water", leader=1)
    for s in range(3):
        kit.set_player(st, s, fuel=6, dynamite=1, wood=1, rifles=1, dogs=1)
    kit.set_player(st, 0, dynamite=0, wood=0, rifles=0, dogs=2)  # one kind: no choice
    kit.next_event(st, "open", 7)
    st.apply(Action("voyage", voyage="open"))
    assert st.player(0)["dogs"] == 1
    order = []
    while st.pending == "discard":
        order.append(st.current_player)
        st.apply(Action("discard", resource="rifles"))
    assert order == [1, 2]
    assert [st.player(s)["rifles"] for s in range(3)] == [0, 0, 0]
    assert [st.player(s)["wood"] for s in range(3)] == [0, 1, 1]


def test_event_12_rats_food_minus_4_and_1_wood() -> None:
    st = fresh(2)
    at_voyage(st, "north_water")
    for seat in range(2):
        kit.set_player(st, seat, food=10, wood=2, fuel=6)
    kit.next_event(st, "open", 12)
    st.apply(Action("voyage", voyage="open"))
    assert [(st.player(s)["food"], st.player(s)["wood"]) for s in range(2)] == [(6, 1)] * 2


def test_event_12_as_far_as_possible_without_food_shortage_rules() -> None:
    st = fresh(2)
    ev = reveal(st, 12, food=3, wood=0, dogs=2, sailors=3, pp=10, species=["polar_bear_1"])
    p = st.player(0)
    assert (p["food"], p["wood"], p["dogs"], p["crew"]["sailors"]) == (0, 0, 2, 3)
    assert p["species"] == ["polar_bear_1"]
    assert deltas(ev) == {}
    assert st.pending == "action"


def test_event_18_hull_damage_1_wood_or_else_1_fuel() -> None:
    st = fresh(2)
    reveal(st, 18, wood=0)
    after = after_voyage_fuel(18)
    assert st.player(0)["wood"] == 0 and st.player(0)["fuel"] == after - 1
    assert st.player(1)["wood"] == 5 - 1 and st.player(1)["fuel"] == after
    assert st.pending == "action"  # fuel 3: no discard from an event


def test_event_18_without_wood_can_trigger_towing() -> None:
    st = fresh(2)
    at_voyage(st, "north_water", leader=0)
    kit.set_player(st, 0, fuel=9, wood=3, pp=20, towing=0)
    kit.set_player(st, 1, fuel=2, wood=0, dynamite=0, rifles=0, dogs=0, pp=20, towing=0)
    kit.next_event(st, "coastal", 18)
    ev = st.apply(Action("voyage", voyage="coastal"))
    assert [(t.towed, t.missing) for t in of_type(ev, Towing)] == [((1,), 1)]
    assert st.player(0)["wood"] == 2
    assert st.player(0)["fuel"] == 9 - 2 - 1


def test_event_19_sedna_all_inuit_go_to_the_infirmary() -> None:
    st = fresh(2)
    at_voyage(st, "north_water")
    kit.set_player(st, 0, inuit=2, fuel=6)
    kit.set_player(st, 1, inuit=0, fuel=6)
    kit.next_event(st, "coastal", 19)
    ev = st.apply(Action("voyage", voyage="coastal"))
    assert [(e.seat, e.crew) for e in of_type(ev, CrewToInfirmary)] == [(0, crew(inuit=2))]
    resolve(st)
    assert st.current_player == 0
    assert all(a.crew[4] == 0 for a in st.legal_actions() if a.kind == "take")


def test_event_23_pack_ice_each_player_discards_1_dynamite_if_any() -> None:
    st = fresh(2)
    at_voyage(st, "north_water")
    kit.set_player(st, 0, dynamite=0, fuel=6)
    kit.set_player(st, 1, dynamite=3, fuel=6)
    kit.next_event(st, "coastal", 23)
    st.apply(Action("voyage", voyage="coastal"))
    assert (st.player(0)["dynamite"], st.player(1)["dynamite"]) == (0, 2)


def test_event_24_trapped_food_minus_crew_count_with_shortage_rules() -> None:
    st = fresh(2)
    at_voyage(st, "north_water")
    kit.set_player(st, 0, food=20, sailors=3, inuit=1, fuel=6)
    kit.set_player(st, 1, food=2, sailors=3, inuit=0, fuel=6, dogs=2, pp=20, species=[])
    kit.next_event(st, "coastal", 24)
    ev = st.apply(Action("voyage", voyage="coastal"))
    assert st.player(0)["food"] == 20 - 7
    # seat 1: 6 needed, 2 food: two dogs (+2 food, -2 PP each)
    assert st.player(1)["food"] == 0 and st.player(1)["dogs"] == 0
    assert deltas(ev, "dog eaten") == {1: -4}


# ================================================================ action events


ACTION_EVENTS = {
    8: {"food": 8, "health": 2},
    10: {"rifles": 1, "fuel": 2},
    11: {"dynamite": 1, "fuel": 2},
    13: {"food": 6, "wood": 2},
    16: {"health": 1, "morale": 1, "food": 5},
    20: {"fuel": 3},
    21: {"wood": 4},
}


@pytest.mark.parametrize("number", sorted(ACTION_EVENTS))
def test_action_event_effect_only_for_the_player_who_takes_it(number: int) -> None:
    st = fresh(2)
    reveal(st, number)
    assert C.events[number].kind == "action"
    before = [st.player(s) for s in range(2)]
    sizes = {sum(a.crew) for a in takes(st, "event")}
    assert sizes == set(C.events[number].crew)
    size = min(sizes)
    a = next(a for a in takes(st, "event") if sum(a.crew) == size)
    st.apply(a)
    after = st.player(0)
    for k, v in ACTION_EVENTS[number].items():
        assert after[k] == before[0][k] + v, k
    assert st.player(1) == before[1]
    # one taker only
    assert takes(st, "event") == []
    assert_illegal(st, Action("take", space="event", crew=crew(sailors=min(C.events[number].crew))))


@pytest.mark.parametrize("number", [8, 9, 10, 11, 13, 16, 17, 20, 21, 22])
def test_action_event_crew_requirement(number: int) -> None:
    st = fresh(2)
    reveal(st, number)
    allowed = set(C.events[number].crew)
    assert {sum(a.crew) for a in takes(st, "event")} == allowed
    too_many = max(allowed) + 1
    assert_illegal(st, Action("take", space="event", crew=crew(captain=1, sailors=too_many - 1)))


def test_immediate_events_are_not_action_spaces() -> None:
    st = fresh(2)
    reveal(st, 1)
    assert takes(st, "event") == []
    assert_illegal(st, Action("take", space="event", crew=crew(sailors=1)))


def test_event_9_inuk_guide_inuk_and_card_at_end_of_action_phase_then_maps_on_open_sea() -> None:
    st = fresh(2)
    reveal(st, 9)
    take(st, "event", crew(sailors=1))
    assert st.player(0)["crew"]["inuit"] == 0  # not yet
    pass_all(st)
    assert st.player(0)["crew"]["inuit"] == 1 and st.player(0)["inuit"] == 1
    assert 9 not in st.view(None)["ev_open_disc"]  # the player keeps the card
    calm(st)
    at_voyage(st, "philpots_island", leader=0)
    ev = st.apply(Action("voyage", voyage="open"))
    assert [(e.seat, e.region) for e in of_type(ev, RegionMapped)] == [(0, "devon")]
    assert deltas(ev, "mapping") == {0: RULES["mapping_pp"]}


def test_event_9_holder_does_not_map_on_open_sea_when_not_leader() -> None:
    st = fresh(2)
    reveal(st, 9)
    take(st, "event", crew(sailors=1))
    pass_all(st)
    calm(st)
    at_voyage(st, "philpots_island", leader=1)
    ev = st.apply(Action("voyage", voyage="open"))
    assert not of_type(ev, RegionMapped)


def test_event_17_interpreter_inuk_and_card_then_visit_the_inuit_with_1_inuk_plus_1_crew() -> None:
    st = fresh(2)
    reveal(st, 17)
    form = crew(sailors=1, inuit=1)
    assert_illegal(st, Action("take", space="visit_inuit", crew=form))
    take(st, "event", crew(sailors=1))
    pass_all(st)
    assert st.player(0)["crew"]["inuit"] == 1
    assert 17 not in st.view(None)["ev_coastal_disc"]
    kit.start_action_phase(st, leader=0)
    kit.set_player(st, 0, dogs=3, fuel=5)
    forms = {a.crew for a in takes(st, "visit_inuit")}
    assert form in forms
    take(st, "visit_inuit", form)
    assert (st.player(0)["dogs"], st.player(0)["fuel"]) == (4, 7)


def test_event_22_animal_tracks_species_card_to_the_taker_5_pp_if_first() -> None:
    st = fresh(2)
    ev = reveal(st, 22)
    shown = [e.cards for e in of_type(ev, CardsRevealed) if e.deck == "species"]
    assert len(shown) == 2  # the card beside the event, then the region's cards
    card = shown[0][0]
    assert card not in st.species_cards
    kit.set_player(st, 0, pp=10)
    ev = take(st, "event", crew(sailors=1))
    assert st.player(0)["species"] == [card]
    assert deltas(ev) == {0: RULES["discover_pp"]}


def test_event_22_species_already_discovered_gives_no_pp() -> None:
    st = fresh(2)
    at_voyage(st, "north_water")
    kit.next_event(st, "coastal", 22)
    top = st.sp_deck[0]
    st.discovered.append(C.species[top].species)
    st.apply(Action("voyage", voyage="coastal"))
    resolve(st)
    ev = take(st, "event", crew(sailors=1))
    assert st.player(0)["species"] == [top]
    assert deltas(ev) == {}


# ================================================================ events 25–28


def test_event_25_damaged_compass_left_player_moves_the_dynamite_and_fleet() -> None:
    st = fresh(3, options=EXTRA)
    at_voyage(st, "north_water", leader=0)
    for s in range(3):
        kit.set_player(st, s, fuel=6)
    kit.next_event(st, "open", 25)
    st.apply(Action("voyage", voyage="open"))
    assert st.pending == "compass" and st.current_player == 1
    opts = {a.to for a in st.legal_actions()}
    # other anchors reachable along a route from the previous anchor (cape_york)
    assert None in opts
    assert opts - {None} == {"cape_liverpool", "philpots_island", "pond_inlet"}
    st.apply(Action("compass", to="cape_liverpool"))
    assert st.fleet == "cape_liverpool"
    v = st.view(None)
    assert "cape_liverpool" in v["dyn_anchors"] and "north_water" not in v["dyn_anchors"]
    # card setup uses the final position (bylot: 1 species card)
    assert len(st.species_cards) == C.regions["bylot"].species


def test_event_25_declined_fleet_stays_at_the_destination() -> None:
    st = fresh(3, options=EXTRA)
    at_voyage(st, "north_water", leader=0)
    kit.next_event(st, "open", 25)
    st.apply(Action("voyage", voyage="open"))
    st.apply(Action("compass", to=None))
    assert st.fleet == "north_water"


@pytest.mark.parametrize(("shelter", "times"), [(False, 2), (True, 3)])
def test_event_26_school_of_fish_ice_fishing_twice_or_three_times_with_shelter(
    shelter: bool, times: int
) -> None:
    opts = {**EXTRA, "modes": ["shelters"]} if shelter else EXTRA
    st = fresh(2, options=opts)
    at_voyage(st, "north_water")
    if shelter:
        st.shelters_at.append(["north_water", 0])
        kit.set_player(st, 0, shelters=1)
    kit.set_player(st, 0, food=10, fuel=6)
    kit.next_event(st, "open", 26)
    st.apply(Action("voyage", voyage="open"))
    resolve(st)
    take(st, "ice_fishing", crew(sailors=2))
    assert st.player(0)["food"] == 10 + 2 * times


def test_event_27_bear_one_non_inuk_crew_to_infirmary_for_3_rifles_or_fewer() -> None:
    st = fresh(3, options=EXTRA)
    at_voyage(st, "north_water")
    for s, rifles in enumerate((3, 4, 0)):
        kit.set_player(st, s, rifles=rifles, fuel=6, inuit=1)
    kit.next_event(st, "coastal", 27)
    st.apply(Action("voyage", voyage="coastal"))
    seats = []
    while st.pending == "infirmary":
        seats.append(st.current_player)
        assert all(sum(a.crew) == 1 and a.crew[4] == 0 for a in st.legal_actions())
        st.apply(st.legal_actions()[0])
    assert seats == [0, 2]


def test_event_28_orca_walrus_hunting_cards_discarded_without_replacement() -> None:
    st = fresh(4, options=EXTRA)
    walrus = sorted(h.id for h in C.hunting.values() if h.walrus)
    other = sorted(h.id for h in C.hunting.values() if not h.walrus)
    at_voyage(st, "north_water")
    st.hu_deck[:] = [walrus[0], other[0], walrus[1]] + [
        h for h in st.hu_deck if h not in (walrus[0], other[0], walrus[1])
    ]
    kit.next_event(st, "coastal", 28)
    st.apply(Action("voyage", voyage="coastal"))
    resolve(st)
    assert st.hunting_cards == [other[0]]


# ================================================================ investors


def setup_with(investors: list[str], players: int = 2, seed: int = 3) -> State:
    st = new_game(players, seed)
    for s, inv in enumerate(investors):
        st.inv_opts[s] = [inv]
    st._legal = None
    while st.round == 0:
        st.apply(st.legal_actions()[0])
    return st


BONUS = {
    "felix_booth": {"wood": 1, "dynamite": 1, "food": 4},
    "parliament": {"dynamite": 2, "wood": 1},
    "admiralty": {"wood": 2, "food": 4},
    "british_museum": {"rifles": 1, "dynamite": 1, "wood": 1},
    "henry_grinell": {"dynamite": 1, "wood": 2},
    "royal_society": {"dynamite": 1, "wood": 2},
    "lady_franklin": {"rifles": 1, "food": 10},
    "north_west_company": {"wood": 2, "food": 4},
    "oxford": {"wood": 3},
    "hudson_bay": {"inuit": 1, "wood": 1},
    "royal_geographical": {"dynamite": 2, "wood": 1},
}


def test_there_are_11_investors() -> None:
    assert set(C.investors) == set(BONUS)


@pytest.mark.parametrize("inv", sorted(BONUS))
def test_investor_start_bonus(inv: str) -> None:
    other = "oxford" if inv != "oxford" else "admiralty"
    st = setup_with([inv, other])
    start = RULES["start_resources"]["2"]
    base = {**start, "food": 25, "inuit": 0}
    p = st.player(0)
    for k in ("dynamite", "wood", "rifles", "dogs", "food", "inuit"):
        assert p[k] == base[k] + BONUS[inv].get(k, 0), k
    if inv == "hudson_bay":
        assert p["crew"]["inuit"] == 1


def test_helm_goes_to_most_dynamite_after_investor_bonuses() -> None:
    st = setup_with(["oxford", "parliament"])
    assert st.leader == 1
    st = setup_with(["parliament", "oxford"])
    assert st.leader == 0


def end_game(st: State, fleet: str = "lands_end") -> list[Any]:
    kit.set_fleet(st, fleet)
    kit.start_action_phase(st, leader=st.leader)
    ev = pass_all(st)
    ev += st.apply(st.legal_actions()[0])
    ev += resolve(st)
    assert st.is_over
    return ev


def investor_game(
    inv: str,
    players: int = 2,
    seat0: dict[str, Any] | None = None,
    others: dict[str, Any] | None = None,
    prep=None,
) -> int:
    """Final scoring with seat 0 holding ``inv``; seat 1 leads the final voyage.
    Returns seat 0's investor reward."""
    st = fresh(players)
    for s in range(players):
        kit.set_player(st, s, dynamite=1, food=30, species=[], cabins=0, leads=0, explores=0)
    kit.set_player(st, 1, dynamite=3)
    kit.set_player(st, 0, investor=inv, **(seat0 or {}))
    for s in range(1, players):
        kit.set_player(st, s, **(others or {}))
    if prep:
        prep(st)
    ev = end_game(st)
    return deltas(ev, f"investor {C.investors[inv].name}").get(0, 0)


def test_felix_booth_met_and_not_met() -> None:
    assert investor_game("felix_booth") == 4
    # morale falls into the Mutiny zone in the final voyage's attrition
    assert investor_game("felix_booth", seat0={"morale": 3}) == 0
    # health falls to the Death space
    assert investor_game("felix_booth", seat0={"health": 1}) == 0


def test_felix_booth_mutiny_zone_counts_even_with_the_saloon() -> None:
    assert investor_game("felix_booth", seat0={"morale": 3, "upgrades": [6]}) == 0


def test_felix_booth_scurvy_zone_is_allowed() -> None:
    assert investor_game("felix_booth", seat0={"health": 3}) == 4


@pytest.mark.parametrize(("players", "need"), [(2, 5), (3, 4), (4, 4)])
def test_parliament_times_leader(players: int, need: int) -> None:
    assert investor_game("parliament", players, seat0={"leads": need}) == 5
    assert investor_game("parliament", players, seat0={"leads": need - 1}) == 0


def test_admiralty_5_explores() -> None:
    assert investor_game("admiralty", seat0={"explores": 5}) == 6
    assert investor_game("admiralty", seat0={"explores": 4}) == 0


def test_admiralty_counts_explore_actions() -> None:
    st = action_phase()
    kit.set_player(st, 0, explores=4, investor="admiralty")
    take(st, "explore", crew(captain=1, sailors=1))
    from erebus.games.iceandsnow.scoring import investor_met

    assert investor_met(st, 0)


def test_british_museum_more_different_species_than_any_other() -> None:
    mine = {"species": ["polar_bear_1", "arctic_fox_1", "lemming_1"]}
    assert (
        investor_game(
            "british_museum",
            seat0=mine,
            others={"species": ["caribou_1", "caribou_2", "musk_ox_1"]},
        )
        == 7
    )
    # a tie is not "more"
    assert (
        investor_game(
            "british_museum", seat0=mine, others={"species": ["caribou_1", "musk_ox_1", "ermine_1"]}
        )
        == 0
    )
    # two cards of one species count once
    assert (
        investor_game(
            "british_museum",
            seat0={"species": ["polar_bear_1", "polar_bear_2"]},
            others={"species": ["caribou_1"]},
        )
        == 0
    )


def test_henry_grinell_more_cabins_than_any_other() -> None:
    assert investor_game("henry_grinell", seat0={"cabins": 2}, others={"cabins": 1}) == 8
    assert investor_game("henry_grinell", seat0={"cabins": 1}, others={"cabins": 1}) == 0
    assert investor_game("henry_grinell", seat0={"cabins": 0}) == 0


def anchors(k: int) -> list[str]:
    ids = sorted(a for a in kit.game(2, 0).tables.anchors if a != "herschel_island")
    return ids[:k]


def test_royal_society_10_or_more_rounds() -> None:
    def dyn(k: int):
        return lambda st: st.dyn_anchors.__setitem__(slice(None), anchors(k))

    # the final anchor's dynamite counts (decision 12)
    assert investor_game("royal_society", prep=dyn(9)) == 7
    assert investor_game("royal_society", prep=dyn(8)) == 0


def test_royal_geographical_8_rounds_or_fewer() -> None:
    def dyn(k: int):
        return lambda st: st.dyn_anchors.__setitem__(slice(None), anchors(k))

    assert investor_game("royal_geographical", prep=dyn(7)) == 6
    assert investor_game("royal_geographical", prep=dyn(8)) == 0


def test_lady_franklin_4_inuit() -> None:
    assert investor_game("lady_franklin", seat0={"inuit": 4}) == 5
    assert investor_game("lady_franklin", seat0={"inuit": 3}) == 0


@pytest.mark.parametrize(("players", "need"), [(2, 5), (3, 4), (4, 3)])
def test_north_west_company_different_species_gained(players: int, need: int) -> None:
    kinds = ["polar_bear", "arctic_fox", "arctic_wolf", "musk_ox", "caribou"]
    cards = [f"{k}_1" for k in kinds]
    assert investor_game("north_west_company", players, seat0={"species": cards[:need]}) == 6
    assert investor_game("north_west_company", players, seat0={"species": cards[: need - 1]}) == 0


def test_north_west_company_eaten_species_still_count_as_gained() -> None:
    cards = ["polar_bear_1", "arctic_fox_1", "arctic_wolf_1", "musk_ox_1", "caribou_1"]

    def eat(st: State) -> None:
        kit.set_player(st, 0, species=cards)
        st.species[0] = cards[:2]  # three were eaten in a shortage

    assert investor_game("north_west_company", prep=eat) == 6


def test_oxford_3_cabins() -> None:
    assert investor_game("oxford", seat0={"cabins": 3}) == 6
    assert investor_game("oxford", seat0={"cabins": 2}) == 0


def test_hudson_bay_5_mapped_regions_by_anyone() -> None:
    def mapped(k: int):
        regs = ["baffin", "devon", "bylot", "lancaster", "somerset"]
        return lambda st: st.mapped.__setitem__(slice(None), regs[:k])

    assert investor_game("hudson_bay", prep=mapped(5)) == 6
    assert investor_game("hudson_bay", prep=mapped(4)) == 0


# ================================================================ upgrades


COST = {1: 4, 2: 3, 3: 3, 4: 4, 5: 5, 6: 2, 7: 2, 8: 1, 9: 1, 10: 2, 11: 1}
COPIES = {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 7: 2, 8: 2, 9: 2, 10: 1, 11: 1}


def upgrade(st: State, tile: int) -> list[Any]:
    return take(st, "upgrade_ship", crew(carpenter=1, sailors=1), tile=tile)


@pytest.mark.parametrize("tile", sorted(COST))
def test_upgrade_cost_in_wood(tile: int) -> None:
    st = action_phase(options=ALL)
    kit.set_player(st, 0, wood=COST[tile] - 1)
    assert tile not in {a.tile for a in takes(st, "upgrade_ship")}
    assert_illegal(
        st, Action("take", space="upgrade_ship", crew=crew(carpenter=1, sailors=1), tile=tile)
    )
    kit.set_player(st, 0, wood=COST[tile])
    upgrade(st, tile)
    assert st.player(0)["wood"] == 0
    assert st.player(0)["upgrades"] == [tile]


def test_base_game_offers_upgrades_1_to_6_only() -> None:
    st = action_phase()
    kit.set_player(st, 0, wood=9)
    assert {a.tile for a in takes(st, "upgrade_ship")} == {1, 2, 3, 4, 5, 6}
    for tile in range(7, 12):
        assert_illegal(
            st, Action("take", space="upgrade_ship", crew=crew(carpenter=1, sailors=1), tile=tile)
        )
    st = action_phase(options=ALL)
    kit.set_player(st, 0, wood=9)
    assert {a.tile for a in takes(st, "upgrade_ship")} == set(range(1, 12))


@pytest.mark.parametrize("tile", sorted(COPIES))
def test_upgrade_copies_limit(tile: int) -> None:
    st = action_phase(3, options=ALL)
    for s in range(3):
        kit.set_player(st, s, wood=9)
    for _ in range(COPIES[tile]):
        upgrade(st, tile)
    assert tile not in {a.tile for a in takes(st, "upgrade_ship")}
    assert_illegal(
        st, Action("take", space="upgrade_ship", crew=crew(carpenter=1, sailors=1), tile=tile)
    )


@pytest.mark.parametrize("tile", range(1, 12))
def test_upgrade_not_twice(tile: int) -> None:
    st = action_phase(options=ALL)
    kit.set_player(st, 0, wood=9, upgrades=[tile])
    assert tile not in {a.tile for a in takes(st, "upgrade_ship")}
    assert_illegal(
        st, Action("take", space="upgrade_ship", crew=crew(carpenter=1, sailors=1), tile=tile)
    )


@pytest.mark.parametrize(
    ("owned", "morale", "wood"), [([], 0, 0), ([1], 1, 0), ([1, 2], 0, 1), ([1, 2, 3], 1, 0)]
)
def test_upgrade_leftmost_space_bonus(owned: list[int], morale: int, wood: int) -> None:
    st = action_phase()
    kit.set_player(st, 0, wood=2, upgrades=owned, morale=4)
    upgrade(st, 6)
    assert st.player(0)["upgrades"] == [*owned, 6]
    assert st.player(0)["morale"] == 4 + morale
    assert st.player(0)["wood"] == wood


def test_upgrade_only_4_spaces() -> None:
    st = action_phase()
    kit.set_player(st, 0, wood=9, upgrades=[1, 2, 3, 4])
    assert takes(st, "upgrade_ship") == []
    assert_illegal(
        st, Action("take", space="upgrade_ship", crew=crew(carpenter=1, sailors=1), tile=6)
    )


@pytest.mark.parametrize(
    ("tile", "space", "proxy_crew", "kw"),
    [
        (1, "improve_sled", crew(sailors=2), {}),
        (4, "discover", crew(sailors=2), {"card": "polar_bear_1"}),
        (5, "hire_inuk", crew(sailors=2), {}),
    ],
)
def test_upgrades_1_4_5_proxy_officer(
    tile: int, space: str, proxy_crew: tuple[int, ...], kw: dict[str, Any]
) -> None:
    st = action_phase()
    kit.set_player(st, 0, upgrades=[tile], wood=3, inuit=0)
    kit.reveal(st, species=["polar_bear_1"])
    kit.start_action_phase(st, leader=0)
    take(st, space, proxy_crew, **kw)
    # without the tile the same crew is not enough
    st2 = action_phase()
    kit.set_player(st2, 0, wood=3, inuit=0)
    kit.reveal(st2, species=["polar_bear_1"])
    kit.start_action_phase(st2, leader=0)
    assert not [a for a in takes(st2, space) if a.crew == proxy_crew]


def test_upgrade_2_galley_food_plus_2_at_boarding() -> None:
    st = fresh()
    kit.set_player(st, 0, upgrades=[2], food=10)
    kit.set_player(st, 1, upgrades=[], food=10)
    kit.start_boarding(st)
    assert st.player(0)["food"] == 10 + 2 - 6
    assert st.player(1)["food"] == 10 - 6


def test_upgrade_3_treatment_room_cancels_scurvy() -> None:
    st = fresh()
    kit.set_player(st, 0, health=3, upgrades=[3])
    kit.set_player(st, 1, health=3, upgrades=[])
    kit.start_round(st, leader=0)
    ev = st.apply(Action("destination", to="north_water"))
    assert [e.seat for e in of_type(ev, AttritionPenalty) if e.penalty == "scurvy"] == [1]
    assert st.pending == "infirmary" and st.current_player == 1


def test_upgrade_6_saloon_cancels_mutiny() -> None:
    st = fresh()
    kit.set_player(st, 0, morale=3, food=20, upgrades=[6])
    kit.set_player(st, 1, morale=3, food=20, upgrades=[])
    at_voyage(st, "north_water")
    assert st.player(0)["food"] == 20
    assert st.player(1)["food"] == 17


def test_upgrade_7_fishing_boat_needed_for_whales() -> None:
    whale = sorted(C.whales)[0]
    prey = C.whales[whale].prey
    st = action_phase(options=ALL)
    kit.set_player(st, 0, rifles=prey, inuit=1, sailors=3)
    kit.reveal(st, hunting=[whale])
    kit.start_action_phase(st, leader=0)
    assert takes(st, "hunt") == []
    assert_illegal(
        st, Action("take", space="hunt", crew=crew(sailors=prey - 1, inuit=1), card=whale)
    )
    kit.set_player(st, 0, upgrades=[7])
    hunts = takes(st, "hunt")
    assert hunts and all(a.card == whale and sum(a.crew) == prey for a in hunts)


def test_upgrade_8_boiler_pays_1_wood_instead_of_1_fuel_once_per_voyage_step() -> None:
    st = fresh(options=ALL)
    at_voyage(st, "north_water")
    kit.set_player(st, 0, upgrades=[8], wood=2, fuel=6)
    kit.set_player(st, 1, fuel=6)
    st.apply(Action("voyage", voyage="coastal"))
    assert st.pending == "boiler" and st.current_player == 0
    st.apply(Action("boiler", use=True))
    resolve(st)
    assert (st.player(0)["fuel"], st.player(0)["wood"]) == (5, 1)
    assert st.player(1)["fuel"] == 4


def test_upgrade_8_boiler_declined() -> None:
    st = fresh(options=ALL)
    at_voyage(st, "north_water")
    kit.set_player(st, 0, upgrades=[8], wood=2, fuel=6)
    st.apply(Action("voyage", voyage="open"))
    st.apply(Action("boiler", use=False))
    assert (st.player(0)["fuel"], st.player(0)["wood"]) == (5, 2)


def test_upgrade_9_mast_leader_picks_one_of_the_top_two_other_to_the_bottom() -> None:
    st = fresh(options=ALL)
    at_voyage(st, "north_water", leader=0)
    kit.set_player(st, 0, upgrades=[9])
    kit.next_event(st, "open", 3)
    kit.next_event(st, "open", 1)
    st.apply(Action("voyage", voyage="open"))
    assert st.pending == "mast" and st.current_player == 0
    assert {a.card for a in st.legal_actions()} == {"1", "3"}
    st.apply(Action("mast", card="3"))
    resolve(st)
    assert st.current_event == 3
    assert st.ev_open[-1] == 1


def test_upgrade_9_mast_look_is_an_undo_barrier() -> None:
    """The leader sees the top two event cards as the voyage is chosen: a reveal (the
    undo barrier), which names no card for the others."""
    from erebus.core.barrier import is_barrier
    from erebus.games.iceandsnow import SPEC
    from erebus.games.iceandsnow.events import EventCardsSeen

    st = fresh(options=ALL)
    at_voyage(st, "north_water", leader=0)
    kit.set_player(st, 0, upgrades=[9])
    ev = st.apply(Action("voyage", voyage="open"))
    seen = [e for e in ev if isinstance(e, EventCardsSeen)]
    assert [(e.seat, e.count) for e in seen] == [(0, 2)]
    assert seen[0].to_json() == {"type": "EventCardsSeen", "seat": 0, "count": 2}
    assert st.current_player == 0 and is_barrier(SPEC, 0, st, ev)


def test_upgrade_9_mast_only_when_leader() -> None:
    st = fresh(options=ALL)
    at_voyage(st, "north_water", leader=1)
    kit.set_player(st, 0, upgrades=[9])
    st.apply(Action("voyage", voyage="open"))
    assert st.pending != "mast"


@pytest.mark.parametrize(("tile", "pp"), [(10, 6), (11, 3)])
def test_upgrades_10_11_immediate_pp(tile: int, pp: int) -> None:
    st = action_phase(options=ALL)
    kit.set_player(st, 0, wood=COST[tile], pp=10)
    ev = upgrade(st, tile)
    assert deltas(ev) == {0: pp}
    assert st.player(0)["pp"] == 10 + pp
