"""Precomputed geometry of a Northwest Passage board and tile set, as bitboards.

Everything the engine asks many times per search node is turned into Python
integers used as bit sets, so that placing a tile, testing a match, finding
holes, islands and the sea route are a handful of shifts and ands instead of
loops over squares.

Indexing: with stride ``S = width + 2`` both the vertex ``(x, y)`` and the
square ``(x, y)`` have bit index ``x + S * y``.  A square's corners are then
bits ``s``, ``s + 1``, ``s + S`` and ``s + S + 1``, and the unused columns to
the right of the board are padding that absorbs the wrap-around of a shift, so
a mask with the valid bits removes it (this is the "0x88 board" trick).

Terrain masks: ``land`` and ``sea`` hold the vertices whose value is fixed (by
the printed board or by a placed tile); a vertex in neither is still open.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from erebus.games.northwest.content import TOKEN_KINDS, Content, TileDef

LAND = "l"
SEA = "s"

# Corner bits of a square's pattern, clockwise from the north-west corner.
NW, NE, SE, SW = 1, 2, 4, 8


def pattern_class(pattern: int) -> int:
    """Rotation class (rules §2) of a 4-bit land-corner pattern: 0 all sea,
    1 one land corner, 2 two adjacent, 3 two opposite, 4 three, 5 all land."""
    n = bin(pattern).count("1")
    if n == 2:
        return 3 if pattern in (NW | SE, NE | SW) else 2
    return {0: 0, 1: 1, 3: 4, 4: 5}[n]


def rotate_grid(rows: tuple[str, ...], quarter_turns: int) -> tuple[str, ...]:
    """Rotate a grid of characters clockwise by ``quarter_turns`` quarter turns."""
    grid = [list(r) for r in rows]
    for _ in range(quarter_turns % 4):
        h = len(grid)
        w = len(grid[0])
        grid = [[grid[h - 1 - j][i] for j in range(h)] for i in range(w)]
    return tuple("".join(r) for r in grid)


def iter_bits(mask: int) -> list[int]:
    """The indices of the set bits of ``mask``, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


PlacementEntry = tuple[
    list[list[int]],
    dict[int, tuple[tuple[int, int, int], ...]],
    dict[tuple[int, ...], tuple[tuple[int, int, int], ...]],
    dict[tuple[int, tuple[int, ...]], tuple[Any, ...]],
]
"""A ``Geometry.placement_cache`` value: the anchors of each shape, the placements
found so far by tile and by reserve (a tuple of tiles, in order), and their
interned place actions by (vehicle, reserve) (``LegalActions.legal_actions``)."""


@dataclass(frozen=True, slots=True)
class Orientation:
    """A tile turned and flipped, with masks relative to anchor bit 0.

    ``w``/``h`` are its size in squares; ``squares`` the square offsets it
    covers; ``symbol_at`` the offset of its symbol's square (or -1).
    """

    tile: int
    side: str
    rotation: int
    w: int
    h: int
    land: int
    sea: int
    square_mask: int
    squares: tuple[int, ...]
    symbol: int  # index into TOKEN_KINDS + 1, 0 = none
    symbol_at: int
    shape: int  # 0 = 1x1, 1 = horizontal 2x1, 2 = vertical 1x2


