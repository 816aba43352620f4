"""Checks that the Northwest Passage content data is a playable game.

The board, the tile set and the scoring numbers are data (``data/*.json``), and
most of them are our [design] choices, so nothing stops a careless edit from
making the game unplayable: a tile that can never match its neighbours, a symbol
the engine cannot hand a token for, a sun position with no frozen rows.  The
engine assumes all of that is sound and does not re-check it on every move, so
this module checks it once, when the content is loaded
(:func:`erebus.games.northwest.content.load_content` calls it), and reports *every*
problem at once, each in words that point at the exact tile, side or field to fix.

The tile-set numbers below are the constraints of rules section 9; they say what
a valid tile set is, so they live with the validator rather than in the data it
validates.  What the packaged data happens to hold (the default board of rules
§3-4, the costs, token counts and scoring tables of §1 and §6-8) is not repeated
here: ``tests/northwest/test_reference.py`` compares it with the rules reference,
so a different printing or a revised [design] value loads as long as it is
playable, and the tests say what changed.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from itertools import pairwise

from erebus.games.northwest.actions import ARROWS, COSTED_KINDS
from erebus.games.northwest.content_types import (
    ALL_TOKEN_KINDS,
    TOKEN_KINDS,
    BoardDef,
    Content,
    ContentError,
    PrintedSquare,
    RulesDef,
    TileDef,
    TileSide,
)

LARGE_TILES = 64
"""Large (two-square, two-sided) Exploration tiles in the set (rules §1, §9)."""

SMALL_TILES = 32
"""Small (one-square) Exploration tiles in the set (rules §1, §9)."""

MIN_PER_PILE = 4
"""Fewest small tiles of each rotation class, so no pile runs dry at once (rules §9)."""

SYMBOL_FACTOR = (3, 2)
"""Symbols of each kind ≥ 3/2 × its tokens (rules §9), kept as a fraction for exact
integer comparison: there must be more symbols than tokens so that the tokens,
not the symbols, run out."""

LAND_SHARE = (0.35, 0.45)
"""Allowed share of land vertices over the whole tile set (rules §9): enough land
for islands to form, enough sea for the passage to stay open."""

PILE_NAMES = (
    "all sea",
    "1 land corner",
    "2 adjacent land corners",
    "2 opposite land corners",
    "3 land corners",
    "all land",
)
"""The six rotation classes of a square's corners, in pile order (rules §2)."""

LARGE_SIDES = ("a", "b")
SMALL_SIDES = ("a",)
TERRAIN_CHARS = frozenset("ls")

BORDER_LENGTH = {"top": "width", "bottom": "width", "west": "height", "east": "height"}


def corner_class(corners: str) -> int:
    """Rotation class 0..5 (see :data:`PILE_NAMES`) of corners given in circular order.

    ``corners`` lists a square's corners going round it (north-west, north-east,
    south-east, south-west), so two land corners are opposite exactly when the
    first and third agree.
    """
    land = corners.count("l")
    if land < 2:
        return land
    if land == 2:
        return 3 if corners[0] == corners[2] else 2
    return land + 1


def square_corners(terrain: tuple[str, ...], square: int) -> str:
    """Corners (NW, NE, SE, SW) of square ``square`` of an unrotated tile (0 = west)."""
    return terrain[0][square] + terrain[0][square + 1] + terrain[1][square + 1] + terrain[1][square]


def half_turn(terrain: tuple[str, ...]) -> tuple[str, ...]:
    """The terrain rotated by 180 degrees (rows and vertices both reversed)."""
    return tuple(row[::-1] for row in reversed(terrain))


def problems(content: Content) -> list[str]:
    """Every broken constraint of ``content``, as messages; empty when all is well."""
    return [
        *tile_problems(content.tiles, content.rules.token_supply),
        *board_problems(content.board),
        *rules_problems(content.rules),
    ]


def check_content(content: Content) -> None:
    """Raise :class:`ContentError` listing every problem, so one run shows them all."""
    found = problems(content)
    if found:
        listing = "\n".join(f"- {p}" for p in found)
        raise ContentError(f"{len(found)} problem(s) in the Northwest Passage content:\n{listing}")


