"""The observation of :mod:`erebus.games.iceandsnow.encoding`, kept up to date step by step.

:meth:`~erebus.games.iceandsnow.encoding.Encoder.encode_view` builds the ~700
features from scratch at every call: a fresh vector, Python loops over every block,
a numpy division per seat row and a clip over the whole vector.  An RL environment
asks for one observation per step of the *same* game, and a step changes little of
it: an action places crew (the board's occupancy), moves the turn on and changes the
acting seat's player table; the map, the revealed cards, the event, the upgrades and
the modules' blocks change a few times a game.  :class:`Observer` keeps the last
observation as a template and groups its blocks by the state fields they are made
of; each group keeps its inputs as they were last written (copies: the engine
changes its lists in place) and is rebuilt only when they differ.  The per-seat
parts (the player table, the Inuit Myths and Walking on Ice rows) are built per seat,
packed once per change as float32 bytes and copied into the template's memory only
into a slot that showed another seat's row (the slots turn with the observing seat);
the one-hots (event, leader, current player, investor) move a 1 where they changed.
The clip to [-2, 2] is applied to a block's values when it is rebuilt (clipping the
float64 values before their cast to float32 gives the float32 clip's result), never
over the whole vector.  Per-call costs are most of the work at this size, so the
fewer Python and numpy calls the better.  The result is the same vector, bit for bit
(``tests/iceandsnow/test_rl_incremental.py`` checks it against ``observe``, built
from ``state.view(seat)``, along random games, every seat observing), returned as a
copy of the template.  Only what the view shows is read: the hidden fields
(cartography cards, dealt options, unrevealed investors) for the observing seat
only, and the decks' sizes, not their order.

One observer follows one game at a time: it notices a different state object and
starts over, and the environment makes a new one at every ``reset()``.
"""

from __future__ import annotations

import operator
import struct
from typing import Any

import numpy as np
import numpy.typing as npt

from erebus.games.iceandsnow.encoding import _PV_SCALE, CLIP, MAX_SEATS, encoder
from erebus.games.iceandsnow.layout import CANS, DYN, RIFLES, WOOD, F
from erebus.games.iceandsnow.position import MODULE_FIELDS

Observation = npt.NDArray[np.float32]

