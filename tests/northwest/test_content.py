"""The packaged Northwest Passage content loads and validates, and the validator
catches each kind of broken constraint with a message that names the culprit.

Every negative test starts from the valid packaged content and breaks exactly one
thing with ``dataclasses.replace``, so a message that appears can only come from
that one change.
"""

from __future__ import annotations

import dataclasses
import json
import shutil
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from erebus.games.northwest.content import (
    Content,
    ContentError,
    PrintedSquare,
    TileDef,
    TileSide,
    load_content,
)
from erebus.games.northwest.validate import check_content, corner_class, problems
from support.tools import load_tool

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "src" / "erebus" / "games" / "northwest" / "data"


@pytest.fixture(scope="module")
def content() -> Content:
    return load_content()


# --------------------------------------------------------------------------- helpers


def tile(c: Content, tid: str) -> TileDef:
    return next(t for t in c.tiles if t.id == tid)


def with_tile(c: Content, tid: str, **changes: Any) -> Content:
    """``c`` with tile ``tid`` changed."""
    tiles = tuple(dataclasses.replace(t, **changes) if t.id == tid else t for t in c.tiles)
    return dataclasses.replace(c, tiles=tiles)


def with_side(c: Content, tid: str, side: str, **changes: Any) -> Content:
    """``c`` with one side of tile ``tid`` changed."""
    sides = dict(tile(c, tid).sides)
    sides[side] = dataclasses.replace(sides[side], **changes)
    return with_tile(c, tid, sides=sides)


def with_board(c: Content, **changes: Any) -> Content:
    return dataclasses.replace(c, board=dataclasses.replace(c.board, **changes))


def with_rules(c: Content, **changes: Any) -> Content:
    return dataclasses.replace(c, rules=dataclasses.replace(c.rules, **changes))


def reports(c: Content, message: str) -> bool:
    """True if some problem of ``c`` contains ``message``."""
    found = problems(c)
    assert found, "the mutated content was accepted"
    return any(message in p for p in found)


def side_with(c: Content, kind: str | None) -> tuple[str, str]:
    """(tile id, side) of the first large side whose symbol is ``kind``."""
    for t in c.large_tiles:
        for name, s in sorted(t.sides.items()):
            if s.symbol == kind:
                return t.id, name
    raise AssertionError(f"no large side with symbol {kind}")


def load_generator() -> ModuleType:
    return load_tool("gen_northwest_tiles")


# --------------------------------------------------------------------------- the packaged content


def test_packaged_content_loads_and_validates(content: Content) -> None:
    assert problems(content) == []
    check_content(content)
    assert len(content.large_tiles) == 64
    assert len(content.small_tiles) == 32
    assert content.board.width == 14 and content.board.height == 8


def test_packaged_tiles_meet_section_9(content: Content) -> None:
    symbols = [s.symbol for t in content.large_tiles for s in t.sides.values() if s.symbol]
    for kind, tokens in content.rules.token_supply.items():
        if kind != "cartography":
            assert 2 * symbols.count(kind) >= 3 * tokens
    piles = [t.pile for t in content.small_tiles if t.pile is not None]
    assert piles == sorted(piles), "small tiles are ordered by pile"
    assert all(piles.count(p) >= 4 for p in range(6))


def test_check_content_raises_with_every_message(content: Content) -> None:
    majorities = dict(content.rules.majorities, franklin=(13, 7))
    broken = with_rules(with_board(content, sun_start=0), majorities=majorities)
    with pytest.raises(ContentError) as excinfo:
        check_content(broken)
    text = str(excinfo.value)
    assert "2 problem(s)" in text
    assert "board: sun starts at 0" in text
    assert "majorities['franklin'] [13, 7] has 2 values" in text


def test_load_content_validates_a_data_directory(tmp_path: Path) -> None:
    for name in ("board.json", "rules.json"):
        shutil.copy(DATA / name, tmp_path / name)
    doc = json.loads((DATA / "tiles.json").read_text(encoding="utf-8"))
    doc["tiles"] = [t for t in doc["tiles"] if t["id"] != "L64"]
    (tmp_path / "tiles.json").write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(ContentError, match="63 large tiles"):
        load_content(tmp_path)
    assert len(load_content(tmp_path, validate=False).large_tiles) == 63


def test_corner_class_names_the_six_piles() -> None:
    assert [corner_class(c) for c in ("ssss", "slss", "llss", "lsls", "slll", "llll")] == [
        0,
        1,
        2,
        3,
        4,
        5,
    ]
    assert corner_class("lssl") == 2  # adjacent across the wrap-around


