"""Legendary Expeditions (reference §9.3, seed l. 1211–1340), rule by rule: the
set-up (explorer choice, ship and event per set, decks of 12), the passive
abilities A Franklin, B Parry, E McClintock, F McClure, I Back, the ship cards,
the explorer events 45–52 and 54 and event 47's power, hidden information and
saved games.  (C, D, G, H: ``test_module_legends_explorers.py``; J and 53: the
Amundsen's Voyage tests.)"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest

from erebus.core.errors import IllegalAction
from erebus.games.iceandsnow import kit, legends
from erebus.games.iceandsnow.actions import Action
from erebus.games.iceandsnow.events import (
    CrewToInfirmary,
    EventRevealed,
    ExplorerChosen,
    RegionMapped,
    SailorGained,
)
from erebus.games.iceandsnow.spec import reveals_hidden
from erebus.games.iceandsnow.state import State, new_game
from iceandsnow.legendskit import MODULE, legends_on  # noqa: F401
from iceandsnow.rulekit import RULES, TRACKS, at_voyage, calm, crew, deltas, of_type, take, takes

SETS = legends.sets()


def lg(players: int = 2, explorers: list[str] | None = None, seed: int = 1, **opts: Any) -> State:
    """A game with the module in round 1: these sets (default A, B, ...), calm tracks,
    no investor (so no objective scores)."""
    letters = explorers or list("ABCDEFGHIJ")[:players]
    modules = [MODULE, *opts.pop("modules", [])]
    st = kit.game(players, seed, {**opts, "modules": modules, "explorers": letters})
    calm(st)
    for s in range(players):
        kit.set_player(st, s, investor=None, carto=None)
    return st


def acting(st: State, leader: int = 0) -> State:
    kit.start_action_phase(st, leader=leader)
    assert st.pending == "action" and st.current_player == leader
    return st


def event_take(st: State, number: int, crew_: tuple[int, ...]) -> list[Any]:
    kit.set_event(st, number)
    return take(st, "event", crew_)


def base_deck_sizes() -> tuple[int, int]:
    st = kit.game(2, 1)
    return len(st.ev_open), len(st.ev_coastal)


# ------------------------------------------------------------------ set-up


def test_random_explorers_each_seat_is_dealt_two_and_keeps_one_in_seat_order() -> None:
    st = new_game(3, 7, {"modules": [MODULE]})
    assert st.pending == "explorer" and st.current_player == 0
    dealt = [pair[:] for pair in st.ex_dealt]
    assert all(len(p) == 2 for p in dealt)
    every = [k for p in dealt for k in p] + st.ex_box
    assert sorted(every) == sorted(SETS)  # 6 dealt, 4 in the box
    for seat in range(3):
        assert st.current_player == seat and st.pending == "explorer"
        assert [a.card for a in st.legal_actions()] == dealt[seat]
        keep = dealt[seat][1]
        ev = st.apply(Action("choose_explorer", card=keep))
        chosen = of_type(ev, ExplorerChosen)
        assert [(e.seat, e.set) for e in chosen] == [(seat, keep)]
        assert reveals_hidden(chosen[0])  # undo stops: the others learn the card
        assert st.explorer[seat] == keep and st.ex_dealt[seat] == []
        assert dealt[seat][0] in st.ex_box  # the other card goes back to the box
    assert st.pending == "setup"  # then the investor and cartography choice
    assert (len(st.ev_open), len(st.ev_coastal)) == base_deck_sizes()  # each keeps 12
    for k in st.explorer:
        num = int(SETS[k]["event"])
        assert num in (st.ev_open if st.content.events[num].deck == "open" else st.ev_coastal)


def test_the_choice_is_one_of_the_dealt_pair() -> None:
    st = new_game(2, 7, {"modules": [MODULE]})
    other = next(k for k in SETS if k not in st.ex_dealt[0])
    with pytest.raises(IllegalAction):
        st.apply(Action("choose_explorer", card=other))


def test_a_view_hides_the_other_pairs_and_the_box() -> None:
    st = new_game(3, 7, {"modules": [MODULE]})
    for seat in (0, 1, None):
        v = st.view(seat)
        assert v["ex_box"] == []
        for s in range(3):
            assert v["ex_dealt"][s] == (st.ex_dealt[s] if s == seat else [])
    unknown = st.view(1)["pools"]["explorers"]
    assert sorted(unknown) == sorted(set(SETS) - set(st.ex_dealt[1]))


def test_a_determinization_deals_the_other_pairs_from_the_unseen_cards() -> None:
    st = new_game(3, 7, {"modules": [MODULE]})
    st.apply(Action("choose_explorer", card=st.ex_dealt[0][0]))
    world = State.from_view(st.view(1), 99)
    assert world.ex_dealt[1] == st.ex_dealt[1]
    assert world.explorer[0] == st.explorer[0]
    mine = set(st.ex_dealt[1]) | {st.explorer[0]}
    assert len(world.ex_dealt[2]) == 2 and not mine & set(world.ex_dealt[2])
    assert sorted([*world.ex_box, *world.ex_dealt[1], *world.ex_dealt[2], world.explorer[0]]) == (
        sorted(SETS)
    )
    assert world.view(1) == st.view(1)
    again = world.clone()
    again.resample_hidden(5, seat=1)
    assert again.view(1) == st.view(1) and again.ex_dealt[1] == st.ex_dealt[1]


@pytest.mark.parametrize("letters", [["A", "B"], ["D", "I", "E"], ["C", "F", "G", "H"]])
def test_fixed_sets_go_in_seat_order_and_their_events_replace_a_card_of_their_deck(
    letters: list[str],
) -> None:
    st = new_game(len(letters), 3, {"modules": [MODULE], "explorers": letters})
    assert st.explorer == letters
    assert sorted(st.ex_box) == sorted(set(SETS) - set(letters))
    assert (len(st.ev_open), len(st.ev_coastal)) == base_deck_sizes()  # each deck keeps 12
    events = {int(SETS[k]["event"]) for k in letters}
    for num in events:
        deck = st.ev_open if st.content.events[num].deck == "open" else st.ev_coastal
        assert num in deck
    others = legends.event_numbers() - events
    assert not others & set(st.ev_open + st.ev_coastal + st.ev_box)
    assert len(st.ev_box) == len(events)  # the replaced cards, face down in the box
    assert not legends.event_numbers() & set(st.ev_box)


def test_the_decks_hold_12_cards_each() -> None:
    assert base_deck_sizes() == (12, 12)


@pytest.mark.parametrize(("letters", "sailors"), [(["D", "A"], 1), (["A", "B"], 0)])
def test_event_51_sets_one_sailor_aside(letters: list[str], sailors: int) -> None:
    st = lg(2, letters)
    assert st.ex_sailor == sailors


def test_without_the_module_no_explorer_event_is_in_a_deck() -> None:
    st = kit.game(2, 1)
    assert not legends.event_numbers() & set(st.ev_open + st.ev_coastal + st.ev_box)
    assert "explorer" not in st.to_json()


# ------------------------------------------------------------------ A Franklin


@pytest.mark.parametrize(
    ("fuel", "voyage", "morale", "discard"),
    [
        (9, "coastal", 1, False),  # 7: his 7–10 band (base: no effect)
        (8, "open", 1, False),
        (5, "coastal", 0, False),  # 3: no effect for him (base: discard)
        (4, "open", 0, False),
        (4, "coastal", 0, True),  # 2: his 0–2 band
    ],
)
def test_franklin_checks_his_own_fuel_bands(
    fuel: int, voyage: str, morale: int, discard: bool
) -> None:
    st = lg(2, ["A", "B"])
    at_voyage(st, "north_water")
    kit.set_player(st, 0, fuel=fuel, dynamite=1, wood=1, rifles=1, dogs=1)
    kit.set_player(st, 1, fuel=fuel, dynamite=1, wood=1, rifles=1, dogs=1)
    m0, m1 = st.player(0)["morale"], st.player(1)["morale"]
    st.apply(Action("voyage", voyage=voyage))
    assert st.player(0)["morale"] == m0 + morale
    asked = [d[1] for d in st.decisions if d[0] == "discard"]
    assert (0 in asked) == discard
    # seat 1 (Parry) keeps the base bands 8–10 / 4–7 / 0–3
    after = fuel - RULES["voyage_fuel"][voyage]
    assert st.player(1)["morale"] == m1 + (after >= 8)
    assert (1 in asked) == (after <= 3)


def test_franklin_with_walking_on_ice_maintenance_one_above_the_sled() -> None:
    from erebus.games.iceandsnow import walking_rules as wr

    st = lg(2, ["A", "B"], modules=["walking_on_ice"])
    for s in range(2):
        kit.set_player(st, s, sled=3, fuel=2)
    st._abandon("voluntary", [])  # the abandonment procedure itself (walking tests drive it)
    assert st.maint == [4, 3]  # his +1 after moving boards
    wr.set_maintenance(st, 0, 9, "test", [])
    wr.set_maintenance(st, 1, 9, "test", [])
    assert st.maint == [4, 3]  # at most 1 above his sled level; the others at it


# ------------------------------------------------------------------ B Parry


@pytest.mark.parametrize(("food", "pp"), [(0, 0), (3, 3), (8, 8), (9, 8), (10, 9), (13, 10)])
def test_parry_first_8_food_spaces_1_pp_each(food: int, pp: int) -> None:
    st = acting(lg(2, ["B", "A"]))
    kit.set_player(st, 0, wood=2, food=20, pp=10)
    ev = take(st, "build_cabin", crew(carpenter=1, sailors=1), food=food)
    assert deltas(ev, "cabin food").get(0, 0) == pp
    assert st.player(0)["pp"] == 10 + RULES["cabin_pp"] + pp


def test_others_keep_1_pp_per_2_food_spaces() -> None:
    st = acting(lg(2, ["A", "B"]))
    kit.set_player(st, 0, wood=2, food=20, pp=10)
    ev = take(st, "build_cabin", crew(carpenter=1, sailors=1), food=8)
    assert deltas(ev, "cabin food") == {0: 4}


# ------------------------------------------------------------------ E McClintock


@pytest.mark.parametrize(("letter", "extra"), [("E", 1), ("A", 0)])
def test_mcclintock_counts_one_dog_more_for_explore(letter: str, extra: int) -> None:
    st = acting(lg(2, [letter, "B"]))
    kit.set_player(st, 0, sled=4, dogs=2, pp=10)
    ev = take(st, "explore", crew(captain=1, sailors=1))
    dog_pp = TRACKS["dogs"]["explore_pp"]
    sled_pp = TRACKS["sled"]["explore_pp"]
    assert deltas(ev, "explore") == {0: min(sled_pp[4], dog_pp[2 + extra])}


def test_mcclintock_still_needs_a_real_dog() -> None:
    st = acting(lg(2, ["E", "B"]))
    kit.set_player(st, 0, dogs=0)
    assert not takes(st, "explore")


# ------------------------------------------------------------------ F McClure


def test_mcclure_trades_3_food_for_1_morale_at_boarding_as_often_as_he_likes() -> None:
    st = lg(2, ["F", "A"])
    kit.set_player(st, 0, food=20, morale=3)
    kit.start_boarding(st)
    assert st.pending == "benevolent" and st.current_player == 0
    food = st.player(0)["food"]  # after feeding (L6)
    assert food == 20 - st.fed_count(0)
    for k in (1, 2):
        st.apply(Action("benevolent", use=True))
        assert st.player(0)["food"] == food - 3 * k
        assert st.player(0)["morale"] == 3 + k
        assert st.pending == "benevolent"
    st.apply(Action("benevolent", use=False))
    assert st.pending != "benevolent"
    assert st.player(0)["food"] == food - 6


def test_mcclure_is_not_asked_with_less_than_3_food() -> None:
    st = lg(2, ["F", "A"])
    kit.set_player(st, 0, food=st.fed_count(0) + 2)
    kit.start_boarding(st)
    assert st.pending != "benevolent"
    st = lg(2, ["F", "A"])
    kit.set_player(st, 0, food=st.fed_count(0) + 4, morale=3)
    kit.start_boarding(st)
    st.apply(Action("benevolent", use=True))
    assert st.player(0)["food"] == 1 and st.pending != "benevolent"  # not asked again


def test_nobody_else_trades_food_for_morale() -> None:
    st = lg(2, ["A", "B"])
    kit.set_player(st, 0, food=20)
    kit.start_boarding(st)
    assert st.pending != "benevolent"


# ------------------------------------------------------------------ I Back, ship cards


def upgrade(st: State, tile: int, slot: int | None = None) -> list[Any]:
    return take(st, "upgrade_ship", crew(carpenter=1, sailors=1), tile=tile, slot=slot)


def test_back_may_put_the_tile_on_any_empty_space_and_takes_that_spaces_bonus() -> None:
    st = acting(lg(2, ["I", "A"]))
    kit.set_player(st, 0, wood=20, morale=3)
    slots = {a.slot for a in takes(st, "upgrade_ship")}
    assert slots == {None, 2, 3, 4}  # None: the leftmost
    bonuses = st.upgrade_space_bonuses()
    wood = st.player(0)["wood"]
    ev = upgrade(st, 6, slot=3)
    assert bonuses[2] == {"wood": 1}
    cost = st.content.upgrades[6].cost
    ship = SETS["I"]["ship_rewards"]
    assert st.player(0)["wood"] == wood - cost + 1 + ship.get("wood", 0)
    assert st.ex_spaces[0] == 1 << 2
    assert legends.free_spaces(st, 0) == [0, 1, 3]
    assert any(type(e).__name__ == "UpgradeBuilt" and e.space == 3 for e in ev)


def test_back_leftmost_default_fills_the_first_free_space() -> None:
    st = acting(lg(2, ["I", "A"]))
    kit.set_player(st, 0, wood=20)
    st.ex_spaces[0] = 0b0001  # a tile on space 1 already
    kit.set_player(st, 0, upgrades=[2])
    assert legends.free_spaces(st, 0) == [1, 2, 3]
    upgrade(st, 6)
    assert st.ex_spaces[0] == 0b0011


def test_others_cannot_choose_the_space() -> None:
    st = acting(lg(2, ["A", "I"]))
    kit.set_player(st, 0, wood=20)
    assert {a.slot for a in takes(st, "upgrade_ship")} == {None}


@pytest.mark.parametrize("letter", list("ABCDEFGHI"))
def test_each_ship_card_adds_its_rewards_to_upgrade_the_ship(letter: str) -> None:
    other = "J" if letter != "J" else "A"
    st = acting(lg(2, [letter, other]))
    kit.set_player(st, 0, wood=20, morale=3, food=5, health=4, dogs=1, rifles=1, dynamite=1)
    before = st.player(0)
    upgrade(st, 6)  # the first space has no bonus
    after = st.player(0)
    rewards = SETS[letter]["ship_rewards"]
    cost = st.content.upgrades[6].cost
    for what in ("morale", "food", "health", "dogs", "rifles", "dynamite", "fuel", "wood"):
        want = before[what] + rewards.get(what, 0) - (cost if what == "wood" else 0)
        assert after[what] == want, what


# ------------------------------------------------------------------ explorer events


def test_45_theatre_1_morale_per_crew_assigned() -> None:
    st = acting(lg(2, ["B", "A"]))
    kit.set_player(st, 0, morale=2, sailors=3)
    event_take(st, 45, crew(captain=1, sailors=2))
    assert st.player(0)["morale"] == 5


def test_46_magnetic_north_pole_8_pp() -> None:
    st = acting(lg(2, ["C", "A"]))
    ev = event_take(st, 46, crew(captain=1, sailors=1))
    assert deltas(ev) == {0: 8}


def test_49_damaged_food_cans_each_health_down_1_with_space_effects() -> None:
    st = lg(2, ["A", "B"])
    kit.set_player(st, 0, health=6)
    kit.set_player(st, 1, health=6)
    ev: list[Any] = []
    st._reveal_event(49, ev)
    assert st.player(0)["health"] == 5 and st.player(1)["health"] == 5


def test_50_inukshuk_morale_1_and_6_pp() -> None:
    st = acting(lg(2, ["G", "A"]))
    kit.set_player(st, 0, morale=2)
    ev = event_take(st, 50, crew(scientist=1))
    assert deltas(ev) == {0: 6} and st.player(0)["morale"] == 3


def test_51_rescue_morale_2_and_the_set_aside_sailor_into_the_infirmary() -> None:
    st = acting(lg(2, ["D", "A"]))
    kit.set_player(st, 0, morale=2)
    sailors = st.player(0)["crew"]["sailors"]
    ev = event_take(st, 51, crew(captain=1, sailors=1))
    assert st.player(0)["morale"] == 4
    assert st.player(0)["crew"]["sailors"] == sailors + 1
    assert st.ex_sailor == 0
    assert of_type(ev, SailorGained) and (0, 0, 0, 1, 0) in [
        e.crew for e in of_type(ev, CrewToInfirmary)
    ]
    assert st.avail_crew(0)[3] == sailors - 1  # the placed one; the new one rests


def test_52_on_foot_morale_2_and_1_pp_per_crew_captain_included() -> None:
    st = acting(lg(2, ["F", "A"]))
    kit.set_player(st, 0, morale=2, sailors=3)
    ev = event_take(st, 52, crew(captain=1, sailors=2))
    assert deltas(ev) == {0: 3} and st.player(0)["morale"] == 4


def test_54_iceberg_fuel_1_then_a_wood_or_a_crew_member_to_the_infirmary() -> None:
    st = lg(2, ["I", "A"])
    kit.set_player(st, 0, fuel=5, wood=2)
    kit.set_player(st, 1, fuel=5, wood=0)
    ev: list[Any] = []
    st._reveal_event(54, ev)
    assert st.player(0)["fuel"] == 4 and st.player(1)["fuel"] == 4
    assert st.player(0)["wood"] == 1
    assert [d[:2] for d in st.decisions] == [["infirmary", 1]]


def test_48_coastal_exploration_maps_the_region_and_reveals_the_next_coastal_card() -> None:
    st = lg(2, ["H", "A"])
    at_voyage(st, "north_water")
    region = st.region_of("north_water")
    nxt = next(x for x in st.ev_coastal if x != 48 and st.content.events[x].kind == "action")
    kit.next_event(st, "coastal", nxt)
    kit.next_event(st, "coastal", 48)
    pp0 = st.player(0)["pp"]
    ev = st.apply(Action("voyage", voyage="coastal"))
    revealed = [e.number for e in of_type(ev, EventRevealed)]
    assert revealed == [48, nxt]
    assert all(reveals_hidden(e) for e in of_type(ev, EventRevealed))  # undo stops
    assert st.event == nxt  # L5: the revealed card is this round's event card
    assert 48 in st.ev_coastal_disc
    mapped = of_type(ev, RegionMapped)
    assert [m.region for m in mapped] == [region]  # once: the voyage mapped it first
    assert st.player(0)["pp"] >= pp0 + RULES["mapping_pp"]


def test_48_maps_an_unmapped_region_for_the_leader() -> None:
    st = lg(2, ["H", "A"])
    kit.set_fleet(st, "north_water")
    st.leader = 1
    ev: list[Any] = []
    kit.next_event(st, "coastal", 2)
    st.event = 48
    st._reveal_event(48, ev)
    assert [(m.seat, m.region) for m in of_type(ev, RegionMapped)] == [
        (1, st.region_of("north_water"))
    ]
    assert deltas(ev, "mapping") == {1: RULES["mapping_pp"]}
    assert st.event == 2 and 48 in st.ev_coastal_disc


def test_47_skilled_hunter_inuk_and_card_at_boarding_then_1_rifle_less_with_an_inuk() -> None:
    st = acting(lg(2, ["E", "A"]))
    kit.set_player(st, 0, inuit=0)
    event_take(st, 47, crew(scientist=1))
    assert st.ex_due[0] == ["skilled_hunter"]
    pool = st.inuit_pool
    kit.start_boarding(st)
    assert st.ex_held[0] == ["skilled_hunter"] and st.ex_due[0] == []
    assert st.player(0)["inuit"] == 1 and st.inuit_pool == pool - 1
    # a hunting card of prey 2 with 1 rifle: only with an Inuk among the crew
    hunt_id = next(h for h, c in st.tables.hunting_all.items() if c.prey == 2 and not c.whale)
    kit.reveal(st, hunting=[hunt_id])
    acting(st)
    kit.set_player(st, 0, rifles=1, inuit=1, sailors=3)
    got = [a for a in takes(st, "hunt") if a.card == hunt_id]
    assert got and all(a.crew[4] >= 1 for a in got)
    kit.set_player(st, 1, rifles=1, inuit=1)
    acting(st, leader=1)
    assert not [a for a in takes(st, "hunt") if a.card == hunt_id]  # not for the others


# ------------------------------------------------------------------ saved games


def test_round_trip_and_the_fields_only_with_the_module() -> None:
    st = new_game(3, 11, {"modules": [MODULE]})
    st.apply(st.legal_actions()[0])
    d = st.to_json()
    for key in ("explorer", "ex_dealt", "ex_box", "ex_held", "ex_due", "ex_sailor", "ex_spaces"):
        assert key in d
    back = State.from_json(json.loads(json.dumps(d)))
    assert back == st and back.legal_actions() == st.legal_actions()
    plain = kit.game(2, 1).to_json()
    assert not {"explorer", "ex_dealt", "ex_box"} & set(plain)


@pytest.mark.parametrize(
    ("key", "value", "problem"),
    [
        ("explorer", ["K", ""], "unknown set"),
        ("explorer", ["A", "A"], "two places"),
        ("ex_dealt", [["C"], []], "two cards"),
        ("ex_held", [["flying"], []], "power"),
        ("ex_sailor", -1, "set-aside"),
        ("ex_spaces", [0], "upgrade spaces"),
    ],
)
def test_a_damaged_save_is_refused(key: str, value: Any, problem: str) -> None:
    st = lg(2, ["A", "B"])
    d = st.to_json()
    d[key] = value
    with pytest.raises(ValueError, match=problem):
        State.from_json(d)


def test_same_seed_same_game() -> None:
    a = new_game(3, 5, {"modules": [MODULE]})
    b = new_game(3, 5, {"modules": [MODULE]})
    assert a.to_json() == b.to_json()
    for _ in range(40):
        if a.is_over:
            break
        act = a.legal_actions()[-1]
        a.apply(act)
        b.apply(act)
    assert a.to_json() == b.to_json()
    assert Counter(a.explorer) == Counter(b.explorer)


# ------------------------------------------------------------------ the browser's decisions


def test_the_wire_view_words_the_explorer_choice_and_mcclure_trade() -> None:
    from erebus.games.iceandsnow.spec import SPEC

    st = new_game(2, 3, {"modules": [MODULE]})
    mine = SPEC.wire_view(st, 0)["decision"]
    assert mine["kind"] == "explorer" and mine["mine"]
    got = {o["set"]: o for o in mine["options"]}
    assert sorted(got) == st.ex_dealt[0]
    k = st.ex_dealt[0][0]
    assert got[k]["explorer"] == SETS[k]["explorer"] and got[k]["event"] == SETS[k]["event"]
    assert got[k]["action"] == {"type": "choose_explorer", "card": k}
    theirs = SPEC.wire_view(st, 1)["decision"]
    assert theirs == {"kind": "explorer", "seat": 0, "mine": False}  # no dealt card shown
    st = lg(2, ["F", "A"])
    kit.set_player(st, 0, food=20)
    kit.start_boarding(st)
    d = SPEC.wire_view(st, 0)["decision"]
    assert d["kind"] == "benevolent" and d["food"] == st.player(0)["food"]
    assert [(o["use"], o["food"], o["morale"]) for o in d["options"]] == [
        (True, -3, 1),
        (False, 0, 0),
    ]


def test_a_determinization_keeps_the_mast_cards_and_the_sets_events_in_their_decks() -> None:
    from erebus.games.iceandsnow.layout import MAST

    st = lg(2, ["B", "A"])  # events 45 and 49: both in the open-sea deck
    kit.set_player(st, 0, upgrades=[MAST])
    at_voyage(st, "north_water")
    st.apply(Action("voyage", voyage="open"))
    assert st.pending == "mast" and st.current_player == 0
    top = [int(x) for x in st.decisions[0][2:4]]
    view = st.view(0)
    for seed in range(30):
        world = State.from_view(view, seed)
        assert world.ev_open[:2] == top
        assert {45, 49} <= set(world.ev_open) | set(top)  # never dealt into the box
        # (the kit's "no investor" is not a real position: investors left out)
        again = {k: v for k, v in world.view(0).items() if k != "investor"}
        assert again == {k: v for k, v in view.items() if k != "investor"}
