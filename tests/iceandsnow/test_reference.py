"""The shipped Through Ice and Snow data against the rules reference.

These tables restate values the reference gives (rules values, the action-board
spaces, the investor, upgrade and event tables, the solo scenario set-ups).
They live in the tests, not in the validator: a data set changed on purpose (a
house rule, the Myths & Legends expansion) loads, and these tests say where it
departs from the reference.  :func:`reference_problems` gives one message per
departure, worded as the validator used to word them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from erebus.games.iceandsnow.content import Content, default_content, parse_content, read_data
from iceandsnow.datakit import Raw

# -- values stated by the reference -------------------------------------------

# §4.6 / §11.2 A1: every action-board space, its column and slots for 1..4 players
# (None = unlimited); 10.5: Recycle 1/1/2/2 (docs/iceandsnow-decisions.md #5).
ONE = (1, 1, 1, 1)
SPACES: dict[str, tuple[str, tuple[int | None, ...], bool]] = {
    # id: (column, slots for 1..4 players, final)
    "lead": ("captain", ONE, False),
    "explore": ("captain", (1, 1, 1, 2), False),
    "visit_inuit": ("captain", ONE, False),
    "hire_inuk": ("captain", (2, 2, 2, 2), False),
    "build_cabin": ("carpenter", ONE, False),
    "improve_sled": ("carpenter", ONE, False),
    "upgrade_ship": ("carpenter", (2, 2, 2, 2), False),
    "recycle_wood": ("carpenter", (1, 1, 2, 2), False),
    "discover": ("scientist", ONE, False),
    "hunt": ("scientist", (2, 2, 2, 3), False),
    "experiment": ("scientist", ONE, False),
    "exchange_captain": ("captain", ONE, False),
    "exchange_carpenter": ("carpenter", ONE, False),
    "exchange_scientist": ("scientist", ONE, False),
    "collect_captain": ("captain", ONE, False),
    "collect_carpenter": ("carpenter", ONE, False),
    "collect_scientist": ("scientist", ONE, False),
    "ice_fishing": ("general", (None, None, None, None), False),
    "trace_map": ("captain", ONE, True),
    "document_methods": ("carpenter", ONE, True),
    "lab_research": ("scientist", ONE, True),
    "vow_captain": ("captain", ONE, True),
    "vow_carpenter": ("carpenter", ONE, True),
    "vow_scientist": ("scientist", ONE, True),
}
# §4.6: crew requirement (need, totals) and paid wood / fuel.
REQUIREMENTS: dict[str, tuple[tuple[str, ...], tuple[int, ...], int, int]] = {
    "lead": (("captain",), (1,), 0, 0),
    "explore": (("captain",), (2, 3), 0, 0),
    "visit_inuit": (("captain", "inuit"), (3,), 0, 0),
    "hire_inuk": (("captain",), (2, 3), 0, 0),
    "build_cabin": (("carpenter",), (2,), 1, 0),
    "improve_sled": (("carpenter", "inuit"), (2,), 1, 0),
    "upgrade_ship": (("carpenter",), (2,), 0, 0),
    "recycle_wood": (("carpenter",), (), 0, 1),
    "discover": (("scientist",), (2,), 0, 0),
    "hunt": (("scientist", "inuit"), (), 0, 0),
    "experiment": (("scientist",), (3,), 1, 0),
    "exchange_captain": (("captain",), (1,), 0, 0),
    "exchange_carpenter": (("carpenter",), (1,), 0, 0),
    "exchange_scientist": (("scientist",), (1,), 0, 0),
    "collect_captain": (("captain",), (), 0, 0),
    "collect_carpenter": (("carpenter",), (), 0, 0),
    "collect_scientist": (("scientist",), (), 0, 0),
    "ice_fishing": ((), (), 0, 0),
    "trace_map": (("captain",), (2,), 0, 0),
    "document_methods": (("carpenter",), (2,), 0, 0),
    "lab_research": (("scientist",), (2,), 0, 0),
    "vow_captain": (("captain",), (1, 2), 0, 0),
    "vow_carpenter": (("carpenter",), (1, 2), 0, 0),
    "vow_scientist": (("scientist",), (1, 2), 0, 0),
}
# §6.1 / §11.2 A2: the placements the reference gives.
ABOVE_WAREHOUSE = {"explore": True, "hire_inuk": False, "improve_sled": True, "build_cabin": True}

# §8.1: the action (crew-icon) events; §10.1 / decisions #1-#2: the decks.
ACTION_EVENTS = frozenset({8, 9, 10, 11, 13, 16, 17, 20, 21, 22})
OPEN_EVENTS = frozenset([*range(1, 13), 25, 26])

# §8.2: investor -> (bonus, objective, params, reward)
INVESTORS: dict[str, tuple[dict[str, int], str, dict[str, int], int]] = {
    "felix_booth": ({"wood": 1, "dynamite": 1, "food": 4}, "never_death_or_mutiny", {}, 4),
    "parliament": ({"dynamite": 2, "wood": 1}, "times_leader", {"2": 5, "3": 4, "4": 4}, 5),
    "admiralty": ({"wood": 2, "food": 4}, "explores", {"n": 5}, 6),
    "british_museum": ({"rifles": 1, "dynamite": 1, "wood": 1}, "most_different_species", {}, 7),
    "henry_grinell": ({"dynamite": 1, "wood": 2}, "most_cabins", {}, 8),
    "royal_society": ({"dynamite": 1, "wood": 2}, "min_rounds", {"n": 10}, 7),
    "lady_franklin": ({"rifles": 1, "food": 10}, "inuit", {"n": 4}, 5),
    "north_west_company": (
        {"wood": 2, "food": 4},
        "different_species",
        {"2": 5, "3": 4, "4": 3},
        6,
    ),
    "oxford": ({"wood": 3}, "cabins", {"n": 3}, 6),
    "hudson_bay": ({"inuit": 1, "wood": 1}, "mapped_regions", {"n": 5}, 6),
    "royal_geographical": ({"dynamite": 2, "wood": 1}, "max_rounds", {"n": 8}, 6),
}

# §8.3: upgrade number -> (copies, cost)
UPGRADES = {
    1: (2, 4),
    2: (2, 3),
    3: (2, 3),
    4: (2, 4),
    5: (2, 5),
    6: (2, 2),
    7: (2, 2),
    8: (2, 1),
    9: (2, 1),
    10: (1, 2),
    11: (1, 1),
    14: (2, 3),  # Inuit Myths' Inuit Ritual Room (§9.2; seed l. 1188)
}

# §7.1 / §7.2
SCENARIOS: dict[str, dict[str, Any]] = {
    "lost-expedition": {
        "start": {"dynamite": 7, "wood": 6, "rifles": 2},
        "decks": {"coastal": [*range(14, 22), 23, 24], "open": [*range(1, 8), 9, 11, 12]},
    },
    "magnetic-north-pole": {
        "start": {"dynamite": 9, "wood": 3, "rifles": 2, "fuel": 8},
        "decks": {"coastal": [13, 14, 15, *range(17, 22), 23, 24], "open": list(range(1, 11))},
        "east_side": "B",
        "compass": {"N": 3, "S": 3, "W": 3, "E": 2},
        "requirements": {
            "N": {"explore": 7, "cabin_food": 4},
            "S": {"explore": 7, "cabin_food": 4},
            "W": {"explore": 13, "cabin_food": 4},
            "E": {"explore": 5, "cabin_food": 4},
        },
        "magnetise_section": "central_west",
    },
}

# rules.json values the reference states (§2, §4, §5, §6)
RULES: dict[str, Any] = {
    "start_pp": 10,
    "start_resources": {
        "1": {"dynamite": 3, "wood": 3, "rifles": 4, "dogs": 3},
        "2": {"dynamite": 4, "wood": 3, "rifles": 3, "dogs": 3},
        "3": {"dynamite": 3, "wood": 3, "rifles": 4, "dogs": 3},
        "4": {"dynamite": 3, "wood": 3, "rifles": 4, "dogs": 3},
    },
    "start_tracks": {
        "food": 25,
        "health": 4,
        "morale": 5,
        "fuel": 10,
        "sled": 1,
        "inuit": 0,
        "towing": 0,
    },
    "crew_start": {"captain": 1, "carpenter": 1, "scientist": 1, "sailors": 3, "inuit": 0},
    "hunting_cards_per_round": {"1": 2, "2": 2, "3": 2, "4": 3},
    "voyage_fuel": {"coastal": 2, "open": 1},
    "coastal_min_fuel_per_player": 2,
    "mapping_pp": 1,
    "discover_pp": 5,
    "dual_discover_pp": 8,
    "cabin_pp": 5,
    "cabin_food_per_pp": 2,
    "explore_morale": 2,
    "experiment": {"fuel": 2, "dynamite": 1},
    "visit_inuit": {"dogs": 1, "fuel": 2},
    "death_pp": -5,
    "shortage": {
        "dog_food": 2,
        "dog_pp": -2,
        "sailor_food": 2,
        "sailor_pp": -5,
        "missing_food_pp": -5,
    },
    "species_majority": [20, 10, 5],
    "cabins_majority": [15, 7],
    "shelter_majority": 4,
    "shelter_food": 2,
    "cartography_pp": 5,
    "trace_map_pp_per_token": 1,
    "lab_research_pp": 7,
    "document_pp_per_upgrade": 3,
    "final_pp": [6, 8],
    "rounds": {"min": 7, "max": 12},
}


#: Immediate PP of upgrade tiles (§8.3).
UPGRADE_PP = {10: 6, 11: 3}


def reference_problems(c: Content) -> list[str]:
    """Every departure of ``c`` from the reference tables above."""
    out: list[str] = []
    # board
    for sid in SPACES:
        if sid not in c.spaces:
            out.append(f"board: space {sid!r} (reference §4.6) is missing")
    for sid, sp in c.spaces.items():
        if sid not in SPACES:
            out.append(f"board: unknown space {sid!r} (reference §4.6 lists {len(SPACES)} spaces)")
            continue
        column, slots, final = SPACES[sid]
        if sp.column != column:
            out.append(f"board: space {sid!r} is in column {sp.column!r}, expected {column!r}")
        want = dict(zip((1, 2, 3, 4), slots, strict=True))
        if sp.slots != want:
            out.append(f"board: space {sid!r} has slots {sp.slots}, reference §2.3/§4.6: {want}")
        if sp.final != final:
            out.append(f"board: space {sid!r} final is {sp.final}, expected {final}")
        need, totals, wood, fuel = REQUIREMENTS[sid]
        if sp.need != need or sp.totals != totals:
            out.append(
                f"board: space {sid!r} needs {list(sp.need)} totals {list(sp.totals)}, "
                f"reference §4.6: {list(need)} totals {list(totals)}"
            )
        if sp.wood != wood or sp.fuel != fuel:
            out.append(
                f"board: space {sid!r} costs wood {sp.wood} fuel {sp.fuel}, expected {wood}/{fuel}"
            )
        if sid in ABOVE_WAREHOUSE and sp.above_warehouse != ABOVE_WAREHOUSE[sid]:
            out.append(
                f"board: space {sid!r} above_warehouse must be {ABOVE_WAREHOUSE[sid]} (reference §6.1)"
            )
    # events
    nums = sorted(c.events)
    if nums != list(range(1, 29)):
        out.append(f"cards: events must be numbered 1-28, not {nums}")
    for e in c.events.values():
        deck = "open" if e.number in OPEN_EVENTS else "coastal"
        if e.deck != deck:
            out.append(
                f"cards: event {e.number} is in the {e.deck} deck, expected {deck} (decisions #1-#2)"
            )
        kind = "action" if e.number in ACTION_EVENTS else "immediate"
        if e.kind != kind:
            out.append(f"cards: event {e.number} is {e.kind}, reference §8.1: {kind}")
        if e.optional != (e.number >= 25):
            out.append(f"cards: event {e.number} optional must be {e.number >= 25}")
    # investors
    for iid, (bonus, objective, params, reward) in INVESTORS.items():
        inv = c.investors.get(iid)
        if inv is None:
            out.append(f"cards: investor {iid!r} (reference §8.2) is missing")
            continue
        if (inv.bonus, inv.objective, inv.params, inv.reward) != (bonus, objective, params, reward):
            out.append(
                f"cards: investor {iid!r} is {inv.bonus} {inv.objective} {inv.params} {inv.reward} PP, "
                f"reference §8.2: {bonus} {objective} {params} {reward} PP"
            )
    for iid in c.investors:
        if iid not in INVESTORS:
            out.append(f"cards: unknown investor {iid!r}")
    # upgrades
    base_tiles = sorted(n for n, u in c.upgrades.items() if u.module is None)
    if base_tiles != list(range(1, 12)):
        out.append(f"cards: upgrades must be numbered 1-11, not {base_tiles}")
    raw_up = c.raw.get("cards", {}).get("upgrades", [])
    for num, u in c.upgrades.items():
        if num in UPGRADES and (u.copies, u.cost) != UPGRADES[num]:
            out.append(
                f"cards: upgrade {num} has {u.copies} copies cost {u.cost}, reference §8.3: {UPGRADES[num]}"
            )
        want_pp = UPGRADE_PP.get(num, 0)
        got_pp = next(
            (int(x.get("pp", want_pp)) for x in raw_up if x.get("number") == num), want_pp
        )
        if got_pp != want_pp:
            out.append(f"cards: upgrade {num} gives {got_pp} PP at once, reference §8.3: {want_pp}")
        if u.module is None and u.optional != (num >= 7):
            out.append(f"cards: upgrade {num} optional must be {num >= 7} (base game uses 1-6)")
    # scenarios
    for name, want_s in SCENARIOS.items():
        s = c.scenarios.get(name)
        if not isinstance(s, dict):
            out.append(f"scenarios: scenario {name!r} is missing")
            continue
        for key, value in want_s.items():
            if s.get(key) != value:
                out.append(f"scenarios: {name} {key} is {s.get(key)!r}, reference §7: {value!r}")
    # rules
    for key, value in RULES.items():
        if c.rules.get(key) != value:
            out.append(f"rules: {key} is {c.rules.get(key)!r}, reference: {value!r}")
    return out


def departures(mutate: Callable[[Raw], None]) -> str:
    """Load the shipped data after ``mutate`` (it still loads); the reference
    departures, one per line."""
    raw = read_data()
    mutate(raw)
    return "\n".join(reference_problems(parse_content(raw)))


def test_shipped_data_matches_the_reference() -> None:
    assert reference_problems(default_content()) == []


def test_40_hunting_cards_still_refused_at_load() -> None:
    # card counts stay with the validator (the map and engine checks build on them)
    raw = read_data()
    raw["cards"]["hunting"].pop()
    try:
        parse_content(raw)
    except ValueError as exc:
        assert "40 hunting cards, reference §1: 41" in str(exc)
    else:  # pragma: no cover
        raise AssertionError("40 hunting cards were accepted")


def test_event_deck_and_kind() -> None:
    def mutate(raw: Raw) -> None:
        raw["cards"]["events"][0]["deck"] = "coastal"
        for scen in raw["scenarios"].values():  # keep the scenario decks consistent
            if isinstance(scen, dict) and "decks" in scen:
                scen["decks"]["open"].remove(1)
                scen["decks"]["coastal"].append(1)
        raw["cards"]["events"][21]["kind"] = "immediate"
        raw["cards"]["events"][21]["crew"] = []
        raw["cards"]["events"][21]["effect"] = {"reveal": [{"op": "draw_species"}]}

    msg = departures(mutate)
    assert "event 1 is in the coastal deck, expected open" in msg
    assert "event 22 is immediate, reference §8.1: action" in msg


def test_investor_table() -> None:
    def mutate(raw: Raw) -> None:
        for i in raw["cards"]["investors"]:
            if i["id"] == "royal_society":
                i["params"] = {"n": 9}

    assert "investor 'royal_society'" in departures(mutate)


def test_scenario_values() -> None:
    def mutate(raw: Raw) -> None:
        raw["scenarios"]["lost-expedition"]["start"]["wood"] = 5
        raw["scenarios"]["magnetic-north-pole"]["decks"]["open"].append(11)

    msg = departures(mutate)
    assert "lost-expedition start" in msg
    assert "magnetic-north-pole decks" in msg


def test_rules_values() -> None:
    def mutate(raw: Raw) -> None:
        raw["rules"]["start_resources"]["2"]["rifles"] = 4

    assert "rules: start_resources" in departures(mutate)


def test_board_slots() -> None:
    def mutate(raw: Raw) -> None:
        for s in raw["board"]["spaces"]:
            if s["id"] == "recycle_wood":
                s["slots"]["3"] = 1

    assert "space 'recycle_wood' has slots" in departures(mutate)


def test_upgrade_table() -> None:
    def mutate(raw: Raw) -> None:
        raw["cards"]["upgrades"][0]["cost"] = 9
        raw["cards"]["upgrades"][9]["pp"] = 5

    msg = departures(mutate)
    assert "upgrade 1 has 2 copies cost 9, reference §8.3: (2, 4)" in msg
    assert "upgrade 10 gives 5 PP at once, reference §8.3: 6" in msg
