"""The fields of a Northwest Passage state and the questions asked of them.

:class:`Position` holds every field of a
:class:`~erebus.games.northwest.state.State` (as ``__slots__``: a state is a
compact bag of integers and flat lists, so that ``clone()`` stays a few list
copies) and answers the read-only queries: the engine API's accessors and the
internal ones the rules ask many times per move (which squares a vehicle is on,
where it may go, where a tile may be placed).  Nothing here changes a state; the
layers above it (:mod:`~erebus.games.northwest.legal`,
:mod:`~erebus.games.northwest.effects`, :mod:`~erebus.games.northwest.handlers`)
build on these queries, and :class:`~erebus.games.northwest.state.State` puts
them together.

Section numbers refer to ``shared/rules/northwest-passage.md``.
"""

from __future__ import annotations

from typing import Any

from erebus.games.northwest.actions import FREE_KINDS, VEHICLES
from erebus.games.northwest.content import (
    ALL_TOKEN_KINDS,
    TOKEN_KINDS,
    Content,
)
from erebus.games.northwest.geometry import Geometry, PlacementEntry, iter_bits
from erebus.games.northwest.layout import (
    ARROW_NAME,
    CREW_FIELDS,
    CREW_LOST,
    GREENLAND,
    JOKER,
    LOST,
    N_KINDS,
    NORTHWEST,
    PLAYER_BOARD,
    SHIP,
    SHIP_AV,
    SHIP_REST,
    SLED,
    SLED_AV,
    SLED_REST,
)

ROUTE_CACHE_LIMIT = 100_000  # sea-route answers kept per content (a pure function of land)
PLACEMENT_CACHE_LIMIT = 10_000  # placement keys kept per content (see Position._placements)
RESERVES_PER_KEY = 32  # reserves (and vehicle, reserve) answers kept per placement key


