#!/usr/bin/env python3
"""Generate the [design] tile set of Expedition: Northwest Passage (rules section 9).

The artwork of the physical tiles is not available, so erebus ships its own tile
set in ``src/erebus/games/northwest/data/tiles.json``.  That JSON file is the
authority; this script documents how it was made and regenerates it exactly
(fixed seed, only ``random.Random.random()`` is used, whose sequence Python
guarantees across versions).

Usage::

    .venv/bin/python tools/gen_northwest_tiles.py             # rewrite tiles.json
    .venv/bin/python tools/gen_northwest_tiles.py --check     # exit 1 if it differs
    .venv/bin/python tools/gen_northwest_tiles.py --stats     # print the design numbers
    .venv/bin/python tools/gen_northwest_tiles.py --simulate  # ... and a board simulation

How the set is made, and why:

* **Large sides** (128 = 64 tiles × 2) are pieces of coastline, not noise.
  First one side of each of the 29 saddle-free 3 × 2 shapes (up to a half turn),
  so that even a rare neighbour edge (a one-vertex cape, a channel, an isthmus)
  has some tile that fits it.  Every other side comes from a smooth random field
  over its vertices (a tilted plane = a straight coast, plus two long-wavelength
  waves = bays, capes, channels and islets) whose ``n`` highest vertices are
  made land.  ``n`` follows a fixed quota (``LAND_QUOTA``): a healthy mix of
  open sea, half-and-half coasts and mostly land, with few all-land sides
  because they block sea routes.  Sides with a saddle square (two opposite land
  corners) are redrawn: they are rare on real coasts and the hardest squares to
  match.  No exact pattern is used more than ``MAX_COPIES`` times.
* **Pairing**: the sides are paired so that a tile's two faces tend to be
  complementary (a sea-heavy face with a land-heavy face).  A player holding a
  tile then usually has a face that fits wherever it is needed.  The two faces
  always differ, also after a half turn.
* **Symbols**: ``SYMBOL_QUOTA`` is 1.5 × the token supply of ``rules.json``
  rounded up, plus one; at most one symbol per side, on a square that satisfies
  rules §9 (Inuit and Cairn need a land corner, Strait a sea corner) and,
  within that, preferably on a thematic square (Straits on coasts, Cairns on
  land, Franklin wrecks at sea).
* **Small tiles** (32): one 2 × 2 pattern per rotation class.  ``SMALL_SPLIT``
  follows the classes of the holes filled in the board simulation (roughly
  1 land corner > 2 adjacent ≈ all sea > 3 land corners > all land > 2 opposite),
  with every class at least 4.

``--stats`` prints the land share, the per-class small counts, the symbol
counts and fit statistics: how often a random orientation of one large tile can
be put next to a random orientation of another along an edge (``fit.pair``),
how often a random tile has one of its 8 orientations that fits a random
neighbour edge (``fit.tile``), and for each 2- and 3-vertex edge pattern how
many orientations and tiles match it (``edges``).  ``--simulate`` also plays
random legal placements on the default board (rules §7.C, holes filled).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from erebus.games.northwest.validate import corner_class

SEED = 1845  # the year the Franklin expedition sailed
DATA_DIR = (
    Path(__file__).resolve().parent.parent / "src" / "erebus" / "games" / "northwest" / "data"
)
TILES_PATH = DATA_DIR / "tiles.json"

LARGE_COUNT = 64
SMALL_COUNT = 32

# Number of large sides (of 128) with n land vertices, n = 0..6: open sea, capes,
# half-and-half coasts, bays and a few all-land sides (they block sea routes).
LAND_QUOTA = (22, 16, 26, 34, 18, 8, 4)
# Wavelengths (in squares) of the waves added to the coast plane: long enough to keep
# sides smooth, short enough to make channels, isthmuses and islets now and then.
MIN_WAVELENGTH = 3.5
MAX_WAVELENGTH = 8.5
# Most sides of one exact terrain pattern (the all-sea and all-land sides excepted).
MAX_COPIES = 5
# Noise (in land vertices) added before sorting the faces for complementary pairing.
PAIR_NOISE = 2.5

# Small tiles per rotation class 0..5 (all sea, 1 land corner, 2 adjacent, 2 opposite,
# 3 land corners, all land).
SMALL_SPLIT = (5, 8, 6, 4, 5, 4)

# Symbols on large sides: ceil(1.5 × token supply) + 1 of each kind.
SYMBOL_QUOTA = {"inuit": 15, "cairn": 15, "franklin": 16, "strait": 19}

# Preference of each symbol for a square with k land corners (k = 0..4); 0 = never.
# Rules §9 forbid Inuit and Cairn on all-sea squares and Strait on all-land squares;
# we also keep Straits off open sea, since a strait lies between shores.
SYMBOL_TASTE = {
    "inuit": (0, 2, 3, 3, 1),
    "cairn": (0, 1, 2, 3, 3),
    "franklin": (3, 3, 2, 1, 1),
    "strait": (0, 3, 4, 3, 0),
}

# Canonical terrain of each small-tile class (rows north→south, vertices west→east).
SMALL_TERRAIN = (
    ("ss", "ss"),
    ("ls", "ss"),
    ("ll", "ss"),
    ("ls", "sl"),
    ("ll", "ls"),
    ("ll", "ll"),
)

Grid = tuple[str, ...]


# --------------------------------------------------------------------------- geometry


def rotate(grid: Grid) -> Grid:
    """The grid turned a quarter clockwise (the engine's ``rotation`` unit)."""
    h = len(grid)
    return tuple("".join(grid[h - 1 - r][c] for r in range(h)) for c in range(len(grid[0])))


def rotations(grid: Grid) -> list[Grid]:
    """The four quarter-turn orientations of ``grid``, rotation 0 first."""
    out = [grid]
    for _ in range(3):
        out.append(rotate(out[-1]))
    return out


def square_corners(grid: Grid, x: int, y: int) -> str:
    """Corners of square (x, y) of ``grid``: north-west, north-east, south-east, south-west."""
    return grid[y][x] + grid[y][x + 1] + grid[y + 1][x + 1] + grid[y + 1][x]


def is_saddle(corners: str) -> bool:
    return corner_class(corners) == 3


def squares_of(grid: Grid) -> list[str]:
    return [
        square_corners(grid, x, y) for y in range(len(grid) - 1) for x in range(len(grid[0]) - 1)
    ]


def land_count(grid: Grid) -> int:
    return sum(row.count("l") for row in grid)


# --------------------------------------------------------------------------- generation


def _below(rng: random.Random, n: int) -> int:
    """Uniform integer in [0, n) from ``random()`` alone (stable across Python versions)."""
    return min(int(rng.random() * n), n - 1)


def _weighted(rng: random.Random, weights: Sequence[float]) -> int:
    """Index drawn with probability proportional to its weight."""
    pick = rng.random() * sum(weights)
    for i, w in enumerate(weights):
        pick -= w
        if pick < 0:
            return i
    return len(weights) - 1


def _shuffle(rng: random.Random, items: list[Any]) -> None:
    for i in range(len(items) - 1, 0, -1):
        j = _below(rng, i + 1)
        items[i], items[j] = items[j], items[i]


def _field_side(rng: random.Random, n_land: int) -> Grid:
    """A 3×2-vertex side whose ``n_land`` land vertices are the highest of a smooth field."""
    angle = 2 * math.pi * rng.random()
    slope = 0.3 + rng.random()
    waves = []
    for _ in range(2):
        wave_angle = 2 * math.pi * rng.random()
        wavelength = MIN_WAVELENGTH + (MAX_WAVELENGTH - MIN_WAVELENGTH) * rng.random()
        k = 2 * math.pi / wavelength
        waves.append(
            (
                k * math.cos(wave_angle),
                k * math.sin(wave_angle),
                2 * math.pi * rng.random(),
                rng.random(),
            )
        )
    values: list[tuple[float, int, int]] = []
    for y in range(2):
        for x in range(3):
            v = slope * (math.cos(angle) * x + math.sin(angle) * y)
            for kx, ky, phase, amp in waves:
                v += amp * math.cos(kx * x + ky * y + phase)
            values.append((v, x, y))
    values.sort(reverse=True)
    rows = [["s"] * 3 for _ in range(2)]
    for _, x, y in values[:n_land]:
        rows[y][x] = "l"
    return tuple("".join(r) for r in rows)


def _make_sides(rng: random.Random) -> list[Grid]:
    sides: list[Grid] = []
    copies: Counter[Grid] = Counter()
    # One of every saddle-free shape first, so that rare neighbour patterns (a channel,
    # an isthmus, two capes) still have a large tile that fits; the field does the rest.
    for shape in saddle_free_shapes():
        face = shape if rng.random() < 0.5 else rotate(rotate(shape))
        copies[face] += 1
        sides.append(face)
    for n_land, quota in enumerate(LAND_QUOTA):
        made = sum(land_count(s) == n_land for s in sides)
        while made < quota:
            side = _field_side(rng, n_land)
            if any(is_saddle(c) for c in squares_of(side)):
                continue
            if 0 < n_land < 6 and copies[side] >= MAX_COPIES:
                continue
            copies[side] += 1
            sides.append(side)
            made += 1
    return sides


def saddle_free_shapes() -> list[Grid]:
    """Every 3×2 face without a saddle square, one per half-turn pair, by land count."""
    shapes: list[Grid] = []
    for code in range(64):
        bits = "".join("l" if code >> (5 - i) & 1 else "s" for i in range(6))
        face = (bits[:3], bits[3:])
        if any(is_saddle(c) for c in squares_of(face)) or rotate(rotate(face)) in shapes:
            continue
        shapes.append(face)
    shapes.sort(key=lambda f: (land_count(f), f))
    return shapes


def same_face(a: Grid, b: Grid) -> bool:
    """True if two large faces are equal as printed or after a half turn."""
    return a == b or a == rotate(rotate(b))


def _pair_sides(rng: random.Random, sides: list[Grid]) -> list[tuple[Grid, Grid]]:
    """Pair sea-heavy faces with land-heavy ones (with some noise), faces always different."""
    keyed = [(land_count(s) + PAIR_NOISE * rng.random(), i) for i, s in enumerate(sides)]
    keyed.sort()
    order = [sides[i] for _, i in keyed]
    half = len(order) // 2
    pairs = [[order[i], order[len(order) - 1 - i]] for i in range(half)]
    _shuffle(rng, pairs)
    # Repair any pair whose faces coincide by swapping a face with another pair.
    for i, p in enumerate(pairs):
        if not same_face(p[0], p[1]):
            continue
        for j in range(len(pairs)):
            q = pairs[j]
            if j != i and not same_face(p[0], q[1]) and not same_face(q[0], p[1]):
                p[1], q[1] = q[1], p[1]
                break
    assert not any(same_face(p[0], p[1]) for p in pairs), "could not pair distinct faces"
    out: list[tuple[Grid, Grid]] = []
    for p in pairs:
        a, b = (p[0], p[1]) if rng.random() < 0.5 else (p[1], p[0])
        out.append((a, b))
    return out


def _assign_symbols(rng: random.Random, faces: list[Grid]) -> dict[int, tuple[str, int]]:
    """Choose (kind, square) for some faces: quotas met, at most one symbol per face."""
    chosen: dict[int, tuple[str, int]] = {}
    # Kinds with the most restrictive rule first, so Franklin (anywhere) takes the rest.
    for kind in ("strait", "inuit", "cairn", "franklin"):
        taste = SYMBOL_TASTE[kind]
        for _ in range(SYMBOL_QUOTA[kind]):
            options: list[tuple[int, int, int]] = []
            for f, face in enumerate(faces):
                if f in chosen:
                    continue
                for sq, corners in enumerate(squares_of(face)):
                    w = taste[corners.count("l")]
                    if w:
                        options.append((f, sq, w))
            face_index, square, _ = options[_weighted(rng, [w for _, _, w in options])]
            chosen[face_index] = (kind, square)
    return chosen


def generate(seed: int = SEED) -> dict[str, Any]:
    """The whole tile document (the content of tiles.json) for ``seed``."""
    rng = random.Random(seed)
    sides = _make_sides(rng)
    assert len(sides) == 2 * LARGE_COUNT, "LAND_QUOTA must add up to 128 faces"
    _shuffle(rng, sides)
    pairs = _pair_sides(rng, sides)
    faces = [face for pair in pairs for face in pair]
    symbols = _assign_symbols(rng, faces)

    tiles: list[dict[str, Any]] = []
    for t, (a, b) in enumerate(pairs):
        side_docs: dict[str, Any] = {}
        for s, (name, face) in enumerate((("a", a), ("b", b))):
            kind, square = symbols.get(2 * t + s, (None, None))
            side_docs[name] = {"terrain": list(face), "symbol": kind, "symbol_square": square}
        tiles.append({"id": f"L{t + 1:02d}", "size": 2, "sides": side_docs})
    assert sum(SMALL_SPLIT) == SMALL_COUNT and min(SMALL_SPLIT) >= 4
    number = 0
    for pile, count in enumerate(SMALL_SPLIT):
        for _ in range(count):
            number += 1
            tiles.append(
                {
                    "id": f"S{number:02d}",
                    "size": 1,
                    "pile": pile,
                    "sides": {
                        "a": {
                            "terrain": list(SMALL_TERRAIN[pile]),
                            "symbol": None,
                            "symbol_square": None,
                        }
                    },
                }
            )
    return {
        "_comment": (
            "Exploration tiles of Expedition: Northwest Passage: our [design] tile set, generated by "
            f"tools/gen_northwest_tiles.py (seed {seed}); see rules section 9. Terrain rows run "
            "north to south, vertices west to east, 'l' = land, 's' = sea; a large tile lies "
            "horizontally unrotated (symbol_square 0 = west square, 1 = east square). Small tiles "
            "are ordered by pile = rotation class 0-5 (all sea, 1 land corner, 2 adjacent, "
            "2 opposite, 3 land corners, all land)."
        ),
        "tiles": tiles,
    }


def render(doc: dict[str, Any]) -> str:
    """The exact text of tiles.json: one tile per line, so diffs stay readable."""
    lines = ["{", f'  "_comment": {json.dumps(doc["_comment"])},', '  "tiles": [']
    tiles = doc["tiles"]
    for i, tile in enumerate(tiles):
        comma = "," if i < len(tiles) - 1 else ""
        lines.append(f"    {json.dumps(tile)}{comma}")
    lines += ["  ]", "}", ""]
    return "\n".join(lines)


def generate_json(seed: int = SEED) -> str:
    """The text that belongs in tiles.json."""
    return render(generate(seed))


# --------------------------------------------------------------------------- statistics


def _large_faces(doc: dict[str, Any]) -> list[list[Grid]]:
    return [
        [tuple(s["terrain"]) for s in t["sides"].values()] for t in doc["tiles"] if t["size"] == 2
    ]


def _west(grid: Grid) -> str:
    return "".join(row[0] for row in grid)


def _east(grid: Grid) -> str:
    return "".join(row[-1] for row in grid)


def fit_statistics(doc: dict[str, Any], samples: int = 20000, seed: int = 7) -> dict[str, float]:
    """Edge-fit rates of the large tiles.

    ``pair``: a random orientation B put east of a random orientation A, north edges
    aligned; B fits if the vertices on the shared line agree.  ``tile``: the same,
    but B's owner may choose any of B's 8 orientations (side × rotation).
    """
    rng = random.Random(seed)
    tiles = [[o for face in faces for o in rotations(face)] for faces in _large_faces(doc)]
    flat = [o for t in tiles for o in t]
    pair_hits = tile_hits = 0
    for _ in range(samples):
        a = flat[_below(rng, len(flat))]
        edge = _east(a)
        b_tile = tiles[_below(rng, len(tiles))]
        b = b_tile[_below(rng, len(b_tile))]

        def fits(o: Grid, edge: str = edge) -> bool:
            w = _west(o)
            n = min(len(w), len(edge))
            return w[:n] == edge[:n]

        pair_hits += fits(b)
        tile_hits += any(fits(o) for o in b_tile)
    return {"pair": pair_hits / samples, "tile": tile_hits / samples}


def edge_table(doc: dict[str, Any]) -> dict[str, tuple[int, int]]:
    """For each edge pattern a neighbour can show (2 or 3 vertices, north→south), the
    number of large orientations (of 512) and of tiles (of 64) whose west edge matches
    it exactly."""
    tiles = [[o for face in faces for o in rotations(face)] for faces in _large_faces(doc)]
    table: dict[str, tuple[int, int]] = {}
    for length in (2, 3):
        for code in range(2**length):
            pattern = "".join("l" if code >> (length - 1 - i) & 1 else "s" for i in range(length))
            orients = sum(_west(o) == pattern for t in tiles for o in t)
            whole = sum(any(_west(o) == pattern for o in t) for t in tiles)
            table[pattern] = (orients, whole)
    return table


_STEPS = ((1, 0), (-1, 0), (0, 1), (0, -1))


class _Board:
    """Just enough of the default board to simulate tile placement (rules §7.C)."""

    def __init__(self, board: dict[str, Any]) -> None:
        self.w: int = board["width"]
        self.h: int = board["height"]
        self.v: list[list[str | None]] = [[None] * (self.w + 1) for _ in range(self.h + 1)]
        border = board["border"]
        for x in range(self.w + 1):
            self.v[0][x] = border["top"][x]
            self.v[self.h][x] = border["bottom"][x]
        for y in range(self.h + 1):
            self.v[y][0] = border["west"][y]
            self.v[y][self.w] = border["east"][y]
        self.owner: list[list[int | None]] = [[None] * self.w for _ in range(self.h)]
        self.tiles: list[list[tuple[int, int]]] = []
        for p in board["printed_squares"]:
            self._put([(p["x"], p["y"])], {})
            c = p["corners"]
            x, y = p["x"], p["y"]
            self.v[y][x], self.v[y][x + 1], self.v[y + 1][x + 1], self.v[y + 1][x] = c
        self.start = tuple(board["arrows"]["greenland"]["square"])
        self.goal = tuple(board["arrows"]["northwest"]["square"])

    def _put(self, squares: list[tuple[int, int]], verts: dict[tuple[int, int], str]) -> None:
        tid = len(self.tiles)
        self.tiles.append(squares)
        for x, y in squares:
            self.owner[y][x] = tid
        for (x, y), c in verts.items():
            self.v[y][x] = c

    def fits(self, grid: Grid, x0: int, y0: int) -> dict[tuple[int, int], str] | None:
        h, w = len(grid) - 1, len(grid[0]) - 1
        if x0 < 0 or y0 < 0 or x0 + w > self.w or y0 + h > self.h:
            return None
        if any(self.owner[y0 + j][x0 + i] is not None for j in range(h) for i in range(w)):
            return None
        verts: dict[tuple[int, int], str] = {}
        for j in range(h + 1):
            for i in range(w + 1):
                c = grid[j][i]
                fixed = self.v[y0 + j][x0 + i]
                if fixed is not None and fixed != c:
                    return None
                verts[(x0 + i, y0 + j)] = c
        return verts

    def route_open(self, extra: dict[tuple[int, int], str]) -> bool:
        def val(x: int, y: int) -> str | None:
            return extra.get((x, y), self.v[y][x])

        def passable(x: int, y: int) -> bool:
            return not all(
                val(a, b) == "l" for a, b in ((x, y), (x + 1, y), (x + 1, y + 1), (x, y + 1))
            )

        seen = {self.start}
        todo = [self.start]
        while todo:
            x, y = todo.pop()
            if (x, y) == self.goal:
                return True
            for dx, dy in _STEPS:
                nx, ny = x + dx, y + dy
                if not (0 <= nx < self.w and 0 <= ny < self.h) or (nx, ny) in seen:
                    continue
                if dx:
                    ex = max(x, nx)
                    ends = ((ex, y), (ex, y + 1))
                else:
                    ey = max(y, ny)
                    ends = ((x, ey), (x + 1, ey))
                if all(val(a, b) == "l" for a, b in ends) or not passable(nx, ny):
                    continue
                seen.add((nx, ny))
                todo.append((nx, ny))
        return False

    def free_neighbours(self, tid: int) -> set[tuple[int, int]]:
        """Empty squares sharing an edge with tile ``tid``."""
        return {
            (x + dx, y + dy)
            for x, y in self.tiles[tid]
            for dx, dy in _STEPS
            if 0 <= x + dx < self.w and 0 <= y + dy < self.h and self.owner[y + dy][x + dx] is None
        }

    def placements_next_to(self, tid: int, grids: Sequence[Grid]) -> list[tuple[Grid, int, int]]:
        """Every legal (orientation, x, y) of ``grids`` sharing an edge with tile ``tid``."""
        out = []
        neighbours = self.free_neighbours(tid)
        for grid in grids:
            h, w = len(grid) - 1, len(grid[0]) - 1
            spots = {(nx - i, ny - j) for nx, ny in neighbours for i in range(w) for j in range(h)}
            for x0, y0 in sorted(spots):
                verts = self.fits(grid, x0, y0)
                if verts is not None and self.route_open(verts):
                    out.append((grid, x0, y0))
        return out

    def place(self, grid: Grid, x0: int, y0: int, holes: Counter[int]) -> None:
        verts = self.fits(grid, x0, y0)
        assert verts is not None
        h, w = len(grid) - 1, len(grid[0]) - 1
        self._put([(x0 + i, y0 + j) for j in range(h) for i in range(w)], verts)
        changed = True
        while changed:
            changed = False
            for y in range(self.h):
                for x in range(self.w):
                    if self.owner[y][x] is not None:
                        continue
                    closed = all(
                        not (0 <= x + dx < self.w and 0 <= y + dy < self.h)
                        or self.owner[y + dy][x + dx] is not None
                        for dx, dy in _STEPS
                    )
                    if closed:
                        corners = "".join(
                            str(self.v[b][a])
                            for a, b in ((x, y), (x + 1, y), (x + 1, y + 1), (x, y + 1))
                        )
                        holes[corner_class(corners)] += 1
                        self._put([(x, y)], {})
                        changed = True


def simulate(doc: dict[str, Any], games: int = 60, seed: int = 11) -> dict[str, Any]:
    """Random placement games on the default board (rules §7.C, without players).

    Each step picks a random tile with a free neighbour square as the anchor and
    tries the 4-tile display against it; a legal placement is chosen at random,
    holes are filled, the display refilled.  A game stops when the display is empty
    or 40 anchors in a row fail.  ``display_ok`` is the share of the steps before
    the 30th placement in which some displayed tile fitted next to the anchor,
    ``placed`` the mean number of large tiles placed per game, ``covered`` the mean
    share of squares covered at the end, ``holes`` the classes of the holes filled.
    """
    board_doc = json.loads((DATA_DIR / "board.json").read_text(encoding="utf-8"))
    rng = random.Random(seed)
    faces = _large_faces(doc)
    holes: Counter[int] = Counter()
    steps = display_ok = placed = 0
    covered = 0.0
    for _ in range(games):
        board = _Board(board_doc)
        bag = list(range(len(faces)))
        _shuffle(rng, bag)
        display = [bag.pop() for _ in range(4)]
        fails = in_game = 0
        while display and fails < 40:
            frontier = [t for t in range(len(board.tiles)) if board.free_neighbours(t)]
            if not frontier:
                break
            anchor = frontier[_below(rng, len(frontier))]
            options = [
                (d, p)
                for d in display
                for p in board.placements_next_to(
                    anchor, [o for f in faces[d] for o in rotations(f)]
                )
            ]
            if in_game < 30:
                steps += 1
                display_ok += bool(options)
            if not options:
                fails += 1
                continue
            fails = 0
            in_game += 1
            d, (grid, x0, y0) = options[_below(rng, len(options))]
            board.place(grid, x0, y0, holes)
            display.remove(d)
            if bag:
                display.append(bag.pop())
        placed += in_game
        covered += sum(o is not None for row in board.owner for o in row) / (board.w * board.h)
    return {
        "display_ok": round(display_ok / steps, 3),
        "placed": round(placed / games, 1),
        "covered": round(covered / games, 3),
        "holes": dict(sorted(holes.items())),
    }


def statistics(doc: dict[str, Any]) -> dict[str, Any]:
    """The numbers reported for the design: land share, piles, symbols, fit rates."""
    land = total = 0
    symbols: Counter[str] = Counter()
    piles: Counter[int] = Counter()
    for tile in doc["tiles"]:
        for side in tile["sides"].values():
            for row in side["terrain"]:
                land += row.count("l")
                total += len(row)
            if side["symbol"]:
                symbols[side["symbol"]] += 1
        if tile["size"] == 1:
            piles[tile["pile"]] += 1
    faces = [f for fs in _large_faces(doc) for f in fs]
    return {
        "land_share": land / total,
        "large_land_share": sum(land_count(f) for f in faces) / (6 * len(faces)),
        "small_piles": dict(sorted(piles.items())),
        "symbols": dict(symbols),
        "land_per_face": dict(sorted(Counter(land_count(f) for f in faces).items())),
        "large_square_classes": dict(
            sorted(Counter(corner_class(c) for f in faces for c in squares_of(f)).items())
        ),
        "distinct_faces": len(set(faces)),
        "fit": fit_statistics(doc),
        "edges": edge_table(doc),
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--check", action="store_true", help="only compare with tiles.json")
    parser.add_argument("--stats", action="store_true", help="print design statistics")
    parser.add_argument("--simulate", action="store_true", help="also run the board simulation")
    args = parser.parse_args(argv)
    text = generate_json()
    if args.stats or args.simulate:
        doc = json.loads(text)
        for key, value in statistics(doc).items():
            print(f"{key}: {value}")
        if args.simulate:
            for key, value in simulate(doc).items():
                print(f"simulation {key}: {value}")
        return 0
    if args.check:
        same = TILES_PATH.exists() and TILES_PATH.read_text(encoding="utf-8") == text
        print("tiles.json is up to date" if same else "tiles.json differs from the generator")
        return 0 if same else 1
    TILES_PATH.write_text(text, encoding="utf-8")
    print(f"wrote {TILES_PATH}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
