"""Northwest Passage's actions in plain words, for hints and reviews (``SPEC.describe_action``).

``describe(state, action)`` reads the state *before* the action: the display slot's
tile, a pile's count, where the vehicle stands.  Places are named from the board
data (Greenland, the Northwest Passage, the printed cairns: ``board.json``'s
printed squares) or by the tile lying there; a square no tile covers yet is given
as a column and a row counted from 1 (column 1 = west, row 1 = north), with its
direction from the acting vehicle.  Pure: no I/O.
"""

from __future__ import annotations

from typing import Any

from erebus.games.northwest.actions import Action

#: Words for the tokens and tile symbols (the data names them by id only).
TOKEN_WORDS = {
    "inuit": "the Inuit",
    "cairn": "a cairn",
    "franklin": "a Franklin site",
    "strait": "a strait",
}
#: The six small piles by what their tiles show (tiles.json: rotation classes 0-5).
PILE_WORDS = (
    "all sea",
    "one land corner",
    "two land corners side by side",
    "two opposite land corners",
    "three land corners",
    "all land",
)
ARROW_WORDS = {"greenland": "Greenland", "northwest": "the Northwest Passage"}
TURNS = {0: "", 1: "turned 90°", 2: "turned 180°", 3: "turned 270°"}


def _square(x: int, y: int) -> str:
    return f"column {x + 1}, row {y + 1}"


def _printed(ident: str) -> str:
    """``board:cairn-east`` → "the east cairn square", ``board:greenland`` → "the
    Greenland square" (the printed square; the arrows beyond are Greenland itself)."""
    base, *quals = ident.removeprefix("board:").split("-")
    name = ARROW_WORDS.get(base, base).removeprefix("the ")
    return f"the {' '.join([*quals, name])} square"


def _tile_name(state: Any, tile: str | None) -> str:
    if tile is None:
        return "an empty square"
    if tile.startswith("board:"):
        return _printed(tile)
    return f"tile {tile}"


def _place_of(state: Any, to: Any) -> str:
    if isinstance(to, str):
        return ARROW_WORDS.get(to, to)
    x, y = to
    tile = state.tile_at(x, y)
    if tile is None:
        return _square(x, y)
    name = _tile_name(state, tile)
    return name if tile.startswith("board:") else f"{name} ({_square(x, y)})"


def _squares_of(state: Any, where: Any) -> list[tuple[int, int]]:
    """The squares a vehicle at ``where`` stands on (a tile's, an arrow's square)."""
    if isinstance(where, str):
        arrow = state.content.board.arrows.get(where)
        return [tuple(arrow)] if arrow else []
    if where is None:
        return []
    x, y = where
    tile = state.tile_at(x, y)
    if tile is None:
        return [(x, y)]
    b = state.content.board
    return [(i, j) for i in range(b.width) for j in range(b.height) if state.tile_at(i, j) == tile]


def _direction(frm: list[tuple[int, int]], to: list[tuple[int, int]]) -> str:
    """ "north-west" and so on, from the centre of ``frm`` to the centre of ``to``."""
    if not frm or not to:
        return ""
    fx = sum(x for x, _ in frm) / len(frm)
    fy = sum(y for _, y in frm) / len(frm)
    tx = sum(x for x, _ in to) / len(to)
    ty = sum(y for _, y in to) / len(to)
    ns = "north" if ty < fy - 0.25 else "south" if ty > fy + 0.25 else ""
    ew = "west" if tx < fx - 0.25 else "east" if tx > fx + 0.25 else ""
    return "-".join(p for p in (ns, ew) if p)


def _vehicle(action: Action) -> str:
    return str(action.vehicle or "ship")


def _placement(state: Any, action: Action) -> str:
    tiles = {t.id: t for t in state.content.tiles}
    tile = tiles.get(str(action.tile))
    x, y = int(action.x or 0), int(action.y or 0)
    rot = int(action.rotation or 0) % 4
    side = action.side or "a"
    if tile is not None and tile.size > 1:
        wide = rot % 2 == 0
        covered = [(x, y), (x + 1, y)] if wide else [(x, y), (x, y + 1)]
    else:
        covered = [(x, y)]
    how = [f"side {side}"]
    if TURNS[rot]:
        how.append(TURNS[rot])
    text = f"lay tile {action.tile} ({', '.join(how)})"
    seat = state.current_player
    veh = _vehicle(action)
    where = state.position(seat, veh) if seat is not None else None
    if where is None and seat is not None and veh == "sled":
        where = state.position(seat, "ship")  # the sled sets out from the ship
        veh = "ship"
    direction = _direction(_squares_of(state, where), covered)
    if direction:
        text += f" {direction} of your {veh}"
    elif where is not None:
        text += f" beside your {veh}"
    text += f", at {_square(x, y)}"
    symbol = tile.sides[side].symbol if tile is not None and side in tile.sides else None
    if symbol:
        text += f", showing {TOKEN_WORDS.get(symbol, symbol)}"
    return text


def describe(state: Any, action: Action) -> str:
    """``action`` (legal in ``state``) in a few plain words."""
    k = action.kind
    if k == "draft":
        slot = action.slot
        tile = state.display[slot] if slot is not None and 0 <= slot < len(state.display) else None
        return f"Draft tile {tile} from the display" if tile else "Draft a tile from the display"
    if k == "end_turn":
        return "End your turn"
    if k == "pass":
        return "Pass (out for the rest of the round)"
    veh = _vehicle(action).capitalize()
    if k == "draw":
        if action.source == "display":
            slot = action.slot
            shown = state.display
            tile = shown[slot] if slot is not None and 0 <= slot < len(shown) else None
            return f"{veh}: draw tile {tile} from the display" if tile else f"{veh}: draw a tile"
        pile = int(action.pile or 0)
        left = state.piles[pile] if 0 <= pile < len(state.piles) else 0
        what = PILE_WORDS[pile] if 0 <= pile < len(PILE_WORDS) else f"pile {pile + 1}"
        return f"{veh}: draw a small tile from pile {pile + 1} ({what}; {left} left)"
    if k == "refresh":
        return f"{veh}: refresh the display (new tiles from the bag)"
    if k == "place":
        return f"{veh}: {_placement(state, action)}"
    if k == "move":
        to = action.to
        if to == "northwest":
            return f"{veh}: go out through the Northwest Passage"
        if to == "greenland":
            return f"{veh}: go home to Greenland"
        return f"{veh}: go to {_place_of(state, to)}"
    if k == "transfer":
        av, rest = action.sled_available, action.sled_resting
        return f"{veh}: transfer crew between ship and sled (sled then: {av} available, {rest} resting)"
    if k in ("explore", "discover"):
        token = TOKEN_WORDS.get(str(action.token), str(action.token))
        return f"{veh}: {k} {token}"
    return str(action)


__all__ = ["describe"]
