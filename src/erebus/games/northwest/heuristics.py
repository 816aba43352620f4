"""A position estimate for Northwest Passage bots, in points.

``heuristic(state, seat)`` answers "what will this seat end the game with?"
roughly, from public information only.  It is what the greedy bot maximises
one action ahead and what MCTS uses to score truncated playouts:

* points already scored, plus final scoring *as if the game ended now*
  (majorities and sets of the tokens held);
* progress toward the Northwest Passage while it is not reached: where the
  vehicles are and how far west the ship could sail on the tiles laid;
* the way home: the expected abandonment penalty, growing as round 10 nears
  while the vehicles are far from Greenland;
* safety: crew lost, and a sled standing on sea that the next thaw opens;
* future play still to come for an expedition that has not returned (so that
  an early return is not mistaken for a bargain), and tiles in reserve.

The weights are ours and deliberately simple; ``docs/balance.md`` records
how the bots built on them play.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TypeVar

from erebus.games.northwest import scoring
from erebus.games.northwest.layout import (
    CREW_FIELDS,
    CREW_LOST,
    GREENLAND,
    NORTHWEST,
    SHIP,
    SHIP_AV,
    SHIP_REST,
    SLED,
    SLED_AV,
    SLED_REST,
)
from erebus.games.northwest.state import State

T = TypeVar("T")
_MISSING = object()

PER_COLUMN_WEST = 0.45  # points per column of progress toward the passage
REACH_PER_COLUMN = 0.35  # points per column of open water the ship could reach
FUTURE_PER_ROUND = 1.5  # points an active expedition still earns per round
TILE_IN_RESERVE = 0.15
LOST_CREWMAN = 1.0
AVAILABLE_CREWMAN = 0.3  # what an unspent crewman can still buy this round


def _x_of(state: State, loc: int) -> float | None:
    """Column of a location (mean of its tile's squares), None when off the board."""

    geo = state.geometry
    if loc == GREENLAND:
        return float(geo.W)
    if loc == NORTHWEST:
        return -1.0
    if loc < 0:
        return None
    return float(state.tile_anchor[loc] % geo.S)


# Path searches depend only on the tiles laid, so searches from sibling
# positions share them; the cache is bounded and cleared when full.
_CACHE: dict[tuple[object, ...], object] = {}
_CACHE_LIMIT = 200_000


def _board_key(state: State) -> tuple[object, ...]:
    return (id(state.geometry), state.land, state.occ, tuple(state.tile_orient))


def _cached(key: tuple[object, ...], compute: Callable[[], T]) -> T:
    hit = _CACHE.get(key, _MISSING)
    if hit is not _MISSING:
        return hit  # type: ignore[return-value]
    value = compute()
    if len(_CACHE) >= _CACHE_LIMIT:
        _CACHE.clear()
    _CACHE[key] = value
    return value


def ship_reach_x(state: State, seat: int) -> float:
    """Westmost column the seat's ship could reach over the tiles laid, ice ignored."""

    start = state.loc[2 * seat + SHIP]
    return _cached(("reach", start, *_board_key(state)), lambda: _reach_x(state, start))


def _reach_x(state: State, start: int) -> float:
    x = _x_of(state, start)
    if x is None:
        return float(state.geometry.W)
    best = x
    seen = {start}
    frontier = [start]
    saved_sun = state.sun
    state.sun = 4  # ice ignored: search as under the no-ice sun position
    try:
        steps = 0
        while frontier and steps < 12:
            nxt = []
            for loc in frontier:
                for dest in state._destinations(0, loc):
                    if dest not in seen:
                        seen.add(dest)
                        nxt.append(dest)
                        dx = _x_of(state, dest)
                        if dx is not None and dx < best:
                            best = dx
            frontier = nxt
            steps += 1
    finally:
        state.sun = saved_sun
    return best


def home_steps(state: State, vehicle: int, loc: int, ice: bool) -> int | None:
    """Fewest moves from ``loc`` to the Greenland arrow for ``vehicle`` (0 ship, 1 sled),
    under the current ice (``ice``) or none; None when no way is open."""
    sun = state.sun if ice or vehicle == 1 else 4
    key = ("home", vehicle, loc, sun, *_board_key(state))
    return _cached(key, lambda: _home_steps(state, vehicle, loc, ice))


def _home_steps(state: State, vehicle: int, loc: int, ice: bool) -> int | None:

    if loc == GREENLAND:
        return 0
    saved_sun = state.sun
    if not ice:
        state.sun = 4 if vehicle == 0 else saved_sun
    try:
        seen = {loc}
        frontier = [loc]
        steps = 0
        while frontier and steps < 20:
            steps += 1
            nxt = []
            for here in frontier:
                for dest in state._destinations(vehicle, here):
                    if dest == GREENLAND:
                        return steps
                    if dest not in seen:
                        seen.add(dest)
                        nxt.append(dest)
            frontier = nxt
        return None
    finally:
        state.sun = saved_sun


def moves_affordable(available: int, acted: bool) -> int:
    """How many moves ``available`` crew pay for in one turn (1, then 2 each; §6)."""
    if available <= 0:
        return 0
    first = 2 if acted else 1
    if available < first:
        return 0
    return 1 + (available - first) // 2


def heuristic(state: State, seat: int) -> float:
    """Estimated final points of ``seat`` (higher is better)."""

    geo = state.geometry
    rules = state.content.rules
    n = state.n
    value = float(state.score[seat])
    if state.over:
        return value

    # Final scoring as if the game ended now (majorities and sets).
    value += sum(d for s, d, _ in scoring.token_awards(state.ptok, n, rules) if s == seat)
    b = CREW_FIELDS * seat
    value -= LOST_CREWMAN * state.crews[b + CREW_LOST]

    if state.ret_order[seat]:
        return value  # home: nothing more to gain or lose

    rounds_left = geo.rounds - max(state.round, 1)  # whole rounds after this one
    value += FUTURE_PER_ROUND * rounds_left
    if not state.passed[seat]:
        value += AVAILABLE_CREWMAN * (state.crews[b + SHIP_AV] + state.crews[b + SLED_AV])
    value += TILE_IN_RESERVE * min(len(state.reserves[seat]), 3)

    ship_loc = state.loc[2 * seat + SHIP]
    sled_loc = state.loc[2 * seat + SLED]
    xs = [x for x in (_x_of(state, ship_loc), _x_of(state, sled_loc)) if x is not None]
    if not state.nw_reached[seat]:
        nxt = state.nw_left[0] if state.nw_left else 0
        west = min(xs) if xs else float(geo.W)
        value += PER_COLUMN_WEST * (geo.W - west) * (nxt / 12.0)
        value += REACH_PER_COLUMN * (geo.W - ship_reach_x(state, seat)) * (nxt / 12.0)

    for loss in abandon_risks(state, seat, rounds_left):
        value -= loss
    value -= sled_danger(state, seat)
    return value


def abandon_risks(state: State, seat: int, rounds_left: int) -> list[float]:
    """The expected abandonment penalty (a positive loss) of each of the seat's
    vehicles out on the board, growing as round 10 nears while it is far from home."""
    geo = state.geometry
    rules = state.content.rules
    b = CREW_FIELDS * seat
    ship_loc = state.loc[2 * seat + SHIP]
    sled_loc = state.loc[2 * seat + SLED]
    out: list[float] = []
    last_round = state.round >= geo.rounds
    for v, loc, av, rest in (
        (SHIP, ship_loc, SHIP_AV, SHIP_REST),
        (SLED, sled_loc, SLED_AV, SLED_REST),
    ):
        x = _x_of(state, loc)
        if x is None or (x == float(geo.W) and loc < 0):
            continue  # on the player board, lost, or in Greenland
        crew = state.crews[b + av] + state.crews[b + rest]
        penalty = -rules.abandon_per_crewman * crew - (rules.abandon_ship if v == SHIP else 0)
        if penalty <= 0:
            continue
        if last_round:
            steps = home_steps(state, v, loc, ice=True)
            to_act = state.current == seat
            can = moves_affordable(state.crews[b + av], bool(to_act and state.acted > 0))
            risk = 0.0 if steps is not None and steps <= can and not state.passed[seat] else 1.0
        else:
            steps = home_steps(state, v, loc, ice=False)
            distance = (geo.W - x) / 1.5 if steps is None else float(steps)
            # Moves this column can still pay for: the rest of this round, then
            # a full column every later round (1 crewman, then 2 per move).
            now = 0 if state.passed[seat] else state.crews[b + av]
            capacity = moves_affordable(now, False) + rounds_left * moves_affordable(crew, False)
            risk = 1.0 / (1.0 + math.exp(-(distance + 1.0 - capacity)))
        out.append(risk * penalty)
    return out


def sled_danger(state: State, seat: int) -> float:
    """A sled on sea that the next thaw opens goes down with its crew: that loss."""
    geo = state.geometry
    b = CREW_FIELDS * seat
    sled_loc = state.loc[2 * seat + SLED]
    if sled_loc >= 0:
        nxt_sun = state.sun % geo.sun_positions + 1
        sq = state._tile_squares(sled_loc)
        if not geo.corners(sq) & state.land and not sq & geo.frozen_by_sun[nxt_sun]:
            crew = state.crews[b + SLED_AV] + state.crews[b + SLED_REST]
            return (LOST_CREWMAN + 1.0) * crew
    return 0.0


def advantage(state: State, seat: int) -> float:
    """``seat``'s estimate minus the best other seat's: what a search maximises."""
    mine = heuristic(state, seat)
    others = [heuristic(state, s) for s in range(state.n) if s != seat]
    return mine - max(others) if others else mine
