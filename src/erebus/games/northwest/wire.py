"""Northwest Passage as a browser sees it: the wire view (``wire_view(state, seat)``).

The engine's own view (:meth:`State.view`) is its internal serialization — 150-bit
bitboards, tile indices, location codes −4..−1 — made for ``determinize``, not for a
client.  This module translates a state into named fields and JSON types only, so the
browser never decodes bits or repeats a rule (the costs come from here too).  Every
integer is small (a count, a coordinate, a score); nothing hidden is sent: the bag's
order is the only secret of this game and only its size appears.

Shape (``seat`` is who asks, ``None`` for a spectator; nothing depends on it but the
echo, as nothing but the bag is hidden)::

    {"game": "northwest", "players": n, "seat": int | None,
     "round": int (0 = the draft), "rounds": int, "sun": int (1..7), "over": bool,
     "current": int | None (None once over), "acted": int (actions taken this turn),
     "refresh_draw": "ship" | "sled" | None (a refresh was paid: draw free with it),
     "board": {"width": W, "height": H,
               "vertices": [[ "land" | "sea" | None ] * (W+1)] * (H+1)  (row y, column x),
               "zones": [zone of column x] * W, "frozen_rows": k (rows 0..k-1 frozen)},
     "tiles": [{"id": str, "x": int, "y": int, "w": int, "h": int,
                "rotation": 0..3 | None, "side": "a" | "b" | "joker" | None,
                "printed": bool, "symbol": {"kind": str, "x": int, "y": int} | None}],
     "tokens": [{"kind": str, "x": int, "y": int}]      (tokens lying on the board),
     "arrows": {"greenland": [values left], "northwest": [values left]},
     "display": [tile id], "piles": [count per pile 0..5], "bag_size": int,
     "supply": {kind: count}, "order": [seat], "pass_order": [seat], "draft_left": [int],
     "seats": [{"seat": i, "score": int, "passed": bool,
                "returned": int (0 = not yet, else 1st, 2nd… back in Greenland),
                "reached_northwest": bool,
                "ship": Position, "sled": Position,
                "crew": {"ship": {"available": int, "resting": int},
                         "sled": {"available": int, "resting": int}, "lost": int},
                "tokens": {"inuit": int, "cairn": int, "franklin": int, "strait": int,
                           "cartography": int},
                "northwest": int | None, "greenland": int | None  (arrow tokens held),
                "reserve": [tile id]}],
     "costs": {kind: {"base": int, "now": int}}  (crewmen an action of that kind costs
              the seat to move now; "now" is "base" for a first action, +1 after, 0 for
              the free draw after a refresh),
     "token_rules": {kind: {"taken_by": "explore" | "discover", "points_per_zone": int}}
              (the tokens a printed symbol calls for: the action that takes one and its
              value, times the zone of its square)}

    Position = {"at": [x, y], "tile": id} | "greenland" | "northwest" | "lost" | None
    (None: on the player's board, i.e. a sled not deployed; [x, y] is the tile's
    anchor, its top-left square).

:func:`action_cost` gives the cost of one legal action (the server lists it next to
each action as ``legal_costs``).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

import orjson

from erebus.games.northwest.actions import DISCOVER_TOKENS, VEHICLES, Action
from erebus.games.northwest.content import ALL_TOKEN_KINDS, TOKEN_KINDS
from erebus.games.northwest.geometry import Geometry
from erebus.games.northwest.state import JOKER, State

#: Kinds of action with a crew cost, in the order a client lists them.
COSTED_KINDS = ("draw", "refresh", "place", "move", "transfer", "explore", "discover")


def action_cost(state: State, action: Action | dict[str, Any]) -> int:
    """Crewmen ``action`` costs the player to move, were it applied now (§6)."""
    kind = action.kind if isinstance(action, Action) else str(action.get("type", ""))
    return state.cost_of(kind)


def action_costs(state: State, actions: Sequence[Action]) -> list[int | None]:
    """``action_cost`` of each of ``actions`` (a cost depends only on the kind, and
    every push of a table prices its legal actions, so each kind is priced once)."""
    memo: dict[str, int] = {}
    out: list[int | None] = []
    for a in actions:
        k = a.kind
        c = memo.get(k)
        if c is None:
            c = memo[k] = state.cost_of(k)
        out.append(c)
    return out


def wire_view(state: State, seat: int | None) -> dict[str, Any]:
    """What a browser at ``seat`` (None: a spectator) needs to draw ``state``."""
    if seat is not None and not (
        isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < state.players
    ):
        raise ValueError(f"no seat {seat!r} in a {state.players}-player game")
    geo = state.geometry
    rules = state.content.rules
    return {
        "game": "northwest",
        "players": state.players,
        "seat": seat,
        "round": state.round,
        "rounds": geo.rounds,
        "sun": state.sun,
        "over": state.is_over,
        "current": state.current_player,
        "acted": state.acted,
        "refresh_draw": VEHICLES[state.pending] if state.pending >= 0 else None,
        "board": _board(state),
        "tiles": _tiles(state),
        "tokens": _tokens(state),
        "arrows": {"greenland": state.gl_left[:], "northwest": state.nw_left[:]},
        "display": state.display,
        "piles": state.piles,
        "bag_size": len(state.bag),
        "supply": dict(zip(ALL_TOKEN_KINDS, state.supply, strict=True)),
        "order": state.order[:],
        "pass_order": state.pass_order[:],
        "draft_left": state.draft_left[:],
        "seats": [_seat(state, i) for i in range(state.players)],
        "costs": {
            k: {"base": rules.action_costs.get(k, 0), "now": state.cost_of(k)} for k in COSTED_KINDS
        },
        "token_rules": {
            k: {
                "taken_by": "discover" if k in DISCOVER_TOKENS else "explore",
                "points_per_zone": rules.token_points[k],
            }
            for k in TOKEN_KINDS
        },
    }


def wire_view_shared(state: State, seat: int | None, shared: dict[Any, Any]) -> dict[str, Any]:
    """:func:`wire_view` as the same JSON bytes, for a server that builds every
    seat's view of one state in turn: ``shared`` is an empty dict for the first seat
    and then the same dict for the other seats of this state (never another
    state's).  Nothing but the ``seat`` echo depends on the seat, so the view's
    other fields are built once, into ``shared``, and from the second seat on sent
    as their JSON (``orjson.Fragment`` values: a view that only ``orjson`` can
    write)."""
    rest: dict[str, Any] | None = shared.get("rest")
    if rest is None:  # the first seat: the values themselves (often the only one)
        view = wire_view(state, None)
        del view["game"], view["players"], view["seat"]
        rest = shared["rest"] = view
    elif "encoded" not in shared:  # the second: encoded once for the rest
        rest = shared["rest"] = {k: orjson.Fragment(orjson.dumps(v)) for k, v in rest.items()}
        shared["encoded"] = True
    if seat is not None and not (
        isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < state.players
    ):
        raise ValueError(f"no seat {seat!r} in a {state.players}-player game")
    return {"game": "northwest", "players": state.players, "seat": seat, **rest}


def _board(state: State) -> dict[str, Any]:
    board, geo = state.board, state.geometry
    return {
        "width": board.width,
        "height": board.height,
        "vertices": [row[:] for row in _vertices(geo, state.land, state.sea)],
        "zones": list(_zones(geo)),
        "frozen_rows": geo.frozen_rows[state.sun],
    }


@functools.cache
def _zones(geo: Geometry) -> tuple[int, ...]:
    """The zone of each column (×3, ×2, ×1), left to right."""
    return tuple(geo.zone_of[geo.index(x, 0)] for x in range(geo.W))


@functools.cache
def _vertex_bits(geo: Geometry) -> tuple[tuple[int, ...], ...]:
    """The bit of every vertex, row by row (one table per geometry)."""
    return tuple(tuple(geo.index(x, y) for x in range(geo.W + 1)) for y in range(geo.H + 1))


@functools.lru_cache(maxsize=1024)
def _vertices(geo: Geometry, land: int, sea: int) -> tuple[list[str | None], ...]:
    """The terrain per vertex ("land", "sea", None: not yet fixed).  The terrain
    changes only when a tile is placed, and a table's every push asks for it, so
    each terrain is read off its bitboards once (callers copy the rows)."""
    return tuple(
        ["land" if land >> b & 1 else "sea" if sea >> b & 1 else None for b in row]
        for row in _vertex_bits(geo)
    )


def _tiles(state: State) -> list[dict[str, Any]]:
    """The placed tiles (and the printed squares), in the engine's tile order."""
    geo = state.geometry
    out: list[dict[str, Any]] = []
    for t, anchor in enumerate(state.tile_anchor):
        if anchor < 0:
            continue
        x, y = geo.xy(anchor)
        tile: dict[str, Any] = {"id": geo.all_ids[t], "x": x, "y": y, "w": 1, "h": 1}
        symbol = 0
        sym_xy = (x, y)
        if t >= geo.n_tiles:  # a square printed on the board
            tile.update(rotation=None, side=None, printed=True)
            symbol = geo.printed_symbol[t - geo.n_tiles]
        elif state.tile_orient[t] == JOKER:
            tile.update(rotation=None, side="joker", printed=False)
        else:
            o = geo.orientations[state.tile_orient[t]]
            tile.update(w=o.w, h=o.h, rotation=o.rotation, side=o.side, printed=False)
            symbol = o.symbol
            if o.symbol_at >= 0:
                dx, dy = geo.xy(o.symbol_at)
                sym_xy = (x + dx, y + dy)
        tile["symbol"] = (
            {"kind": TOKEN_KINDS[symbol - 1], "x": sym_xy[0], "y": sym_xy[1]} if symbol else None
        )
        out.append(tile)
    return out


def _tokens(state: State) -> list[dict[str, Any]]:
    """The tokens lying on the board, row by row (square index = x + stride·y)."""
    geo = state.geometry
    out = []
    for i, k in enumerate(state.board_tokens):
        if k and geo.on_board(*(xy := geo.xy(i))):
            out.append({"kind": TOKEN_KINDS[k - 1], "x": xy[0], "y": xy[1]})
    return out


def _position(state: State, seat: int, vehicle: str) -> Any:
    where = state.position(seat, vehicle)
    if isinstance(where, tuple):
        x, y = where
        return {"at": [x, y], "tile": state.tile_at(x, y)}
    return where


def _seat(state: State, i: int) -> dict[str, Any]:
    tokens = state.tokens(i)
    return {
        "seat": i,
        "score": state.score[i],
        "passed": state.passed[i],
        "returned": state.ret_order[i],
        "reached_northwest": state.nw_reached[i],
        "ship": _position(state, i, "ship"),
        "sled": _position(state, i, "sled"),
        "crew": state.crew_of(i),
        "tokens": {k: tokens[k] for k in ALL_TOKEN_KINDS},
        "northwest": tokens["northwest"],
        "greenland": tokens["greenland"],
        "reserve": state.reserve_of(i),
    }
