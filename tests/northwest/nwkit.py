"""Scenario kit for Northwest Passage rule tests.

Rule tests need exact positions: a tile set designed for the test (not the
generated one), tiles put on the board without the placement rules, vehicles
and crew set by hand.  These helpers build such positions through the
state's internal fields; the action under test then goes through the public
``apply`` so the rules are exercised as a player would.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from erebus.games.northwest.actions import Action
from erebus.games.northwest.content import (
    Content,
    TileDef,
    TileSide,
    _read_json,
    parse_board,
    parse_rules,
)
from erebus.games.northwest.state import (
    ARROW_CODE,
    CREW_FIELDS,
    PLAYER_BOARD,
    SLED,
    State,
)

SEA2 = ("sss", "sss")
SMALL_PATTERNS = {
    0: ("ss", "ss"),
    1: ("ls", "ss"),
    2: ("ll", "ss"),
    3: ("ls", "sl"),
    4: ("ll", "sl"),
    5: ("ll", "ll"),
}

Side = tuple[tuple[str, str], str | None, int | None]


def side(terrain: tuple[str, str], symbol: str | None = None, square: int | None = None) -> Side:
    return (terrain, symbol, square if symbol is None or square is not None else 0)


def make_content(
    large: dict[str, tuple[Side, Side]],
    piles: tuple[int, ...] = (8, 6, 6, 4, 4, 4),
    **rules: Any,
) -> Content:
    """A content object with the default board and rules and the given tiles."""
    board = parse_board(_read_json(None, "board.json"))
    base_rules = parse_rules(_read_json(None, "rules.json"))
    tiles: list[TileDef] = []
    for tid, (a, b) in large.items():
        tiles.append(
            TileDef(
                id=tid,
                size=2,
                sides={
                    "a": TileSide(terrain=a[0], symbol=a[1], symbol_square=a[2]),
                    "b": TileSide(terrain=b[0], symbol=b[1], symbol_square=b[2]),
                },
            )
        )
    k = 0
    for cls, count in enumerate(piles):
        for _ in range(count):
            k += 1
            tiles.append(
                TileDef(
                    id=f"S{k:02d}",
                    size=1,
                    sides={"a": TileSide(terrain=SMALL_PATTERNS[cls])},
                    pile=cls,
                )
            )
    new_rules = dataclasses.replace(base_rules, **rules) if rules else base_rules
    return Content(board=board, tiles=tuple(tiles), rules=new_rules)


def filler(n: int, start: int = 1) -> dict[str, tuple[Side, Side]]:
    """``n`` all-sea large tiles (ids Fnn) to keep the bag and display busy."""
    return {f"F{i:02d}": (side(SEA2), side(("sss", "ssl"))) for i in range(start, start + n)}


def new(content: Content, players: int = 2, seed: int = 0, draft: bool = True) -> State:
    """A new game; with ``draft`` the draft is played (everyone takes display #0)
    and the drafted tiles go back to the bag so reserves start empty."""
    st = State.new(players, seed, content)
    if draft:
        while st.round == 0:
            st.apply(Action.draft(0))
        for seat in range(players):
            for t in st.reserves[seat]:
                st.bag.append(t)
            st.reserves[seat] = []
        st.bag.sort()
    return st


def tix(st: State, tid: str) -> int:
    return st.geometry.tile_index[tid]


def detach(st: State, tid: str) -> int:
    """Remove tile ``tid`` from the bag, display or any reserve; return its index."""
    t = tix(st, tid)
    if t in st.bag:
        st.bag.remove(t)
    elif t in st.disp:
        st.disp.remove(t)
    else:
        for r in st.reserves:
            if t in r:
                r.remove(t)
    return t


def give(st: State, seat: int, tid: str) -> None:
    """Put tile ``tid`` into ``seat``'s reserve."""
    st.reserves[seat].append(detach(st, tid))


def put(st: State, tid: str, x: int, y: int, rotation: int = 0, side_: str = "a") -> None:
    """Put a tile on the board ignoring the placement rules (terrain, tokens set)."""
    geo = st.geometry
    t = detach(st, tid)
    assert st.tile_anchor[t] < 0, f"{tid} is already on the board"
    tile = geo.tiles[t]
    oi = geo.orients_of[t][sorted(tile.sides).index(side_) * 4 + rotation]
    o = geo.orientations[oi]
    anchor = geo.index(x, y)
    squares = o.square_mask << anchor
    assert not squares & st.occ, f"{tid} overlaps"
    assert not (o.land << anchor) & st.sea and not (o.sea << anchor) & st.land, f"{tid} clashes"
    st.land |= o.land << anchor
    st.sea |= o.sea << anchor
    st._put_tile(t, oi, anchor, squares)
    if o.symbol and st.supply[o.symbol - 1] > 0:
        st.supply[o.symbol - 1] -= 1
        st.board_tokens[o.symbol_at + anchor] = o.symbol


def at(st: State, seat: int, vehicle: str, where: tuple[int, int] | str | None) -> None:
    """Put ``seat``'s vehicle at a square's tile, an arrow, or (sled) the player board."""
    v = 0 if vehicle == "ship" else 1
    if where is None:
        loc = PLAYER_BOARD
    elif isinstance(where, str):
        loc = ARROW_CODE[where]
    else:
        loc = st.sq_tile[st.geometry.index(*where)]
        assert loc >= 0, f"no tile at {where}"
    st.loc[2 * seat + v] = loc


def crew(
    st: State,
    seat: int,
    ship: tuple[int, int] = (7, 0),
    sled: tuple[int, int] = (0, 0),
    lost: int = 0,
) -> None:
    """Set a seat's crew columns as (available, resting); must total 7."""
    assert sum(ship) + sum(sled) + lost == 7
    b = CREW_FIELDS * seat
    st.crews[b : b + CREW_FIELDS] = [ship[0], ship[1], sled[0], sled[1], lost]


def turn(st: State, seat: int) -> None:
    """Make it ``seat``'s turn, first action of the turn."""
    st.current = seat
    st.acted = 0
    st.pending = -1


def sled_deployed(st: State, seat: int) -> bool:
    return st.loc[2 * seat + SLED] != PLAYER_BOARD


def score_events(events: list[Any]) -> list[tuple[int, int, str]]:
    return [(e.seat, e.delta, e.reason) for e in events if type(e).__name__ == "ScoreChanged"]


def kinds(events: list[Any]) -> list[str]:
    return [type(e).__name__ for e in events]