_MODULE_OF = {key: module for module, key, _kind in MODULE_FIELDS}
#: The divisors of the player table's fields (as ``encoding._PV_DIV``), as floats.
_DIVS = tuple(_PV_SCALE.get(i, 10.0) for i in range(F))
_F4 = struct.Struct("f")
_ONE = _F4.pack(1.0)
_ZERO = _F4.pack(0.0)
#: The scalar fields read at every call, in one getter (scalars only: a tuple of them
#: is a key that the engine cannot change behind our back).
_SCALARS = (
    *("round", "final_round", "final_voyage", "over", "lost", "magnetised", "pole_found"),
    *("le_found", "le_progress", "voyage", "inuit_pool", "carto_tokens"),
    *("leader", "current", "event", "fleet", "revealed"),
)
_get_scalars = operator.attrgetter(*_SCALARS)
_get_lists = operator.attrgetter(
    *("pv", "occ", "col_paid", "boxes", "upgrades", "species", "dyn_anchors", "mapped"),
    "placed",
)
_PV_ROW = struct.Struct(f"{F}f")  # a seat's player table
_LC_ROW = struct.Struct("8f")  # the leader's and the current player's one-hots
_KEEP = 64  # at most this many blocks kept by key (then forgotten all at once)
_truediv = operator.truediv


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
        self._o_map, self._n_map = L["map"]
        self._o_cards, self._n_cards = L["cards"]
        self._o_seats = L["seats"][0]
        self._o_own, self._n_own = L["own"]
        self._o_myths = L["myths"][0]
        self._o_walk, self._n_walk = L["walking"]
        U = len(enc.upgrades)
        self._per = F + U + 1 + len(enc.investors)
        self._upg_index = {u: i for i, u in enumerate(enc.upgrades)}
        self._U = U
        modules = (*st.options["modules"], st.scenario)
        self._myths = _MODULE_OF["curse"] in modules
        self._walking = _MODULE_OF["abandoned"] in modules
        self._no_walk = bytes(4 * self._n_walk)
        t[self._o_glob + 18 + n] = 1  # the player count's one-hot (never changes)
        self._o_inv = self._o_seats + self._per - len(enc.investors)
        self._inv_index = enc._inv
        # the kept inputs and blocks (None: never written)
        self._sc: tuple[Any, ...] | None = None
        self._head: tuple[Any, ...] | None = None
        self._event_at = -1
        self._lc_bytes: dict[tuple[Any, Any, int], bytes] = {}
        self._lc: bytes | None = None
        self._col_boxes: tuple[list[Any], list[Any]] | None = None
        self._occ: list[Any] | None = None
        self._map_key: tuple[Any, ...] | None = None
        self._cards_key: tuple[list[Any], ...] | None = None
        self._rows: list[Any] = [None] * n  # per seat: (pv row, upgrades, species, bytes)
        self._tails: list[Any] = [None] * n  # per seat: (upgrades, species count, bytes)
        self._slot_rows: list[Any] = [None] * MAX_SEATS
        self._slot_inv: list[int] = [-1] * MAX_SEATS  # the investor one-hot's position
        self._own_bytes: dict[tuple[Any, ...], bytes] = {}
        self._own: bytes | None = None
        self._myths_key: tuple[Any, ...] | None = None
        self._myths_bytes: dict[tuple[Any, ...], bytes] = {}
        self._myths_seats: bytes | None = None
        self._walk_bytes: dict[tuple[Any, ...], bytes] = {}
        self._walk: bytes | None = None

    # -- one observation ---------------------------------------------------------------

    def __call__(self, st: Any, seat: int) -> Observation:
        if not (isinstance(seat, int) and 0 <= seat < st.n):  # as view() checks
            raise ValueError(f"no seat {seat!r} in a {st.n}-player game")
        if st is not self._state:
            self._start(st)
        t = self._t
        mem = self._mem
        n = self._n
        sc = _get_scalars(st)
        (pv, occ, col_paid, boxes, upgrades, species, dyn_anchors, mapped, placed) = _get_lists(st)
        if sc != self._sc:
            self._write_scalars(sc)
        lc = self._lc_bytes.get((sc[12], sc[13], seat))
        if lc is None:
            lc = self._lc_of(sc[12], sc[13], seat)
        if lc is not self._lc:
            p = 4 * (self._o_glob + 11)
            mem[p : p + 32] = lc
            self._lc = lc
        kept = self._col_boxes
        if kept is None or kept[0] != col_paid or kept[1] != boxes:
            g = [float(x) for x in col_paid[:3]]
            g += [0.0] * (3 - len(g))
            g += [x / 10 for x in boxes[:12]]
            g += [0.0] * (15 - len(g))
            p = 4 * (self._o_glob + 25)
            mem[p : p + 60] = _packed(g)
            self._col_boxes = (col_paid[:], boxes[:])
        if occ != self._occ:
            k = self._n_spaces
            vals = [x / 4 for x in occ[:k]]
            vals += [0.0] * (k - len(vals))
            p = 4 * self._o_spaces
            mem[p : p + 4 * k] = _packed(vals)
            self._occ = occ[:]
        mk = self._map_key
        if (
            mk is None
            or mk[0] != sc[15]
            or mk[1] != dyn_anchors
            or mk[2] != mapped
            or mk[3] != placed
        ):
            self._write_map(sc[15], dyn_anchors, mapped, placed)
            self._map_key = (sc[15], dyn_anchors[:], mapped[:], [x[:] for x in placed])
        ckey = (st.hu_rev, st.sp_rev, st.discovered)
        if ckey != self._cards_key:
            self._write_cards(ckey)
            self._cards_key = (ckey[0][:], ckey[1][:], ckey[2][:])
        # the seats' rows, slot k = seat (seat + k) % n
        rows, tails, slot_rows, slot_inv = self._rows, self._tails, self._slot_rows, self._slot_inv
        per = self._per
        o_row = 4 * self._o_seats
        o_inv = self._o_inv
        revealed = sc[16]
        investor = st.investor
        inv_index = self._inv_index
        s = seat
        for k in range(n):
            a = s * F
            pvs = pv[a : a + F]
            row = rows[s]
            upg = upgrades[s]
            nsp = len(species[s])
            if row is None or row[0] != pvs or row[1] != upg or row[2] != nsp:
                tail = tails[s]
                if tail is None or tail[0] != upg or tail[1] != nsp:
                    tail = tails[s] = (upg[:], nsp, self._tail_bytes(upg, nsp))
                vals = list(map(_truediv, pvs, _DIVS))
                if max(vals) > CLIP or min(vals) < -CLIP:
                    vals = _clipped(vals)
                row = rows[s] = (pvs, tail[0], nsp, _PV_ROW.pack(*vals) + tail[2])
            if slot_rows[k] is not row:
                p = o_row + 4 * k * per
                mem[p : p + len(row[3])] = row[3]
                slot_rows[k] = row
            at = inv_index.get(investor[s], -1) if revealed or s == seat else -1
            if at >= 0:
                at += o_inv + k * per
            if slot_inv[k] != at:
                if slot_inv[k] >= 0:
                    t[slot_inv[k]] = 0
                if at >= 0:
                    t[at] = 1
                slot_inv[k] = at
            s += 1
            if s == n:
                s = 0
        # the observer's own cards
        carto, inv_opts, carto_opts = st.carto, st.inv_opts, st.carto_opts
        okey = (
            seat,
            carto[seat] if seat < len(carto) else None,
            tuple(inv_opts[seat]) if seat < len(inv_opts) else (),
            tuple(carto_opts[seat]) if seat < len(carto_opts) else (),
        )
        own = self._own_bytes.get(okey)
        if own is None:
            own = self._own_of(okey)
        if own is not self._own:
            p = 4 * self._o_own
            mem[p : p + len(own)] = own
            self._own = own
        if self._myths:
            self._write_myths(st, seat)
        if self._walking:
            self._write_walking(st, seat, pv)
        return t.copy()

    # -- the blocks --------------------------------------------------------------------

    def _write_scalars(self, sc: tuple[Any, ...]) -> None:
        """The globals' scalars and the event's one-hot."""
        o = self._o_glob
        head = sc[:12]
        if head != self._head:
            g = [
                sc[0] / 12,
                float(sc[1]),
                float(sc[2]),
                float(sc[3]),
                float(sc[4]),
                float(sc[5]),
                float(sc[6]),
                float(sc[7]),
                sc[8] / 5,
                float(sc[9] == "coastal"),
                float(sc[9] == "open"),
            ]
            struct.pack_into("11f", self._mem, 4 * o, *_clipped(g))
            struct.pack_into("2f", self._mem, 4 * (o + 23), *_clipped([sc[10] / 15, sc[11] / 12]))
            self._head = head
        event = sc[14]
        at = self._o_event + (int(event) if event is not None else 0)
        if at != self._event_at:
            t = self._t
            if self._event_at >= 0:
                t[self._event_at] = 0
            t[at] = 1
            self._event_at = at
        self._sc = sc

    def _lc_of(self, leader: Any, current: Any, seat: int) -> bytes:
        """The leader's and the current player's one-hots (relative to ``seat``), as
        float32 bytes, kept by (leader, current, seat)."""
        n = self._n
        vals = [0.0] * 8
        vals[(int(leader) - seat) % n] = 1.0
        if current is not None:
            vals[4 + (int(current) - seat) % n] = 1.0
        lc = self._lc_bytes[leader, current, seat] = _LC_ROW.pack(*vals)
        return lc

    def _own_of(self, okey: tuple[Any, ...]) -> bytes:
        """The ``own`` block of (seat, its cartography card, its dealt options), as
        float32 bytes, kept by that key."""
        enc = self._enc
        _seat, mine, inv_opts, carto_opts = okey
        vals = [0.0] * self._n_own
        if mine in enc._k:
            vals[enc._k[mine]] = 1.0
        o = len(enc.cartography)
        for i in inv_opts:
            if i in enc._inv:
                vals[o + enc._inv[i]] = 1.0
        o += len(enc.investors)
        for i in carto_opts:
            if i in enc._k:
                vals[o + enc._k[i]] = 1.0
        if len(self._own_bytes) > _KEEP:
            self._own_bytes.clear()
        own = self._own_bytes[okey] = struct.pack(f"{len(vals)}f", *vals)
        return own

    def _write_map(
        self, fleet: Any, dyn_anchors: list[Any], mapped: list[Any], placed: Any
    ) -> None:
        enc = self._enc
        vals = [0.0] * self._n_map
        anchor = enc._a
        na = len(enc.anchors)
        if fleet in anchor:
            vals[anchor[fleet]] = 1.0
        for a in dyn_anchors:
            if a in anchor:
                vals[na + anchor[a]] = 1.0
        o = 2 * na
        region = enc._r
        for r in mapped:
            if r in region:
                vals[o + region[r]] = 1.0
        o += len(enc.regions)
        for idx, side in placed:
            vals[o + 2 * int(idx) + (0 if side == "A" else 1)] = 1.0
        struct.pack_into(f"{len(vals)}f", self._mem, 4 * self._o_map, *vals)

    def _write_cards(self, key: tuple[list[Any], ...]) -> None:
        enc = self._enc
        hu_rev, sp_rev, discovered = key
        vals = [0.0] * self._n_cards
        for h in hu_rev:
            if h in enc._h:
                vals[enc._h[h]] = 1.0
        o = len(enc.hunting)
        for s in sp_rev:
            if s in enc._sc:
                vals[o + enc._sc[s]] = 1.0
        o += len(enc.species_cards)
        for s in discovered:
            if s in enc._sp:
                vals[o + enc._sp[s]] = 1.0
        struct.pack_into(f"{len(vals)}f", self._mem, 4 * self._o_cards, *vals)

    def _tail_bytes(self, upg: list[Any], nsp: int) -> bytes:
        """A seat row's upgrade bits and species count, as float32 bytes."""
        vals = [0.0] * (self._U + 1)
        index = self._upg_index
        for u in upg:
            if u in index:
                vals[index[u]] = 1.0
        vals[-1] = nsp / 10
        return _packed(vals)

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
        skey = (seat, tuple(st.curse), tuple(st.held_inuit))
        got = self._myths_bytes.get(skey)
        if got is None:
            _seat, curse, held = skey
            n = self._n
            vals = []
            for k in range(n):
                s = (seat + k) % n
                vals += [float(curse[s]), held[s] / 5]
            if len(self._myths_bytes) > _KEEP:
                self._myths_bytes.clear()
            got = self._myths_bytes[skey] = _packed(vals)
        if got is not self._myths_seats:
            p = 4 * (o + len(enc.creatures) + len(enc.regions) + 1)
            self._mem[p : p + len(got)] = got
            self._myths_seats = got

    def _write_walking(self, st: Any, seat: int, pv: list[Any]) -> None:
        """Walking on Ice's block (zeros until the ships are abandoned)."""
        got: bytes | None = self._no_walk
        if st.abandoned:
            n = self._n
            sick = st.sick
            cargo = tuple(
                [
                    pv[b + DYN] + pv[b + WOOD] + pv[b + RIFLES] + pv[b + CANS] + sick[s]
                    for s, b in zip(range(n), range(0, n * F, F), strict=True)
                ]
            )
            key = (
                *(seat, len(st.walk_deck), cargo, tuple(sick)),
                *(tuple(st.maint), tuple(st.guilt), tuple(st.customs)),
            )
            got = self._walk_bytes.get(key)
            if got is None:
                got = self._walking_of(key)
        if got is not self._walk:
            assert got is not None
            p = 4 * self._o_walk
            self._mem[p : p + len(got)] = got
            self._walk = got

    def _walking_of(self, key: tuple[Any, ...]) -> bytes:
        """The Walking on Ice block once the ships are abandoned, as float32 bytes."""
        seat, deck, cargo, sick, maint, guilt, customs = key
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
        if len(self._walk_bytes) > _KEEP:
            self._walk_bytes.clear()
        got = self._walk_bytes[key] = _packed(vals)
        return got


def observer() -> Observer:
    """A new :class:`Observer` (one per game: the environment makes one per reset)."""
    return Observer()


__all__ = ["Observer", "observer"]
