"""Walking on Ice's data (``data/walking.json``): every value the reference states
(§9.1, §11.5 S1–S6, §8.3) holds, our design stays within the rules (7–12 rounds,
route types, the new final area), and a broken file is refused at load."""

from __future__ import annotations

import copy
from collections import Counter
from typing import Any

import pytest

from erebus.games.iceandsnow.content import default_content, parse_content, read_data
from erebus.games.iceandsnow.walking_data import (
    ROUTE_KINDS,
    _paths,
    walking_content,
    walking_problems,
)

C = default_content()
W = C.walking
assert W is not None
V = walking_content(C)


# -- §11.5: the sled board -------------------------------------------------------------------


def test_s1_food_cap_level_1_is_20_and_level_3_is_28() -> None:
    assert W.level(1).food == 20
    assert W.level(3).food == 28


def test_s2_cargo_is_6_at_level_1_and_2_more_per_level() -> None:
    assert [m.cargo for m in W.maintenance] == [6 + 2 * (m.level - 1) for m in W.maintenance]
    assert (W.level(2).cargo, W.level(3).cargo) == (8, 10)


def test_s2_maintenance_tops_at_the_sled_track_and_starts_at_1() -> None:
    assert W.maintenance[0].level == 1
    assert W.max_maintenance == int(C.tracks["sled"]["max"])


def test_s3_guilt_starts_at_0_with_the_stated_voluntary_rates() -> None:
    bands = {(b["from"], b["to"]): b["guilt"] for b in W.abandon["voluntary_guilt"]}
    assert bands == {(8, 10): 3, (4, 7): 1}
    assert int(W.sled["guilt_max"]) >= 3 * 4 + 10  # room for 4 ships at fuel 8+ and penalties


def test_s5_three_upgrade_spaces_without_bonuses() -> None:
    assert W.sled["upgrade_spaces"] == [{}, {}, {}]


def test_s6_twenty_cans_five_each_at_abandonment() -> None:
    assert (W.cans["box"], W.abandon["cans"]) == (20, 5)
    assert (W.cans["open_food"], W.cans["open_health"], W.cans["cabin_food"]) == (5, -1, 5)


def test_the_reference_numbers_of_abandonment_and_crossing() -> None:
    assert W.abandon["forced_below_fuel"] == 4
    assert W.crossing["march_min_maintenance_per_player"] == 2  # 4 / 6 / 8 for 2 / 3 / 4
    assert W.raw["sick_sailor_pp"] == -5


# -- tiles, events, upgrades ---------------------------------------------------------------------


def test_the_tiles_cover_the_actions_the_reference_names() -> None:
    covers = {t: d["replaces"] for t, d in W.tiles.items()}
    assert covers == {
        "revisit_inuit": "visit_inuit",
        "tin_refining": "experiment",
        "sled_maintenance": "recycle_wood",
        "document_sled": "document_methods",
        "vow_dogs": "vow_carpenter",
    }
    for tid, base in covers.items():
        tile, under = V.spaces[tid], C.spaces[base]
        assert (tile.column, tile.slots, tile.final) == (under.column, under.slots, under.final)


def test_walking_events_29_to_36_form_their_own_deck() -> None:
    assert sorted(W.events) == list(range(29, 37))
    assert {e.deck for e in W.events.values()} == {"walking"}
    kinds = {n: e.kind for n, e in W.events.items()}
    assert [n for n, k in sorted(kinds.items()) if k == "action"] == [30, 31, 33, 36]
    assert not set(W.events) & set(C.events)  # not in a base game's decks


def test_upgrades_12_and_13() -> None:
    s, d = C.upgrades[12], C.upgrades[13]
    assert (s.name, s.copies, s.cost, s.module) == ("Storeroom", 2, 3, "walking_on_ice")
    assert (d.name, d.copies, d.cost, d.immune_events) == ("Deck Upgrade", 2, 2, (2, 6, 7, 14, 15))
    assert s.with_other_modules and d.with_other_modules


# -- the map ------------------------------------------------------------------------------------


def test_the_module_replaces_central_west_and_west_only() -> None:
    assert [s.id for s in V.sections] == [s.id for s in C.sections]
    assert V.sections[:2] == C.sections[:2]
    assert V.sections[2] is W.sections[0] and V.sections[3] is W.sections[1]