class Position:
    """The fields of a state and its read-only queries (see the module docstring)."""

    __slots__ = (
        "_geo",
        "acted",
        "bag",
        "board_tokens",
        "crews",
        "current",
        "disp",
        "draft_left",
        "gl_left",
        "gl_value",
        "land",
        "loc",
        "n",
        "nw_left",
        "nw_reached",
        "nw_value",
        "occ",
        "order",
        "over",
        "pass_order",
        "passed",
        "pending",
        "pile_counts",
        "ptok",
        "reserves",
        "ret_order",
        "rng",
        "round",
        "score",
        "sea",
        "seed",
        "sq_tile",
        "sun",
        "supply",
        "tile_anchor",
        "tile_orient",
    )

    _geo: Geometry
    acted: int
    bag: list[int]
    board_tokens: list[int]
    crews: list[int]
    current: int | None
    disp: list[int]
    draft_left: list[int]
    gl_left: list[int]
    gl_value: list[int | None]
    land: int
    loc: list[int]
    n: int
    nw_left: list[int]
    nw_reached: list[bool]
    nw_value: list[int | None]
    occ: int
    order: list[int]
    pass_order: list[int]
    passed: list[bool]
    pending: int
    pile_counts: list[int]
    ptok: list[int]
    reserves: list[list[int]]
    ret_order: list[int]
    rng: int
    round: int
    score: list[int]
    sea: int
    seed: int
    sq_tile: list[int]
    sun: int
    supply: list[int]
    tile_anchor: list[int]
    tile_orient: list[int]
    over: bool

    # ------------------------------------------------------------ public query

    @property
    def content(self) -> Content:
        return self._geo.content

    @property
    def geometry(self) -> Geometry:
        return self._geo

    @property
    def players(self) -> int:
        return self.n

    @property
    def current_player(self) -> int | None:
        return None if self.over else self.current

    @property
    def is_over(self) -> bool:
        return self.over

    @property
    def board(self) -> BoardView:
        return BoardView(self)

    def scores(self) -> list[int]:
        return self.score[:]

    def ranking(self) -> list[int]:
        """Seats best first: higher score, then who returned to Greenland first (§8.1)."""
        big = self.n + 1
        return sorted(
            range(self.n),
            key=lambda s: (-self.score[s], self.ret_order[s] or big, s),
        )

    def frozen_rows(self) -> set[int]:
        return set(range(self._geo.frozen_rows[self.sun]))

    def position(self, seat: int, vehicle: str) -> tuple[int, int] | str | None:
        loc = self.loc[2 * seat + VEHICLES.index(vehicle)]
        return self._loc_name(loc)

    def crew_of(self, seat: int) -> dict[str, Any]:
        c = self.crews[CREW_FIELDS * seat : CREW_FIELDS * seat + CREW_FIELDS]
        return {
            "ship": {"available": c[SHIP_AV], "resting": c[SHIP_REST]},
            "sled": {"available": c[SLED_AV], "resting": c[SLED_REST]},
            "lost": c[CREW_LOST],
        }

    def crew(self, seat: int) -> dict[str, Any]:
        return self.crew_of(seat)

    def reserve(self, seat: int) -> list[str]:
        return self.reserve_of(seat)

    def returned(self, seat: int) -> bool:
        return self.ret_order[seat] > 0

    @property
    def display(self) -> list[str]:
        return [self._geo.all_ids[t] for t in self.disp]

    @property
    def piles(self) -> list[int]:
        return self.pile_counts[:]

    def tokens(self, seat: int) -> dict[str, int | None]:
        out: dict[str, int | None] = {
            k: self.ptok[N_KINDS * seat + i] for i, k in enumerate(ALL_TOKEN_KINDS)
        }
        out["northwest"] = self.nw_value[seat]
        out["greenland"] = self.gl_value[seat]
        return out

    def reserve_of(self, seat: int) -> list[str]:
        return [self._geo.all_ids[t] for t in self.reserves[seat]]

    def returned_to_greenland(self, seat: int) -> bool:
        return self.ret_order[seat] > 0

    def available(self, seat: int) -> int:
        b = CREW_FIELDS * seat
        return self.crews[b + SHIP_AV] + self.crews[b + SLED_AV]

    def tile_at(self, x: int, y: int) -> str | None:
        if not self._geo.on_board(x, y):
            return None
        t = self.sq_tile[self._geo.index(x, y)]
        return None if t < 0 else self._geo.all_ids[t]

    def cost_of(self, kind: str) -> int:
        """Crew the current player pays for an action of ``kind`` now (§6)."""
        if self.pending >= 0 or kind in FREE_KINDS:
            return 0
        rules = self._geo.content.rules
        base = rules.action_costs.get(kind, 0)
        return base + rules.further_action_surcharge if self.acted else base

    # ------------------------------------------------------------- internals

    def _loc_name(self, loc: int) -> tuple[int, int] | str | None:
        if loc >= 0:
            return self._geo.xy(self.tile_anchor[loc])
        if loc == PLAYER_BOARD:
            return None
        if loc == LOST:
            return "lost"
        return ARROW_NAME[loc]

    def _loc_text(self, loc: int) -> str:
        name = self._loc_name(loc)
        if isinstance(name, tuple):
            return f"{name[0]},{name[1]}"
        return str(name)

    def _tile_squares(self, t: int) -> int:
        geo = self._geo
        a = self.tile_anchor[t]
        if a < 0:
            return 0
        if t >= geo.n_tiles:
            return 1 << a
        o = self.tile_orient[t]
        if o == JOKER:
            return 1 << a
        return geo.orientations[o].square_mask << a

    def _loc_squares(self, loc: int) -> int:
        """Squares a vehicle at ``loc`` is present on, for placement adjacency (§3)."""
        if loc >= 0:
            return self._tile_squares(loc)
        if loc == GREENLAND:
            return 1 << self._geo.greenland_square
        if loc == NORTHWEST:
            return 1 << self._geo.northwest_square
        return 0

    def _frozen(self) -> int:
        return self._geo.frozen_by_sun[self.sun]

    def _destinations(self, vehicle: int, loc: int) -> dict[int, int]:
        """Locations one move away: destination -> the square of the step (§7.D).

        Hot (every legal list asks it for both vehicles): the tile's squares come
        from its orientation's offsets (ascending, as the bits of its square mask),
        each neighbour's shared edge is one precomputed mask, and a ship on a frozen
        square skips its neighbours at once (it can leave by none of them)."""
        geo = self._geo
        frozen = geo.frozen_by_sun[self.sun]
        out: dict[int, int] = {}
        gsq, nsq = geo.greenland_square, geo.northwest_square
        if loc < 0:
            if loc in (GREENLAND, NORTHWEST):
                s = gsq if loc == GREENLAND else nsq
                if bool(frozen >> s & 1) == (vehicle == SLED):
                    out[self.sq_tile[s]] = s
            return out
        a = self.tile_anchor[loc]
        if a < 0:
            return out
        if loc >= geo.n_tiles:
            squares: tuple[int, ...] | list[int] = (a,)
        else:
            o = self.tile_orient[loc]
            squares = (a,) if o == JOKER else [a + q for q in geo.orientations[o].squares]
        sq_tile = self.sq_tile
        edges = geo.neighbour_edges
        ship = vehicle == SHIP
        terrain = self.sea if ship else self.land
        for s in squares:
            fs = frozen >> s & 1
            if not (ship and fs):
                for u, edge in edges[s]:
                    t2 = sq_tile[u]
                    if t2 < 0 or t2 == loc or t2 in out:
                        continue
                    if ship:
                        if terrain & edge and not frozen >> u & 1:
                            out[t2] = u
                    elif terrain & edge or (fs and frozen >> u & 1):
                        out[t2] = u
            if s == gsq and bool(fs) != ship:
                out[GREENLAND] = s
            if s == nsq and bool(fs) != ship:
                out[NORTHWEST] = s
        return out

    def _placements(self, loc: int) -> list[tuple[int, int, int]]:
        """Legal placements next to ``loc``: (tile, orientation, anchor) (§7.C).

        They are a pure function of the squares next to which a tile goes (those of
        ``loc``), the occupied squares, the fixed land and sea (the sea-route test
        reads only the land) and the reserve; the reserve only says which tiles, in
        which order.  So the geometry keeps, per (squares, occupied, land, sea), the
        anchors of each shape, each tile's placements found so far and their
        concatenation per reserve (in reserve order: the same list as one search,
        since each tile's part is searched in the same order, orientation, then
        anchor lowest first).  Steps that leave the board as it was (draws, moves,
        transfers, other seats' turns) find their key; a new key costs about what the
        plain search did.  The cache is emptied whenever it reaches
        ``PLACEMENT_CACHE_LIMIT`` keys, an entry's answers per reserve whenever they
        reach ``RESERVES_PER_KEY``."""
        seat = self.current
        assert seat is not None
        entry = self._placement_entry_at(loc)
        if entry is None:
            return []
        reserve = tuple(self.reserves[seat])
        got = entry[2].get(reserve)
        if got is None:
            got = self._search_reserve(entry, reserve)
        return list(got)

    def _placement_entry_at(self, loc: int) -> PlacementEntry | None:
        """The cache entry of the current player's placements next to ``loc``
        (made if new, its anchors found), None when there are none (no reserve,
        ``loc`` off the board)."""
        seat = self.current
        assert seat is not None
        if not self.reserves[seat]:
            return None
        near = self._loc_squares(loc)
        if not near:
            return None
        key = (near, self.occ, self.land, self.sea)
        cache = self._geo.placement_cache
        entry = cache.get(key)
        if entry is None:
            if len(cache) >= PLACEMENT_CACHE_LIMIT:
                cache.clear()
            entry = cache[key] = (self._anchors(near), {}, {}, {})
        return entry

    def _anchors(self, near: int) -> list[list[int]]:
        """Per shape (1×1, 2×1, 1×2): the anchors whose tile lies on free squares of
        the board and covers a free square next to ``near`` (§7.C), lowest first."""
        geo = self._geo
        occ = self.occ
        frontier = geo.dilate(near) & ~occ
        if not frontier:
            return [[], [], []]
        S = geo.S
        free = geo.squares_mask & ~occ
        return [
            iter_bits(frontier),
            iter_bits((frontier | frontier >> 1) & geo.valid_anchor[1] & free & (free >> 1)),
            iter_bits((frontier | frontier >> S) & geo.valid_anchor[2] & free & (free >> S)),
        ]

    def _search_reserve(
        self, entry: PlacementEntry, reserve: tuple[int, ...]
    ) -> tuple[tuple[int, int, int], ...]:
        """The placements of the tiles of ``reserve``, in its order, kept in ``entry``;
        each tile's searched once per entry: every orientation in turn, its anchors
        lowest first, that matches the fixed terrain and leaves a sea route (§7.C)."""
        anchor_bits, per_tile = entry[0], entry[1]
        geo = self._geo
        land, sea = self.land, self.sea
        route_cache = geo.route_cache
        orient_masks = geo.tile_orient_masks
        found: list[tuple[int, int, int]] = []
        for t in reserve:
            part = per_tile.get(t)
            if part is None:
                out: list[tuple[int, int, int]] = []
                for oi, ol, osea, shape in orient_masks[t]:
                    for a in anchor_bits[shape]:
                        tl = ol << a
                        if tl & sea or (osea << a) & land:
                            continue
                        if tl & ~land:
                            new_land = land | tl
                            ok = route_cache.get(new_land)
                            if ok is None:
                                ok = geo.sea_route(new_land)
                                if len(route_cache) >= ROUTE_CACHE_LIMIT:
                                    route_cache.clear()
                                route_cache[new_land] = ok
                            if not ok:
                                continue
                        out.append((t, oi, a))
                part = per_tile[t] = tuple(out)
            found += part
        by_reserve = entry[2]
        if len(by_reserve) >= RESERVES_PER_KEY:
            by_reserve.clear()
        got = by_reserve[reserve] = tuple(found)
        return got

    def _token_on(self, loc: int) -> tuple[int, int]:
        """(kind, square) of the token on the tile at ``loc``, or (0, -1)."""
        if loc < 0:
            return 0, -1
        a = self.tile_anchor[loc]
        if a < 0:
            return 0, -1
        tokens = self.board_tokens
        k = tokens[a]  # the anchor is the tile's first square (lowest bit)
        if k:
            return k, a
        geo = self._geo
        if loc < geo.n_tiles:
            o = self.tile_orient[loc]
            if o != JOKER:
                for q in geo.orientations[o].squares[1:]:
                    k = tokens[a + q]
                    if k:
                        return k, a + q
        return 0, -1

    def _can_deploy_at(self, ship_loc: int) -> bool:
        """Can a sled be put on the ship's location (§7.E, §7.9)?"""
        if ship_loc == GREENLAND:
            return True
        if ship_loc < 0:
            return False
        sq = self._tile_squares(ship_loc)
        return bool(self._geo.corners(sq) & self.land or sq & self._frozen())

    def _transfer_allowed(self, seat: int) -> str | None:
        sled = self.loc[2 * seat + SLED]
        if sled == LOST:
            return "your sled was lost to the thawing ice and never comes back (§4)"
        if sled != PLAYER_BOARD and sled != self.loc[2 * seat + SHIP]:
            return "crew can be transferred only when the ship and the sled are on the same tile (§7.E)"
        return None

    def _refresh_possible(self) -> bool:
        # A refresh draws its new display from the bag, and is followed by a draw.
        return bool(self.bag or any(self.pile_counts))


