"""The shipped Through Ice and Snow data set loads and passes the validator, and
the validator reports each kind of broken data with a message naming the culprit.
(Departures from the reference tables are tested in ``test_reference.py``.)

Every negative test starts from a fresh copy of the shipped JSON, breaks exactly
one thing and loads it with ``parse_content``.
"""

from __future__ import annotations

from typing import Any

import pytest

from erebus.games.iceandsnow.content import Content, default_content, parse_content, read_data
from erebus.games.iceandsnow.validate import (
    available_sled_level,
    check_content,
    map_paths,
    problems,
    round_range,
)
from iceandsnow.datakit import Raw, broken


def side(raw: Raw, section: str, name: str) -> Any:
    for s in raw["map"]["sections"]:
        if s["id"] == section:
            return s["sides"][name]
    raise KeyError(section)


def anchor(raw: Raw, section: str, name: str, aid: str) -> Any:
    for a in side(raw, section, name)["anchors"]:
        if a["id"] == aid:
            return a
    raise KeyError(aid)


# -- the shipped data ----------------------------------------------------------


def test_shipped_data_is_valid() -> None:
    c = default_content()
    assert problems(c) == []
    check_content(c)  # does not raise


def test_shipped_counts() -> None:
    c = default_content()
    assert len(c.species) == 32
    assert len(c.hunting) == 41
    assert len(c.dual) == 3
    assert len(c.whales) == 3
    assert len(c.cartography) == 10
    assert len(c.investors) == 11
    assert sorted(c.events) == list(range(1, 29))
    assert sorted(n for n, u in c.upgrades.items() if u.module is None) == list(range(1, 12))


def test_reference_values() -> None:
    c = default_content()
    assert c.regions["devon"].species == 2
    assert c.regions["st_patrick"].island
    assert c.health.start == 4 and c.morale.start == 5
    assert c.tracks["sled"]["explore_pp"][1] == 5
    assert c.tracks["dogs"]["explore_pp"][4] == 7
    assert available_sled_level(c.tracks["dogs"]["groups"], 3, 4) == 2
    assert c.tracks["towing"]["pp"]["-1"] == 5
    assert [e.number for e in c.events.values() if e.kind == "action"] == [
        8,
        9,
        10,
        11,
        13,
        16,
        17,
        20,
        21,
        22,
    ]
    assert {e.number for e in c.events.values() if e.deck == "open"} == {*range(1, 13), 25, 26}
    # the data files' "_design" headers are not scenarios or rules
    assert set(c.scenarios) == {
        "lost-expedition",
        "magnetic-north-pole",
        "mysterious-epidemic",
        "amundsens-voyage",
    }
    assert "_design" not in c.rules


def test_start_anchors() -> None:
    c = default_content()
    assert sum(a.start for a in c.side("east", "A").anchors) == 1
    assert sum(a.start for a in c.side("east", "B").anchors) == 2


def test_every_game_lasts_7_to_12_rounds() -> None:
    c = default_content()
    ranges = round_range(c)
    assert len(ranges) == 16  # every side combination has a complete path
    assert min(lo for lo, _ in ranges.values()) == 7
    assert max(hi for _, hi in ranges.values()) == 12
    for lo, hi in ranges.values():
        assert 7 <= lo <= hi <= 12
    # the base game (East side A) can also be as short as 7 and as long as 12
    base = [r for sides, r in ranges.items() if sides[0] == "A"]
    assert min(lo for lo, _ in base) == 7 and max(hi for _, hi in base) == 12


def test_paths_map_at_most_12_regions_and_end_at_a_final_anchor() -> None:
    for p in map_paths(default_content()):
        assert len(p.mappable) <= 12
        assert p.finals


def test_cartography_cards_achievable_and_uncertain() -> None:
    c = default_content()
    paths = map_paths(c)
    for card in c.cartography.values():
        regs = frozenset(card.regions)
        hits = sum(regs <= p.mappable for p in paths)
        assert 0 < hits < len(paths), card.id


