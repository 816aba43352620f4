"""The observation of :mod:`erebus.games.northwest.encoding`, kept up to date step by step.

:func:`~erebus.games.northwest.encoding.observe` builds the 4 455 features from
scratch (a dozen numpy passes over the board for planes that a move does not
touch).  An RL environment asks for one observation per step of the
*same* game, and most of the vector does not change between steps: the board's
terrain, tiles and joins change only when a tile is placed (``state.occ`` grows),
the frozen rows only with the sun, the tokens only when one is placed or taken.
:class:`Observer` keeps the last observation as a template, recomputes a board
block only when what it is made of changed (a tile's placement rebuilds the
terrain in a few numpy calls), and of the per-step part writes only what differs
from the template: each seat's row is built as a list (its own key), packed once per
change as float32 bytes, and copied into the template's memory only into a slot that
showed another row (numpy's cast of a Python list costs several times a copy of
bytes); each seat's reserve row is built once per change of its reserve; a vehicle
plane is written only when the slot's vehicle stands on another tile; the globals and
the display only when they changed; the frozen-row planes are kept by the encoder,
across games.  Per-call costs are most of the work here, so the fewer calls the
better.  The result is the same vector, bit for bit
(``tests/northwest/test_rl_incremental.py`` checks it along random games, every
seat observing), returned as a copy of the template.

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
_G = {name: f for f, name in enumerate(GLOBAL_FEATURES)}
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
# The seat features after ``score``: where the vehicles are, the reserve's counts.
_TAIL = (0,) * (_N_FEATURES - _F["score"] - 1)
# A seat row packed as native float32s: the bytes go straight into the template's
# memory (a list's cast by numpy costs several times more).
_ROW = struct.Struct(f"{_N_FEATURES}f")
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
        self._east = enc.sq + 1
        self._south = enc.sq + geo.S
        self._template = np.zeros(enc.size, dtype=np.float32)
        self._bytes = self._template.data.cast("B")  # the template's memory
        self._no_plane = bytes(4 * self._plane)
        planes = self._planes(self._template)
        planes[11] = enc.zone
        planes[18], planes[19] = enc.gates
        self._vplanes(self._template)[2] = enc.border
        self._state: State | None = None
        self._board_key: tuple[int, int, int] | None = None
        self._disp: list[int] | None = None
        self._sun = -1
        self._tokens: list[int] = []
        self._tiles = np.zeros(0, dtype=np.int64)
        self._tile_planes: dict[int, bytes] = {}

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
        planes = self._planes(self._template)
        sq_tile = np.asarray(st.sq_tile, dtype=np.int64)
        tiles = sq_tile[enc.sq]
        occupied = tiles >= 0
        planes[0] = occupied
        planes[1] = tiles >= self._geo.n_tiles
        nbytes = self._nbytes
        keep = (1 << (8 * nbytes)) - 1
        raw = (st.land & keep).to_bytes(nbytes, "little") + (st.sea & keep).to_bytes(
            nbytes, "little"
        )
        terrain = np.unpackbits(np.frombuffer(raw, dtype=np.uint8), bitorder="little")
        planes[2:10] = terrain[self._corner_index]  # land, sea per corner NW NE SE SW
        planes[16] = occupied & (sq_tile[self._east] == tiles)
        planes[17] = occupied & (sq_tile[self._south] == tiles)
        self._vplanes(self._template)[0:2] = terrain[self._vertex_index]
        self._tiles = tiles.reshape(-1)
        self._tile_planes = {}

    def _update_sun(self, sun: int) -> None:
        plane = self._frozen_planes.get(sun)
        if plane is None:
            bits = _bits(self._geo.frozen_by_sun[sun], self.enc.nbits)[self.enc.sq]
            plane = self._frozen_planes[sun] = bits.astype(np.float32)
        self._planes(self._template)[10] = plane
        self._sun = sun

    def _update_tokens(self, st: State) -> None:
        planes = self._planes(self._template)
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
        if isinstance(seat, bool) or not isinstance(seat, _SEAT_TYPES) or not 0 <= seat < st.n:
            raise ValueError(f"no seat {seat!r} in a {st.n}-player game")
        seat = int(seat)
        if st is not self._state:
            self._start(st)
        key = (st.occ, st.land, st.sea)
        if key != self._board_key:
            self._update_board(st)
            self._board_key = key
        if st.sun != self._sun:
            self._update_sun(st.sun)
        if st.board_tokens != self._tokens:
            self._update_tokens(st)
        t = self._template
        self._write_seats(st, seat)
        self._write_globals(st, st.n)
        disp = st.disp
        if disp != self._disp:
            d0, T = self._display, self._T
            t[d0 : d0 + self._display_slots * T] = 0
            for i, tile in enumerate(disp[: self._display_slots]):
                t[d0 + i * T + tile] = 1
            self._disp = disp[:]
        return t.copy()

    def _start(self, st: State) -> None:
        """Start over for another game: the template keeps the fixed planes only."""
        self._state = st
        self._board_key = None
        self._sun = -1
        self._tokens = []
        t = self._template
        t[self._seats :] = 0  # seats, reserves, globals, display
        vb = self._sqb.offset + self._vehicle_base * self._plane
        t[vb : self._sqb.end] = 0  # the vehicle planes
        M = self.enc.max_seats
        self._rows: dict[int, tuple[list[Any], bytes]] = {}
        self._slot_rows: list[Any] = [None] * M
        self._res: dict[int, tuple[list[int], bytes, int]] = {}
        self._slot_res: list[Any] = [None] * M
        self._slot_planes: list[Any] = [None] * (2 * M)
        self._globals_list: list[Any] = []
        self._disp = None

    def _reserve(self, st: State, s: int) -> tuple[list[int], bytes, int]:
        """Seat ``s``'s reserve: (its tiles, the row of 1s as float32 bytes, the large
        tiles' count), kept until the reserve changes."""
        res = st.reserves[s]
        kept = self._res.get(s)
        if kept is None or kept[0] != res:
            row = np.zeros(self._T, dtype=np.float32)
            if res:
                row[res] = 1
            large = self._large
            kept = self._res[s] = (res[:], row.tobytes(), sum([large[t] for t in res]))
        return kept

    def _write_seats(self, st: State, seat: int) -> None:
        """The seat rows, reserves and vehicle planes, slot ``k`` = seat ``seat + k``;
        each seat's row and reserve are built once per change and written to a slot
        only when that slot shows something else."""
        n = st.n
        order = st.order
        current = st.current_player
        mem = self._bytes
        plane, T = self._plane, self._T
        plane_bytes, T_bytes = 4 * plane, 4 * T
        sq0 = 4 * (self._sqb.offset + self._vehicle_base * plane)
        r0 = 4 * self._reserves
        o = 4 * self._seats
        slot_rows, slot_res, slot_planes = self._slot_rows, self._slot_res, self._slot_planes
        rows = self._rows
        # the state's lists, read once for every seat
        passed, crews, ptok, locs = st.passed, st.crews, st.ptok, st.loc
        nw_reached, nw_value, ret_order = st.nw_reached, st.nw_value, st.ret_order
        gl_value, score = st.gl_value, st.score
        tile_plane_of, reserve_of = self._tile_plane, self._reserve
        for k in range(min(n, self.enc.max_seats)):
            s = (seat + k) % n
            b = CREW_FIELDS * s
            ret = ret_order[s]
            row: list[Any] = [
                1,
                current == s,
                passed[s],
                order.index(s) + 1 if s in order else 0,
                *crews[b : b + CREW_FIELDS],
                *ptok[_NK * s : _NK * s + _NK],
                nw_reached[s],
                nw_value[s] or 0,
                ret > 0,
                ret,
                gl_value[s] or 0,
                score[s],
                *_TAIL,
            ]
            for v in (0, 1):
                loc = locs[2 * s + v]
                if loc >= 0:
                    row[_ON_BOARD[v]] = 1
                    tile_plane = tile_plane_of(loc)
                else:
                    tile_plane = None
                    f = _LOC_FEATURE[v].get(loc)
                    if f is not None:
                        row[f] = 1
                if slot_planes[2 * k + v] is not tile_plane:
                    p = sq0 + (2 * k + v) * plane_bytes
                    mem[p : p + plane_bytes] = self._no_plane if tile_plane is None else tile_plane
                    slot_planes[2 * k + v] = tile_plane
            res = reserve_of(st, s)
            if slot_res[k] is not res:
                mem[r0 + k * T_bytes : r0 + (k + 1) * T_bytes] = res[1]
                slot_res[k] = res
            if res[0]:
                row[-2] = res[2]
                row[-1] = len(res[0]) - res[2]
            kept = rows.get(s)
            if kept is None or kept[0] != row:
                kept = rows[s] = (row, _ROW.pack(*row))
            if slot_rows[k] is not kept:
                p = o + k * _ROW.size
                mem[p : p + _ROW.size] = kept[1]
                slot_rows[k] = kept

    def _write_globals(self, st: State, n: int) -> None:
        geo = self._geo
        g: list[Any] = [
            n,
            st.round,
            st.sun,
            geo.frozen_rows[st.sun],
            st.round == 0,
            st.over,
            st.acted,
            st.pending == 0,
            st.pending == 1,
            len(st.bag),
            *st.pile_counts,
            len(st.disp),
            *st.supply,
            len(st.nw_left),
            st.nw_left[0] if st.nw_left else 0,
            len(st.gl_left),
            st.gl_left[0] if st.gl_left else 0,
        ]
        if g != self._globals_list:
            struct.pack_into(f"{len(g)}f", self._bytes, 4 * self._globals, *g)
            self._globals_list = g


def observer(encoder: ObservationEncoder) -> Observer:
    """A new :class:`Observer` of ``encoder``'s content."""
    return Observer(encoder)


__all__ = ["Observer", "observer"]