# --------------------------------------------------------------------------- tile set


def test_duplicate_tile_id(content: Content) -> None:
    assert reports(with_tile(content, "L02", id="L01"), "tile id L01 is used by 2 tiles")


def test_tile_counts(content: Content) -> None:
    fewer = dataclasses.replace(content, tiles=tuple(t for t in content.tiles if t.id != "L10"))
    assert reports(fewer, "63 large tiles (size 2); the set needs exactly 64")
    fewer = dataclasses.replace(content, tiles=tuple(t for t in content.tiles if t.id != "S32"))
    assert reports(fewer, "31 small tiles (size 1); the set needs exactly 32")


def test_tile_size(content: Content) -> None:
    assert reports(
        with_tile(content, "L05", size=3), "tile L05: size 3; must be 1 (small) or 2 (large)"
    )


def test_tile_sides(content: Content) -> None:
    sides = {"a": tile(content, "L05").sides["a"]}
    assert reports(
        with_tile(content, "L05", sides=sides), "tile L05: sides a; a large tile has side(s) a, b"
    )


def test_terrain_shape_and_characters(content: Content) -> None:
    assert reports(
        with_side(content, "L07", "a", terrain=("ss", "sss")),
        "tile L07 side a: terrain row 0 'ss' has 2 vertices; expected 2 rows of 3 vertices",
    )
    assert reports(
        with_side(content, "L07", "b", terrain=("sss",)),
        "tile L07 side b: terrain has 1 rows; expected 2 rows of 3 vertices",
    )
    assert reports(
        with_side(content, "S03", "a", terrain=("sx", "ss")),
        "tile S03 side a: terrain row 0 'sx' has 'x'; only 'l' (land) and 's' (sea) are allowed",
    )


def test_small_pile_must_match_terrain(content: Content) -> None:
    first = content.small_tiles[0]
    assert first.pile == 0
    assert reports(
        with_tile(content, first.id, pile=1),
        f"tile {first.id}: in pile 1 (1 land corner) but its terrain is class 0 (all sea)",
    )
    assert reports(
        with_tile(content, first.id, pile=7),
        f"tile {first.id}: pile 7; must be a rotation class 0..5",
    )


def test_small_pile_minimum(content: Content) -> None:
    tiles = tuple(
        dataclasses.replace(t, pile=0, sides={"a": TileSide(("ss", "ss"))}) if t.pile == 3 else t
        for t in content.tiles
    )
    assert reports(
        dataclasses.replace(content, tiles=tiles),
        "small pile 3 (2 opposite land corners) has 0 tiles; at least 4 needed",
    )


def test_no_symbol_on_small_tiles(content: Content) -> None:
    sid = content.small_tiles[0].id
    assert reports(
        with_side(content, sid, "a", symbol="inuit", symbol_square=0),
        f"tile {sid} side a: small tiles carry no symbol",
    )


def test_large_tile_has_no_pile(content: Content) -> None:
    assert reports(
        with_tile(content, "L03", pile=2), "tile L03: large tiles belong to no pile (found pile 2)"
    )


def test_symbol_kind_and_square(content: Content) -> None:
    tid, side = side_with(content, "franklin")
    assert reports(
        with_side(content, tid, side, symbol="walrus"),
        f"tile {tid} side {side}: unknown symbol 'walrus'",
    )
    assert reports(
        with_side(content, tid, side, symbol_square=2),
        f"tile {tid} side {side}: franklin symbol on square 2; must be 0 (west) or 1 (east)",
    )
    tid, side = side_with(content, None)
    assert reports(
        with_side(content, tid, side, symbol_square=1),
        f"tile {tid} side {side}: symbol_square 1 given without a symbol",
    )


def test_inuit_and_cairn_need_land(content: Content) -> None:
    tid, side = side_with(content, "inuit")
    fine = with_side(content, tid, side, terrain=("sss", "lll"), symbol_square=1)
    assert not any("inuit symbol" in p for p in problems(fine))  # its south corners are land
    broken = with_side(content, tid, side, terrain=("sss", "ssl"), symbol_square=0)
    assert reports(
        broken, f"tile {tid} side {side}: inuit symbol on square 0, which has no land corner"
    )
    tid, side = side_with(content, "cairn")
    broken = with_side(content, tid, side, terrain=("sss", "sss"), symbol_square=1)
    assert reports(
        broken, f"tile {tid} side {side}: cairn symbol on square 1, which has no land corner"
    )