class Geometry:
    """Every fixed fact about the board and tiles that the engine needs, precomputed."""

    def __init__(self, content: Content) -> None:
        board = content.board
        self.content = content
        self.W = W = board.width
        self.H = H = board.height
        self.S = S = W + 2
        self.size = S * (H + 1) + 1
        self.rounds = board.rounds

        self.squares_mask = sum(1 << (x + S * y) for y in range(H) for x in range(W))
        self.vertices_mask = sum(1 << (x + S * y) for y in range(H + 1) for x in range(W + 1))
        self.row_first = sum(1 << x for x in range(W))
        self.row_last = self.row_first << (S * (H - 1))
        self.col_first = sum(1 << (S * y) for y in range(H))
        self.col_last = self.col_first << (W - 1)

        # Printed border vertices.
        land = sea = 0
        border = 0

        def fix(x: int, y: int, c: str) -> None:
            nonlocal land, sea, border
            bit = 1 << (x + S * y)
            border |= bit
            if c == LAND:
                land |= bit
            else:
                sea |= bit

        for x, c in enumerate(board.border["top"]):
            fix(x, 0, c)
        for x, c in enumerate(board.border["bottom"]):
            fix(x, H, c)
        for y, c in enumerate(board.border["west"]):
            fix(0, y, c)
        for y, c in enumerate(board.border["east"]):
            fix(W, y, c)
        self.border_vertices = border

        # Zones per square.
        self.zone_of = [0] * self.size
        for y in range(H):
            for x in range(W):
                self.zone_of[x + S * y] = board.zones[x]

        # Frozen squares per sun position.
        self.sun_positions = board.sun_positions
        self.sun_start = board.sun_start
        self.frozen_rows = dict(board.frozen_rows)
        self.frozen_by_sun = {
            pos: sum(1 << (x + S * y) for y in range(rows) for x in range(W))
            for pos, rows in board.frozen_rows.items()
        }

        # Tiles: content tiles first, then printed squares.
        self.tiles: list[TileDef] = list(content.tiles)
        self.tile_ids: list[str] = [t.id for t in content.tiles]
        self.tile_index = {tid: i for i, tid in enumerate(self.tile_ids)}
        self.large = [i for i, t in enumerate(self.tiles) if t.large]
        self.n_tiles = len(self.tiles)
        self.orientations: list[Orientation] = []
        self.orients_of: list[tuple[int, ...]] = []
        for i, t in enumerate(self.tiles):
            ids = []
            for side in sorted(t.sides):
                for rot in range(4):
                    ids.append(len(self.orientations))
                    self.orientations.append(self._orient(i, t, side, rot))
            self.orients_of.append(tuple(ids))

        # Small piles: fixed stacks per rotation class; the top is the last one.
        self.pile_tiles: list[tuple[int, ...]] = [
            tuple(i for i, t in enumerate(self.tiles) if not t.large and t.pile == c)
            for c in range(6)
        ]
        # For each small tile and each 4-bit pattern, the rotation that yields it.
        self.small_rotation: dict[tuple[int, int], int] = {}
        for i, t in enumerate(self.tiles):
            if t.large:
                continue
            for rot in range(4):
                o = self.orientations[self.orients_of[i][rot]]
                self.small_rotation.setdefault((i, self._pattern_at(o.land, 0)), rot)

        # Printed squares become pseudo-tiles after the real ones.
        self.printed_ids: list[str] = []
        self.printed_square: list[int] = []
        self.printed_symbol: list[int] = []
        for p in board.printed:
            s = p.x + S * p.y
            self.printed_ids.append(p.id)
            self.printed_square.append(s)
            self.printed_symbol.append(TOKEN_KINDS.index(p.symbol) + 1 if p.symbol else 0)
            corners = (s, s + 1, s + S + 1, s + S)  # NW NE SE SW
            for bit, c in zip(corners, p.corners, strict=True):
                if c == LAND:
                    land |= 1 << bit
                else:
                    sea |= 1 << bit
        self.initial_land = land
        self.initial_sea = sea
        self.all_ids = self.tile_ids + self.printed_ids

        gx, gy = board.arrows["greenland"]
        nx, ny = board.arrows["northwest"]
        self.greenland_square = gx + S * gy
        self.northwest_square = nx + S * ny

        # Neighbours of each square: (neighbour square, edge vertex 1, edge vertex 2).
        self.neighbours: list[tuple[tuple[int, int, int], ...]] = [() for _ in range(self.size)]
        for y in range(H):
            for x in range(W):
                s = x + S * y
                nb = []
                if x + 1 < W:
                    nb.append((s + 1, s + 1, s + 1 + S))
                if x > 0:
                    nb.append((s - 1, s, s + S))
                if y + 1 < H:
                    nb.append((s + S, s + S, s + S + 1))
                if y > 0:
                    nb.append((s - S, s, s + 1))
                self.neighbours[s] = tuple(nb)

        # The same neighbours with the shared edge as one mask, for the move test
        # (``Position._destinations``): (neighbour square, both edge vertices).
        self.neighbour_edges: list[tuple[tuple[int, int], ...]] = [
            tuple((u, 1 << v1 | 1 << v2) for u, v1, v2 in nb) for nb in self.neighbours
        ]
        # Per tile: (orientation, land, sea, shape) of each of its orientations, so
        # that the placement search reads one tuple instead of an Orientation's fields.
        self.tile_orient_masks: list[tuple[tuple[int, int, int, int], ...]] = [
            tuple((oi, o.land, o.sea, o.shape) for oi in ois for o in (self.orientations[oi],))
            for ois in self.orients_of
        ]

        # Interned place actions, keyed (vehicle, tile, orientation, anchor).
        self.action_cache: dict[tuple[int, int, int, int], Any] = {}
        self.move_actions: dict[tuple[int, object], Any] = {}
        # Sea-route answers by fixed-land mask (bounded by the state module).
        self.route_cache: dict[int, bool] = {}
        # Placements by (squares next to which, occupied, land, sea): the anchors of
        # each shape and, filled lazily, each tile's placements (bounded and
        # explained by ``Position._placements``).
        self.placement_cache: dict[tuple[int, int, int, int], PlacementEntry] = {}

        # Anchors where each shape fits inside the board.
        self.valid_anchor = [
            sum(1 << (x + S * y) for y in range(H) for x in range(W)),
            sum(1 << (x + S * y) for y in range(H) for x in range(W - 1)),
            sum(1 << (x + S * y) for y in range(H - 1) for x in range(W)),
        ]

    # -- construction helpers -------------------------------------------------

    def _orient(self, index: int, tile: TileDef, side: str, rot: int) -> Orientation:
        S = self.S
        face = tile.sides[side]
        terrain = rotate_grid(face.terrain, rot)
        land = sea = 0
        for y, row in enumerate(terrain):
            for x, c in enumerate(row):
                if c == LAND:
                    land |= 1 << (x + S * y)
                else:
                    sea |= 1 << (x + S * y)
        h = len(terrain) - 1
        w = len(terrain[0]) - 1
        # Square grid, rotated the same way, marks the symbol's square.
        sq_rows = tuple(
            "".join(
                "*" if face.symbol is not None and face.symbol_square == c and r == 0 else "."
                for c in range(tile.size)
            )
            for r in range(1)
        )
        sq_rot = rotate_grid(sq_rows, rot)
        squares = []
        symbol_at = -1
        for y, row in enumerate(sq_rot):
            for x, c in enumerate(row):
                squares.append(x + S * y)
                if c == "*":
                    symbol_at = x + S * y
        shape = 0 if tile.size == 1 else (1 if w == 2 else 2)
        return Orientation(
            tile=index,
            side=side,
            rotation=rot,
            w=w,
            h=h,
            land=land,
            sea=sea,
            square_mask=sum(1 << q for q in squares),
            squares=tuple(squares),
            symbol=TOKEN_KINDS.index(face.symbol) + 1 if face.symbol else 0,
            symbol_at=symbol_at,
            shape=shape,
        )

    def _pattern_at(self, land: int, s: int) -> int:
        S = self.S
        p = 0
        if land >> s & 1:
            p |= NW
        if land >> (s + 1) & 1:
            p |= NE
        if land >> (s + S + 1) & 1:
            p |= SE
        if land >> (s + S) & 1:
            p |= SW
        return p

    # -- queries used by the engine ------------------------------------------

    def pattern_at(self, land: int, s: int) -> int:
        """The 4-bit land-corner pattern of square ``s`` under the land mask."""
        return self._pattern_at(land, s)

    def corners(self, square_mask: int) -> int:
        """All vertices that are corners of the squares in ``square_mask``."""
        S = self.S
        return square_mask | square_mask << 1 | square_mask << S | square_mask << (S + 1)

    def squares_touching(self, vertex_mask: int) -> int:
        """Squares having any vertex of ``vertex_mask`` as a corner."""
        S = self.S
        m = vertex_mask | vertex_mask >> 1 | vertex_mask >> S | vertex_mask >> (S + 1)
        return m & self.squares_mask

    def dilate(self, square_mask: int) -> int:
        """Squares orthogonally adjacent to ``square_mask`` (the mask itself excluded)."""
        S = self.S
        m = square_mask
        return (m << 1 | m >> 1 | m << S | m >> S) & self.squares_mask & ~m

    def holes(self, occupied: int) -> int:
        """Empty squares whose four sides all touch a tile or the board edge."""
        S = self.S
        empty = self.squares_mask & ~occupied
        north = (occupied << S) | self.row_first
        south = (occupied >> S) | self.row_last
        east = (occupied >> 1) | self.col_last
        west = (occupied << 1) | self.col_first
        return empty & north & south & east & west

    def sea_route(self, land: int) -> bool:
        """Is there a sea route between the two arrows, ice ignored (rules §7.C)?

        A square is passable unless its 4 corners are land; two adjacent squares
        connect unless both ends of their shared edge are land.  Open vertices
        count as sea, which is exact for placed squares and optimistic for empty
        ones.
        """
        S = self.S
        blocked = land & land >> 1 & land >> S & land >> (S + 1)
        passable = self.squares_mask & ~blocked
        hopen = ~(land >> 1 & land >> (S + 1))
        vopen = ~(land >> S & land >> (S + 1))
        reach = 1 << self.greenland_square
        target = 1 << self.northwest_square
        if not passable & reach or not passable & target:
            return False
        while True:
            nxt = (
                reach
                | (reach & hopen) << 1
                | (reach >> 1 & hopen)
                | (reach & vopen) << S
                | (reach >> S & vopen)
            ) & passable
            if nxt & target:
                return True
            if nxt == reach:
                return False
            reach = nxt

    def land_region(self, land: int, start: int) -> int:
        """The vertices connected to ``start`` along grid edges with both ends land."""
        S = self.S
        land &= self.vertices_mask
        region = 1 << start
        while True:
            nxt = (region | region << 1 | region >> 1 | region << S | region >> S) & land
            if nxt == region:
                return region
            region = nxt

    def xy(self, index: int) -> tuple[int, int]:
        return index % self.S, index // self.S

    def index(self, x: int, y: int) -> int:
        return x + self.S * y

    def on_board(self, x: int, y: int) -> bool:
        return 0 <= x < self.W and 0 <= y < self.H
