"""Which actions the current player may take: ``State.legal_actions()``.

Search calls :meth:`LegalActions.legal_actions` millions of times, so it hands
out interned :class:`~erebus.games.northwest.actions.Action` tuples (built once
here, or once per content in the geometry's caches) instead of allocating new
ones, and asks the position queries of
:class:`~erebus.games.northwest.position.Position` for placements, moves and
transfers.
"""

from __future__ import annotations

from erebus.games.northwest.actions import VEHICLES, Action
from erebus.games.northwest.content import (
    TOKEN_KINDS,
)
from erebus.games.northwest.geometry import PlacementEntry
from erebus.games.northwest.layout import (
    ARROW_NAME,
    CREW_FIELDS,
    PLAYER_BOARD,
    SHIP,
    SHIP_AV,
    SHIP_REST,
    SLED,
    SLED_AV,
    SLED_REST,
)
from erebus.games.northwest.position import RESERVES_PER_KEY, Position

# Interned actions: legal_actions() hands out these shared immutable tuples
# instead of allocating thousands of new ones per call.
_END_TURN = Action("end_turn")
_PASS = Action("pass")
_REFRESH = tuple(Action("refresh", v) for v in VEHICLES)
_DRAW_DISPLAY = tuple(tuple(Action.draw_display(v, i) for i in range(16)) for v in VEHICLES)
_DRAW_PILE = tuple(tuple(Action.draw_pile(v, c) for c in range(6)) for v in VEHICLES)
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


class LegalActions(Position):
    """``legal_actions()`` and the option lists it is made of."""

    __slots__ = ()

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
        for v, vname in enumerate(VEHICLES):
            avail = self.crews[b + 2 * v]
            loc = self.loc[2 * seat + v]
            if avail >= costs["draw"] + extra:
                out += self._draws(vname)
            if avail >= costs["refresh"] + extra and self._refresh_possible():
                out.append(_REFRESH[v])
            if avail >= costs["place"] + extra:
                # _placements(loc) as interned actions: one tuple per (vehicle,
                # reserve) kept in the placement cache's entry (the same, in order).
                entry = self._placement_entry_at(loc)
                if entry is not None:
                    key = (v, tuple(self.reserves[seat]))
                    got = entry[3].get(key)
                    if got is None:
                        got = self._place_actions(entry, key)
                    out += got
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

    def _place_actions(
        self, entry: PlacementEntry, key: tuple[int, tuple[int, ...]]
    ) -> tuple[Action, ...]:
        """The interned place actions of vehicle ``v`` for the placements of the
        tiles of ``reserve`` (``key = (v, reserve)``), kept in ``entry``."""
        v, reserve = key
        placements = entry[2].get(reserve)
        if placements is None:
            placements = self._search_reserve(entry, reserve)
        vname = VEHICLES[v]
        cache = self._geo.action_cache
        out = []
        for pk in placements:
            vkey = (v, *pk)
            act = cache.get(vkey)
            if act is None:
                act = cache[vkey] = self._place_action(vname, *pk)
            out.append(act)
        by_key = entry[3]
        if len(by_key) >= RESERVES_PER_KEY:
            by_key.clear()
        got = by_key[key] = tuple(out)
        return got

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

    def _transfers(self, seat: int, payer: int) -> list[Action]:
        key = self._transfer_key(seat, payer)
        return [] if key is None else list(_transfer_list(key))

    def _transfer_key(self, seat: int, payer: int) -> tuple[int, int, int, tuple[int, int]] | None:
        """What ``seat``'s transfer options paid by vehicle ``payer`` depend on (the key of
        :func:`_transfer_list`), None when it has none."""
        if self._transfer_allowed(seat) is not None:
            return None
        cost = self.cost_of("transfer")
        b = CREW_FIELDS * seat
        c = self.crews
        total_av = c[b + SHIP_AV] + c[b + SLED_AV] - cost
        total_rest = c[b + SHIP_REST] + c[b + SLED_REST] + cost
        cur = (c[b + SLED_AV] - cost * payer, c[b + SLED_REST] + cost * payer)
        sled_off = self.loc[2 * seat + SLED] == PLAYER_BOARD
        if sled_off and not self._can_deploy_at(self.loc[2 * seat + SHIP]):
            return None  # the sled column must stay empty, and it is empty already
        return (payer, total_av, total_rest, cur)


def _transfer_list(key: tuple[int, int, int, tuple[int, int]]) -> tuple[Action, ...]:
    """The transfer options of a :meth:`LegalActions._transfer_key` (interned)."""
    cached = _TRANSFER_LISTS.get(key)
    if cached is None:
        payer, total_av, total_rest, cur = key
        table = _TRANSFER[payer]
        options: list[Action] = []
        for a in range(total_av + 1):
            options += table[a][: total_rest + 1]
        options.remove(table[cur[0]][cur[1]])
        cached = _TRANSFER_LISTS[key] = tuple(options)
    return cached
