"""The observation of :mod:`erebus.games.northwest.encoding`, kept up to date step by step.

:func:`~erebus.games.northwest.encoding.observe` builds the 4 455 features from
scratch (a dozen numpy passes over the board for planes that a move does not
touch).  An RL environment asks for one observation per step of the
*same* game, and most of the vector does not change between steps: the board's
terrain, tiles and joins change only when a tile is placed (``state.occ`` grows),
the frozen rows only with the sun, the tokens only when one is placed or taken.
:class:`Observer` keeps the last observation as a template, recomputes a board
block only when what it is made of changed (a tile's placement rebuilds the
terrain in a few numpy calls, some writing two planes at once), and of the per-step
part writes float32 bytes straight into the template's memory (numpy's cast of a
Python list costs several times a copy of bytes).  A step changes some seat's row
almost every time (the acting seat's crew, the seat to act), and finding out which
rows changed costs what building them does (list comparisons against copies were
slower), so each seat's row is built at every call, cheaply: the features up to the
score packed in one ``struct`` call, then the vehicles' features and the reserve's
counts as bytes kept per pair of locations and per reserve.  A seat's rows are the
same whoever observes (only their slots turn with the observing seat), so the seat, reserve and vehicle-plane blocks
are each one join of the seats' bytes from the observing seat on, written when it
differs from the last one written (a reserve row and a vehicle plane are the same
bytes objects while unchanged, so those comparisons are by identity).  The globals
are packed into the template at every call (cheaper than a list to compare); the
display's rows come from a table of one-hot rows, the reserve rows are built
without numpy; the frozen-row planes are kept by the encoder, across games; the
template's plane views are made once (a block's end is a numpy product, which cost
several µs at every board, sun or token update).
Per-call costs are most of the work here, so the fewer calls the better.  The
result is the same vector, bit for bit (``tests/northwest/test_rl_incremental.py``
checks it along random and greedy games of 2-4 players, seats observing in any
order, one observer moved between games), returned as a copy of the template.

One observer follows one game at a time: it notices a different state object
and starts over, and the environment makes a new one at every ``reset()``.
"""

from __future__ import annotations

import struct
from typing import Any

import numpy as np
import numpy.typing as npt

from erebus.games.northwest.content import ALL_TOKEN_KINDS, TOKEN_KINDS
from erebus.games.northwest.encoding import (
    GLOBAL_FEATURES,
    SEAT_FEATURES,
    SQUARE_PLANES_FIXED,
    ObservationEncoder,
    _bits,
)
from erebus.games.northwest.layout import CREW_FIELDS, GREENLAND, LOST, NORTHWEST, PLAYER_BOARD
from erebus.games.northwest.state import State

Observation = npt.NDArray[np.float32]

_F = {name: f for f, name in enumerate(SEAT_FEATURES)}
_NK = len(ALL_TOKEN_KINDS)
_N_FEATURES = len(SEAT_FEATURES)
# Where a vehicle's location code puts its 1 among the seat features, per vehicle.
_LOC_FEATURE = tuple(
    {
        GREENLAND: _F[f"{vname}_at_greenland"],
        NORTHWEST: _F[f"{vname}_at_northwest"],
        PLAYER_BOARD: _F["sled_on_player_board"],
        LOST: _F["sled_lost"],
    }
    for vname in ("ship", "sled")
)
_ON_BOARD = (_F["ship_on_board"], _F["sled_on_board"])
# A seat's row as float32 bytes in three parts: the features up to ``score`` packed in
# one call, then where the vehicles are (8 features, kept per pair of locations), then
# the reserve's counts (kept per reserve).
_HEAD = struct.Struct(f"{_F['score'] + 1}f")
_TAIL0 = _F["ship_on_board"]
_N_TAIL = _F["reserve_large"] - _TAIL0
_TAIL_ROW = struct.Struct(f"{_N_TAIL}f")
_COUNTS = struct.Struct(f"{_N_FEATURES - _F['reserve_large']}f")
_NO_COUNTS = bytes(_COUNTS.size)
_ONE = struct.pack("f", 1.0)
_ONEHOTS: dict[int, list[bytes]] = {}


def _onehots(n: int) -> list[bytes]:
    """Row ``t``: ``n`` float32s, 1 at ``t`` (made once per length)."""
    rows = _ONEHOTS.get(n)
    if rows is None:
        rows = _ONEHOTS[n] = [bytes(4 * t) + _ONE + bytes(4 * (n - t - 1)) for t in range(n)]
    return rows