def test_strait_needs_sea(content: Content) -> None:
    tid, side = side_with(content, "strait")
    broken = with_side(content, tid, side, terrain=("sll", "sll"), symbol_square=1)
    assert reports(
        broken, f"tile {tid} side {side}: strait symbol on square 1, which has no sea corner"
    )


def test_franklin_anywhere(content: Content) -> None:
    tid, side = side_with(content, "franklin")
    for terrain in (("lll", "lll"), ("sss", "sss")):
        mutated = with_side(content, tid, side, terrain=terrain, symbol_square=0)
        assert not any("franklin symbol" in p for p in problems(mutated))


def test_symbol_count_against_token_supply(content: Content) -> None:
    inuit = sum(s.symbol == "inuit" for t in content.large_tiles for s in t.sides.values())
    supply = dict(content.rules.token_supply, inuit=20)
    assert reports(
        with_rules(content, token_supply=supply),
        f"{inuit} inuit symbols on large tiles; at least 30 needed (3/2 × 20 inuit tokens)",
    )


def test_land_share(content: Content) -> None:
    tiles = tuple(
        dataclasses.replace(
            t,
            sides={
                n: dataclasses.replace(s, terrain=tuple(r.replace("s", "l") for r in s.terrain))
                for n, s in t.sides.items()
            },
        )
        if t.id in {f"L{i:02d}" for i in range(1, 41)}
        else t
        for t in content.tiles
    )
    mutated = dataclasses.replace(content, tiles=tiles)
    assert reports(mutated, "land share of the tile set is ")
    assert reports(mutated, "must be between 35% and 45%")


def test_sides_must_differ(content: Content) -> None:
    a = tile(content, "L09").sides["a"]
    assert reports(
        with_side(content, "L09", "b", terrain=a.terrain),
        "tile L09: sides a and b have the same terrain; they must differ",
    )
    turned = tuple(row[::-1] for row in reversed(a.terrain))
    if turned != a.terrain:
        assert reports(
            with_side(content, "L09", "b", terrain=turned),
            "tile L09: side b is side a turned half round; the sides must differ",
        )


# --------------------------------------------------------------------------- board


def test_border_lengths(content: Content) -> None:
    border = dict(content.board.border, top="s" * 14)
    assert reports(
        with_board(content, border=border),
        "board: border 'top' has 14 vertices; expected 15 (width + 1)",
    )
    border = dict(content.board.border, east="sllss")
    assert reports(
        with_board(content, border=border),
        "board: border 'east' has 5 vertices; expected 9 (height + 1)",
    )


def test_border_corners(content: Content) -> None:
    border = dict(content.board.border, west="l" + content.board.border["west"][1:])
    assert reports(
        with_board(content, border=border),
        "board: north-west corner is 's' in border 'top' but 'l' in border 'west'",
    )
    border = dict(content.board.border, bottom="s" + content.board.border["bottom"][1:])
    assert reports(
        with_board(content, border=border),
        "board: south-west corner is 's' in border 'bottom' but 'l' in border 'west'",
    )


def test_zones(content: Content) -> None:
    assert reports(
        with_board(content, zones=content.board.zones[:-1]),
        "board: 13 zones; expected one per column (14)",
    )
    assert reports(
        with_board(content, zones=(4, *content.board.zones[1:])),
        "board: zone multiplier 4 for column 0; must be 1, 2 or 3",
    )


def _replace_printed(content: Content, pid: str, **changes: Any) -> Content:
    printed = tuple(
        dataclasses.replace(p, **changes) if p.id == pid else p for p in content.board.printed
    )
    return with_board(content, printed=printed)


def test_printed_square_inside_board(content: Content) -> None:
    assert reports(
        _replace_printed(content, "board:cairn-east", x=14),
        "board: printed square board:cairn-east at (14, 6) is outside the 14×8 board",
    )


def test_printed_square_corners(content: Content) -> None:
    assert reports(
        _replace_printed(content, "board:cairn-east", corners="ssl"),
        "board: printed square board:cairn-east at (9, 6): corners 'ssl'; expected 4 of 'l'/'s'",
    )


def test_printed_square_matches_border(content: Content) -> None:
    assert reports(
        _replace_printed(content, "board:greenland", corners="slss"),
        "board: printed square board:greenland at (13, 3): NE corner 'l' "
        "but the border vertex (14, 3) is 's'",
    )