def test_both_final_values() -> None:
    c = default_content()
    finals = {
        name: {a.final_pp for a in c.side("west", name).anchors if a.final_pp is not None}
        for name in ("A", "B")
    }
    assert finals == {"A": {6}, "B": {8}}


# -- broken copies ---------------------------------------------------------------


def test_too_long_route() -> None:
    def mutate(raw: Raw) -> None:
        sd = side(raw, "central_west", "A")
        sd["anchors"].append(
            {"id": "detour", "name": "Detour", "region": "kent_p", "x": -104.8, "y": 68.75}
        )
        sd["routes"] = [
            r for r in sd["routes"] if (r["from"], r["to"]) != ("kent_peninsula", "cambridge_bay")
        ]
        sd["routes"] += [
            {"from": "kent_peninsula", "to": "detour"},
            {"from": "detour", "to": "cambridge_bay"},
        ]

    msg = broken(mutate)
    assert "outside 7-12 rounds" in msg
    assert "13 rounds" in msg
    assert "detour" in msg


def test_too_short_route() -> None:
    def mutate(raw: Raw) -> None:
        side(raw, "west", "A")["routes"].append({"from": "winter_harbour", "to": "lands_end"})

    msg = broken(mutate)
    assert "outside 7-12 rounds" in msg and "6 rounds" in msg


def test_missing_region() -> None:
    def mutate(raw: Raw) -> None:
        raw["map"]["regions"] = [r for r in raw["map"]["regions"] if r["id"] != "kent_p"]

    msg = broken(mutate)
    assert "region 'kent_p' named by the reference is missing" in msg
    assert "unknown region 'kent_p'" in msg


def test_devon_must_reveal_two() -> None:
    def mutate(raw: Raw) -> None:
        for r in raw["map"]["regions"]:
            if r["id"] == "devon":
                r["species"] = 3

    assert "Devon reveals 3 species cards" in broken(mutate)


def test_duplicated_card_id() -> None:
    def mutate(raw: Raw) -> None:
        raw["cards"]["hunting"][1]["id"] = raw["cards"]["hunting"][0]["id"]

    msg = broken(mutate)
    assert f"card id {read_data()['cards']['hunting'][0]['id']!r} is duplicated" in msg


def test_duplicated_anchor_id() -> None:
    def mutate(raw: Raw) -> None:
        a = dict(anchor(raw, "east", "A", "north_water"))
        side(raw, "east", "B")["anchors"].append(a)

    assert "anchor id 'north_water' is used more than once but is not an edge anchor" in broken(
        mutate
    )


def test_40_hunting_cards() -> None:
    def mutate(raw: Raw) -> None:
        raw["cards"]["hunting"].pop()

    assert "40 hunting cards, reference §1: 41" in broken(mutate)


def test_dead_end() -> None:
    def mutate(raw: Raw) -> None:
        sd = side(raw, "central_east", "A")
        sd["routes"] = [r for r in sd["routes"] if r["from"] != "fury_beach"]

    msg = broken(mutate)
    assert "'fury_beach' has no outgoing route" in msg
    assert "dead end at 'fury_beach'" in msg


def test_cycle() -> None:
    def mutate(raw: Raw) -> None:
        side(raw, "west", "A")["routes"].append({"from": "mould_bay", "to": "mercy_bay"})

    assert "cycle through" in broken(mutate)


def test_route_back_east() -> None:
    def mutate(raw: Raw) -> None:
        side(raw, "central_east", "A")["routes"].append({"from": "maxwell_bay", "to": "croker_bay"})

    assert "goes back east across a section boundary" in broken(mutate)


def test_edge_anchor_copies_must_match() -> None:
    def mutate(raw: Raw) -> None:
        anchor(raw, "central_east", "B", "croker_bay")["y"] = 74.0

    assert "the copies of edge anchor 'croker_bay' differ" in broken(mutate)


