"""The observation of :mod:`erebus.games.iceandsnow.encoding`, kept up to date step by step.

:meth:`~erebus.games.iceandsnow.encoding.Encoder.encode_view` builds the ~700
features from scratch at every call: a fresh vector, Python loops over every block,
a numpy division per seat row and a clip over the whole vector.  An RL environment
asks for one observation per step of the *same* game, and a step changes little of
it: an action places crew (the spaces' occupancy), moves the turn on and changes a
seat's player table or two; the map, the revealed cards, the event, the upgrades and
the modules' blocks change a few times a game.  :class:`Observer` keeps the last
observation as a template and groups its blocks by the state fields they are made
of; each group keeps its inputs as they were last written (copies: the engine
changes its lists in place) and is written again only when they differ — the lists
that change often one by one, those that change a few times a game compared all at
once.  Values are written as float32 bytes into the template's memory: most numbers
come from a table of the bytes of ``x / divisor`` clipped to [-2, 2] (filled as
values are met; clipping the float64 quotient before its cast gives the float32
clip's result), the rest are packed from a block's list of values, clipped when it
is written (never a clip over the whole vector); so a seat's player table is one
join of its fields' bytes, and the seat block, whose slots turn with the observing
seat, one copy of the seats' rows joined.  The one-hots (event, fleet, map, cards)
move their 1s where they changed; the parts that depend on the observing seat
(leader and current player, own cards, the modules' per-seat rows) are kept per
seat and copied in when the seat changes.
Per-call costs are most of the work at this size, so the fewer Python and numpy
calls the better: the fields are read by attribute loads, numpy is called for the
final copy and a few one-hot writes only.  The result is the same vector, bit for
bit (``tests/iceandsnow/test_rl_incremental.py`` checks it against ``observe``,
built from ``state.view(seat)``, along random games of the base game, the modules
and the solo scenarios, every seat observing), returned as a copy of the template.
Only what the view shows is read: the hidden fields (cartography cards, dealt
options, unrevealed investors) for the observing seat only, the decks' sizes, not
their order.

One observer follows one game at a time: it notices a different state object and
starts over, and the environment makes a new one at every ``reset()``.
"""

from __future__ import annotations

import operator
import struct
from typing import Any

import numpy as np
import numpy.typing as npt

from erebus.games.iceandsnow.encoding import _PV_SCALE, CLIP, encoder
from erebus.games.iceandsnow.layout import CANS, DYN, RIFLES, WOOD, F
from erebus.games.iceandsnow.position import MODULE_FIELDS

Observation = npt.NDArray[np.float32]

_MODULE_OF = {key: module for module, key, _kind in MODULE_FIELDS}
_F4 = struct.Struct("f")
_ONE, _ZERO = _F4.pack(1.0), _F4.pack(0.0)


class _Scaled(dict[Any, bytes]):
    """``x`` -> ``x / div`` clipped to [-CLIP, CLIP], as the float32 bytes the encoding
    writes (float64 division, then the cast): filled as values are met (the state's
    numbers are small integers, so a table holds a few dozen entries)."""

    __slots__ = ("div",)

    def __init__(self, div: float) -> None:
        super().__init__()
        self.div = div

    def __missing__(self, x: Any) -> bytes:
        v = x / self.div
        b = self[x] = _F4.pack(CLIP if v > CLIP else -CLIP if v < -CLIP else v)
        return b


#: One table per divisor of the player table's fields (``encoding._PV_DIV``), shared
#: by every observer: a seat's row is the join of its fields' bytes.
_SCALED = {d: _Scaled(d) for d in {*_PV_SCALE.values(), 10.0}}
_PV_TABLES = tuple(_SCALED[_PV_SCALE.get(i, 10.0)] for i in range(F))
_QUARTERS = _Scaled(4)  # the spaces' occupancy
_TENTHS = _SCALED[10.0]  # the species counts, the warehouse boxes
# the globals' scalars
_FLAGS, _FIFTHS, _TWELFTHS, _FIFTEENTHS = _Scaled(1), _Scaled(5), _Scaled(12), _Scaled(15)
_getitem = operator.getitem
_join = b"".join


def _clipped(vals: list[Any]) -> list[Any]:
    """``vals`` clipped to [-CLIP, CLIP] (the list itself when nothing exceeds)."""
    if vals and (max(vals) > CLIP or min(vals) < -CLIP):
        return [CLIP if x > CLIP else -CLIP if x < -CLIP else x for x in vals]
    return vals


