"""A route planner for Northwest Passage search bots: the way to the passage.

The greedy heuristic (:mod:`~erebus.games.northwest.heuristics`) sees progress
as "how far west are my vehicles"; a search built on it wanders, draws tiles it
never lays and rarely crosses.  This module gives the search a *plan*:

* :func:`route` — the cheapest sea route from a seat's ship to the Northwest
  Passage arrow over the tiles laid *and* the empty squares a tile could still
  fill (ice ignored, the often-frozen northern rows dearer).  Its cost counts
  moves between laid tiles, and for every empty square on the way the work of
  laying a tile there; the tiles in reserve pay for part of that work.
* :func:`route_squares` — the empty squares of that route: where the next tile
  should go (:mod:`~erebus.games.northwest.evaluator` prunes the search's draws
  and placements with it).

Everything is a pure function of the public position, cached on the board so
that the thousands of sibling positions of one search share the answers.
"""

from __future__ import annotations

import heapq
from typing import NamedTuple

from erebus.games.northwest.geometry import iter_bits
from erebus.games.northwest.layout import GREENLAND, NORTHWEST, SHIP
from erebus.games.northwest.state import State

MOVE_COST = 1.0  # one move between laid tiles
EMPTY_COST = 1.5  # an empty square: draw, lay and sail a tile (a large one spans two)
ROW_PENALTY = (2.0, 2.0, 0.5, 0.5, 0.0, 0.0, 0.0, 0.0)  # rows frozen most of the game
_CACHE_LIMIT = 100_000


class Route(NamedTuple):
    """The plan toward the passage: ``cost`` in actions (moves and lays), the
    empty squares on the way (``empty``, a square bit mask) and their number."""

    cost: float
    empty: int
    n_empty: int


_NO_ROUTE = Route(99.0, 0, 0)
_REACHED = Route(0.0, 0, 0)
_cache: dict[tuple[object, ...], Route] = {}


def route(state: State, seat: int) -> Route:
    """The seat's ship's cheapest route to the Northwest Passage arrow (see module)."""
    loc = state.loc[2 * seat + SHIP]
    if loc == NORTHWEST or state.nw_reached[seat]:
        return _REACHED
    if loc < 0 and loc != GREENLAND:
        return _NO_ROUTE
    key = (loc, state.land, state.sea, state.occ, tuple(state.tile_anchor))
    hit = _cache.get(key)
    if hit is None:
        hit = _route(state, loc)
        if len(_cache) >= _CACHE_LIMIT:
            _cache.clear()
        _cache[key] = hit
    return hit


def _route(state: State, loc: int) -> Route:
    geo = state.geometry
    S = geo.S
    land, sea, sq_tile = state.land, state.sea, state.sq_tile
    occ = state.occ
    target = geo.northwest_square
    dist: dict[int, float] = {}
    back: dict[int, int] = {}
    heap: list[tuple[float, int]] = []
    if loc == GREENLAND:
        s0 = geo.greenland_square
        heap.append((MOVE_COST, s0))
        dist[s0] = MOVE_COST
    else:
        for s in iter_bits(state._tile_squares(loc)):
            dist[s] = 0.0
            heap.append((0.0, s))
        heapq.heapify(heap)
    blocked = land & land >> 1 & land >> S & land >> (S + 1)
    while heap:
        d, s = heapq.heappop(heap)
        if d > dist.get(s, 1e9):
            continue
        if s == target:
            break
        t = sq_tile[s]
        for u, v1, v2 in geo.neighbours[s]:
            if blocked >> u & 1:
                continue
            tu = sq_tile[u]
            if tu >= 0:
                if tu == t:
                    step = 0.0
                elif sea >> v1 & 1 or sea >> v2 & 1:
                    step = MOVE_COST + ROW_PENALTY[u // S]
                else:
                    continue
            else:
                if land >> v1 & 1 and land >> v2 & 1:
                    continue
                step = EMPTY_COST + ROW_PENALTY[u // S]
            nd = d + step
            if nd < dist.get(u, 1e9):
                dist[u] = nd
                back[u] = s
                heapq.heappush(heap, (nd, u))
    if target not in dist:
        return _NO_ROUTE
    empty = 0
    s = target
    while True:
        if not occ >> s & 1:
            empty |= 1 << s
        prev = back.get(s)
        if prev is None:
            break
        s = prev
    return Route(dist[target] + MOVE_COST, empty, bin(empty).count("1"))


def reserve_squares(state: State, seat: int) -> int:
    """How many squares the seat's reserve tiles could cover (large 2, small 1)."""
    geo = state.geometry
    tiles = geo.tiles
    return sum(2 if tiles[t].large else 1 for t in state.reserves[seat])


def route_cost(state: State, seat: int) -> float:
    """The route's cost with the reserve's tiles counted: a square a tile in hand
    covers needs no draw (``EMPTY_COST - MOVE_COST`` cheaper)."""
    r = route(state, seat)
    covered = min(r.n_empty, reserve_squares(state, seat))
    return r.cost - (EMPTY_COST - MOVE_COST) * covered


def route_squares(state: State, seat: int) -> int:
    """The empty squares of the seat's planned route (a square bit mask)."""
    return route(state, seat).empty


_home_cache: dict[tuple[object, ...], int | None] = {}


def home_moves(state: State, vehicle: int, loc: int) -> int | None:
    """Fewest moves from ``loc`` to the Greenland arrow over the tiles laid (the ship
    ice ignored, the sled under the current ice); None when no way is open."""
    if loc == GREENLAND:
        return 0
    if loc < 0 and loc != NORTHWEST:
        return None
    sun = 4 if vehicle == SHIP else state.sun
    key = (vehicle, loc, sun, state.land, state.occ, tuple(state.tile_anchor))
    if key in _home_cache:
        return _home_cache[key]
    saved = state.sun
    state.sun = sun
    try:
        found: int | None = None
        seen = {loc}
        frontier = [loc]
        steps = 0
        while frontier and found is None:
            steps += 1
            nxt = []
            for here in frontier:
                for dest in state._destinations(vehicle, here):
                    if dest == GREENLAND:
                        found = steps
                        break
                    if dest not in seen:
                        seen.add(dest)
                        nxt.append(dest)
                if found is not None:
                    break
            frontier = nxt
    finally:
        state.sun = saved
    if len(_home_cache) >= _CACHE_LIMIT:
        _home_cache.clear()
    _home_cache[key] = found
    return found
