"""The placement cache and the quick move test never change a legal list.

:meth:`Position._placements` keeps, shared by every state of a content, the anchors
and each tile's placements (and ``legal_actions()`` their place actions, by vehicle)
per (squares next to which, occupied, land, sea) (``Geometry.placement_cache``), and :meth:`Position._destinations` reads precomputed
edge masks.  A key that left out something a placement depends on would hand one
state another's list: so along random games of 2–4 players every list is computed
with the caches as the games before left them (warm), with every cache emptied
first (cold), and with a cache so small that it is emptied all the time, and all
must equal a plain search written out here (the search as it was before the cache).
"""

from __future__ import annotations

import random

import pytest

from erebus.games.northwest import legal, new_game, position
from erebus.games.northwest.actions import Action
from erebus.games.northwest.encoding import action_space
from erebus.games.northwest.geometry import iter_bits
from erebus.games.northwest.layout import GREENLAND, NORTHWEST, SHIP, SLED
from erebus.games.northwest.state import State


def _plain_placements(st: State, loc: int) -> list[tuple[int, int, int]]:
    """Every legal placement next to ``loc``, searched square by square (§7.C)."""
    geo = st._geo
    seat = st.current
    assert seat is not None
    near = st._loc_squares(loc)
    if not near or not st.reserves[seat]:
        return []
    frontier = geo.dilate(near) & ~st.occ
    free = geo.squares_mask & ~st.occ
    out = []
    for t in st.reserves[seat]:
        for oi in geo.orients_of[t]:
            o = geo.orientations[oi]
            for a in iter_bits(geo.valid_anchor[o.shape]):
                sq = o.square_mask << a
                if sq & ~free or not sq & frontier:
                    continue
                tl = o.land << a
                if tl & st.sea or (o.sea << a) & st.land:
                    continue
                if tl & ~st.land and not geo.sea_route(st.land | tl):
                    continue
                out.append((t, oi, a))
    return out


def _plain_destinations(st: State, vehicle: int, loc: int) -> dict[int, int]:
    """Locations one move away, edge by edge (§7.D)."""
    geo = st._geo
    frozen = geo.frozen_by_sun[st.sun]
    out: dict[int, int] = {}
    if loc in (GREENLAND, NORTHWEST):
        s = geo.greenland_square if loc == GREENLAND else geo.northwest_square
        if bool(frozen >> s & 1) == (vehicle == SLED):
            out[st.sq_tile[s]] = s
        return out
    if loc < 0:
        return out
    for s in iter_bits(st._tile_squares(loc)):
        fs = frozen >> s & 1
        for u, v1, v2 in geo.neighbours[s]:
            t2 = st.sq_tile[u]
            if t2 < 0 or t2 == loc or t2 in out:
                continue
            fu = frozen >> u & 1
            if vehicle == SHIP:
                ok = bool((st.sea >> v1 & 1 or st.sea >> v2 & 1) and not fs and not fu)
            else:
                ok = bool(st.land >> v1 & 1 or st.land >> v2 & 1 or (fs and fu))
            if ok:
                out[t2] = u
        for arrow, sq in ((GREENLAND, geo.greenland_square), (NORTHWEST, geo.northwest_square)):
            if s == sq and bool(fs) == (vehicle == SLED):
                out[arrow] = s
    return out


def _empty_caches(st: State) -> None:
    st._geo.placement_cache.clear()
    st._geo.route_cache.clear()


def _queries(st: State) -> tuple[object, ...]:
    seat = st.current
    assert seat is not None
    locs = sorted({st.loc[2 * seat + v] for v in (0, 1)} | {GREENLAND, NORTHWEST})
    return (
        st.legal_actions(),
        action_space(st.content).legal_indices(st),
        [st._placements(loc) for loc in locs],
        [list(st._destinations(v, loc).items()) for v in (0, 1) for loc in locs],
    )


def _check(st: State, cold: bool = True) -> None:
    seat = st.current
    if seat is None:
        return
    warm = _queries(st)
    # legal_actions() takes its place actions from the cache entry's own tuples,
    # legal_indices() numbers _placements(): the two must name the same actions.
    assert action_space(st.content).indices(warm[0], st) == warm[1]
    locs = sorted({st.loc[2 * seat + v] for v in (0, 1)} | {GREENLAND, NORTHWEST})
    assert warm[2] == [_plain_placements(st, loc) for loc in locs]
    assert warm[3] == [
        list(_plain_destinations(st, v, loc).items()) for v in (0, 1) for loc in locs
    ]
    if cold:
        _empty_caches(st)
        assert _queries(st) == warm


def _check_siblings(st: State, legal: list[Action]) -> None:
    """The placements that cover the same squares with other tiles or turns leave
    the same squares occupied under other land and sea: each must get its own lists
    while the cache holds its siblings'."""
    by_square: dict[tuple[object, ...], list[Action]] = {}
    for a in legal:
        if a.kind == "place":
            by_square.setdefault((a.vehicle, a.x, a.y), []).append(a)
    for group in by_square.values():
        if len(group) > 1:
            for a in group[:4]:
                child = st.clone()
                child.apply(a)
                _check(child, cold=False)
            return


def _pick(legal: list[Action], rng: random.Random) -> Action:
    """A random action, the kind first (rarely passing), so games reach late rounds."""
    groups: dict[str, list[Action]] = {}
    for a in legal:
        groups.setdefault(a.kind, []).append(a)
    keys = list(groups)
    if len(keys) > 1 and "pass" in groups and rng.random() < 0.9:
        keys.remove("pass")
    return rng.choice(groups[rng.choice(keys)])


def _play(players: int, seed: int, every: int) -> int:
    st = new_game(players, seed)
    rng = random.Random(seed)
    checked = steps = 0
    while not st.is_over and steps < 600:
        legal = st.legal_actions()
        if st.round > 0 and steps % every == 0:
            _check(st)
            _check_siblings(st, legal)
            checked += 1
        st.apply(_pick(legal, rng))
        steps += 1
    return checked


@pytest.mark.parametrize("players", [2, 3, 4])
def test_warm_and_cold_lists_agree(players: int) -> None:
    assert sum(_play(players, seed, 2) for seed in range(3)) > 50


def test_a_tiny_cache_gives_the_same_lists(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(position, "PLACEMENT_CACHE_LIMIT", 2)
    monkeypatch.setattr(position, "RESERVES_PER_KEY", 1)
    monkeypatch.setattr(legal, "RESERVES_PER_KEY", 1)
    assert _play(3, 11, 1) > 20
    assert _play(4, 12, 1) > 20