def _packed(vals: list[Any]) -> bytes:
    """``vals`` clipped and packed as native float32s."""
    return struct.pack(f"{len(vals)}f", *_clipped(vals))


class Observer:
    """``observe(state, seat)`` for the successive states of one game (see the module
    docstring); each call returns a new array."""

    def __init__(self) -> None:
        self._state: Any = None

    # -- starting over -----------------------------------------------------------------

    def _start(self, st: Any) -> None:
        """Start over for ``st``: an empty template of its content's size, every kept
        input forgotten."""
        self._state = st
        self._enc = enc = encoder(st.content)
        L = enc.layout
        self._t = t = np.zeros(enc.size, dtype=np.float32)
        self._mem = t.data.cast("B")
        self._n = n = int(st.n)
        # offsets (in floats) of the blocks
        self._o_glob = L["globals"][0]
        self._o_event = L["event"][0]
        self._o_spaces, self._n_spaces = L["spaces"]
        self._o_map = L["map"][0]
        self._o_seats = L["seats"][0]
        self._o_own, self._n_own = L["own"]
        self._o_myths = L["myths"][0]
        self._o_walk, self._n_walk = L["walking"]
        self._upg_index = {u: i for i, u in enumerate(enc.upgrades)}
        modules = (*st.options["modules"], st.scenario)
        self._myths = _MODULE_OF["curse"] in modules
        self._walking = _MODULE_OF["abandoned"] in modules
        self._no_walk = bytes(4 * self._n_walk)
        t[self._o_glob + 18 + n] = 1  # the player count's one-hot (never changes)
        self._starts = [(s, s * F) for s in range(n)]
        self._others = [[(seat + k) % n for k in range(1, n)] for seat in range(n)]
        # the kept inputs and blocks (None: never written)
        self._sc: tuple[Any, ...] | None = None
        self._head: tuple[Any, ...] | None = None
        self._event_at = -1
        self._lc_bytes: dict[tuple[Any, Any], list[bytes]] = {}
        self._lc: bytes | None = None
        self._rare: tuple[Any, ...] | None = None  # copies of the rare lists
        self._boxes: list[Any] | None = None
        self._occ: list[Any] | None = None
        # the map's and the cards' one-hots: per list, (its index, the block's offset)
        na, nr, nh = len(enc.anchors), len(enc.regions), len(enc.hunting)
        o_map, o_cards = L["map"][0], L["cards"][0]
        self._groups = (
            (enc._a, o_map + na),  # dynamite-marked anchors
            (enc._r, o_map + 2 * na),  # mapped regions
            (enc._h, o_cards),  # revealed hunting cards
            (enc._sc, o_cards + nh),  # revealed species cards
            (enc._sp, o_cards + nh + len(enc.species_cards)),  # species discovered
        )
        self._kept: list[Any] = [None] * len(self._groups)
        self._ones: list[set[int]] = [set() for _ in self._groups]
        self._o_sections = o_map + 2 * na + nr
        self._placed_ones: set[int] = set()
        self._fleet_at = -1
        self._pv_rows: list[Any] = [None] * n  # per seat: its player table as written
        self._pv_bytes: list[bytes] = [b""] * n  # ... as float32 bytes
        self._tails: list[tuple[bytes, bytes]] = [(b"", b"")] * n  # per seat: investor
        # hidden, shown; their parts:
        self._no_upgrades = [_ZERO] * len(enc.upgrades)
        self._no_investor = _ZERO * len(enc.investors)
        self._inv_bytes = {
            inv: _join([_ONE if j == i else _ZERO for j in range(len(enc.investors))])
            for inv, i in enc._inv.items()
        }
        self._tails_new = False  # not yet in the seat block
        self._seats_seat = -1  # the seat the seat block was last written for
        self._revealed: Any = None  # ... and whether the investors were revealed
        self._own_bytes: list[bytes | None] = [None] * n  # per seat
        self._own: bytes | None = None
        self._myths_key: tuple[Any, ...] | None = None
        self._myths_in: tuple[list[Any], list[Any]] | None = None  # curses, held Inuit
        self._myths_rows: list[bytes | None] = [None] * n  # per seat
        self._myths_seats: bytes | None = None
        self._walk_in: tuple[Any, ...] | None = None  # what the block is made of
        self._walk_rows: list[bytes | None] = [None] * n  # per seat
        self._walk: bytes | None = None

    # -- one observation ---------------------------------------------------------------

    def __call__(self, st: Any, seat: int) -> Observation:
        if not (isinstance(seat, int) and 0 <= seat < st.n):  # as view() checks
            raise ValueError(f"no seat {seat!r} in a {st.n}-player game")
        if st is not self._state:
            self._start(st)
        mem = self._mem
        # The fields are read one by one: an attribute load costs a tenth of what
        # operator.attrgetter pays per field on this class.  The scalars (a tuple of
        # them is a key the engine cannot change behind our back):
        sc = (
            *(st.round, st.final_round, st.final_voyage, st.over, st.lost, st.magnetised),
            *(st.pole_found, st.le_found, st.le_progress, st.voyage, st.inuit_pool),
            *(st.carto_tokens, st.event, st.fleet, st.revealed),
        )
        if sc != self._sc:
            self._write_scalars(sc)
        lc = (st.leader, st.current)
        got = self._lc_bytes.get(lc)
        if got is None:
            got = self._lc_of(lc)
        lcb = got[seat]
        if lcb is not self._lc:
            p = 4 * (self._o_glob + 11)
            mem[p : p + 32] = lcb
            self._lc = lcb
        # The lists are compared with copies of them as last written: those that change
        # often one by one, those that change a few times a game all at once.
        pv, occ, boxes = st.pv, st.occ, st.boxes
        rare = (
            *(st.col_paid, st.upgrades, st.species, st.investor, st.mapped, st.placed),
            *(st.discovered, st.carto, st.inv_opts, st.carto_opts),
        )
        if rare != self._rare:
            self._write_rare(rare)
        if boxes != self._boxes:
            p = 4 * (self._o_glob + 28)
            b = _join(map(_TENTHS.__getitem__, boxes[:12]))
            mem[p : p + 48] = b + bytes(48 - len(b))
            self._boxes = boxes[:]
        if occ != self._occ:
            k = self._n_spaces
            b = _join(map(_QUARTERS.__getitem__, occ[:k]))
            p = 4 * self._o_spaces
            mem[p : p + len(b)] = b
            if len(b) < 4 * k:
                mem[p + len(b) : p + 4 * k] = bytes(4 * k - len(b))
            self._occ = occ[:]
        kk = self._kept  # the map's and the cards' lists that change often
        dyn_anchors, hu_rev, sp_rev = st.dyn_anchors, st.hu_rev, st.sp_rev
        if dyn_anchors != kk[0]:
            self._regroup(0, dyn_anchors)
            kk[0] = dyn_anchors[:]
        if hu_rev != kk[2]:
            self._regroup(2, hu_rev)
            kk[2] = hu_rev[:]
        if sp_rev != kk[3]:
            self._regroup(3, sp_rev)
            kk[3] = sp_rev[:]
        # the seat block: slot k = seat (seat + k) % n, each row its player table's
        # bytes, then its tail (upgrades, species, investor shown or not)
        pv_new = False
        pv_rows, pv_bytes = self._pv_rows, self._pv_bytes
        for s, a in self._starts:
            row = pv[a : a + F]
            if row != pv_rows[s]:
                pv_rows[s] = row
                pv_bytes[s] = _join(map(_getitem, _PV_TABLES, row))
                pv_new = True
        revealed = sc[14]
        if pv_new or seat != self._seats_seat or self._tails_new or revealed != self._revealed:
            tails = self._tails
            vis = 1 if revealed else 0
            parts = [pv_bytes[seat], tails[seat][1]]
            for s in self._others[seat]:
                parts += (pv_bytes[s], tails[s][vis])
            b = _join(parts)
            p = 4 * self._o_seats
            mem[p : p + len(b)] = b
            self._seats_seat = seat
            self._revealed = revealed
            self._tails_new = False
        # the observer's own cards
        own = self._own_bytes[seat]
        if own is None:
            own = self._own_bytes[seat] = self._own_of(seat, *rare[7:])
        if own is not self._own:
            p = 4 * self._o_own
            mem[p : p + len(own)] = own
            self._own = own
        if self._myths:
            self._write_myths(st, seat)
        if self._walking:
            self._write_walking(st, seat, pv, pv_new)
        return self._t.copy()

    # -- the blocks --------------------------------------------------------------------

    def _write_scalars(self, sc: tuple[Any, ...]) -> None:
        """The globals' scalars and the event's one-hot."""
        o = self._o_glob
        head = sc[:12]
        if head != self._head:
            # round/12, seven flags (float(x) is x/1), progress/5, the voyage type
            flag = _FLAGS
            b = _join(
                [
                    *(_TWELFTHS[sc[0]], flag[sc[1]], flag[sc[2]], flag[sc[3]], flag[sc[4]]),
                    *(flag[sc[5]], flag[sc[6]], flag[sc[7]], _FIFTHS[sc[8]]),
                    *(flag[sc[9] == "coastal"], flag[sc[9] == "open"]),
                ]
            )
            p = 4 * o
            mem = self._mem
            mem[p : p + 44] = b
            p += 4 * 23  # the Inuit pool/15, the cartography tokens/12
            mem[p : p + 8] = _FIFTEENTHS[sc[10]] + _TWELFTHS[sc[11]]
            self._head = head
        event = sc[12]
        at = self._o_event + (int(event) if event is not None else 0)
        if at != self._event_at:
            t = self._t
            if self._event_at >= 0:
                t[self._event_at] = 0
            t[at] = 1
            self._event_at = at
        fleet = self._enc._a.get(sc[13], -1) if sc[13] is not None else -1
        if fleet >= 0:
            fleet += self._o_map
        if fleet != self._fleet_at:
            t = self._t
            if self._fleet_at >= 0:
                t[self._fleet_at] = 0
            if fleet >= 0:
                t[fleet] = 1
            self._fleet_at = fleet
        self._sc = sc

    def _lc_of(self, lc: tuple[Any, Any]) -> list[bytes]:
        """The leader's and the current player's one-hots, relative to each seat, as
        float32 bytes (one per seat), kept by (leader, current)."""
        leader, current = lc
        n = self._n
        got = []
        for seat in range(n):
            vals = [0.0] * 8
            vals[(int(leader) - seat) % n] = 1.0
            if current is not None:
                vals[4 + (int(current) - seat) % n] = 1.0
            got.append(struct.pack("8f", *vals))
        self._lc_bytes[lc] = got
        return got

    def _write_rare(self, rare: tuple[Any, ...]) -> None:
        """The blocks of the lists that change a few times a game (``rare``):
        those that differ from their copies in :attr:`_rare` are written anew."""
        old = self._rare or (None,) * len(rare)
        col_paid, upgrades, species, investor, mapped, placed, discovered, *own = rare
        if col_paid != old[0]:
            vals = [float(x) for x in col_paid[:3]]
            vals += [0.0] * (3 - len(vals))
            struct.pack_into("3f", self._mem, 4 * (self._o_glob + 25), *_clipped(vals))
        if upgrades != old[1] or species != old[2] or investor != old[3]:
            self._write_tails(upgrades, species, investor)
        if mapped != old[4]:
            self._regroup(1, mapped)
        if placed != old[5]:
            base = self._o_sections
            new = {base + 2 * int(idx) + (0 if side == "A" else 1) for idx, side in placed}
            self._move_ones(self._placed_ones, new)
            self._placed_ones = new
        if discovered != old[6]:
            self._regroup(4, discovered)
        if own != list(old[7:]):
            self._own_bytes = [None] * self._n
        self._rare = (
            *(col_paid[:], [u[:] for u in upgrades], [x[:] for x in species], investor[:]),
            *(mapped[:], [x[:] for x in placed], discovered[:]),
            *(own[0][:], [x[:] for x in own[1]], [x[:] for x in own[2]]),
        )

    def _write_tails(self, upgrades: list[Any], species: list[Any], investor: list[Any]) -> None:
        """Each seat's row after its player table: the upgrades it owns (bits), its
        species (count/10) and its investor's one-hot — zeros where it is hidden, as
        (hidden, shown) float32 bytes; built again only for the seats whose upgrades,
        species count or investor changed."""
        old = self._rare
        tails = self._tails
        index = self._upg_index
        inv_bytes = self._inv_bytes
        for s in range(self._n):
            upg, nsp, inv = upgrades[s], len(species[s]), investor[s]
            if old is not None and upg == old[1][s] and nsp == len(old[2][s]) and inv == old[3][s]:
                continue
            bits = self._no_upgrades[:]
            for u in upg:
                if u in index:
                    bits[index[u]] = _ONE
            head = _join(bits) + _TENTHS[nsp]
            hidden = head + self._no_investor
            shown = head + inv_bytes[inv] if inv in inv_bytes else hidden
            tails[s] = (hidden, shown)
        self._tails_new = True

    def _own_of(self, seat: int, carto: Any, inv_opts: Any, carto_opts: Any) -> bytes:
        """The ``own`` block of ``seat`` (its cartography card, its dealt options), as
        float32 bytes."""
        enc = self._enc
        vals = [0.0] * self._n_own
        mine = carto[seat] if seat < len(carto) else None
        if mine in enc._k:
            vals[enc._k[mine]] = 1.0
        o = len(enc.cartography)
        for i in inv_opts[seat] if seat < len(inv_opts) else []:
            if i in enc._inv:
                vals[o + enc._inv[i]] = 1.0
        o += len(enc.investors)
        for i in carto_opts[seat] if seat < len(carto_opts) else []:
            if i in enc._k:
                vals[o + enc._k[i]] = 1.0
        return struct.pack(f"{len(vals)}f", *vals)

    def _regroup(self, group: int, items: list[Any]) -> None:
        """The ones of a list of the map or the cards (:attr:`_groups`), moved."""
        index, base = self._groups[group]
        new = {base + index[x] for x in items if x in index}
        self._move_ones(self._ones[group], new)
        self._ones[group] = new

    def _move_ones(self, old: set[int], new: set[int]) -> None:
        """1 at the positions ``new``, 0 at those of ``old`` that it lacks."""
        t = self._t
        for i in old - new:
            t[i] = 0
        for i in new - old:
            t[i] = 1

    def _write_myths(self, st: Any, seat: int) -> None:
        """Inuit Myths' block: cards in play, token, deck size; per slot curse, Inuit."""
        enc = self._enc
        o = self._o_myths
        key = (st.cr_active, st.creature_at, len(st.cr_deck))
        if key != self._myths_key:
            nc = len(enc.creatures)
            vals = [0.0] * (nc + len(enc.regions) + 1)
            for num in key[0]:
                if num in enc.creatures:
                    vals[enc.creatures.index(num)] = 1.0
            if key[1] in enc._r:
                vals[nc + enc._r[key[1]]] = 1.0
            vals[-1] = key[2] / 8
            struct.pack_into(f"{len(vals)}f", self._mem, 4 * o, *_clipped(vals))
            self._myths_key = (key[0][:], key[1], key[2])
        curse, held = st.curse, st.held_inuit
        kept = self._myths_in
        if kept is None or kept[0] != curse or kept[1] != held:
            self._myths_in = (curse[:], held[:])
            self._myths_rows = [None] * self._n
        got = self._myths_rows[seat]
        if got is None:
            n = self._n
            vals = []
            for k in range(n):
                s = (seat + k) % n
                vals += [float(curse[s]), held[s] / 5]
            got = self._myths_rows[seat] = _packed(vals)
        if got is not self._myths_seats:
            p = 4 * (o + len(enc.creatures) + len(enc.regions) + 1)
            self._mem[p : p + len(got)] = got
            self._myths_seats = got

    def _write_walking(self, st: Any, seat: int, pv: list[Any], pv_new: bool) -> None:
        """Walking on Ice's block (zeros until the ships are abandoned); ``pv_new``:
        a player table changed since the last call (the cargo counts some of it)."""
        got = self._no_walk
        if st.abandoned:
            maint, guilt, sick, customs = st.maint, st.guilt, st.sick, st.customs
            deck = len(st.walk_deck)
            kept = self._walk_in
            if (
                pv_new
                or kept is None
                or kept[0] != maint
                or kept[1] != guilt
                or kept[2] != sick
                or kept[3] != customs
                or kept[4] != deck
            ):
                n = self._n
                cargo = [
                    pv[b + DYN] + pv[b + WOOD] + pv[b + RIFLES] + pv[b + CANS] + sick[s]
                    for s, b in zip(range(n), range(0, n * F, F), strict=True)
                ]
                new = (maint[:], guilt[:], sick[:], customs[:], deck, cargo)
                if new != kept:
                    self._walk_in = new
                    self._walk_rows = [None] * n
            row = self._walk_rows[seat]
            if row is None:
                row = self._walk_rows[seat] = self._walking_of(seat)
            got = row
        if got is not self._walk:
            p = 4 * self._o_walk
            self._mem[p : p + len(got)] = got
            self._walk = got

    def _walking_of(self, seat: int) -> bytes:
        """The Walking on Ice block once the ships are abandoned, seen from ``seat``,
        as float32 bytes (from :attr:`_walk_in`)."""
        assert self._walk_in is not None
        maint, guilt, sick, customs, deck, cargo = self._walk_in
        n = self._n
        vals = [1.0, deck / 8]
        for k in range(n):
            s = (seat + k) % n
            vals += [
                maint[s] / 5,
                guilt[s] / 20,
                float(sick[s]),
                float(customs[s] == 2),
                cargo[s] / 14,
            ]
        vals += [0.0] * (self._n_walk - len(vals))
        return _packed(vals)


__all__ = ["Observer"]