# --------------------------------------------------------------------------- tiles


def tile_problems(tiles: Iterable[TileDef], token_supply: dict[str, int]) -> list[str]:
    """Rules §9: counts, shapes, piles, symbols, land share and distinct sides."""
    tiles = tuple(tiles)
    out: list[str] = []
    for tid, n in Counter(t.id for t in tiles).items():
        if n > 1:
            out.append(f"tile id {tid} is used by {n} tiles; ids must be unique")

    large = [t for t in tiles if t.size == 2]
    small = [t for t in tiles if t.size == 1]
    if len(large) != LARGE_TILES:
        out.append(f"{len(large)} large tiles (size 2); the set needs exactly {LARGE_TILES}")
    if len(small) != SMALL_TILES:
        out.append(f"{len(small)} small tiles (size 1); the set needs exactly {SMALL_TILES}")

    for tile in tiles:
        if tile.size not in (1, 2):
            out.append(f"tile {tile.id}: size {tile.size}; must be 1 (small) or 2 (large)")
            continue
        out.extend(_tile_shape_problems(tile))

    piles = Counter(t.pile for t in small)
    for pile, name in enumerate(PILE_NAMES):
        if piles[pile] < MIN_PER_PILE:
            out.append(
                f"small pile {pile} ({name}) has {piles[pile]} tiles; at least {MIN_PER_PILE} needed"
            )

    symbols = Counter(
        side.symbol for t in large for side in t.sides.values() if side.symbol is not None
    )
    num, den = SYMBOL_FACTOR
    for kind in TOKEN_KINDS:
        tokens = token_supply.get(kind, 0)
        if symbols[kind] * den < tokens * num:
            need = -(-tokens * num // den)
            out.append(
                f"{symbols[kind]} {kind} symbols on large tiles; at least {need} needed "
                f"({num}/{den} × {tokens} {kind} tokens)"
            )

    land = total = 0
    for tile in tiles:
        for side in tile.sides.values():
            for row in side.terrain:
                land += row.count("l")
                total += len(row)
    low, high = LAND_SHARE
    if total and not low <= land / total <= high:
        out.append(
            f"land share of the tile set is {land / total:.1%} ({land} of {total} vertices); "
            f"must be between {low:.0%} and {high:.0%}"
        )
    return out


def _tile_shape_problems(tile: TileDef) -> list[str]:
    """One tile: its sides, terrain grids, pile class, symbols, distinct faces."""
    out: list[str] = []
    large = tile.size == 2
    expected_sides = LARGE_SIDES if large else SMALL_SIDES
    if tuple(sorted(tile.sides)) != expected_sides:
        out.append(
            f"tile {tile.id}: sides {', '.join(sorted(tile.sides)) or 'none'}; "
            f"a {'large' if large else 'small'} tile has side(s) {', '.join(expected_sides)}"
        )
    width = 3 if large else 2
    well_formed: dict[str, tuple[str, ...]] = {}
    for name, side in sorted(tile.sides.items()):
        where = f"tile {tile.id} side {name}"
        grid = _terrain_problems(where, side.terrain, width)
        out.extend(grid)
        if not grid:
            well_formed[name] = side.terrain
        if large:
            if not grid:
                out.extend(_symbol_problems(where, side))
        elif side.symbol is not None or side.symbol_square is not None:
            out.append(f"{where}: small tiles carry no symbol (found {side.symbol!r})")

    if large:
        if tile.pile is not None:
            out.append(f"tile {tile.id}: large tiles belong to no pile (found pile {tile.pile!r})")
        a, b = well_formed.get("a"), well_formed.get("b")
        if a is not None and b is not None:
            if a == b:
                out.append(f"tile {tile.id}: sides a and b have the same terrain; they must differ")
            elif a == half_turn(b):
                out.append(
                    f"tile {tile.id}: side b is side a turned half round; the sides must differ"
                )
    else:
        terrain = well_formed.get("a")
        if not isinstance(tile.pile, int) or isinstance(tile.pile, bool) or not 0 <= tile.pile < 6:
            out.append(f"tile {tile.id}: pile {tile.pile!r}; must be a rotation class 0..5")
        elif terrain is not None:
            actual = corner_class(square_corners(terrain, 0))
            if actual != tile.pile:
                out.append(
                    f"tile {tile.id}: in pile {tile.pile} ({PILE_NAMES[tile.pile]}) but its "
                    f"terrain is class {actual} ({PILE_NAMES[actual]})"
                )
    return out


def _terrain_problems(where: str, terrain: tuple[str, ...], width: int) -> list[str]:
    """The grid must be 2 rows of ``width`` vertices, each 'l' or 's'."""
    shape = f"2 rows of {width} vertices"
    if len(terrain) != 2:
        return [f"{where}: terrain has {len(terrain)} rows; expected {shape}"]
    out: list[str] = []
    for r, row in enumerate(terrain):
        if len(row) != width:
            out.append(
                f"{where}: terrain row {r} {row!r} has {len(row)} vertices; expected {shape}"
            )
        bad = sorted(set(row) - TERRAIN_CHARS)
        if bad:
            out.append(
                f"{where}: terrain row {r} {row!r} has {', '.join(map(repr, bad))}; "
                "only 'l' (land) and 's' (sea) are allowed"
            )
    return out


def _symbol_problems(where: str, side: TileSide) -> list[str]:
    """Symbol kind, square and the land/sea rule of §9 on a well-formed large side."""
    if side.symbol is None:
        if side.symbol_square is not None:
            return [f"{where}: symbol_square {side.symbol_square!r} given without a symbol"]
        return []
    if side.symbol not in TOKEN_KINDS:
        return [f"{where}: unknown symbol {side.symbol!r}; must be one of {', '.join(TOKEN_KINDS)}"]
    square = side.symbol_square
    if not isinstance(square, int) or isinstance(square, bool) or square not in (0, 1):
        return [f"{where}: {side.symbol} symbol on square {square!r}; must be 0 (west) or 1 (east)"]
    rule = _symbol_rule(side.symbol, square_corners(side.terrain, square))
    return [f"{where}: {side.symbol} symbol on square {square}, {rule}"] if rule else []


def _symbol_rule(kind: str, corners: str) -> str | None:
    """Why ``kind`` may not stand on a square with these corners, or None if it may.

    Inuit camps and cairns are on land; a strait is open water.  Franklin sites can
    be wrecks or graves, so they go anywhere.
    """
    if kind in ("inuit", "cairn") and "l" not in corners:
        return "which has no land corner"
    if kind == "strait" and "s" not in corners:
        return "which has no sea corner"
    return None


# --------------------------------------------------------------------------- board


def board_problems(board: BoardDef) -> list[str]:
    """Rules §3-4: border, zones, printed squares, arrows and the sun track."""
    out: list[str] = []
    w, h = board.width, board.height
    if w < 1 or h < 1:
        return [f"board: size {w}×{h}; width and height must be positive"]
    if board.rounds < 1:
        out.append(f"board: rounds {board.rounds}; must be at least 1")

    border = dict(board.border)
    sizes = {"width": w, "height": h}
    for name, dim in BORDER_LENGTH.items():
        line = border.get(name)
        if line is None:
            out.append(f"board: border {name!r} is missing")
            continue
        if len(line) != sizes[dim] + 1:
            out.append(
                f"board: border {name!r} has {len(line)} vertices; expected {sizes[dim] + 1} "
                f"({dim} + 1)"
            )
        bad = sorted(set(line) - TERRAIN_CHARS)
        if bad:
            out.append(f"board: border {name!r} has {', '.join(map(repr, bad))}; only 'l' and 's'")
    for name in sorted(set(border) - set(BORDER_LENGTH)):
        out.append(f"board: unknown border {name!r}; borders are top, bottom, west, east")
    vertex = _border_vertices(border, w, h)
    for (ns, ns_end), (we, we_end), corner in (
        (("top", 0), ("west", 0), "north-west"),
        (("top", -1), ("east", 0), "north-east"),
        (("bottom", 0), ("west", -1), "south-west"),
        (("bottom", -1), ("east", -1), "south-east"),
    ):
        a, b = border.get(ns, ""), border.get(we, "")
        if a and b and a[ns_end] != b[we_end]:
            out.append(
                f"board: {corner} corner is {a[ns_end]!r} in border {ns!r} "
                f"but {b[we_end]!r} in border {we!r}"
            )

    if len(board.zones) != w:
        out.append(f"board: {len(board.zones)} zones; expected one per column ({w})")
    for x, z in enumerate(board.zones):
        if z not in (1, 2, 3):
            out.append(f"board: zone multiplier {z} for column {x}; must be 1, 2 or 3")

    out.extend(_printed_problems(board.printed, w, h, vertex))

    printed_at = {(p.x, p.y) for p in board.printed}
    for name in ARROWS:
        if name not in board.arrows:
            out.append(f"board: arrow {name!r} is missing")
    for name, square in sorted(board.arrows.items()):
        if square not in printed_at:
            out.append(f"board: arrow {name!r} points at square {square}, which is not printed")

    n = board.sun_positions
    if n < 1:
        out.append(f"board: {n} sun positions; must be at least 1")
    if not 1 <= board.sun_start <= max(n, 1):
        out.append(f"board: sun starts at {board.sun_start}; must be a position 1..{n}")
    for pos in range(1, n + 1):
        if pos not in board.frozen_rows:
            out.append(f"board: no frozen_rows for sun position {pos}")
    for pos, rows in sorted(board.frozen_rows.items()):
        if not 1 <= pos <= n:
            out.append(f"board: frozen_rows given for sun position {pos}, outside 1..{n}")
        if not 0 <= rows <= h:
            out.append(f"board: sun position {pos} freezes {rows} rows; must be 0..{h}")
    return out


def _border_vertices(border: dict[str, str], w: int, h: int) -> dict[tuple[int, int], str]:
    """Printed terrain of the border vertices, keyed by (x, y); bad lengths are skipped."""
    vertex: dict[tuple[int, int], str] = {}
    lines = (
        ("top", [(x, 0) for x in range(w + 1)]),
        ("bottom", [(x, h) for x in range(w + 1)]),
        ("west", [(0, y) for y in range(h + 1)]),
        ("east", [(w, y) for y in range(h + 1)]),
    )
    for name, points in lines:
        line = border.get(name, "")
        if len(line) == len(points):
            for point, c in zip(points, line, strict=True):
                vertex.setdefault(point, c)
    return vertex


def _printed_problems(
    printed: tuple[PrintedSquare, ...], w: int, h: int, border: dict[tuple[int, int], str]
) -> list[str]:
    """Printed squares lie inside the board, agree with the border and with each other."""
    out: list[str] = []
    for pid, n in Counter(p.id for p in printed).items():
        if n > 1:
            out.append(f"board: printed square id {pid} is used {n} times")
    taken: dict[tuple[int, int], str] = {}
    fixed: dict[tuple[int, int], tuple[str, str]] = {}
    for p in printed:
        where = f"board: printed square {p.id} at ({p.x}, {p.y})"
        if not (0 <= p.x < w and 0 <= p.y < h):
            out.append(f"{where} is outside the {w}×{h} board")
            continue
        if (p.x, p.y) in taken:
            out.append(f"{where} overlaps printed square {taken[p.x, p.y]}")
        taken[p.x, p.y] = p.id
        if len(p.corners) != 4 or set(p.corners) - TERRAIN_CHARS:
            out.append(f"{where}: corners {p.corners!r}; expected 4 of 'l'/'s' (NW, NE, SE, SW)")
            continue
        points = ((p.x, p.y), (p.x + 1, p.y), (p.x + 1, p.y + 1), (p.x, p.y + 1))
        for label, point, c in zip(("NW", "NE", "SE", "SW"), points, p.corners, strict=True):
            if point in border and border[point] != c:
                out.append(
                    f"{where}: {label} corner {c!r} but the border vertex {point} is {border[point]!r}"
                )
            if point in fixed and fixed[point][1] != c:
                other = fixed[point][0]
                out.append(
                    f"{where}: {label} corner {c!r} but printed square {other} has "
                    f"{fixed[point][1]!r} at vertex {point}"
                )
            fixed.setdefault(point, (p.id, c))
        if p.symbol is not None:
            if p.symbol not in TOKEN_KINDS:
                out.append(
                    f"{where}: unknown symbol {p.symbol!r}; must be one of {', '.join(TOKEN_KINDS)}"
                )
            else:
                rule = _symbol_rule(p.symbol, p.corners)
                if rule:
                    out.append(f"{where}: {p.symbol} symbol on a square {rule}")
    return out


# --------------------------------------------------------------------------- rules


def rules_problems(rules: RulesDef) -> list[str]:
    """Rules §6-8: costs, token supply, arrow tokens, majorities, island points."""
    out: list[str] = []
    if rules.crew < 1:
        out.append(f"rules: crew {rules.crew}; must be at least 1")
    if rules.display_size < 1:
        out.append(f"rules: display_size {rules.display_size}; must be at least 1")
    for action in COSTED_KINDS:
        if action not in rules.action_costs:
            out.append(f"rules: action_costs has no cost for {action!r}")
    for action, cost in sorted(rules.action_costs.items()):
        if cost < 0:
            out.append(f"rules: action_costs[{action!r}] = {cost}; costs cannot be negative")
    for kind in ALL_TOKEN_KINDS:
        if kind not in rules.token_supply:
            out.append(f"rules: token_supply has no count for {kind!r}")
        elif rules.token_supply[kind] < 0:
            out.append(
                f"rules: token_supply[{kind!r}] = {rules.token_supply[kind]}; cannot be negative"
            )
    for kind in TOKEN_KINDS:
        if kind not in rules.token_points:
            out.append(f"rules: token_points has no value for {kind!r}")

    counts = sorted(rules.arrow_tokens)
    if not counts:
        out.append("rules: arrow_tokens is empty; it sets the tokens for each player count")
    elif counts[0] < 1:
        out.append(f"rules: arrow_tokens for {counts[0]} players; player counts are positive")
    # The player counts the content supports run without a gap, so the smallest and
    # the largest entry say which games can be set up.
    for players in range(counts[0], counts[-1] + 1) if counts else ():
        by_arrow = rules.arrow_tokens.get(players)
        if by_arrow is None:
            out.append(f"rules: arrow_tokens has no entry for {players} players")
            continue
        for arrow in ARROWS:
            values = by_arrow.get(arrow)
            if values is None:
                out.append(f"rules: arrow_tokens for {players} players has no {arrow!r} tokens")
            elif any(a <= b for a, b in pairwise(values)):
                out.append(
                    f"rules: {arrow} tokens for {players} players {list(values)} must be in "
                    "descending order (the highest left is taken first)"
                )

    for kind, points in sorted(rules.majorities.items()):
        if kind not in ALL_TOKEN_KINDS:
            out.append(f"rules: majorities for unknown token kind {kind!r}")
        if len(points) != 3:
            out.append(
                f"rules: majorities[{kind!r}] {list(points)} has {len(points)} values; "
                "expected 3 (1st, 2nd, 3rd place)"
            )

    sizes = list(rules.island_points)
    if not sizes:
        out.append("rules: island_points is empty")
    elif sizes != list(range(2, 2 + len(sizes))):
        out.append(
            f"rules: island_points sizes {sizes} must run 2, 3, 4, ... in ascending order "
            "with no gap (the last size also scores larger islands)"
        )
    else:
        scores = [rules.island_points[s] for s in sizes]
        if any(a > b for a, b in pairwise(scores)):
            out.append(f"rules: island_points {scores} must not decrease with island size")
    return out