_SEAT_TYPES = (int, np.integer)


class Observer:
    """``observe(state, seat)`` for the successive states of one game (see the module
    docstring); each call returns a new array."""

    def __init__(self, encoder: ObservationEncoder) -> None:
        self.enc = enc = encoder
        geo = enc._geo
        self._geo = geo
        L = enc.layout
        self._sqb, self._vb = L["squares"], L["vertices"]
        self._plane = geo.H * geo.W
        self._seats = L["seats"].offset
        self._reserves = L["reserves"].offset
        self._globals = L["globals"].offset
        self._display = L["display"].offset
        self._display_slots = L["display"].shape[0]
        self._T = geo.n_tiles
        self._large = [bool(x) for x in enc.large]
        self._vehicle_base = len(SQUARE_PLANES_FIXED)
        self._frozen_planes = enc.frozen_planes  # kept by the encoder, across games
        # _update_board's gathers: land bits then sea bits, 8 bits a byte each.
        self._nbytes = nb = (enc.nbits + 7) // 8
        bit_rows = 8 * nb
        self._corner_index = np.stack(
            [idx + bit_rows * terrain for idx in enc.corners for terrain in (0, 1)]
        )
        self._vertex_index = np.stack([enc.vx, enc.vx + bit_rows])
        self._kinds = np.arange(1, len(TOKEN_KINDS) + 1).reshape(-1, 1, 1)
        self._neighbours = np.stack([enc.sq + 1, enc.sq + geo.S])  # east, south
        self._thresholds = np.array([0, geo.n_tiles]).reshape(2, 1, 1)
        self._template = np.zeros(enc.size, dtype=np.float32)
        self._bytes = self._template.data.cast("B")  # the template's memory
        self._no_plane = bytes(4 * self._plane)
        self._no_row = bytes(4 * self._T)
        self._d0 = 4 * self._display  # the display block, as bytes
        self._d1 = self._d0 + 4 * self._display_slots * self._T
        self._no_display = bytes(self._d1 - self._d0)
        self._onehot = _onehots(self._T)
        # the template's planes as views, made once (a block's end is a numpy product)
        self._sq_planes = planes = self._planes(self._template)
        self._v_planes = self._vplanes(self._template)
        planes[11] = enc.zone
        planes[18], planes[19] = enc.gates
        self._v_planes[2] = enc.border
        self._s0 = 4 * self._seats  # byte offsets of the blocks written step by step
        self._r0 = 4 * self._reserves
        self._p0 = 4 * (self._sqb.offset + self._vehicle_base * self._plane)
        self._g0 = 4 * self._globals
        self._globals_row = struct.Struct(f"{len(GLOBAL_FEATURES)}f")
        self._frozen_rows = geo.frozen_rows
        self._state: State | None = None
        # set by _start for each game: per seat (its reserve, row, counts) as last read
        self._res: list[Any] = []
        self._order: list[int] | None = None
        self._order_at: list[int] = []  # per seat its place in the turn order, 1-based
        self._written: tuple[Any, ...] = ()  # the seat blocks' inputs as last written
        self._seat_index: list[tuple[int, slice, slice, int]] = []
        self._n_slots = 0
        self._occ = self._land = self._sea = -1
        self._disp: list[int] | None = None
        self._sun = -1
        self._tokens: list[int] = []
        self._tiles = np.zeros(0, dtype=np.int64)
        self._tile_planes: dict[int, bytes] = {}
        self._veh: dict[tuple[int, int], tuple[bytes, bytes]] = {}

    def _planes(self, out: Observation) -> Observation:
        b = self._sqb
        return out[b.offset : b.end].reshape(b.shape)

    def _vplanes(self, out: Observation) -> Observation:
        b = self._vb
        return out[b.offset : b.end].reshape(b.shape)

    # -- the blocks that change rarely -------------------------------------------------

    def _update_board(self, st: State) -> None:
        """Occupancy, terrain corners, joins and vertex terrain (they change with a tile),
        in a few numpy calls: the land and sea bits unpacked together, the eight corner
        planes and the two vertex planes each gathered with one index."""
        enc = self.enc
        planes = self._sq_planes
        sq_tile = np.asarray(st.sq_tile, dtype=np.int64)
        tiles = sq_tile[enc.sq]
        flags = tiles >= self._thresholds  # occupied, printed
        planes[0:2] = flags
        nbytes = self._nbytes
        keep = (1 << (8 * nbytes)) - 1
        raw = (st.land & keep).to_bytes(nbytes, "little") + (st.sea & keep).to_bytes(
            nbytes, "little"
        )
        terrain = np.unpackbits(np.frombuffer(raw, dtype=np.uint8), bitorder="little")
        planes[2:10] = terrain[self._corner_index]  # land, sea per corner NW NE SE SW
        planes[16:18] = flags[0] & (sq_tile[self._neighbours] == tiles)  # joined east, south
        self._v_planes[0:2] = terrain[self._vertex_index]
        self._tiles = tiles.reshape(-1)
        self._tile_planes = {}
        self._veh = {}

    def _update_sun(self, sun: int) -> None:
        plane = self._frozen_planes.get(sun)
        if plane is None:
            bits = _bits(self._geo.frozen_by_sun[sun], self.enc.nbits)[self.enc.sq]
            plane = self._frozen_planes[sun] = bits.astype(np.float32)
        self._sq_planes[10] = plane
        self._sun = sun

    def _update_tokens(self, st: State) -> None:
        planes = self._sq_planes
        toks = np.asarray(st.board_tokens, dtype=np.int64)[self.enc.sq]
        planes[12 : 12 + len(TOKEN_KINDS)] = toks == self._kinds  # one plane per kind
        self._tokens = st.board_tokens[:]

    def _tile_plane(self, tile: int) -> bytes:
        """The flat plane of the squares ``tile`` covers, as float32 bytes (cached until
        the board changes)."""
        plane = self._tile_planes.get(tile)
        if plane is None:
            plane = self._tile_planes[tile] = (self._tiles == tile).astype(np.float32).tobytes()
        return plane

    # -- one observation ---------------------------------------------------------------

    def __call__(self, st: State, seat: int) -> Observation:
        n = st.n
        if seat.__class__ is not int or not 0 <= seat < n:
            if isinstance(seat, bool) or not isinstance(seat, _SEAT_TYPES) or not 0 <= seat < n:
                raise ValueError(f"no seat {seat!r} in a {n}-player game")
            seat = int(seat)
        if st is not self._state:
            self._start(st)
        if st.occ != self._occ or st.land != self._land or st.sea != self._sea:
            self._update_board(st)
            self._occ, self._land, self._sea = st.occ, st.land, st.sea
        if st.sun != self._sun:
            self._update_sun(st.sun)
        if st.board_tokens != self._tokens:
            self._update_tokens(st)
        mem = self._bytes

        # the seat rows, reserves and vehicle planes, slot k = seat (seat + k) % n
        current = st.current_player
        order = st.order
        if order != self._order:
            at = self._order_at = [0] * n
            for i, s in enumerate(order):
                at[s] = i + 1
            self._order = order[:]
        order_at = self._order_at
        passed, crews, ptok, locs = st.passed, st.crews, st.ptok, st.loc
        nw_reached, nw_value, ret_order = st.nw_reached, st.nw_value, st.ret_order
        gl_value, score, reserves = st.gl_value, st.score, st.reserves
        kept_res, veh, head = self._res, self._veh, _HEAD.pack
        rows: list[bytes] = []
        res_rows: list[bytes] = []
        planes: list[bytes] = []
        for s, crew, tok, v in self._seat_index:
            ret = ret_order[s]
            res = reserves[s]
            kr = kept_res[s]
            if kr[0] != res:
                kr = self._reserve(s, res)
            vk = veh.get((locs[v], locs[v + 1]))
            if vk is None:
                vk = self._vehicles(locs[v], locs[v + 1])
            rows += (
                head(
                    1,
                    current == s,
                    passed[s],
                    order_at[s],
                    *crews[crew],
                    *ptok[tok],
                    nw_reached[s],
                    nw_value[s] or 0,
                    ret > 0,
                    ret,
                    gl_value[s] or 0,
                    score[s],
                ),
                vk[0],
                kr[2],
            )
            res_rows.append(kr[1])
            planes.append(vk[1])
        written = (seat, rows, res_rows, planes)
        if written != self._written:
            self._write_seats(written)

        # the globals, packed straight into the template
        nw_left, gl_left = st.nw_left, st.gl_left
        pending = st.pending
        rnd = st.round
        disp = st.disp
        self._globals_row.pack_into(
            mem,
            self._g0,
            n,
            rnd,
            st.sun,
            self._frozen_rows[st.sun],
            rnd == 0,
            st.over,
            st.acted,
            pending == 0,
            pending == 1,
            len(st.bag),
            *st.pile_counts,
            len(disp),
            *st.supply,
            len(nw_left),
            nw_left[0] if nw_left else 0,
            len(gl_left),
            gl_left[0] if gl_left else 0,
        )
        if disp != self._disp:
            onehot = self._onehot
            block = b"".join([onehot[t] for t in disp[: self._display_slots]])
            mem[self._d0 : self._d1] = block + self._no_display[len(block) :]
            self._disp = disp[:]
        return self._template.copy()

    def _start(self, st: State) -> None:
        """Start over for another game: the template keeps the fixed planes only."""
        self._state = st
        self._occ = self._land = self._sea = -1
        self._sun = -1
        self._tokens = []
        t = self._template
        t[self._seats :] = 0  # seats, reserves, globals, display
        vb = self._sqb.offset + self._vehicle_base * self._plane
        t[vb : self._sqb.end] = 0  # the vehicle planes
        n = st.n
        self._n_slots = min(n, self.enc.max_seats)
        self._res = [(None, b"", b"")] * n
        self._order = None
        self._order_at = [0] * n
        self._written = ()
        # per seat: its index, its crew's and tokens' slices, its ship's place in loc
        self._seat_index = [
            (s, slice(CREW_FIELDS * s, CREW_FIELDS * (s + 1)), slice(_NK * s, _NK * (s + 1)), 2 * s)
            for s in range(n)
        ]
        self._disp = None

    def _vehicles(self, l0: int, l1: int) -> tuple[bytes, bytes]:
        """A seat's vehicles at ``l0`` (ship) and ``l1`` (sled): the seat features they
        set, then the ship's and the sled's planes, as float32 bytes (kept until the
        board changes)."""
        tail = [0.0] * _N_TAIL
        planes = []
        for v, loc in ((0, l0), (1, l1)):
            if loc >= 0:
                tail[_ON_BOARD[v] - _TAIL0] = 1
                planes.append(self._tile_plane(loc))
            else:
                f = _LOC_FEATURE[v].get(loc)
                if f is not None:
                    tail[f - _TAIL0] = 1
                planes.append(self._no_plane)
        kept = self._veh[l0, l1] = (_TAIL_ROW.pack(*tail), b"".join(planes))
        return kept

    def _write_seats(self, written: tuple[Any, ...]) -> None:
        """Write the seat blocks that differ from the last ones: ``written`` is (the
        observing seat, the seats' rows (three parts each), their reserve rows, their
        vehicle planes), as float32 bytes in seat order; each block is its rows joined
        from ``seat`` on."""
        old = self._written
        seat, rows, res_rows, planes = written
        m = self._n_slots
        mem = self._bytes
        moved = not old or old[0] != seat
        if moved or old[1] != rows:
            block = b"".join((rows[3 * seat :] + rows[: 3 * seat])[: 3 * m])
            mem[self._s0 : self._s0 + len(block)] = block
        if moved or old[2] != res_rows:
            block = b"".join((res_rows[seat:] + res_rows[:seat])[:m])
            mem[self._r0 : self._r0 + len(block)] = block
        if moved or old[3] != planes:
            block = b"".join((planes[seat:] + planes[:seat])[:m])
            mem[self._p0 : self._p0 + len(block)] = block
        self._written = written

    def _reserve(self, s: int, res: list[int]) -> tuple[list[int], bytes, bytes]:
        """Seat ``s``'s reserve: (its tiles, the row of 1s, the large and small tiles'
        counts, as float32 bytes), kept until the reserve changes."""
        row = bytearray(self._no_row)
        for t in res:
            row[4 * t : 4 * t + 4] = _ONE
        n_large = sum([self._large[t] for t in res])
        counts = _COUNTS.pack(n_large, len(res) - n_large) if res else _NO_COUNTS
        kept = self._res[s] = (res[:], bytes(row), counts)
        return kept


def observer(encoder: ObservationEncoder) -> Observer:
    """A new :class:`Observer` of ``encoder``'s content."""
    return Observer(encoder)


__all__ = ["Observer", "observer"]
