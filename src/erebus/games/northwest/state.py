"""The game state of Expedition: Northwest Passage and its rules.

A :class:`State` is a compact bag of integers and flat lists so that
``clone()`` is a few list copies and search can afford millions of them.  The
board is three bitboards (fixed land vertices, fixed sea vertices, occupied
squares; see :mod:`erebus.games.northwest.geometry`) plus a square → tile map.

Section numbers in comments and error messages refer to
``shared/rules/northwest-passage.md``.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from typing import Any

from erebus.core.errors import IllegalAction
from erebus.core.events import Event
from erebus.core.rng import Rng
from erebus.games.northwest import scoring
from erebus.games.northwest.actions import ARROWS, FREE_KINDS, VEHICLES, Action
from erebus.games.northwest.content import (
    ALL_TOKEN_KINDS,
    TOKEN_KINDS,
    Content,
    default_content,
    per_content,
)
from erebus.games.northwest.events import (
    CrewSpent,
    CrewTransferred,
    DisplayRefreshed,
    GameOver,
    HoleFilled,
    IslandCompleted,
    Passed,
    ReachedNorthwest,
    ReturnedToGreenland,
    RoundEnded,
    RoundStarted,
    ScoreChanged,
    SledDeployed,
    SledLost,
    SledRecalled,
    SunMoved,
    TileDrafted,
    TileDrawn,
    TilePlaced,
    TokenPlaced,
    TokenTaken,
    TurnEnded,
    VehicleMoved,
)
from erebus.games.northwest.geometry import Geometry, iter_bits, pattern_class
from erebus.games.northwest.layout import (
    ARROW_CODE,
    ARROW_NAME,
    CARTOGRAPHY,
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

__all__ = [
    "ARROW_CODE",
    "ARROW_NAME",
    "CARTOGRAPHY",
    "CREW_FIELDS",
    "CREW_LOST",
    "FORMAT",
    "GREENLAND",
    "JOKER",
    "LOST",
    "NORTHWEST",
    "N_KINDS",
    "PLAYER_BOARD",
    "ROUTE_CACHE_LIMIT",
    "SHIP",
    "SHIP_AV",
    "SHIP_REST",
    "SLED",
    "SLED_AV",
    "SLED_REST",
    "BoardView",
    "State",
    "geometry_for",
    "new_game",
    "replay",
]

ROUTE_CACHE_LIMIT = 100_000  # sea-route answers kept per content (a pure function of land)

# Interned actions: legal_actions() hands out these shared immutable tuples
# instead of allocating thousands of new ones per call.
_END_TURN = Action("end_turn")
_PASS = Action("pass")
_REFRESH = tuple(Action("refresh", v) for v in VEHICLES)
_DRAW_DISPLAY = tuple(tuple(Action.draw_display(v, i) for i in range(16)) for v in VEHICLES)
_DRAW_PILE = tuple(tuple(Action.draw_pile(v, c) for c in range(6)) for v in VEHICLES)
# Which Action fields each kind uses (by position); others must be None.
_FIELDS_OF = {
    kind: frozenset(Action._fields.index(f) for f in fields)
    for kind, fields in {
        "draft": ("kind", "slot"),
        "draw": ("kind", "vehicle", "source", "slot", "pile"),
        "refresh": ("kind", "vehicle"),
        "place": ("kind", "vehicle", "tile", "x", "y", "rotation", "side"),
        "move": ("kind", "vehicle", "to"),
        "transfer": ("kind", "vehicle", "sled_available", "sled_resting"),
        "explore": ("kind", "vehicle", "token"),
        "discover": ("kind", "vehicle", "token"),
        "end_turn": ("kind",),
        "pass": ("kind",),
    }.items()
}
_TRANSFER = tuple(
    tuple(tuple(Action.transfer(v, a, r) for r in range(16)) for a in range(16)) for v in VEHICLES
)
# Transfer option lists by (payer, available, resting, current sled column).
_TRANSFER_LISTS: dict[tuple[int, int, int, tuple[int, int]], tuple[Action, ...]] = {}
_TAKE = {
    (v, t): Action("explore" if t in ("franklin", "strait") else "discover", v, token=t)
    for v in VEHICLES
    for t in TOKEN_KINDS
}
FORMAT = 1  # version of to_json()

_GEOMETRY: dict[int, tuple[Content, Geometry]] = {}

# (JSON key, attribute) of the flat integer lists of the saved state.
_JSON_INT_LISTS = (
    ("supply", "supply"),
    ("nw_left", "nw_left"),
    ("gl_left", "gl_left"),
    ("display", "disp"),
    ("piles", "pile_counts"),
    ("crew", "crews"),
    ("loc", "loc"),
    ("ptok", "ptok"),
    ("returned", "ret_order"),
    ("score", "score"),
    ("order", "order"),
    ("pass_order", "pass_order"),
    ("draft_left", "draft_left"),
    ("bag", "bag"),
)


def geometry_for(content: Content) -> Geometry:
    """The precomputed geometry of ``content``, built once per content object."""
    return per_content(_GEOMETRY, content, Geometry)


class State:
    """A position in a game of Expedition: Northwest Passage.

    Build one with :func:`erebus.games.northwest.new_game`.  The public API is
    the one of ``shared/design/engine-api.md``; attributes without a leading
    underscore that are not documented there are internal but stable enough
    for renderers.
    """

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

    game = "northwest"
    """Name of the game module, for game-agnostic consumers (``erebus.games.get_game``)."""

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

    # ------------------------------------------------------------------ setup

    @classmethod
    def new(cls, players: int, seed: int, content: Content | None = None) -> State:
        """Set up a game (rules §5) and stop at the first draft choice."""
        if isinstance(players, bool) or not isinstance(players, int):
            raise ValueError("players must be an integer")
        content = content or default_content()
        if players not in content.rules.arrow_tokens:
            raise ValueError(
                f"Northwest Passage is for {min(content.rules.arrow_tokens)}–"
                f"{max(content.rules.arrow_tokens)} players, not {players}"
            )
        geo = geometry_for(content)
        rules = content.rules
        st = cls.__new__(cls)
        st._geo = geo
        st.n = players
        st.seed = seed
        rng = Rng(seed)
        st.round = 0
        st.sun = geo.sun_start
        st.land = geo.initial_land
        st.sea = geo.initial_sea
        st.occ = 0
        n_all = len(geo.all_ids)
        st.sq_tile = [-1] * geo.size
        st.tile_anchor = [-1] * n_all
        st.tile_orient = [-1] * geo.n_tiles
        st.board_tokens = [0] * geo.size
        st.supply = [rules.token_supply[k] for k in ALL_TOKEN_KINDS]
        for p, s in enumerate(geo.printed_square):
            t = geo.n_tiles + p
            st.occ |= 1 << s
            st.sq_tile[s] = t
            st.tile_anchor[t] = s
            kind = geo.printed_symbol[p]
            if kind and st.supply[kind - 1] > 0:
                st.board_tokens[s] = kind
                st.supply[kind - 1] -= 1
        arrows = rules.arrow_tokens[players]
        st.nw_left = sorted(arrows["northwest"], reverse=True)
        st.gl_left = sorted(arrows["greenland"], reverse=True)
        st.bag = sorted(geo.large)
        st.disp = []
        for _ in range(rules.display_size):
            if st.bag:
                st.disp.append(st.bag.pop(rng.below(len(st.bag))))
        st.pile_counts = [len(p) for p in geo.pile_tiles]
        st.reserves = [[] for _ in range(players)]
        st.crews = []
        for _ in range(players):
            st.crews += [rules.crew, 0, 0, 0, 0]
        st.loc = [GREENLAND, PLAYER_BOARD] * players
        st.ptok = [0] * (N_KINDS * players)
        st.nw_reached = [False] * players
        st.nw_value = [None] * players
        st.gl_value = [None] * players
        st.ret_order = [0] * players
        st.score = [0] * players
        st.order = list(range(players))
        rng.shuffle(st.order)
        st.passed = [False] * players
        st.pass_order = []
        st.draft_left = st.order[::-1]
        st.current = st.draft_left[0]
        st.acted = 0
        st.pending = -1
        st.over = False
        st.rng = rng.state
        return st

    def clone(self) -> State:
        """An independent copy; costs a few list copies."""
        c = State.__new__(State)
        c._geo = self._geo
        c.acted = self.acted
        c.bag = self.bag[:]
        c.board_tokens = self.board_tokens[:]
        c.crews = self.crews[:]
        c.current = self.current
        c.disp = self.disp[:]
        c.draft_left = self.draft_left[:]
        c.gl_left = self.gl_left[:]
        c.gl_value = self.gl_value[:]
        c.land = self.land
        c.loc = self.loc[:]
        c.n = self.n
        c.nw_left = self.nw_left[:]
        c.nw_reached = self.nw_reached[:]
        c.nw_value = self.nw_value[:]
        c.occ = self.occ
        c.order = self.order[:]
        c.pass_order = self.pass_order[:]
        c.passed = self.passed[:]
        c.pending = self.pending
        c.pile_counts = self.pile_counts[:]
        c.ptok = self.ptok[:]
        c.reserves = [r[:] for r in self.reserves]
        c.ret_order = self.ret_order[:]
        c.rng = self.rng
        c.round = self.round
        c.score = self.score[:]
        c.sea = self.sea
        c.seed = self.seed
        c.sq_tile = self.sq_tile[:]
        c.sun = self.sun
        c.supply = self.supply[:]
        c.tile_anchor = self.tile_anchor[:]
        c.tile_orient = self.tile_orient[:]
        c.over = self.over
        return c

    __copy__ = clone

    def __deepcopy__(self, memo: dict[int, Any]) -> State:
        return self.clone()

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
        rules = self._geo.content.rules
        base = rules.action_costs.get(kind, 0)
        if kind in FREE_KINDS or self.pending >= 0:
            return 0
        return base + (rules.further_action_surcharge if self.acted else 0)

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
        """Locations one move away: destination -> the square of the step (§7.D)."""
        geo = self._geo
        frozen = self._frozen()
        out: dict[int, int] = {}
        if loc in (GREENLAND, NORTHWEST):
            s = geo.greenland_square if loc == GREENLAND else geo.northwest_square
            is_frozen = bool(frozen >> s & 1)
            if is_frozen == (vehicle == SLED):
                out[self.sq_tile[s]] = s
            return out
        if loc < 0:
            return out
        land, sea, sq_tile = self.land, self.sea, self.sq_tile
        for s in iter_bits(self._tile_squares(loc)):
            fs = frozen >> s & 1
            for u, v1, v2 in geo.neighbours[s]:
                t2 = sq_tile[u]
                if t2 < 0 or t2 == loc or t2 in out:
                    continue
                fu = frozen >> u & 1
                if vehicle == SHIP:
                    ok = bool((sea >> v1 & 1 or sea >> v2 & 1) and not fs and not fu)
                else:
                    ok = bool(land >> v1 & 1 or land >> v2 & 1 or (fs and fu))
                if ok:
                    out[t2] = u
            for arrow, sq in ((GREENLAND, geo.greenland_square), (NORTHWEST, geo.northwest_square)):
                if s == sq and (bool(fs) == (vehicle == SLED)):
                    out[arrow] = s
        return out

    def _placements(self, loc: int) -> list[tuple[int, int, int]]:
        """Legal placements next to ``loc``: (tile, orientation, anchor) (§7.C)."""
        geo = self._geo
        seat = self.current
        assert seat is not None
        near = self._loc_squares(loc)
        if not near or not self.reserves[seat]:
            return []
        occ = self.occ
        frontier = geo.dilate(near) & ~occ
        if not frontier:
            return []
        S = geo.S
        free = geo.squares_mask & ~occ
        anchors = (
            frontier,
            (frontier | frontier >> 1) & geo.valid_anchor[1] & free & (free >> 1),
            (frontier | frontier >> S) & geo.valid_anchor[2] & free & (free >> S),
        )
        anchor_bits = [iter_bits(a) for a in anchors]
        land, sea = self.land, self.sea
        route_cache = geo.route_cache
        out: list[tuple[int, int, int]] = []
        orientations = geo.orientations
        for t in self.reserves[seat]:
            for oi in geo.orients_of[t]:
                o = orientations[oi]
                ol, osea = o.land, o.sea
                for a in anchor_bits[o.shape]:
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
        return out

    def _token_on(self, loc: int) -> tuple[int, int]:
        """(kind, square) of the token on the tile at ``loc``, or (0, -1)."""
        if loc < 0:
            return 0, -1
        for s in iter_bits(self._tile_squares(loc)):
            k = self.board_tokens[s]
            if k:
                return k, s
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

    # --------------------------------------------------------- legal actions

    def legal_actions(self) -> list[Action]:
        """Every action the current player may take, in a fixed order."""
        if self.over:
            return []
        seat = self.current
        assert seat is not None
        if self.round == 0:
            return [Action.draft(i) for i in range(len(self.disp))]
        if self.pending >= 0:
            return self._draws(VEHICLES[self.pending])
        geo = self._geo
        costs = geo.content.rules.action_costs
        extra = geo.content.rules.further_action_surcharge if self.acted else 0
        b = CREW_FIELDS * seat
        out: list[Action] = []
        placements_at: dict[int, list[tuple[int, int, int]]] = {}
        for v, vname in enumerate(VEHICLES):
            avail = self.crews[b + 2 * v]
            loc = self.loc[2 * seat + v]
            if avail >= costs["draw"] + extra:
                out += self._draws(vname)
            if avail >= costs["refresh"] + extra and self._refresh_possible():
                out.append(_REFRESH[v])
            if avail >= costs["place"] + extra:
                pl = placements_at.get(loc)
                if pl is None:
                    pl = placements_at[loc] = self._placements(loc)
                cache = geo.action_cache
                for key in pl:
                    vkey = (v, *key)
                    act = cache.get(vkey)
                    if act is None:
                        act = cache[vkey] = self._place_action(vname, *key)
                    out.append(act)
            if avail >= costs["move"] + extra:
                moves = geo.move_actions
                for dest in self._destinations(v, loc):
                    name = self._dest_name(dest)
                    act = moves.get((v, name))
                    if act is None:
                        act = moves[(v, name)] = Action.move(vname, name)
                    out.append(act)
            if avail >= costs["transfer"] + extra:
                out += self._transfers(seat, v)
            kind, _ = self._token_on(loc)
            if kind:
                act = _TAKE[(vname, TOKEN_KINDS[kind - 1])]
                if avail >= costs[act.kind] + extra:
                    out.append(act)
        if self.acted:
            out.append(_END_TURN)
        out.append(_PASS)
        return out

    def _place_action(self, vname: str, t: int, oi: int, anchor: int) -> Action:
        geo = self._geo
        o = geo.orientations[oi]
        x, y = geo.xy(anchor)
        return Action.place(vname, geo.all_ids[t], x, y, o.rotation, o.side)

    def _dest_name(self, dest: int) -> tuple[int, int] | str:
        if dest >= 0:
            return self._geo.xy(self.tile_anchor[dest])
        return ARROW_NAME[dest]

    def _draws(self, vname: str) -> list[Action]:
        v = VEHICLES.index(vname)
        n = len(self.disp)
        out = (
            list(_DRAW_DISPLAY[v][:n])
            if n <= 16
            else [Action.draw_display(vname, i) for i in range(n)]
        )
        piles = _DRAW_PILE[v]
        out += [piles[c] for c in range(6) if self.pile_counts[c]]
        return out

    def _refresh_possible(self) -> bool:
        # A refresh draws its new display from the bag, and is followed by a draw.
        return bool(self.bag or any(self.pile_counts))

    def _transfers(self, seat: int, payer: int) -> list[Action]:
        if self._transfer_allowed(seat) is not None:
            return []
        b = CREW_FIELDS * seat
        c = self.crews
        cost = self.cost_of("transfer")
        total_av = c[b + SHIP_AV] + c[b + SLED_AV] - cost
        total_rest = c[b + SHIP_REST] + c[b + SLED_REST] + cost
        cur = (c[b + SLED_AV] - cost * payer, c[b + SLED_REST] + cost * payer)
        sled_off = self.loc[2 * seat + SLED] == PLAYER_BOARD
        deployable = not sled_off or self._can_deploy_at(self.loc[2 * seat + SHIP])
        if not deployable:
            return []  # the sled column must stay empty, and it is empty already
        key = (payer, total_av, total_rest, cur)
        cached = _TRANSFER_LISTS.get(key)
        if cached is None:
            table = _TRANSFER[payer]
            options: list[Action] = []
            for a in range(total_av + 1):
                options += table[a][: total_rest + 1]
            options.remove(table[cur[0]][cur[1]])
            cached = _TRANSFER_LISTS[key] = tuple(options)
        return list(cached)

    # ------------------------------------------------------------------ apply

    def apply(self, action: Action | dict[str, Any]) -> list[Event]:
        """Carry out ``action`` for the current player and return what happened.

        Raises :class:`IllegalAction` naming the broken rule, and then the
        state is exactly as before.
        """
        if isinstance(action, dict):
            action = Action.from_json(action)
        if not isinstance(action, Action):
            raise IllegalAction(f"not an action: {action!r}")
        if self.over:
            raise IllegalAction("the game is over")
        used = _FIELDS_OF.get(action.kind)
        if used is None:
            raise IllegalAction(f"unknown action type {action.kind!r}")
        for i, value in enumerate(action):
            if value is not None and i not in used:
                raise IllegalAction(
                    f"a {action.kind} action has no field {Action._fields[i]!r} (got {value!r})"
                )
        seat = self.current
        assert seat is not None
        k = action.kind
        events: list[Event] = []
        if self.round == 0:
            if k != "draft":
                raise IllegalAction(
                    "the game starts with the draft: choose a tile from the display (§5.6)"
                )
            self._apply_draft(seat, action, events)
            return events
        if k == "draft":
            raise IllegalAction("the draft is over")
        if self.pending >= 0 and not (k == "draw" and action.vehicle == VEHICLES[self.pending]):
            raise IllegalAction(
                f"after a refresh you must draw a tile with the {VEHICLES[self.pending]} (§7.B)"
            )
        if k == "pass":
            self._pass(seat, False, events)
            self._advance(events)
            return events
        if k == "end_turn":
            if not self.acted:
                raise IllegalAction("you must take an action or pass before ending your turn (§6)")
            events.append(TurnEnded(seat))
            self._advance(events)
            return events
        v = VEHICLES.index(action.vehicle) if action.vehicle in VEHICLES else -1
        if v < 0:
            raise IllegalAction(f"unknown vehicle {action.vehicle!r}")
        free = self.pending >= 0
        cost = 0 if free else self.cost_of(k)
        if not free:
            avail = self.crews[CREW_FIELDS * seat + 2 * v]
            if avail < cost:
                raise IllegalAction(
                    f"the {action.vehicle} column has {avail} available "
                    f"crew{'man' if avail == 1 else 'men'}; "
                    f"this action costs {cost}"
                )
        handler = _HANDLERS.get(k)
        if handler is None:
            raise IllegalAction(f"unknown action type {k!r}")
        commit = handler(self, seat, v, action)  # validates; returns the mutation
        if cost:
            b = CREW_FIELDS * seat + 2 * v
            self.crews[b] -= cost
            self.crews[b + 1] += cost
            events.append(CrewSpent(seat, VEHICLES[v], cost))
        commit(events)
        if self.pending < 0:
            self.acted += 1
            if self.available(seat) == 0:
                self._pass(seat, True, events)
                self._advance(events)
        return events

    # Each _check_* validates without touching the state and returns a closure
    # that performs the change; that keeps "illegal leaves the state untouched"
    # true by construction.

    def _check_draw(self, seat: int, v: int, a: Action) -> Any:
        if (a.slot is None) == (a.pile is None):
            raise IllegalAction("a draw names either a display index or a small pile")
        if a.source == "display":
            i = a.slot
            if not isinstance(i, int) or not 0 <= i < len(self.disp):
                raise IllegalAction(
                    f"there is no display tile #{i}; the display has {len(self.disp)}"
                )

            def commit(events: list[Event]) -> None:
                t = self.disp[i]
                self.reserves[seat].append(t)
                self._refill_slot(i)
                events.append(TileDrawn(seat, self._geo.all_ids[t], "display"))
                self.pending = -1

            return commit
        if a.source == "pile":
            c = a.pile
            if not isinstance(c, int) or not 0 <= c < 6:
                raise IllegalAction(f"there is no small pile {c}; piles are 0–5")
            if not self.pile_counts[c]:
                raise IllegalAction(f"small pile {c} is empty")

            def commit_pile(events: list[Event]) -> None:
                self.pile_counts[c] -= 1
                t = self._geo.pile_tiles[c][self.pile_counts[c]]
                self.reserves[seat].append(t)
                events.append(TileDrawn(seat, self._geo.all_ids[t], f"small pile {c}"))
                self.pending = -1

            return commit_pile
        raise IllegalAction(f"unknown draw source {a.source!r}")

    def _check_refresh(self, seat: int, v: int, a: Action) -> Any:
        if not self._refresh_possible():
            raise IllegalAction("there is no tile left to draw after a refresh")

        def commit(events: list[Event]) -> None:
            # Rulebook (seed 000): draw 4 new tiles first, then put the old ones
            # back, so the old display cannot come straight back.  With fewer than 4
            # in the bag the display is then topped up from the bag (the returned
            # tiles among them), or it would stay short for the rest of the game.
            old = self.disp
            size = self._geo.content.rules.display_size
            rng = Rng.from_state(self.rng)
            self.disp = []
            for _ in range(size):
                if self.bag:
                    self.disp.append(self.bag.pop(rng.below(len(self.bag))))
            for t in old:
                bisect.insort(self.bag, t)
            while len(self.disp) < size and self.bag:
                self.disp.append(self.bag.pop(rng.below(len(self.bag))))
            self.rng = rng.state
            ids = self._geo.all_ids
            events.append(DisplayRefreshed(seat, tuple(ids[t] for t in self.disp)))
            if self.disp or any(self.pile_counts):
                self.pending = v

        return commit

    def _check_place(self, seat: int, v: int, a: Action) -> Any:
        geo = self._geo
        tid = a.tile
        t = geo.tile_index.get(tid) if isinstance(tid, str) else None
        if t is None:
            raise IllegalAction(f"there is no tile {tid!r}")
        if t not in self.reserves[seat]:
            raise IllegalAction(f"tile {tid} is not in your reserve")
        tile = geo.tiles[t]
        if a.side not in tile.sides:
            sides = " or ".join(sorted(tile.sides))
            raise IllegalAction(f"tile {tid} has no side {a.side!r}; it is placed side {sides} up")
        if not isinstance(a.rotation, int) or not 0 <= a.rotation < 4:
            raise IllegalAction("rotation must be 0, 1, 2 or 3 quarter turns clockwise")
        oi = geo.orients_of[t][sorted(tile.sides).index(a.side) * 4 + a.rotation]
        o = geo.orientations[oi]
        x, y = a.x, a.y
        if not isinstance(x, int) or not isinstance(y, int):
            raise IllegalAction("a placement needs integer x and y")
        if not (x >= 0 and y >= 0 and x + o.w <= geo.W and y + o.h <= geo.H):
            raise IllegalAction(
                f"tile {tid} at {x},{y} with rotation {a.rotation} does not fit on the board"
            )
        anchor = geo.index(x, y)
        sq = o.square_mask << anchor
        if sq & self.occ:
            s = (sq & self.occ).bit_length() - 1
            raise IllegalAction(
                f"square {geo.xy(s)[0]},{geo.xy(s)[1]} is already covered by a tile"
            )
        loc = self.loc[2 * seat + v]
        near = self._loc_squares(loc)
        if not near:
            raise IllegalAction(f"your {VEHICLES[v]} is not on the board")
        if not geo.dilate(near) & sq:
            raise IllegalAction(
                f"tile {tid} must share an edge with the tile where your {VEHICLES[v]} is (§7.C)"
            )
        tl, ts = o.land << anchor, o.sea << anchor
        clash = (tl & self.sea) | (ts & self.land)
        if clash:
            vbit = (clash & -clash).bit_length() - 1
            vx, vy = geo.xy(vbit)
            fixed = "sea" if tl >> vbit & 1 else "land"
            raise IllegalAction(
                f"tile {tid} side {a.side} does not match the {fixed} at vertex ({vx}, {vy})"
            )
        if tl & ~self.land and not geo.sea_route(self.land | tl):
            raise IllegalAction(
                "this placement would close every sea route between Greenland and the "
                "Northwest Passage (§7.C)"
            )

        def commit(events: list[Event]) -> None:
            self._place(seat, t, oi, anchor, a, events)

        return commit

    def _check_move(self, seat: int, v: int, a: Action) -> Any:
        geo = self._geo
        loc = self.loc[2 * seat + v]
        vname = VEHICLES[v]
        if loc in (PLAYER_BOARD, LOST):
            raise IllegalAction(f"your {vname} is not on the board")
        to = a.to
        if isinstance(to, str):
            if to not in ARROWS:
                raise IllegalAction(f"unknown destination {to!r}")
            dest = ARROW_CODE[to]
        elif isinstance(to, tuple) and len(to) == 2:
            tx, ty = to
            if not (isinstance(tx, int) and isinstance(ty, int) and geo.on_board(tx, ty)):
                raise IllegalAction(f"{tx},{ty} is not a square of the board")
            dest = self.sq_tile[geo.index(tx, ty)]
            if dest < 0:
                raise IllegalAction(f"there is no tile at {tx},{ty}")
        else:
            raise IllegalAction("a move needs a destination")
        if dest == loc:
            raise IllegalAction(f"your {vname} is already there")
        dests = self._destinations(v, loc)
        if dest not in dests:
            rows = geo.frozen_rows[self.sun]
            ice = f"rows 0–{rows - 1} are frozen" if rows else "no row is frozen"
            if vname == "ship":
                why = "a ship needs a shared edge with a sea corner and both squares unfrozen"
            else:
                why = "a sled needs a shared edge with a land corner, or both squares frozen"
            raise IllegalAction(
                f"your {vname} cannot move from {self._loc_text(loc)} to {self._loc_text(dest)}: "
                f"{why} ({ice}; §7.D)"
            )

        def commit(events: list[Event]) -> None:
            self.loc[2 * seat + v] = dest
            events.append(VehicleMoved(seat, vname, self._loc_text(dest)))
            if dest == NORTHWEST and not self.nw_reached[seat]:
                self.nw_reached[seat] = True
                value = self.nw_left.pop(0) if self.nw_left else None
                self.nw_value[seat] = value
                events.append(ReachedNorthwest(seat, value))
                if value:
                    self._score(seat, value, "northwest", events)
            elif dest == GREENLAND and not self.ret_order[seat]:
                self.ret_order[seat] = 1 + sum(1 for r in self.ret_order if r)
                value = self.gl_left.pop(0) if self.gl_left else None
                self.gl_value[seat] = value
                events.append(ReturnedToGreenland(seat, value))
                if value:
                    self._score(seat, value, "greenland", events)

        return commit

    def _check_transfer(self, seat: int, v: int, a: Action) -> Any:
        why = self._transfer_allowed(seat)
        if why:
            raise IllegalAction(why)
        sa, sr = a.sled_available, a.sled_resting
        if not isinstance(sa, int) or not isinstance(sr, int) or sa < 0 or sr < 0:
            raise IllegalAction("a transfer gives the sled column's available and resting counts")
        b = CREW_FIELDS * seat
        c = self.crews
        cost = self.cost_of("transfer")
        total_av = c[b + SHIP_AV] + c[b + SLED_AV] - cost
        total_rest = c[b + SHIP_REST] + c[b + SLED_REST] + cost
        if sa > total_av:
            raise IllegalAction(
                f"only {total_av} crew are available after paying for the transfer, not {sa}"
            )
        if sr > total_rest:
            raise IllegalAction(f"only {total_rest} crew are resting after paying, not {sr}")
        if (sa, sr) == (c[b + SLED_AV] - cost * v, c[b + SLED_REST] + cost * v):
            raise IllegalAction("this transfer would change nothing")
        sled_loc = self.loc[2 * seat + SLED]
        ship_loc = self.loc[2 * seat + SHIP]
        if sled_loc == PLAYER_BOARD and sa + sr and not self._can_deploy_at(ship_loc):
            raise IllegalAction(
                "the sled can only be deployed where the ship's tile has land or ice, "
                "or in Greenland (§7.E)"
            )

        def commit(events: list[Event]) -> None:
            c[b + SHIP_AV] = total_av - sa
            c[b + SHIP_REST] = total_rest - sr
            c[b + SLED_AV] = sa
            c[b + SLED_REST] = sr
            events.append(CrewTransferred(seat, total_av - sa, total_rest - sr, sa, sr))
            if sled_loc == PLAYER_BOARD and sa + sr:
                self.loc[2 * seat + SLED] = ship_loc
                events.append(SledDeployed(seat, self._loc_text(ship_loc)))
            elif sled_loc != PLAYER_BOARD and not sa + sr:
                self.loc[2 * seat + SLED] = PLAYER_BOARD
                events.append(SledRecalled(seat))

        # apply() charges the payer before commit(), which then writes the
        # columns' absolute values computed above (payment included).
        return commit

    def _check_take(self, seat: int, v: int, a: Action) -> Any:
        allowed = ("franklin", "strait") if a.kind == "explore" else ("inuit", "cairn")
        if a.token not in allowed:
            raise IllegalAction(f"{a.kind} takes a {' or '.join(allowed)} token, not {a.token!r}")
        loc = self.loc[2 * seat + v]
        kind, s = self._token_on(loc)
        if not kind or TOKEN_KINDS[kind - 1] != a.token:
            raise IllegalAction(f"there is no {a.token} token on the tile of your {VEHICLES[v]}")

        def commit(events: list[Event]) -> None:
            geo = self._geo
            self.board_tokens[s] = 0
            self.ptok[N_KINDS * seat + kind - 1] += 1
            x, y = geo.xy(s)
            events.append(TokenTaken(seat, a.token or "", x, y))
            pts = geo.content.rules.token_points[a.token or ""] * geo.zone_of[s]
            self._score(seat, pts, f"{a.token} ×{geo.zone_of[s]}", events)

        return commit

    # ------------------------------------------------------------- mutations

    def _score(self, seat: int, delta: int, reason: str, events: list[Event]) -> None:
        if delta:
            self.score[seat] += delta
            events.append(ScoreChanged(seat, delta, reason))

    def _refill_slot(self, i: int) -> None:
        if self.bag:
            rng = Rng.from_state(self.rng)
            self.disp[i] = self.bag.pop(rng.below(len(self.bag)))
            self.rng = rng.state
        else:
            del self.disp[i]

    def _apply_draft(self, seat: int, a: Action, events: list[Event]) -> None:
        i = a.slot
        if not isinstance(i, int) or not 0 <= i < len(self.disp):
            raise IllegalAction(f"there is no display tile #{i}; the display has {len(self.disp)}")
        t = self.disp[i]
        self.reserves[seat].append(t)
        self._refill_slot(i)
        events.append(TileDrafted(seat, self._geo.all_ids[t]))
        self.draft_left.pop(0)
        if self.draft_left:
            self.current = self.draft_left[0]
            return
        self.round = 1
        events.append(RoundStarted(1, tuple(self.order)))
        self.current = self.order[0]
        self.acted = 0

    def _put_tile(self, t: int, orient: int, anchor: int, squares: int) -> None:
        self.occ |= squares
        for s in iter_bits(squares):
            self.sq_tile[s] = t
        self.tile_anchor[t] = anchor
        self.tile_orient[t] = orient

    def _place(
        self, seat: int, t: int, oi: int, anchor: int, a: Action, events: list[Event]
    ) -> None:
        geo = self._geo
        o = geo.orientations[oi]
        self.reserves[seat].remove(t)
        squares = o.square_mask << anchor
        self.land |= o.land << anchor
        self.sea |= o.sea << anchor
        self._put_tile(t, oi, anchor, squares)
        x, y = geo.xy(anchor)
        events.append(TilePlaced(seat, geo.all_ids[t], x, y, o.rotation, o.side))
        if o.symbol and self.supply[o.symbol - 1] > 0:
            s = o.symbol_at + anchor
            self.supply[o.symbol - 1] -= 1
            self.board_tokens[s] = o.symbol
            sx, sy = geo.xy(s)
            events.append(TokenPlaced(TOKEN_KINDS[o.symbol - 1], sx, sy))
        covered = squares | self._fill_holes(events)
        self._score_islands(seat, covered, events)

    def _fill_holes(self, events: list[Event]) -> int:
        """Fill every hole from the small piles, Jokers when a class is out (§7.C)."""
        geo = self._geo
        filled = 0
        stuck = 0
        while True:
            holes = geo.holes(self.occ) & ~stuck
            if not holes:
                return filled
            s = (holes & -holes).bit_length() - 1
            pattern = geo.pattern_at(self.land, s)
            c = pattern_class(pattern)
            joker = False
            if self.pile_counts[c]:
                pile = c
            elif any(self.pile_counts):
                # [design] a Joker comes from the largest pile (lowest class on ties).
                pile = max(range(6), key=lambda p: (self.pile_counts[p], -p))
                joker = True
            else:
                stuck |= 1 << s
                continue
            self.pile_counts[pile] -= 1
            t = geo.pile_tiles[pile][self.pile_counts[pile]]
            if joker:
                orient, rot = JOKER, 0
            else:
                rot = geo.small_rotation[(t, pattern)]
                orient = geo.orients_of[t][rot]
            self._put_tile(t, orient, s, 1 << s)
            filled |= 1 << s
            x, y = geo.xy(s)
            events.append(HoleFilled(geo.all_ids[t], x, y, rot, joker))

    def _score_islands(self, seat: int, covered: int, events: list[Event]) -> None:
        """Score islands completed by this placement (§7.C): they touch a new square."""
        geo = self._geo
        land = self.land
        cand = geo.corners(covered) & land & ~geo.border_vertices
        if not cand:
            return
        touch_empty = geo.corners(geo.squares_mask & ~self.occ)
        rules = geo.content.rules
        seen = 0
        for v in iter_bits(cand):
            if seen >> v & 1:
                continue
            region = geo.land_region(land, v)
            seen |= region
            if region & geo.border_vertices or region & touch_empty:
                continue
            tiles = {self.sq_tile[s] for s in iter_bits(geo.squares_touching(region))}
            size = len(tiles)
            if size < 2:
                continue
            got = self.supply[CARTOGRAPHY] > 0
            if got:
                self.supply[CARTOGRAPHY] -= 1
                self.ptok[N_KINDS * seat + CARTOGRAPHY] += 1
            events.append(IslandCompleted(seat, size, got))
            self._score(seat, rules.island_value(size), f"island of {size} tiles", events)

    def _pass(self, seat: int, automatic: bool, events: list[Event]) -> None:
        b = CREW_FIELDS * seat
        c = self.crews
        c[b + SHIP_REST] += c[b + SHIP_AV]
        c[b + SLED_REST] += c[b + SLED_AV]
        c[b + SHIP_AV] = c[b + SLED_AV] = 0
        self.passed[seat] = True
        self.pass_order.append(seat)
        self.pending = -1
        events.append(Passed(seat, automatic))

    def _advance(self, events: list[Event]) -> None:
        """Hand the turn to the next player who has not passed (§6)."""
        seat = self.current
        while True:
            order = self.order
            nxt = None
            start = order.index(seat) if seat in order else -1
            for k in range(1, len(order) + 1):
                cand = order[(start + k) % len(order)]
                if not self.passed[cand]:
                    nxt = cand
                    break
            if nxt is None:
                if not self._end_round(events):
                    return
                nxt = self.order[0]
            self.current = nxt
            self.acted = 0
            self.pending = -1
            if self.available(nxt) > 0:
                return
            self._pass(nxt, True, events)
            seat = nxt

    def _end_round(self, events: list[Event]) -> bool:
        """End of round (§6): sun, thaw, rest; or the end of the game.  True if play goes on."""
        geo = self._geo
        events.append(RoundEnded(self.round))
        if self.round >= geo.rounds or all(self.ret_order):
            self._final_scoring(events)
            return False
        self.sun = self.sun % geo.sun_positions + 1
        events.append(SunMoved(self.sun, geo.frozen_rows[self.sun]))
        frozen = self._frozen()
        for seat in range(self.n):
            sled = self.loc[2 * seat + SLED]
            if sled >= 0:
                sq = self._tile_squares(sled)
                if not (geo.corners(sq) & self.land) and not (sq & frozen):
                    b = CREW_FIELDS * seat
                    lost = self.crews[b + SLED_AV] + self.crews[b + SLED_REST]
                    self.crews[b + CREW_LOST] += lost
                    self.crews[b + SLED_AV] = self.crews[b + SLED_REST] = 0
                    self.loc[2 * seat + SLED] = LOST
                    events.append(SledLost(seat, lost))
        for seat in range(self.n):
            b = CREW_FIELDS * seat
            c = self.crews
            c[b + SHIP_AV] += c[b + SHIP_REST]
            c[b + SLED_AV] += c[b + SLED_REST]
            c[b + SHIP_REST] = c[b + SLED_REST] = 0
        self.order = [s for s in self.pass_order if not self.ret_order[s]]
        self.passed = [False] * self.n
        self.pass_order = []
        self.round += 1
        events.append(RoundStarted(self.round, tuple(self.order)))
        return True

    def _final_scoring(self, events: list[Event]) -> None:
        awards = scoring.final_scores(self.ptok, self.crews, self.loc, self.n, self.content.rules)
        for seat, delta, reason in awards:
            self._score(seat, delta, reason, events)
        self.over = True
        self.current = None
        events.append(GameOver(tuple(self.score), tuple(self.ranking())))

    # ------------------------------------------------------------ JSON / view

    def to_json(self) -> dict[str, Any]:
        """Every field, as JSON types; :meth:`from_json` restores it exactly."""
        return {
            "format": FORMAT,
            "game": "northwest",
            "players": self.n,
            "seed": self.seed,
            "rng": self.rng,
            **self._public_json(),
            "bag": self.bag[:],
        }

    def _public_json(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "sun": self.sun,
            "current": self.current,
            "acted": self.acted,
            "pending": self.pending,
            "over": self.over,
            "land": self.land,
            "sea": self.sea,
            "tiles": [
                [t, self.tile_anchor[t], self.tile_orient[t] if t < self._geo.n_tiles else -1]
                for t in range(len(self.tile_anchor))
                if self.tile_anchor[t] >= 0
            ],
            "board_tokens": {str(s): k for s, k in enumerate(self.board_tokens) if k},
            "supply": self.supply[:],
            "nw_left": self.nw_left[:],
            "gl_left": self.gl_left[:],
            "display": self.disp[:],
            "piles": self.pile_counts[:],
            "reserve": [r[:] for r in self.reserves],
            "crew": self.crews[:],
            "loc": self.loc[:],
            "ptok": self.ptok[:],
            "nw_reached": self.nw_reached[:],
            "nw_value": self.nw_value[:],
            "gl_value": self.gl_value[:],
            "returned": self.ret_order[:],
            "score": self.score[:],
            "order": self.order[:],
            "passed": self.passed[:],
            "pass_order": self.pass_order[:],
            "draft_left": self.draft_left[:],
        }

    @classmethod
    def from_json(cls, d: Any, content: Content | None = None) -> State:
        """Restore a state saved by :meth:`to_json`; ``ValueError`` if it is corrupt."""
        if not isinstance(d, dict) or d.get("game") != "northwest" or d.get("format") != FORMAT:
            raise ValueError("not a saved Northwest Passage state (format 1)")
        try:
            st = cls.new(int(d["players"]), int(d["seed"]), content)
            geo = st._geo
            st.rng = int(d["rng"])
            st.round = int(d["round"])
            st.sun = int(d["sun"])
            st.current = None if d["current"] is None else int(d["current"])
            st.acted = int(d["acted"])
            st.pending = int(d["pending"])
            st.over = bool(d["over"])
            st.land = int(d["land"])
            st.sea = int(d["sea"])
            st.occ = 0
            st.sq_tile = [-1] * geo.size
            st.tile_anchor = [-1] * len(geo.all_ids)
            st.tile_orient = [-1] * geo.n_tiles
            for t, anchor, orient in d["tiles"]:
                t, anchor, orient = int(t), int(anchor), int(orient)
                if t >= geo.n_tiles:
                    sq = 1 << anchor
                    st.occ |= sq
                    st.sq_tile[anchor] = t
                    st.tile_anchor[t] = anchor
                else:
                    sq = (
                        1 << anchor
                        if orient == JOKER
                        else geo.orientations[orient].square_mask << anchor
                    )
                    st._put_tile(t, orient, anchor, sq)
            st.board_tokens = [0] * geo.size
            for s, k in d["board_tokens"].items():
                st.board_tokens[int(s)] = int(k)
            for key, name in _JSON_INT_LISTS:
                setattr(st, name, [int(x) for x in d[key]])
            st.reserves = [[int(x) for x in r] for r in d["reserve"]]
            st.nw_reached = [bool(x) for x in d["nw_reached"]]
            st.passed = [bool(x) for x in d["passed"]]
            st.nw_value = [None if x is None else int(x) for x in d["nw_value"]]
            st.gl_value = [None if x is None else int(x) for x in d["gl_value"]]
            problem = st._consistency_problem()
        except (KeyError, TypeError, IndexError, AttributeError, ValueError, OverflowError) as exc:
            raise ValueError(f"corrupt saved state: {exc!r}") from exc
        if problem:
            raise ValueError(f"corrupt saved state: {problem}")
        return st

    def _consistency_problem(self) -> str | None:
        """Why this state cannot come from play, or None (checks a loaded save)."""
        geo = self._geo
        n = self.n
        if len(self.crews) != CREW_FIELDS * n or len(self.loc) != 2 * n or len(self.reserves) != n:
            return "per-player arrays do not match the player count"
        crew = geo.content.rules.crew
        for seat in range(n):
            block = self.crews[CREW_FIELDS * seat : CREW_FIELDS * seat + CREW_FIELDS]
            if min(block) < 0 or sum(block) != crew:
                return f"seat {seat} does not have {crew} crewmen"
        n_all = len(geo.all_ids)
        for loc in self.loc:
            if not (-4 <= loc < n_all) or (loc >= 0 and self.tile_anchor[loc] < 0):
                return "a vehicle is on a tile that is not on the board"
        places = self.bag + self.disp + [t for r in self.reserves for t in r]
        places += [t for t in range(geo.n_tiles) if self.tile_anchor[t] >= 0]
        places += [t for c in range(6) for t in geo.pile_tiles[c][: self.pile_counts[c]]]
        if sorted(places) != list(range(geo.n_tiles)):
            return "tiles are missing or in two places at once"
        if self.land & self.sea:
            return "a vertex is both land and sea"
        if not self.over and (self.current is None or not 0 <= self.current < n):
            return "no current player"
        return None

    @classmethod
    def from_view(cls, view: Any, seed: int, content: Content | None = None) -> State:
        """A state consistent with what a seat sees: a *determinization*.

        The hidden information of Northwest Passage is the bag's order (which
        tile the next draw brings); its contents follow from the public tiles.
        The returned state has exactly the public part of ``view`` and a bag
        whose draws come from a fresh generator seeded with ``seed``, so search
        bots can sample worlds without ever seeing the real state.
        """
        if not isinstance(view, dict) or view.get("game") != "northwest":
            raise ValueError("not a Northwest Passage view")
        d = dict(view)
        geo = geometry_for(content or default_content())
        public = set(view["display"]) | {t for r in view["reserve"] for t in r}
        public |= {int(t) for t, _, _ in view["tiles"]}
        d.update(format=FORMAT, seed=seed, rng=Rng(seed).state)
        d["bag"] = [t for t in geo.large if t not in public]
        return cls.from_json(d, content)

    def resample_hidden(self, seed: int) -> None:
        """Draw the hidden information anew (search bots' determinization).

        In Northwest Passage only the bag's order is hidden, and it lives in
        the generator: reseeding it gives another world equally consistent
        with every seat's view.  Cheaper than :meth:`from_view` per sample.
        """
        self.rng = Rng(seed).state

    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see (``None``: a spectator): everything but the seed,
        the generator state and the bag's order (only its size is public)."""
        if seat is not None and not (isinstance(seat, int) and 0 <= seat < self.n):
            raise ValueError(f"no seat {seat!r} in a {self.n}-player game")
        out = {"game": "northwest", "players": self.n, "seat": seat, **self._public_json()}
        out["bag_size"] = len(self.bag)
        return out

    # ---------------------------------------------------------------- dunder

    def _key(self) -> tuple[Any, ...]:
        return tuple(self.to_json().values())

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return self._key() == other._key()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (
            f"<northwest.State players={self.n} round={self.round} sun={self.sun} "
            f"current={self.current} scores={self.score}>"
        )


class BoardView:
    """Read-only board queries of the engine API (``state.board``)."""

    __slots__ = ("_st",)

    def __init__(self, st: State) -> None:
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


_HANDLERS = {
    "draw": State._check_draw,
    "refresh": State._check_refresh,
    "place": State._check_place,
    "move": State._check_move,
    "transfer": State._check_transfer,
    "explore": State._check_take,
    "discover": State._check_take,
}


def new_game(players: int, seed: int | None = None, content: Content | None = None) -> State:
    """A new game; ``seed`` fixes every random draw (``None``: a fresh random seed)."""
    if seed is None:
        import secrets

        seed = secrets.randbits(63)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError("seed must be an integer")
    return State.new(players, seed, content)


def replay(players: int, seed: int, actions: Sequence[Action | dict[str, Any]]) -> State:
    """The state after ``actions`` from a new game: same inputs, same state."""
    st = new_game(players, seed)
    for a in actions:
        st.apply(a)
    return st
