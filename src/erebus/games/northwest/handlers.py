"""``State.apply()``: one check per action type, then its change.

:meth:`ActionHandlers.apply` checks what every action shares (the game phase,
the action's fields, the crew to pay) and hands the rest to the handler of its
type (``_check_draw``, ``_check_place``, ...).  A handler validates without
touching the state and returns a closure that performs the change, so an
illegal action leaves the state exactly as it was, by construction.
"""

from __future__ import annotations

import bisect
import operator
from typing import Any

from erebus.core.errors import IllegalAction
from erebus.core.events import Event
from erebus.core.rng import Rng
from erebus.games.northwest.actions import ARROWS, VEHICLES, Action
from erebus.games.northwest.content import (
    TOKEN_KINDS,
)
from erebus.games.northwest.effects import Effects
from erebus.games.northwest.events import (
    CrewSpent,
    CrewTransferred,
    DisplayRefreshed,
    ReachedNorthwest,
    ReturnedToGreenland,
    SledDeployed,
    SledRecalled,
    TileDrawn,
    TokenTaken,
    TurnEnded,
    VehicleMoved,
)
from erebus.games.northwest.layout import (
    ARROW_CODE,
    CREW_FIELDS,
    GREENLAND,
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
# Per kind: a getter of the fields it does not use, and what they hold when all are None.
_UNUSED_OF = {
    kind: (
        operator.itemgetter(*(i for i in range(len(Action._fields)) if i not in used)),
        tuple(None for i in range(len(Action._fields)) if i not in used),
    )
    for kind, used in _FIELDS_OF.items()
}


class ActionHandlers(Effects):
    """``apply()`` and the handler of each action type."""

    __slots__ = ()

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
        unused, nones = _UNUSED_OF[action.kind]
        if unused(action) != nones:  # one comparison; the loop names the field
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


_HANDLERS = {
    "draw": ActionHandlers._check_draw,
    "refresh": ActionHandlers._check_refresh,
    "place": ActionHandlers._check_place,
    "move": ActionHandlers._check_move,
    "transfer": ActionHandlers._check_transfer,
    "explore": ActionHandlers._check_take,
    "discover": ActionHandlers._check_take,
}
