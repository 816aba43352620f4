"""Walking on Ice's cards (reference §9.1, §8.3): walking events 29–36 and upgrades
12 (Storeroom) and 13 (Deck Upgrade), one test per card."""

from __future__ import annotations

from erebus.games.iceandsnow import kit
from erebus.games.iceandsnow.actions import Action
from erebus.games.iceandsnow.events import EventRevealed
from erebus.games.iceandsnow.layout import (
    CANS,
    FOOD,
    FUEL,
    HEALTH,
    INF,
    MORALE,
    RIFLES,
    SAILORS,
    WOOD,
    F,
)
from erebus.games.iceandsnow.state import new_game
from iceandsnow.walkkit import (
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


def reveal(number: int, **fields: object) -> tuple[object, list[object]]:
    """Abandoned on Peel Sound, walking event ``number`` on top, crossing to Victory Point
    by Walk; returns (state, events) with the reveal's decisions left open."""
    st = abandoned(sled=3, **fields)
    next_walk(st, number)
    ev = crossing(st, "victory_point", "walk")
    assert [e.number for e in ev if isinstance(e, EventRevealed)] == [number]
    return st, ev


def test_29_blizzard_food_minus_2_without_shortage_and_a_discard_cans_included() -> None:
    st = abandoned(sled=3)
    kit.set_player(st, 0, food=1, dynamite=0, wood=0, rifles=0, dogs=2)
    kit.set_player(st, 1, food=10)
    cans(st, 0, 2)
    next_walk(st, 29)
    ev = crossing(st, "victory_point", "walk")
    assert any(getattr(e, "reason", "") == "Blizzard" and getattr(e, "new", None) == 0 for e in ev)
    # seat 0's only cargo is 2 cans and it has 2 dogs: it chooses between them
    assert st.pending == "discard" and st.current_player == 0
    assert {a.resource for a in st.legal_actions()} == {"cans", "dogs"}
    st.apply(Action("discard", resource="cans"))
    assert st.p(0, CANS) == 1


def test_29_blizzard_discard_offers_cans() -> None:
    st = abandoned(sled=3)
    kit.set_player(st, 0, wood=1, dynamite=0, rifles=0)
    cans(st, 0, 1)
    next_walk(st, 29)
    crossing(st, "victory_point", "walk")
    while st.current_player != 0 or st.pending != "discard":
        st.apply(st.legal_actions()[0])
    assert {a.resource for a in st.legal_actions()} >= {"wood", "cans"}


def test_30_cabin_with_food_cans() -> None:
    st, _ = reveal(30)
    settle(st)
    kit.set_player(st, 0, wood=0)
    cans(st, 0, 0)
    action_phase(st)
    st.apply(takes(st, "event")[0])
    assert (st.p(0, WOOD), st.p(0, CANS)) == (2, 2)


def test_31_improved_equipment_pays_a_wood() -> None:
    st, _ = reveal(31)
    settle(st)
    st.maint[0] = 1
    kit.set_player(st, 0, wood=0, health=4, morale=4)
    action_phase(st)
    assert takes(st, "event") == []  # no wood, no card
    kit.set_player(st, 0, wood=1)
    st.apply(takes(st, "event")[0])
    assert (st.p(0, WOOD), st.maint[0], st.p(0, HEALTH), st.p(0, MORALE)) == (0, 2, 5, 5)


def test_32_severe_illness_a_sailor_rides_on_the_sled() -> None:
    st, _ = reveal(32)
    settle(st)
    assert st.sick == [1, 1]
    p = st.player(0)
    assert (
        p["sick_sailor"] == 1
        and p["cargo"] == st.p(0, 8) + st.p(0, 9) + st.p(0, 10) + st.p(0, CANS) + 1
    )
    action_phase(st)
    sailors = st.p(0, SAILORS)
    assert all(
        (a.crew or (0,) * 5)[3] <= sailors - 1 for a in st.legal_actions() if a.kind == "take"
    )
    assert st.fed_count(0) == 3 + sailors  # still fed
    pp = st.scores()[0]
    st.apply(Action("release_sailor"))
    assert st.sick[0] == 0 and st.p(0, SAILORS) == sailors - 1 and st.scores()[0] == pp - 5
    assert st.current_player == 0 and Action("release_sailor") not in st.legal_actions()


def test_32_the_sick_sailor_dies_first() -> None:
    st, _ = reveal(32)
    settle(st)
    ev: list[object] = []
    st._lose_sailor(0, "death", ev)
    assert st.sick[0] == 0


def test_33_abandoned_enclave() -> None:
    st, _ = reveal(33)
    settle(st)
    kit.set_player(st, 0, food=5)
    cans(st, 0, 0)
    action_phase(st)
    st.apply(takes(st, "event")[0])
    assert (st.p(0, FOOD), st.p(0, CANS)) == (11, 2)


def test_34_frostbite_two_crew_to_the_infirmary_not_inuit() -> None:
    st = abandoned(sled=3)
    kit.set_player(st, 0, inuit=2)
    next_walk(st, 34)
    crossing(st, "victory_point", "walk")
    while st.pending == "infirmary":
        opts = st.legal_actions()
        assert all(a.crew is not None and a.crew[4] == 0 and sum(a.crew) == 2 for a in opts)
        st.apply(opts[0])
    for s in range(2):
        assert sum(st.pv[F * s + INF : F * s + INF + 5]) == 2
    kit.start_boarding(st)
    assert sum(st.pv[INF : INF + 5]) == 0  # they recover in the Boarding step


def test_35_frozen_weapons_a_rifle_each() -> None:
    st = abandoned(sled=3)
    kit.set_player(st, 0, rifles=2)
    kit.set_player(st, 1, rifles=0)
    next_walk(st, 35)
    crossing(st, "victory_point", "walk")
    assert (st.p(0, RIFLES), st.p(1, RIFLES)) == (1, 0)


def test_36_learning_inuit_customs_morale_with_every_scientist_action() -> None:
    st, _ = reveal(36)
    settle(st)
    kit.set_player(st, 0, morale=4)
    action_phase(st)
    a = next(x for x in takes(st, "event") if x.crew is not None and x.crew[2] == 0)
    st.apply(a)
    assert st.customs[0] == 1
    kit.start_boarding(st)
    assert st.customs[0] == 2 and st.player(0)["inuit_customs"] == 1
    settle(st)
    kit.set_player(st, 0, morale=4)
    action_phase(st)
    fish = [a for a in takes(st, "ice_fishing") if sum(a.crew or ()) == 1]
    st.apply(next(a for a in fish if a.crew == (0, 0, 1, 0, 0)))
    assert st.p(0, MORALE) == 5
    st.current = 0
    st._legal = None
    st.apply(next(a for a in takes(st, "ice_fishing") if a.crew == (0, 0, 0, 1, 0)))
    assert st.p(0, MORALE) == 5  # no scientist, no morale


def test_36_is_kept_not_discarded() -> None:
    st, _ = reveal(36)
    settle(st)
    action_phase(st)
    st.apply(takes(st, "event")[0])
    kit.start_boarding(st)
    settle(st)
    st.step, st.phase = "cleanup", "flow"
    st._run([])
    assert 36 not in st.walk_disc and 36 not in st.walk_deck


def test_the_walking_deck_reshuffles_its_discards() -> None:
    st = abandoned(sled=3)
    st.walk_disc = st.walk_deck[1:]
    st.walk_deck = st.walk_deck[:1]
    first = st.walk_deck[0]
    assert st._walk_draw() == first
    assert st._walk_draw() is not None and st.walk_disc == []


# -- upgrades 12 and 13 ---------------------------------------------------------------------


def test_upgrades_12_and_13_are_in_a_walking_game_only() -> None:
    st = walking()
    assert st.upgrade_in_game(12) and st.upgrade_in_game(13)
    base = kit.game(2, 1, {"upgrades": "all"})
    assert not base.upgrade_in_game(12) and not base.upgrade_in_game(13)
    assert len(base.upg_left) == 12  # the base game's table is unchanged


def test_upgrades_12_and_13_join_another_module_with_every_tile() -> None:
    st = new_game(2, 1, {"modules": ["inuit_myths"], "upgrades": "all"})
    assert st.upgrade_in_game(12) and st.upgrade_in_game(13)
    st = new_game(2, 1, {"modules": ["inuit_myths"]})
    assert not st.upgrade_in_game(12)


def test_storeroom_no_discard_at_fuel_0_3() -> None:
    for tiles, discards in (([], True), ([12], False)):
        st = walking()
        kit.set_player(st, 0, fuel=4, upgrades=tiles, wood=2, rifles=2)
        kit.set_player(st, 1, fuel=9)
        at_leader_check(st, "maxwell_bay")
        st.apply(Action("destination", to="beechey_island"))
        settle(st)
        st.apply(Action("voyage", voyage="open"))
        assert st.p(0, FUEL) == 3
        assert (st.pending == "discard" and st.current_player == 0) is discards


def test_deck_upgrade_protects_from_events_2_6_7_14_15() -> None:
    for number in (2, 6, 14, 15):
        st = walking()
        kit.set_player(st, 0, upgrades=[13], fuel=6)
        kit.set_player(st, 1, fuel=6)
        deck = "open" if number in (2, 6) else "coastal"
        kit.next_event(st, deck, number)
        at_leader_check(st, "maxwell_bay")
        st.apply(Action("destination", to="beechey_island"))
        settle(st)
        st.apply(Action("voyage", voyage=deck))
        settle(st)
        cost = 1 if deck == "open" else 2
        assert st.p(0, FUEL) == 6 - cost, number
        assert st.p(1, FUEL) < 6 - cost, number


def test_deck_upgrade_protects_from_the_great_storm_only_its_owner() -> None:
    st = walking()
    kit.set_player(st, 0, upgrades=[13], fuel=9, wood=2)
    kit.set_player(st, 1, fuel=9, wood=2)
    kit.next_event(st, "open", 7)
    at_leader_check(st, "maxwell_bay")
    st.apply(Action("destination", to="beechey_island"))
    settle(st)
    st.apply(Action("voyage", voyage="open"))
    seats = set()
    while st.decisions:
        seats.add(st.current_player)
        st.apply(st.legal_actions()[0])
    assert seats == {1}


def test_deck_upgrade_does_not_protect_from_other_events() -> None:
    st = walking()
    kit.set_player(st, 0, upgrades=[13], food=20)
    kit.next_event(st, "open", 12)  # Rats on Board: food -4, wood -1
    at_leader_check(st, "maxwell_bay")
    st.apply(Action("destination", to="beechey_island"))
    settle(st)
    st.apply(Action("voyage", voyage="open"))
    assert st.p(0, FOOD) == 16