class BoardView:
    """Read-only board queries of the engine API (``state.board``)."""

    __slots__ = ("_st",)

    def __init__(self, st: Position) -> None:
        self._st = st

    @property
    def width(self) -> int:
        return self._st._geo.W

    @property
    def height(self) -> int:
        return self._st._geo.H

    def vertex(self, x: int, y: int) -> str | None:
        geo = self._st._geo
        if not (0 <= x <= geo.W and 0 <= y <= geo.H):
            raise ValueError(f"vertex ({x}, {y}) is off the board")
        bit = geo.index(x, y)
        if self._st.land >> bit & 1:
            return "land"
        if self._st.sea >> bit & 1:
            return "sea"
        return None

    def tile_at(self, x: int, y: int) -> str | None:
        return self._st.tile_at(x, y)

    def zone(self, x: int, y: int) -> int:
        geo = self._st._geo
        if not geo.on_board(x, y):
            raise ValueError(f"square ({x}, {y}) is off the board")
        return geo.zone_of[geo.index(x, y)]

    def token_at(self, x: int, y: int) -> str | None:
        geo = self._st._geo
        k = self._st.board_tokens[geo.index(x, y)] if geo.on_board(x, y) else 0
        return TOKEN_KINDS[k - 1] if k else None

    def frozen(self, x: int, y: int) -> bool:
        return y < self._st._geo.frozen_rows[self._st.sun]