def test_edge_anchor_missing_from_next_side() -> None:
    def mutate(raw: Raw) -> None:
        sd = side(raw, "central_west", "B")
        sd["anchors"] = [a for a in sd["anchors"] if a["id"] != "bellot_strait"]
        sd["routes"] = [r for r in sd["routes"] if r["from"] != "bellot_strait"]

    assert "edge anchor 'bellot_strait' is missing from central_west B" in broken(mutate)


def test_east_b_needs_two_starts() -> None:
    def mutate(raw: Raw) -> None:
        anchor(raw, "east", "B", "clyde_river")["start"] = False

    assert "east side B has 1 start anchor(s), expected 2" in broken(mutate)


def test_compass_ties_are_reported() -> None:
    def mutate(raw: Raw) -> None:
        anchor(raw, "central_west", "A", "cape_walker")["y"] = 73.2  # = Peel Sound

    assert "share an y coordinate" in broken(mutate)


def test_compass_needs_several_directions() -> None:
    def mutate(raw: Raw) -> None:
        # Coronation Gulf's neighbours are Cambridge Bay and Dolphin and Union Strait;
        # moved north-west of both, it has neighbours only to the east and south.
        a = anchor(raw, "west", "A", "coronation_gulf")
        a["x"], a["y"] = -116.0, 69.5

    assert "'coronation_gulf' has route neighbours only to the ES" in broken(mutate)


def test_sled_and_dog_values() -> None:
    def mutate(raw: Raw) -> None:
        raw["tracks"]["sled"]["explore_pp"][1] = 6
        raw["tracks"]["dogs"]["explore_pp"][4] = 6

    msg = broken(mutate)
    assert "level 1 caps Explore at 5" in msg
    assert "7 for 4 dogs" in msg


def test_dog_groups_follow_lost_expedition_example() -> None:
    def mutate(raw: Raw) -> None:
        raw["tracks"]["dogs"]["groups"] = [[1, 1], [2, 3], [4, 5], [6, 8], [9, 10]]

    assert "available level 2" in broken(mutate)


def test_cartography_card_impossible_and_unknown_region() -> None:
    def mutate(raw: Raw) -> None:
        # Baffin is visited on East B only from Clyde River, Jones Sound only from Carey Islands
        raw["cards"]["cartography"][0]["regions"] = ["baffin", "jones", "banks"]
        raw["cards"]["cartography"][1]["regions"] = ["devon", "atlantis", "banks"]

    msg = broken(mutate)
    assert "'cartography_1': no path visits all of ['baffin', 'banks', 'jones']" in msg
    assert "'cartography_2' names unknown region(s) ['atlantis']" in msg


def test_scenario_values() -> None:
    def mutate(raw: Raw) -> None:
        raw["scenarios"]["lost-expedition"]["start"]["wood"] = 5
        raw["scenarios"]["lost-expedition"]["search_cards"][1]["result"] = "survivors"
        raw["scenarios"]["magnetic-north-pole"]["decks"]["open"].append(13)

    msg = broken(mutate)
    # the reference values ("lost-expedition start", "magnetic-north-pole decks")
    # are checked by test_reference.py
    assert "exactly one lost-expedition search card" in msg
    assert "puts event 13 in the open deck" in msg


def test_malformed_track_is_a_problem_not_a_crash() -> None:
    def mutate(raw: Raw) -> None:
        del raw["tracks"]["fuel"]

    assert "tracks: malformed data" in broken(mutate)


def test_missing_field_is_value_error() -> None:
    def mutate(raw: Raw) -> None:
        del anchor(raw, "east", "A", "north_water")["region"]

    assert "game data is malformed" in broken(mutate)


def test_problems_lists_all_of_several_breaks() -> None:
    raw = read_data()
    raw["cards"]["hunting"].pop()
    raw["cards"]["species"].pop()
    c: Content | None = None
    with pytest.raises(ValueError) as exc:
        c = parse_content(raw)
    assert c is None
    msg = str(exc.value)
    assert "2 problem(s)" in msg
    assert "40 hunting" in msg and "31 species" in msg