def test_every_route_type_is_used_with_its_costs() -> None:
    used = Counter(r.kind for s in W.sections for sd in s.sides.values() for r in sd.routes)
    assert set(used) == set(ROUTE_KINDS)
    for s in W.sections:
        for sd in s.sides.values():
            for r in sd.routes:
                assert r.dynamite == (1 if r.kind == "ice" else 0)
    assert W.route_kinds["broken_ice"]["fuel"] == W.route_kinds["ice"]["fuel"] == 1
    assert W.route_kinds["walking"]["abandoned_only"] is True


def test_two_new_final_round_spaces_per_side_lead_to_the_new_final_anchor() -> None:
    for s in W.sections:
        for sd in s.sides.values():
            finals = {a.id for a in sd.anchors if a.walking_final}
            blue_to_new = {r.src for r in sd.routes if r.dst in finals}
            if finals:
                assert len(finals) == 1 and len(blue_to_new) == 2
                assert all(a.blue for a in sd.anchors if a.id in blue_to_new)


def test_the_final_anchors_show_a_guilt_modifier_the_example_s_3_at_the_new_one() -> None:
    finals = [a for s in W.sections for sd in s.sides.values() for a in sd.anchors if a.is_final]
    assert all(a.guilt is not None and a.guilt > 0 for a in finals)
    assert {a.guilt for a in finals if a.walking_final} == {3}
    assert {a.final_pp for a in finals if not a.walking_final} == {6, 8}


def test_every_game_lasts_7_to_12_rounds_by_ship_and_on_foot() -> None:
    for walking in (False, True):
        paths = list(_paths(V, walking))
        assert paths
        assert all(7 <= len(p) - 2 <= 12 for _, p in paths)
    ship_ends = {p[-1] for _, p in _paths(V, False)}
    foot_ends = {p[-1] for _, p in _paths(V, True)}
    assert ship_ends == {"herschel_island", "point_barrow"}
    assert foot_ends == ship_ends | {"starvation_cove", "montreal_island"}


def test_the_shipped_data_have_no_problem() -> None:
    assert walking_problems(C) == []


# -- a broken file is refused at load -----------------------------------------------------------


def _broken(edit: Any) -> str:
    raw = copy.deepcopy(read_data())
    edit(raw["walking"])
    with pytest.raises(ValueError) as info:
        parse_content(raw)
    return str(info.value)


def test_a_wrong_stated_food_cap_is_refused() -> None:
    def edit(w: dict[str, Any]) -> None:
        w["sled_board"]["maintenance"][2]["food"] = 30

    assert "caps food at 30" in _broken(edit)


def test_a_wrong_cargo_is_refused() -> None:
    def edit(w: dict[str, Any]) -> None:
        w["sled_board"]["maintenance"][1]["cargo"] = 9

    assert "cargo" in _broken(edit)


def test_an_unknown_route_kind_is_refused() -> None:
    def edit(w: dict[str, Any]) -> None:
        w["sections"][0]["sides"]["A"]["routes"][0]["kind"] = "tunnel"

    assert "tunnel" in _broken(edit)


def test_an_ice_route_without_its_dynamite_is_refused() -> None:
    def edit(w: dict[str, Any]) -> None:
        for r in w["sections"][0]["sides"]["A"]["routes"]:
            if r["kind"] == "ice":
                r["dynamite"] = 0

    assert "extra dynamite" in _broken(edit)


def test_a_new_final_area_reachable_by_ship_is_refused() -> None:
    def edit(w: dict[str, Any]) -> None:
        for r in w["sections"][0]["sides"]["A"]["routes"]:
            if r["kind"] == "walking":
                r["kind"] = "sea"

    assert "without abandoning the ships" in _broken(edit)


def test_an_unknown_walking_effect_is_refused() -> None:
    def edit(w: dict[str, Any]) -> None:
        w["events"][0]["effect"]["reveal"][0]["op"] = "teleport"

    assert "teleport" in _broken(edit)


def test_a_content_without_walking_data_refuses_the_module() -> None:
    raw = copy.deepcopy(read_data())
    del raw["walking"]
    content = parse_content(raw)
    assert content.walking is None and 12 not in content.upgrades
    with pytest.raises(ValueError, match="no Walking on Ice data"):
        walking_content(content)
