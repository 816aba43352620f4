"""The search's evaluator and action filter for Northwest Passage (the hard bot).

``value(state, seat)`` is a linear evaluator: ``points now + weights · features``,
where the features (:data:`FEATURES`, :func:`features`) describe what is still to
come — the planned route to the passage (:mod:`~erebus.games.northwest.planner`),
the clock, the way home, the tiles in hand, the tokens near the ship.  The weights
are fitted from self-play: ``python tools/fit_northwest_weights.py`` plays games of
this bot against the medium one, records ``(features, points still to come)`` for
sampled positions and solves a least-squares problem (ridge toward the hand-set
``prior``).  The terms the search's own actions move step by step — the route's
cost, the way home, the price of crew and tiles — are shaping for a search that
looks one turn ahead and stay at their hand-set values (the tool's ``HELD`` says
why); the others (the value of rounds still to play, of a passage no longer in
reach, of tokens nearby) are fitted.  The data and the weights are versioned in
``data/bot/`` as ``evaluator_data.json`` and ``evaluator.json`` (apart from the game
content in ``data/``, whose fingerprint the golden games check).

``search_actions(state)`` is the search's policy prior as pruning (the GameSpec's
``search_actions``): draw only a tile that can extend the route, and only while
the reserve cannot cover it and the passage is still in reach, lay a tile only
on the route (or one that brings a token), refresh only when no display tile
helps, and leave the sled at home (no crew transfers).

The greedy (medium) bot keeps the hand-set :func:`~erebus.games.northwest.heuristics.heuristic`.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from functools import cache
from importlib import resources

from erebus.games.northwest import planner, scoring
from erebus.games.northwest.actions import Action
from erebus.games.northwest.content_types import ALL_TOKEN_KINDS, TOKEN_KINDS
from erebus.games.northwest.geometry import iter_bits
from erebus.games.northwest.heuristics import moves_affordable, sled_danger
from erebus.games.northwest.layout import (
    CREW_FIELDS,
    CREW_LOST,
    GREENLAND,
    N_KINDS,
    NORTHWEST,
    SHIP,
    SHIP_AV,
    SHIP_REST,
    SLED,
    SLED_AV,
    SLED_REST,
)
from erebus.games.northwest.state import State

FEATURES = (
    "rounds_left",  # whole rounds after this one
    "crew_available",  # unspent crew this round
    "nw_open",  # the passage not yet reached: its next token / 12, times P(still possible)
    "nw_route",  # … times the planned route's cost (actions, at most ROUTE_CAP)
    "nw_late",  # its next token / 12 times P(no longer possible)
    "home_risk",  # expected abandonment loss (points)
    "homeward",  # the ship's moves home, from round 8
    "reserve_spare",  # reserve squares beyond what the route needs
    "reserve_used",  # reserve squares the route needs
    "sled_danger",  # crew on a sled the next thaw drowns
    "token_near",  # best token gain within a few ship moves, divided by 1 + moves
)
HOME_MARGIN = 4.0  # moves kept in hand for the way home (ice, a blocked turn)
HOME_SPREAD = 2.0  # how gradually the risk of not getting home grows
LAST_PASSAGE_ROUND = 7  # after it the way home (rounds 8–10) leaves no time to cross
ROUTE_CAP = 20.0  # route cost counted at most (nw_open must outweigh nw_route · cap)
DRAW_POSSIBLE = 0.1  # no draws once the passage is less likely than this


def points_now(state: State, seat: int) -> float:
    """Points scored, final scoring as if the game ended now, crew lost."""
    value = float(state.score[seat])
    if state.over:
        return value
    value += sum(
        d for s, d, _ in scoring.token_awards(state.ptok, state.n, state.content.rules) if s == seat
    )
    return value - state.crews[CREW_FIELDS * seat + CREW_LOST]


def features(state: State, seat: int) -> list[float]:
    """The :data:`FEATURES` of ``seat`` (all zero once home or the game is over)."""
    if state.over or state.ret_order[seat]:
        return [0.0] * len(FEATURES)
    geo = state.geometry
    b = CREW_FIELDS * seat
    rnd = max(state.round, 1)
    rounds_left = geo.rounds - rnd
    avail = 0 if state.passed[seat] else state.crews[b + SHIP_AV] + state.crews[b + SLED_AV]
    nw_open = nw_route = nw_late = 0.0
    r = planner.route(state, seat)
    need = r.n_empty
    have = planner.reserve_squares(state, seat)
    if not state.nw_reached[seat]:
        nxt = (state.nw_left[0] if state.nw_left else 0) / 12.0
        cost = planner.route_cost(state, seat)
        possible = passage_possible(state, seat, cost)
        nw_open = nxt * possible
        # The route's cost is capped so that the passage while open is worth more
        # than out of reach (with the weights' signs): an uncapped long route made
        # "no longer possible" look better than "far", and the bot gave it up.
        nw_route = nxt * possible * min(cost, ROUTE_CAP)
        nw_late = nxt * (1.0 - possible)
    return [
        float(rounds_left),
        float(avail),
        nw_open,
        nw_route,
        nw_late,
        home_risk(state, seat, rounds_left),
        _homeward(state, seat, rnd),
        float(max(0, have - need)),
        float(min(have, need)),
        sled_danger(state, seat),
        token_near(state, seat),
    ]


def passage_possible(state: State, seat: int, cost: float | None = None) -> float:
    """Is the passage still in reach (0–1)?  The crew must pay the way there and the
    way back (about the route's moves again plus the ship's way home now)."""
    if state.nw_reached[seat]:
        return 0.0
    geo = state.geometry
    b = CREW_FIELDS * seat
    if cost is None:
        cost = planner.route_cost(state, seat)
    avail = 0 if state.passed[seat] else state.crews[b + SHIP_AV] + state.crews[b + SLED_AV]
    crew = sum(state.crews[b + i] for i in (SHIP_AV, SHIP_REST, SLED_AV, SLED_REST))
    capacity = avail + crew * open_rounds(state)
    home = planner.home_moves(state, SHIP, state.loc[2 * seat + SHIP])
    back = planner.route(state, seat).cost + (home if home is not None else geo.W)
    return 1.0 / (1.0 + math.exp(-(capacity - cost - back - HOME_MARGIN) / HOME_SPREAD))


def open_rounds(state: State) -> int:
    """Rounds after this one in which the Northwest exit's row is not frozen: the
    rounds a ship on the passage route can sail in (rules §4)."""
    geo = state.geometry
    row = state.geometry.northwest_square // geo.S
    rnd = max(state.round, 1)
    sun = state.sun
    count = 0
    for _ in range(geo.rounds - rnd):
        sun = sun % geo.sun_positions + 1
        if geo.frozen_rows[sun] <= row:
            count += 1
    return count


def home_risk(state: State, seat: int, rounds_left: int) -> float:
    """Expected abandonment loss (points, positive) of the seat's vehicles out.

    Unlike the greedy heuristic's estimate, the crew is counted as one move per
    crewman and round (one action per turn pays the base cost only), and the way
    home is counted over the tiles laid, however long."""
    rules = state.content.rules
    geo = state.geometry
    b = CREW_FIELDS * seat
    loss = 0.0
    for v, av, rest in ((SHIP, SHIP_AV, SHIP_REST), (SLED, SLED_AV, SLED_REST)):
        loc = state.loc[2 * seat + v]
        if loc == GREENLAND or (loc < 0 and loc != NORTHWEST):
            continue
        crew = state.crews[b + av] + state.crews[b + rest]
        # The rules give the abandonment points as negative numbers.
        penalty = -rules.abandon_per_crewman * crew - (rules.abandon_ship if v == SHIP else 0)
        if penalty <= 0:
            continue
        steps = planner.home_moves(state, v, loc)
        now = 0 if state.passed[seat] else state.crews[b + av]
        if state.round >= geo.rounds:
            acted = state.current == seat and state.acted > 0
            can = moves_affordable(now, acted) if acted else now
            risk = 0.0 if steps is not None and steps <= can else 1.0
        else:
            distance = float(steps) if steps is not None else geo.W + 4.0
            capacity = now + rounds_left * crew
            risk = 1.0 / (1.0 + math.exp(-(distance + HOME_MARGIN - capacity) / HOME_SPREAD))
        loss += risk * penalty
    return loss


def _homeward(state: State, seat: int, rnd: int) -> float:
    """The ship's moves home once the way home is open (after round 7: the
    Greenland entrance thaws), reached or not: the same for both, so reaching the
    passage late is not penalised by it."""
    if rnd <= LAST_PASSAGE_ROUND:
        return 0.0
    loc = state.loc[2 * seat + SHIP]
    steps = planner.home_moves(state, SHIP, loc)
    if steps is None:
        return 0.0 if loc == GREENLAND or (loc < 0 and loc != NORTHWEST) else 20.0
    return float(steps)


TOKEN_MOVES = 3  # how far the ship looks for a token to take


def token_near(state: State, seat: int) -> float:
    """The best token within ``TOKEN_MOVES`` ship moves: what taking it adds (its
    points and the majorities and sets as if the game ended now), over 1 + moves."""
    loc = state.loc[2 * seat + SHIP]
    if loc < 0:
        return 0.0
    best = 0.0
    tokens = state.board_tokens
    for tile, moves in _ship_near(state, loc):
        for sq in iter_bits(state._tile_squares(tile)):
            kind = tokens[sq]
            if kind:
                gain = _token_gain(state, seat, kind - 1, sq) / (1.0 + moves)
                best = max(best, gain)
    return best


_near_cache: dict[tuple[object, ...], tuple[tuple[int, int], ...]] = {}


def _ship_near(state: State, loc: int) -> tuple[tuple[int, int], ...]:
    """(tile, moves) of the tiles within ``TOKEN_MOVES`` ship moves, current ice."""
    key = (loc, state.sun, state.land, state.occ, tuple(state.tile_anchor))
    hit = _near_cache.get(key)
    if hit is not None:
        return hit
    out = [(loc, 0)]
    seen = {loc}
    frontier = [loc]
    for d in range(1, TOKEN_MOVES + 1):
        nxt = []
        for here in frontier:
            for dest in state._destinations(SHIP, here):
                if dest >= 0 and dest not in seen:
                    seen.add(dest)
                    nxt.append(dest)
                    out.append((dest, d))
        frontier = nxt
    hit = tuple(out)
    if len(_near_cache) >= 100_000:
        _near_cache.clear()
    _near_cache[key] = hit
    return hit


def _token_gain(state: State, seat: int, kind: int, square: int) -> float:
    """Points of taking a token of ``TOKEN_KINDS[kind]`` on ``square`` for ``seat``."""
    rules = state.content.rules
    name = TOKEN_KINDS[kind]
    k = ALL_TOKEN_KINDS.index(name)
    ptok = state.ptok
    before = sum(d for s, d, _ in scoring.token_awards(ptok, state.n, rules) if s == seat)
    more = list(ptok)
    more[N_KINDS * seat + k] += 1
    after = sum(d for s, d, _ in scoring.token_awards(more, state.n, rules) if s == seat)
    return float(after - before + rules.token_points[name] * state.geometry.zone_of[square])


@cache
def weights() -> tuple[float, ...]:
    """The fitted weights of ``data/bot/evaluator.json``, in :data:`FEATURES` order."""
    text = (
        resources.files("erebus.games.northwest")
        .joinpath("data/bot/evaluator.json")
        .read_text(encoding="utf-8")
    )
    data = json.loads(text)
    w = data["weights"]
    missing = [f for f in FEATURES if f not in w]
    if missing:
        raise ValueError(f"data/bot/evaluator.json lacks weights for {missing}")
    return tuple(float(w[f]) for f in FEATURES)


def value(state: State, seat: int) -> float:
    """The search's estimate of ``seat``'s final points."""
    base = points_now(state, seat)
    if state.over or state.ret_order[seat]:
        return base
    w = weights()
    return base + sum(wi * fi for wi, fi in zip(w, features(state, seat), strict=True))


# ---------------------------------------------------------------- search filter


def search_actions(state: State) -> Sequence[Action]:
    """The legal actions the search expands (see the module docstring)."""
    legal = state.legal_actions()
    if state.round == 0 or state.pending >= 0 or state.over:
        return legal
    seat = state.current
    assert seat is not None
    if state.ret_order[seat]:
        # Home: nothing left to gain, and a ship sailing out again is abandoned.
        return [a for a in legal if a.kind in ("end_turn", "pass")] or legal
    r = planner.route(state, seat)
    have = planner.reserve_squares(state, seat)
    # Draw only what the route can use: while the reserve cannot cover it and the
    # passage is still in reach (tiles drawn for a route given up stay in reserve).
    want = r.n_empty > have and passage_possible(state, seat) >= DRAW_POSSIBLE
    geo = state.geometry
    helpful: dict[int, bool] = {}

    def helps(t: int) -> bool:
        h = helpful.get(t)
        if h is None:
            h = helpful[t] = _fits_route(state, t, r.empty)
        return h

    out: list[Action] = []
    refresh: list[Action] = []
    any_display = False
    for a in legal:
        k = a.kind
        if k == "draw":
            if not want:
                continue
            if a.source == "display":
                assert a.slot is not None
                if not helps(state.disp[a.slot]):
                    continue
                any_display = True
            else:
                assert a.pile is not None
                pile = geo.pile_tiles[a.pile]
                if not helps(pile[state.pile_counts[a.pile] - 1]):
                    continue
            out.append(a)
        elif k == "refresh":
            refresh.append(a)
        elif k == "place":
            if r.empty and not _place_on(state, a, r.empty):
                continue
            out.append(a)
        elif k == "transfer":
            continue  # the hard bot sails its ship only
        else:
            out.append(a)
    if want and not any_display:
        out += refresh
    return out or legal


def _place_on(state: State, a: Action, route_mask: int) -> bool:
    """Does the placement cover a square of the route, or bring a token?"""
    geo = state.geometry
    assert a.tile is not None and a.x is not None and a.y is not None
    t = geo.tile_index[a.tile]
    anchor = geo.index(a.x, a.y)
    for oi in geo.orients_of[t]:
        o = geo.orientations[oi]
        if o.rotation == a.rotation and o.side == a.side:
            if (o.square_mask << anchor) & route_mask:
                return True
            return bool(o.symbol and state.supply[o.symbol - 1] > 0)
    return False


def _fits_route(state: State, t: int, route_mask: int) -> bool:
    """Could tile ``t`` lie on a square of the route (fixed vertices matched)?"""
    if not route_mask:
        return False
    geo = state.geometry
    land, sea, occ = state.land, state.sea, state.occ
    free = geo.squares_mask & ~occ
    for oi in geo.orients_of[t]:
        o = geo.orientations[oi]
        for s in iter_bits(route_mask):
            for sq in o.squares:
                a = s - sq
                if a < 0 or not geo.valid_anchor[o.shape] >> a & 1:
                    continue
                if (o.square_mask << a) & ~free:
                    continue
                if (o.land << a) & sea or (o.sea << a) & land:
                    continue
                return True
    return False