def test_printed_squares_agree(content: Content) -> None:
    extra = PrintedSquare(id="board:extra", x=12, y=3, corners="llll", symbol=None)
    mutated = with_board(content, printed=(*content.board.printed, extra))
    assert reports(
        mutated,
        "board: printed square board:extra at (12, 3): NE corner 'l' but printed square "
        "board:greenland has 's' at vertex (13, 3)",
    )
    twin = dataclasses.replace(extra, corners="ssss", x=13)
    assert reports(
        with_board(content, printed=(*content.board.printed, twin)),
        "board: printed square board:extra at (13, 3) overlaps printed square board:greenland",
    )


def test_printed_symbols(content: Content) -> None:
    assert reports(
        _replace_printed(content, "board:cairn-east", symbol="walrus"),
        "board: printed square board:cairn-east at (9, 6): unknown symbol 'walrus'",
    )
    assert reports(
        _replace_printed(content, "board:greenland", symbol="cairn"),
        "board: printed square board:greenland at (13, 3): cairn symbol on a square "
        "which has no land corner",
    )


def test_arrows_point_at_printed_squares(content: Content) -> None:
    arrows = dict(content.board.arrows, greenland=(5, 5))
    assert reports(
        with_board(content, arrows=arrows),
        "board: arrow 'greenland' points at square (5, 5), which is not printed",
    )
    arrows = {"greenland": content.board.arrows["greenland"]}
    assert reports(with_board(content, arrows=arrows), "board: arrow 'northwest' is missing")


def test_sun_track(content: Content) -> None:
    frozen = {k: v for k, v in content.board.frozen_rows.items() if k != 4}
    assert reports(
        with_board(content, frozen_rows=frozen), "board: no frozen_rows for sun position 4"
    )
    frozen = {**content.board.frozen_rows, 7: 9}
    assert reports(
        with_board(content, frozen_rows=frozen),
        "board: sun position 7 freezes 9 rows; must be 0..8",
    )
    assert reports(
        with_board(content, frozen_rows={**content.board.frozen_rows, 8: 0}),
        "board: frozen_rows given for sun position 8, outside 1..7",
    )
    assert reports(
        with_board(content, sun_start=8), "board: sun starts at 8; must be a position 1..7"
    )


# --------------------------------------------------------------------------- rules


def test_action_costs(content: Content) -> None:
    costs = {k: v for k, v in content.rules.action_costs.items() if k != "discover"}
    assert reports(
        with_rules(content, action_costs=costs), "rules: action_costs has no cost for 'discover'"
    )


def test_token_supply(content: Content) -> None:
    supply = {k: v for k, v in content.rules.token_supply.items() if k != "cartography"}
    assert reports(
        with_rules(content, token_supply=supply),
        "rules: token_supply has no count for 'cartography'",
    )


def test_arrow_tokens(content: Content) -> None:
    tokens = {k: v for k, v in content.rules.arrow_tokens.items() if k != 3}
    assert reports(
        with_rules(content, arrow_tokens=tokens), "rules: arrow_tokens has no entry for 3 players"
    )
    tokens = dict(content.rules.arrow_tokens)
    tokens[2] = {"northwest": (6, 12), "greenland": (8,)}
    assert reports(
        with_rules(content, arrow_tokens=tokens),
        "rules: northwest tokens for 2 players [6, 12] must be in descending order",
    )


def test_majorities(content: Content) -> None:
    majorities = dict(content.rules.majorities, strait=(11, 5, 2, 1))
    assert reports(
        with_rules(content, majorities=majorities),
        "rules: majorities['strait'] [11, 5, 2, 1] has 4 values; expected 3 (1st, 2nd, 3rd place)",
    )


def test_island_points(content: Content) -> None:
    assert reports(
        with_rules(content, island_points={3: 2, 4: 3}),
        "rules: island_points sizes [3, 4] must run 2, 3, 4, ... in ascending order",
    )
    assert reports(
        with_rules(content, island_points={2: 1, 4: 3}),
        "rules: island_points sizes [2, 4] must run 2, 3, 4, ...",
    )
    assert reports(
        with_rules(content, island_points={3: 2, 2: 1}),
        "rules: island_points sizes [3, 2] must run 2, 3, 4, ...",
    )


# --------------------------------------------------------------------------- generator


def test_generator_is_reproducible() -> None:
    gen = load_generator()
    first = gen.generate_json()
    second = gen.generate_json()
    assert first == second
    committed = (DATA / "tiles.json").read_text(encoding="utf-8")
    assert first == committed, "tiles.json differs: rerun tools/gen_northwest_tiles.py"
    assert json.loads(first) == json.loads(committed)
