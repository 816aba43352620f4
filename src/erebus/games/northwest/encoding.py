"""Action indices and a numeric observation of Northwest Passage, for RL.

Reinforcement-learning code needs two things the engine does not give: a
fixed-size numbering of every action that can ever occur (so a policy network has
one output per action, and a mask marks the legal ones; a placement's index is
relative to the placing vehicle, see below), and a fixed-shape
array describing what a seat may see.  Both are defined here, for any
:class:`~erebus.games.northwest.content.Content`; the numbers below are those
of the default content (14×8 board, 64 large two-sided tiles ``L01``–``L64``,
32 small tiles ``S01``–``S32``, display of 4, crew of 7, 2–4 players).

This module is a contract: trained agents depend on it.  Changing an index or
an offset is a breaking change and must bump :data:`ENCODING_VERSION`.

Action indices
==============

Every :class:`~erebus.games.northwest.actions.Action` that a state could ever
list in ``legal_actions()`` has exactly one index in ``0 .. N-1``, ``N =
action_space_size(content)`` (**17 048** for the default content).  Every index
outside the place block means the same action in every state; a placement's index
is *relative to the placing vehicle* (a tile is always placed next to the tile the
vehicle is on, §7.C), so its square depends on the state — :func:`index_to_action`
and :func:`action_to_index` take the state for placements.  Blocks, in this order
(``D`` = display size 4, ``C`` = crew 7, ``W×H`` = 14×8, vehicle ``v`` = 0 ship,
1 sled)::

    index                     count          action
    0                         1              pass
    1                         1              end_turn
    2 + i                     D   (2..5)     draft display slot i
    6 + v*D + i               2D  (6..13)    draw, vehicle v, display slot i
    14 + v*6 + p              12  (14..25)   draw, vehicle v, small pile p (rotation class 0..5)
    26 + v                    2   (26..27)   refresh (and draw), vehicle v
    28 + v*4 + k              8   (28..35)   k = 0 explore franklin, 1 explore strait,
                                             2 discover inuit, 3 discover cairn
    36 + v*(C+1)*(C+2)        2(C+1)(C+2)    transfer paid by vehicle v, with the sled column
       + a*(C+2) + r          (36..179)      after it = a available (0..C), r resting (0..C+1)
    180 + v*(W*H+2) + y*W + x 2(W*H+2)       move vehicle v to the tile whose top-left
                              (180..407)     square is (x, y)
    180 + v*(W*H+2) + W*H     (292, 406)     move vehicle v to "greenland"
    180 + v*(W*H+2) + W*H + 1 (293, 407)     move vehicle v to "northwest"
    408 + v*P + ...           2P             place (P = 8 320 per vehicle, see below)

Moves: ``legal_actions()`` names a destination tile by its top-left square (its
anchor), so only anchors occur, but every square has an index.

Place block of one vehicle: tiles in content order (``L01``..``L64`` then
``S01``..``S32``); per tile its orientations in the engine's order (sides
sorted, ``a`` then ``b``; per side rotations 0..3, quarter turns clockwise);
per orientation the anchor *offsets* ``(dx, dy)`` of :data:`PLACE_OFFSETS` for the
tile's shape in that rotation (1×1, 2×1, 1×2): the placed tile's top-left square is
the vehicle's square plus the offset.  The vehicle's square (:meth:`ActionSpace.refs`)
is the top-left square of the tile it stands on, or the arrow's square when it is on
Greenland or Northwest; a vehicle on the player board (or lost) places nothing, and
its place indices mean no action.  The offsets are every one a tile next to a 1×1,
2×1 or 1×2 tile can have, sorted by ``(dy, dx)``: 9 for a small tile (``(0,-1)
(1,-1) (-1,0) (1,0) (2,0) (-1,1) (0,1) (1,1) (0,2)``), 14 for a 2×1 or 1×2 one.  So
with the default content a large tile owns 8 × 14 = 112 indices, starting at
``112*(n-1)`` for ``L<n>``, a small tile 4 × 9 = 36, starting at ``7 168 +
36*(n-1)`` for ``S<n>``; inside a large tile, side ``a`` rotation ``r`` starts at
``+14r``, side ``b`` at ``+56 + 14r``.  Small tiles only have side ``a``; their four
rotations are distinct indices even when the pattern looks the same (the engine lists
them separately).  An offset that would put the tile off the board means no action.

Version 1 (``ENCODING_VERSION = 1``) numbered every anchor of the board instead
(132 504 indices); the 7.8× smaller space of version 2 is what every step's mask and
``sample(mask)`` scan (``erebus bench --compare``).

:func:`action_to_index` raises ``ValueError`` for an action outside this space
(unknown tile, off the board, a field a kind does not use, a placement not next to
its vehicle or without a state, …); :func:`index_to_action` raises ``ValueError``
for an index outside ``0..N-1`` and for a place index that means no action in the
state (or is given no state).
:func:`legal_mask` is a ``numpy.int8`` array of length ``N`` with 1 exactly at
the indices of ``state.legal_actions()`` (all zeros once the game is over).

Observation
===========

``observe(state, seat)`` is a flat ``numpy.float32`` vector of fixed length
``observation_size(content)`` (**4 455** for the default content), the same for
every player count: per-seat data is padded to the content's maximum player
count ``M`` (4).  It is computed from public fields only — never the seed, the
generator state or the bag's order — so it is a function of ``state.view(seat)``
(resampling the hidden bag order does not change it).  Values are raw numbers
(counts, points, flags 0/1), not normalised.  Seats are **relative to the
observer**: seat slot ``k`` is seat ``(seat + k) % players``; slots ``k >=
players`` are all zeros.  :func:`observation_layout` gives every block's
offset and shape; :func:`split_observation` cuts a vector into named arrays.

Blocks, in order (offsets for the default content)::

    name       offset  shape               contents
    squares    0       (28, H, W)=(28,8,14) per-square planes, [plane, y, x]
    vertices   3136    (3, H+1, W+1)        per-vertex planes, [plane, y, x]
    seats      3541    (M, 30) = (4, 30)    per-seat scalars, [slot, feature]
    reserves   3661    (M, T) = (4, 96)     1 if the seat's reserve holds tile t
    globals    4045    (26,)                game-wide scalars
    display    4071    (D, T) = (4, 96)     1 if display slot i shows tile t

``T`` is the number of tiles, in content order (tile index ``t`` is the
position of its id in ``content.tiles``).

Square planes (:data:`SQUARE_PLANES`): 0 ``occupied`` (a placed, hole-filled or
printed tile covers it); 1 ``printed`` (a printed board square); 2–9 corner
terrain as ``land``/``sea`` pairs for the NW, NE, SE, SW corner (both 0: not yet
fixed); 10 ``frozen``; 11 ``zone`` (the scoring multiplier 1–3); 12–15 a token
lies here: ``inuit``, ``cairn``, ``franklin``, ``strait``; 16 ``joined_east`` /
17 ``joined_south`` (the square and its east / south neighbour are the same
tile); 18 ``greenland_gate`` / 19 ``northwest_gate`` (the arrows' squares); then
for each seat slot ``k``: ``20+2k`` ``ship_k`` / ``21+2k`` ``sled_k`` (every
square of the tile that vehicle stands on; a vehicle on an arrow, on the player
board or lost is in the seat features instead).

Vertex planes (:data:`VERTEX_PLANES`): 0 ``land``, 1 ``sea`` (fixed terrain;
both 0 means open), 2 ``border`` (a printed border vertex).

Seat features (:data:`SEAT_FEATURES`), per slot: 0 ``present``, 1 ``to_act``,
2 ``passed`` (this round), 3 ``order`` (1-based place in this round's turn
order, 0 if not in it), 4 ``ship_available``, 5 ``ship_resting``, 6
``sled_available``, 7 ``sled_resting``, 8 ``crew_lost``, 9–13 tokens held:
``inuit``, ``cairn``, ``franklin``, ``strait``, ``cartography``, 14
``nw_reached``, 15 ``nw_value``, 16 ``returned``, 17 ``return_order`` (1 = first
back, 0 = not back), 18 ``gl_value``, 19 ``score``, 20 ``ship_on_board``, 21
``ship_at_greenland``, 22 ``ship_at_northwest``, 23 ``sled_on_board``, 24
``sled_at_greenland``, 25 ``sled_at_northwest``, 26 ``sled_on_player_board``,
27 ``sled_lost``, 28 ``reserve_large`` / 29 ``reserve_small`` (counts).

Global features (:data:`GLOBAL_FEATURES`): 0 ``players``, 1 ``round`` (0 =
draft), 2 ``sun`` (1..7), 3 ``frozen_rows``, 4 ``draft``, 5 ``over``, 6
``acted`` (actions already taken this turn), 7 ``pending_ship`` / 8
``pending_sled`` (a refresh by that vehicle awaits its free draw), 9
``bag_size``, 10–15 ``pile_0``..``pile_5`` (small tiles left per rotation
class), 16 ``display_size``, 17–21 token supply left: ``supply_inuit``,
``supply_cairn``, ``supply_franklin``, ``supply_strait``,
``supply_cartography``, 22 ``nw_left`` / 23 ``nw_next`` (Northwest Passage
tokens left and the value of the next one, 0 if none), 24 ``gl_left`` / 25
``gl_next`` (the same for Greenland).
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from erebus.core.game import RlEncoding
from erebus.games.northwest.actions import DISCOVER_TOKENS, EXPLORE_TOKENS, VEHICLES, Action
from erebus.games.northwest.content import (
    ALL_TOKEN_KINDS,
    TOKEN_KINDS,
    Content,
    default_content,
    per_content,
)
from erebus.games.northwest.geometry import Geometry
from erebus.games.northwest.layout import (
    ARROW_NAME,
    CREW_FIELDS,
    GREENLAND,
    LOST,
    NORTHWEST,
    PLAYER_BOARD,
)
from erebus.games.northwest.legal import _TAKE
from erebus.games.northwest.state import State, geometry_for, new_game

ENCODING_VERSION = 2
"""Bumped whenever an action index or an observation offset changes."""

ARROW_DESTINATIONS = ("greenland", "northwest")
TAKE_ACTIONS = tuple(("explore", t) for t in EXPLORE_TOKENS) + tuple(
    ("discover", t) for t in DISCOVER_TOKENS
)
"""The (kind, token) pairs of the explore/discover block, in index order."""

N_PILES = 6
IDENTITY_MEMO_LIMIT = 1 << 16
"""Entries of :meth:`ActionSpace.indices`' identity table before it starts over."""

Mask = npt.NDArray[np.int8]
Observation = npt.NDArray[np.float32]


# ============================================================== action space


class ActionSpace:
    """The action numbering of one content (see the module docstring).

    Build it with :func:`action_space`, which caches one per content object.  Every
    index but a placement's means the same action in every state; a placement's
    anchor is relative to the placing vehicle's square, so :meth:`action` and
    :meth:`index` take the state for those (``ValueError`` without one).
    """

    def __init__(self, content: Content) -> None:
        geo = geometry_for(content)
        self.content = content
        self._geo = geo
        self.W = W = geo.W
        self.H = H = geo.H
        self.display_size = D = content.rules.display_size
        crew = content.rules.crew
        self.n_sled_available = crew + 1
        self.n_sled_resting = crew + 2
        off = 2  # 0 pass, 1 end_turn
        self.draft_base = off
        off += D
        self.draw_display_base = off
        off += 2 * D
        self.draw_pile_base = off
        off += 2 * N_PILES
        self.refresh_base = off
        off += 2
        self.take_base = off
        off += 2 * len(TAKE_ACTIONS)
        self.transfer_per = self.n_sled_available * self.n_sled_resting
        self.transfer_base = off
        off += 2 * self.transfer_per
        self.move_per = W * H + len(ARROW_DESTINATIONS)
        self.move_base = off
        off += 2 * self.move_per
        self.place_base = off
        #: Per tile shape (0 = 1×1, 1 = 2×1, 2 = 1×2): the anchor offsets (dx, dy)
        #: from the vehicle's square that a placement can have, in index order.
        self.offsets: tuple[tuple[tuple[int, int], ...], ...] = PLACE_OFFSETS
        S = geo.S
        self._offset_at = [{dx + S * dy: k for k, (dx, dy) in enumerate(o)} for o in self.offsets]
        # Place blocks of one vehicle: (start, orientation index, shape).
        self._block_start: list[int] = []
        self._block: list[tuple[int, int]] = []
        self._orient_start: dict[int, int] = {}
        p = 0
        for t in range(geo.n_tiles):
            for oi in geo.orients_of[t]:
                o = geo.orientations[oi]
                if o.w > W or o.h > H:
                    continue
                self._orient_start[oi] = p
                self._block_start.append(p)
                self._block.append((oi, o.shape))
                p += len(self.offsets[o.shape])
        self.place_per = p
        self.size = off + 2 * p
        #: For :meth:`legal_indices`: every orientation's shape, the arrows' offsets in
        #: a vehicle's move block, each take action's place in its vehicle's block.
        self._orient_shape = [o.shape for o in geo.orientations]
        self._arrow_offset = {
            code: W * H + ARROW_DESTINATIONS.index(name) for code, name in ARROW_NAME.items()
        }
        self._take_at = {a: TAKE_ACTIONS.index((a.kind, a.token)) for a in _TAKE.values()}
        self._memo: dict[Action, int] = {}  # fixed indices by value (no placements)
        # Per pair of vehicle squares (``_ref_key``): id(action) -> index, and
        # index -> an action seen with it; ``_alive`` keeps those objects alive.
        self._by_refs: dict[int, tuple[dict[int, int], dict[int, Action]]] = {}
        self._alive: list[Action] = []
        #: legal_indices' transfer indices by their options' key (``_transfer_key``).
        self._transfer_indices: dict[tuple[int, int, int, tuple[int, int]], list[int]] = {}

    # -- the vehicles' squares ----------------------------------------------

    def refs(self, state: State | None) -> tuple[int, int]:
        """The squares placements are relative to: the current player's ship and
        sled (the top-left square of the tile a vehicle is on, or the arrow's square),
        ``-1`` for a vehicle that can place nothing (on the player board, lost, the
        game over, no state)."""
        if state is None:
            return (-1, -1)
        seat = state.current_player
        if seat is None:
            return (-1, -1)
        loc, anchor = state.loc, state.tile_anchor
        ship, sled = loc[2 * seat], loc[2 * seat + 1]
        return (
            int(anchor[ship]) if ship >= 0 else self._ref(state, ship),
            int(anchor[sled]) if sled >= 0 else self._ref(state, sled),
        )

    def _ref(self, state: State, loc: int) -> int:
        if loc >= 0:
            return int(state.tile_anchor[loc])
        if loc == GREENLAND:
            return self._geo.greenland_square
        if loc == NORTHWEST:
            return self._geo.northwest_square
        return -1

    def _tables(self, refs: tuple[int, int]) -> tuple[dict[int, int], dict[int, Action]]:
        key = (refs[0] + 1) * 4096 + refs[1] + 1
        tables = self._by_refs.get(key)
        if tables is None:
            tables = self._by_refs[key] = ({}, {})
        return tables

    # -- index -> action --------------------------------------------------

    def action(self, i: int, state: State | None = None) -> Action:
        """The action with index ``i`` (in ``state``, for a placement); ``ValueError``
        outside ``0..size-1`` and for a placement off the board, of a vehicle that can
        place nothing, or without a state."""
        refs = self.refs(state)
        seen = self._tables(refs)[1].get(i) if type(i) is int else None
        if seen is not None:
            return seen
        if isinstance(i, bool) or not isinstance(i, int | np.integer):
            raise ValueError(f"an action index is an integer, not {i!r}")
        i = int(i)
        if not 0 <= i < self.size:
            raise ValueError(f"action index {i} is outside 0..{self.size - 1}")
        act = self._decode(i, state, refs)
        # Kept for the next time (legal_indices numbers placements and moves without
        # their objects), in the identity tables' budget.
        if len(self._alive) >= IDENTITY_MEMO_LIMIT:
            self._by_refs.clear()
            self._alive.clear()
        self._tables(refs)[1][i] = act
        self._alive.append(act)
        return act

    def _decode(self, i: int, state: State | None, refs: tuple[int, int]) -> Action:
        """:meth:`action` of an index in ``0..size-1``, built anew."""
        if i == 0:
            return Action("pass")
        if i == 1:
            return Action("end_turn")
        D = self.display_size
        if i < self.draw_display_base:
            return Action.draft(i - self.draft_base)
        if i < self.draw_pile_base:
            v, slot = divmod(i - self.draw_display_base, D)
            return Action.draw_display(VEHICLES[v], slot)
        if i < self.refresh_base:
            v, pile = divmod(i - self.draw_pile_base, N_PILES)
            return Action.draw_pile(VEHICLES[v], pile)
        if i < self.take_base:
            return Action("refresh", VEHICLES[i - self.refresh_base])
        if i < self.transfer_base:
            v, k = divmod(i - self.take_base, len(TAKE_ACTIONS))
            kind, token = TAKE_ACTIONS[k]
            return Action(kind, VEHICLES[v], token=token)
        if i < self.move_base:
            v, rest = divmod(i - self.transfer_base, self.transfer_per)
            a, r = divmod(rest, self.n_sled_resting)
            return Action.transfer(VEHICLES[v], a, r)
        if i < self.place_base:
            v, rest = divmod(i - self.move_base, self.move_per)
            sq = self.W * self.H
            if rest >= sq:
                return Action.move(VEHICLES[v], ARROW_DESTINATIONS[rest - sq])
            y, x = divmod(rest, self.W)
            return Action.move(VEHICLES[v], (x, y))
        v, rest = divmod(i - self.place_base, self.place_per)
        b = bisect.bisect_right(self._block_start, rest) - 1
        oi, shape = self._block[b]
        dx, dy = self.offsets[shape][rest - self._block_start[b]]
        geo = self._geo
        o = geo.orientations[oi]
        if state is None:
            raise ValueError(f"index {i} is a placement: its square depends on the state")
        ref = refs[v]
        if ref < 0:
            raise ValueError(f"index {i}: the {VEHICLES[v]} can place no tile now")
        rx, ry = geo.xy(ref)
        x, y = rx + dx, ry + dy
        if not (0 <= x <= self.W - o.w and 0 <= y <= self.H - o.h):
            raise ValueError(f"index {i}: that placement would be off the board")
        return Action.place(VEHICLES[v], geo.tile_ids[o.tile], x, y, o.rotation, o.side)

    # -- action -> index --------------------------------------------------

    def index(self, action: Action, state: State | None = None) -> int:
        """The index of ``action`` (in ``state``, for a placement); ``ValueError`` if
        it has none (a placement: also when it is not next to the vehicle's square)."""
        i = self._memo.get(action) if isinstance(action, Action) else None
        if i is not None:
            return i
        if not isinstance(action, Action):
            raise ValueError(f"not an action: {action!r}")
        i = self._compute_index(action, self.refs(state))
        if self.action(i, state) != action:
            raise ValueError(f"{action!r} is not in the action space (a field is out of place)")
        if action.kind != "place":
            self._memo[action] = i
        return i

    def indices(self, actions: Iterable[Action], state: State) -> list[int]:
        """The indices of ``actions`` in ``state``, in order.

        The engine hands out the same :class:`Action` objects again and again (its
        option lists are cached), and hashing a 14-field tuple costs more than the
        rest of a lookup, so actions seen before are found by identity first, in the
        table of the current vehicles' squares (a placement's index depends on
        them): the tables keep every object they number alive (``_alive``), so an
        ``id`` in one cannot belong to another object; all are emptied together when
        they hold more than :data:`IDENTITY_MEMO_LIMIT` entries."""
        if type(actions) is not list:
            actions = list(actions)
        refs = self.refs(state)
        by_id = self._tables(refs)[0]
        out = [by_id.get(id(a), -1) for a in actions]
        if -1 in out:
            for k, a in enumerate(actions):
                if out[k] < 0:
                    out[k] = self._remember(a, state, refs)
        return out

    def _remember(self, a: Action, state: State, refs: tuple[int, int]) -> int:
        i = self.index(a, state)
        if len(self._alive) >= IDENTITY_MEMO_LIMIT:
            self._by_refs.clear()
            self._alive.clear()
        by_id, by_index = self._tables(refs)
        by_id[id(a)] = i
        by_index[i] = a
        self._alive.append(a)
        return i

    def _compute_index(self, a: Action, refs: tuple[int, int]) -> int:
        k = a.kind
        if k == "pass":
            return 0
        if k == "end_turn":
            return 1
        if k == "draft":
            return self.draft_base + _in_range(a.slot, self.display_size, "display slot")
        v = _vehicle(a.vehicle)
        if k == "draw":
            if a.source == "display":
                D = self.display_size
                return self.draw_display_base + v * D + _in_range(a.slot, D, "display slot")
            if a.source == "pile":
                return self.draw_pile_base + v * N_PILES + _in_range(a.pile, N_PILES, "pile")
            raise ValueError(f"unknown draw source {a.source!r}")
        if k == "refresh":
            return self.refresh_base + v
        if k in ("explore", "discover"):
            if (k, a.token) not in TAKE_ACTIONS:
                raise ValueError(f"{k} cannot take a {a.token!r} token")
            return self.take_base + v * len(TAKE_ACTIONS) + TAKE_ACTIONS.index((k, a.token))
        if k == "transfer":
            sa = _in_range(a.sled_available, self.n_sled_available, "sled available")
            sr = _in_range(a.sled_resting, self.n_sled_resting, "sled resting")
            return self.transfer_base + v * self.transfer_per + sa * self.n_sled_resting + sr
        if k == "move":
            base = self.move_base + v * self.move_per
            to = a.to
            if isinstance(to, str):
                if to not in ARROW_DESTINATIONS:
                    raise ValueError(f"unknown move destination {to!r}")
                return base + self.W * self.H + ARROW_DESTINATIONS.index(to)
            if isinstance(to, tuple) and len(to) == 2:
                x = _in_range(to[0], self.W, "x")
                y = _in_range(to[1], self.H, "y")
                return base + y * self.W + x
            raise ValueError(f"a move needs [x, y] or an arrow, not {to!r}")
        if k == "place":
            geo = self._geo
            t = geo.tile_index.get(a.tile) if isinstance(a.tile, str) else None
            if t is None:
                raise ValueError(f"there is no tile {a.tile!r}")
            sides = sorted(geo.tiles[t].sides)
            if a.side not in sides:
                raise ValueError(f"tile {a.tile} has no side {a.side!r}")
            rot = _in_range(a.rotation, 4, "rotation")
            oi = geo.orients_of[t][sides.index(a.side) * 4 + rot]
            start = self._orient_start.get(oi)
            if start is None:
                raise ValueError(f"tile {a.tile} does not fit on the board in that rotation")
            o = geo.orientations[oi]
            x = _in_range(a.x, self.W - o.w + 1, "x")
            y = _in_range(a.y, self.H - o.h + 1, "y")
            ref = refs[v]
            if ref < 0:
                raise ValueError(f"the {a.vehicle} can place no tile now (or no state given)")
            rx, ry = geo.xy(ref)
            at = self._offset_at[o.shape].get((x - rx) + geo.S * (y - ry))
            if at is None or abs(x - rx) > 2:
                raise ValueError(f"{a!r} is not next to the {a.vehicle}")
            return self.place_base + v * self.place_per + start + at
        raise ValueError(f"unknown action kind {k!r}")

    # -- legal indices straight from the engine's queries -----------------

    def legal_indices(self, st: State) -> list[int]:
        """:meth:`indices` of ``st.legal_actions()``, in the same order, computed from
        the engine's own option queries (the placements, destinations and transfers
        of :class:`~erebus.games.northwest.position.Position`) without building or
        looking up the placement and move actions — the RL environment's hook, once a
        step.  It follows :meth:`LegalActions.legal_actions
        <erebus.games.northwest.legal.LegalActions.legal_actions>` step for step
        (tests check both agree along random games); anything it cannot number the
        quick way (a state of another content, a display longer than the index space's)
        goes through :meth:`indices`, which raises the same errors."""
        if st.over:
            return []
        if st._geo is not self._geo or len(st.disp) > self.display_size:
            return self.indices(st.legal_actions(), st)
        if st.round == 0:
            return list(range(self.draft_base, self.draft_base + len(st.disp)))
        if st.pending >= 0:
            return self._draw_indices(st, st.pending)
        seat = st.current
        assert seat is not None
        rules = self._geo.content.rules
        costs = rules.action_costs
        extra = rules.further_action_surcharge if st.acted else 0
        c_draw, c_refresh = costs["draw"] + extra, costs["refresh"] + extra
        c_place, c_move = costs["place"] + extra, costs["move"] + extra
        c_transfer = costs["transfer"] + extra
        b = CREW_FIELDS * seat
        refs = self.refs(st)
        out: list[int] = []
        placements_at: dict[int, list[tuple[int, int, int]]] = {}
        for v in (0, 1):
            avail = st.crews[b + 2 * v]
            loc = st.loc[2 * seat + v]
            if avail >= c_draw:
                out += self._draw_indices(st, v)
            if avail >= c_refresh and st._refresh_possible():
                out.append(self.refresh_base + v)
            if avail >= c_place:
                pl = placements_at.get(loc)
                if pl is None:
                    pl = placements_at[loc] = st._placements(loc)
                if pl:
                    placed = self._place_indices(pl, v, refs[v])
                    if placed is None:
                        return self.indices(st.legal_actions(), st)
                    out += placed
            if avail >= c_move:
                base = self.move_base + v * self.move_per
                W, S = self.W, self._geo.S
                for dest in st._destinations(v, loc):
                    if dest >= 0:
                        a = st.tile_anchor[dest]
                        out.append(base + (a // S) * W + a % S)
                    else:
                        out.append(base + self._arrow_offset[dest])
            if avail >= c_transfer:
                key = st._transfer_key(seat, v)
                if key is not None:
                    numbered = self._transfer_indices.get(key)
                    if numbered is None:  # the same options for the same key
                        numbered = self._transfer_indices[key] = self.indices(
                            st._transfers(seat, v), st
                        )
                    out += numbered
            kind, _ = st._token_on(loc)
            if kind:
                take = _TAKE[(VEHICLES[v], TOKEN_KINDS[kind - 1])]
                if avail >= costs[take.kind] + extra:
                    out.append(self.take_base + v * len(TAKE_ACTIONS) + self._take_at[take])
        if st.acted:
            out.append(1)  # end_turn
        out.append(0)  # pass
        return out

    def _draw_indices(self, st: State, v: int) -> list[int]:
        """The draws of vehicle ``v`` (:meth:`LegalActions._draws`): display, then piles."""
        d = self.draw_display_base + v * self.display_size
        p = self.draw_pile_base + v * N_PILES
        counts = st.pile_counts
        return [*range(d, d + len(st.disp)), *[p + c for c in range(N_PILES) if counts[c]]]

    def _place_indices(
        self, placements: list[tuple[int, int, int]], v: int, ref: int
    ) -> list[int] | None:
        """The indices of the placements (tile, orientation, anchor) of vehicle ``v``
        standing on square ``ref``; None if one has none (then :meth:`indices` says
        why)."""
        if ref < 0:
            return None
        base = self.place_base + v * self.place_per
        starts, shapes, offset_at = self._orient_start, self._orient_shape, self._offset_at
        out: list[int] = []
        for _t, oi, anchor in placements:
            start = starts.get(oi)
            at = offset_at[shapes[oi]].get(anchor - ref) if start is not None else None
            if at is None:
                return None
            out.append(base + start + at)  # type: ignore[operator]
        return out

    # -- masks ------------------------------------------------------------

    def mask(self, state: State) -> Mask:
        """``int8`` array of length :attr:`size`: 1 at every legal action's index."""
        m = np.zeros(self.size, dtype=np.int8)
        legal = state.legal_actions()
        if legal:
            m[self.indices(legal, state)] = 1
        return m


def _place_offsets() -> tuple[tuple[tuple[int, int], ...], ...]:
    """Per tile shape (1×1, 2×1, 1×2): every (dx, dy) from a vehicle's square (the
    top-left square of the tile it is on, 1×1, 2×1 or 1×2, or an arrow's square) to
    the top-left square of a tile placed next to it — the new tile covers a square
    orthogonally next to the vehicle's tile (§7.C) — sorted by (dy, dx)."""
    footprints = (((0, 0),), ((0, 0), (1, 0)), ((0, 0), (0, 1)))
    out = []
    for shape in footprints:
        found: set[tuple[int, int]] = set()
        for vehicle in footprints:
            cells = set(vehicle)
            frontier = {
                (x + dx, y + dy)
                for x, y in vehicle
                for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))
            } - cells
            found |= {(fx - gx, fy - gy) for fx, fy in frontier for gx, gy in shape}
        out.append(tuple(sorted(found, key=lambda d: (d[1], d[0]))))
    return tuple(out)


PLACE_OFFSETS = _place_offsets()
"""Anchor offsets of a placement from the vehicle's square, per tile shape (1×1, 2×1,
1×2), in index order (see the module docstring)."""


def _in_range(value: object, n: int, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < n:
        raise ValueError(f"{what} must be an integer in 0..{n - 1}, not {value!r}")
    return value


def _vehicle(name: str | None) -> int:
    if name not in VEHICLES:
        raise ValueError(f"unknown vehicle {name!r}")
    return VEHICLES.index(name)


_SPACES: dict[int, tuple[Content, ActionSpace]] = {}


def action_space(content: Content | None = None) -> ActionSpace:
    """The :class:`ActionSpace` of ``content`` (default content if None), cached."""
    return per_content(_SPACES, content or default_content(), ActionSpace)


def action_space_size(content: Content | None = None) -> int:
    """Number of action indices ``N`` (17 048 for the default content)."""
    return action_space(content).size


def _where(at: State | Content | None) -> tuple[ActionSpace, State | None]:
    if isinstance(at, Content) or at is None:
        return action_space(at), None
    return action_space(at.content), at


def action_to_index(action: Action, at: State | Content | None = None) -> int:
    """The index of ``action`` in the state ``at`` (a content or None: only actions
    other than placements, whose index depends on the vehicle's square);
    ``ValueError`` if it has none."""
    space, state = _where(at)
    return space.index(action, state)


def index_to_action(i: int, at: State | Content | None = None) -> Action:
    """The action index ``i`` stands for in the state ``at`` (a content or None: only
    indices other than placements); ``ValueError`` if none."""
    space, state = _where(at)
    return space.action(i, state)


def legal_indices(state: State) -> list[int]:
    """Indices of ``state.legal_actions()``, in the engine's order (computed from the
    engine's option queries: :meth:`ActionSpace.legal_indices`)."""
    return action_space(state.content).legal_indices(state)


def legal_mask(state: State) -> Mask:
    """``int8`` 0/1 array of length ``N``, 1 exactly at the legal actions' indices."""
    return action_space(state.content).mask(state)


# ============================================================== observation

SQUARE_PLANES_FIXED = (
    "occupied",
    "printed",
    "nw_land",
    "nw_sea",
    "ne_land",
    "ne_sea",
    "se_land",
    "se_sea",
    "sw_land",
    "sw_sea",
    "frozen",
    "zone",
    *(f"token_{k}" for k in TOKEN_KINDS),
    "joined_east",
    "joined_south",
    "greenland_gate",
    "northwest_gate",
)
VERTEX_PLANES = ("land", "sea", "border")
SEAT_FEATURES = (
    "present",
    "to_act",
    "passed",
    "order",
    "ship_available",
    "ship_resting",
    "sled_available",
    "sled_resting",
    "crew_lost",
    *ALL_TOKEN_KINDS,
    "nw_reached",
    "nw_value",
    "returned",
    "return_order",
    "gl_value",
    "score",
    "ship_on_board",
    "ship_at_greenland",
    "ship_at_northwest",
    "sled_on_board",
    "sled_at_greenland",
    "sled_at_northwest",
    "sled_on_player_board",
    "sled_lost",
    "reserve_large",
    "reserve_small",
)
GLOBAL_FEATURES = (
    "players",
    "round",
    "sun",
    "frozen_rows",
    "draft",
    "over",
    "acted",
    "pending_ship",
    "pending_sled",
    "bag_size",
    *(f"pile_{c}" for c in range(N_PILES)),
    "display_size",
    *(f"supply_{k}" for k in ALL_TOKEN_KINDS),
    "nw_left",
    "nw_next",
    "gl_left",
    "gl_next",
)
_BINARY_SEAT = {
    "present",
    "to_act",
    "passed",
    "nw_reached",
    "returned",
    "ship_on_board",
    "ship_at_greenland",
    "ship_at_northwest",
    "sled_on_board",
    "sled_at_greenland",
    "sled_at_northwest",
    "sled_on_player_board",
    "sled_lost",
}
_BINARY_GLOBAL = {"draft", "over", "pending_ship", "pending_sled"}
SCORE_BOUND = 1000.0
"""Bound of ``score`` in :func:`observation_bounds` (−1000..1000)."""
COUNT_BOUND = 255.0
"""Upper bound of the other non-flag scalars in :func:`observation_bounds`."""


def square_planes(max_seats: int) -> tuple[str, ...]:
    """Names of the per-square planes, in order, for ``max_seats`` seat slots."""
    vehicles = tuple(f"{v}_{k}" for k in range(max_seats) for v in VEHICLES)
    return SQUARE_PLANES_FIXED + vehicles


SQUARE_PLANES = square_planes(4)
"""Square plane names for the default content (4 seat slots)."""


@dataclass(frozen=True, slots=True)
class Block:
    """One named block of the observation vector."""

    name: str
    offset: int
    shape: tuple[int, ...]

    @property
    def size(self) -> int:
        return int(np.prod(self.shape))

    @property
    def end(self) -> int:
        return self.offset + self.size


def max_seats(content: Content | None = None) -> int:
    """Seat slots of the observation: the content's largest player count."""
    return max((content or default_content()).rules.arrow_tokens)


def observation_layout(content: Content | None = None) -> dict[str, Block]:
    """The observation's blocks by name, in order (see the module docstring)."""
    content = content or default_content()
    geo = geometry_for(content)
    M = max_seats(content)
    shapes = (
        ("squares", (len(square_planes(M)), geo.H, geo.W)),
        ("vertices", (len(VERTEX_PLANES), geo.H + 1, geo.W + 1)),
        ("seats", (M, len(SEAT_FEATURES))),
        ("reserves", (M, geo.n_tiles)),
        ("globals", (len(GLOBAL_FEATURES),)),
        ("display", (content.rules.display_size, geo.n_tiles)),
    )
    out: dict[str, Block] = {}
    off = 0
    for name, shape in shapes:
        block = Block(name, off, shape)
        out[name] = block
        off = block.end
    return out


def observation_size(content: Content | None = None) -> int:
    """Length of the observation vector (4 455 for the default content)."""
    return list(observation_layout(content).values())[-1].end


def split_observation(
    obs: npt.NDArray[np.float32], content: Content | None = None
) -> dict[str, npt.NDArray[np.float32]]:
    """Views of ``obs`` per block, reshaped (e.g. ``out["squares"][plane, y, x]``)."""
    return {
        name: obs[b.offset : b.end].reshape(b.shape)
        for name, b in observation_layout(content).items()
    }


def observation_bounds(content: Content | None = None) -> tuple[Observation, Observation]:
    """(low, high) arrays of the observation, for a ``gymnasium.spaces.Box``.

    Flags and planes are 0..1, ``zone`` 1..3 (0 never occurs but is allowed),
    ``score`` −1000..1000, every other count or value 0..255.
    """
    content = content or default_content()
    layout = observation_layout(content)
    n = observation_size(content)
    low = np.zeros(n, dtype=np.float32)
    high = np.ones(n, dtype=np.float32)
    sq = layout["squares"]
    plane = sq.shape[1] * sq.shape[2]
    z = SQUARE_PLANES_FIXED.index("zone")
    high[sq.offset + z * plane : sq.offset + (z + 1) * plane] = max(content.board.zones)
    seats = split_observation(high, content)["seats"]
    seats_low = split_observation(low, content)["seats"]
    for f, name in enumerate(SEAT_FEATURES):
        if name == "score":
            seats[:, f] = SCORE_BOUND
            seats_low[:, f] = -SCORE_BOUND
        elif name not in _BINARY_SEAT:
            seats[:, f] = COUNT_BOUND
    glob = split_observation(high, content)["globals"]
    for f, name in enumerate(GLOBAL_FEATURES):
        if name not in _BINARY_GLOBAL:
            glob[f] = COUNT_BOUND
    return low, high


def _bits(mask: int, nbits: int) -> npt.NDArray[np.uint8]:
    """The bits of a non-negative integer as a 0/1 array, lowest bit first."""
    nbytes = (nbits + 7) // 8
    raw = (mask & ((1 << (8 * nbytes)) - 1)).to_bytes(nbytes, "little")
    return np.unpackbits(np.frombuffer(raw, dtype=np.uint8), bitorder="little")


class ObservationEncoder:
    """Precomputed index arrays turning a state into the observation vector."""

    def __init__(self, content: Content) -> None:
        geo: Geometry = geometry_for(content)
        self.content = content
        self._geo = geo
        #: The observer's frozen-row plane per sun position, made once per content.
        self.frozen_planes: dict[int, Observation] = {}
        self.layout = observation_layout(content)
        self.size = observation_size(content)
        self.max_seats = max_seats(content)
        W, H, S = geo.W, geo.H, geo.S
        self.nbits = geo.size
        ys, xs = np.mgrid[0:H, 0:W]
        self.sq = (xs + S * ys).astype(np.intp)
        self.corners = (self.sq, self.sq + 1, self.sq + S + 1, self.sq + S)  # NW NE SE SW
        vy, vx = np.mgrid[0 : H + 1, 0 : W + 1]
        self.vx = (vx + S * vy).astype(np.intp)
        self.zone = np.asarray(geo.zone_of, dtype=np.float32)[self.sq]
        self.border = _bits(geo.border_vertices, self.nbits)[self.vx].astype(np.float32)
        gate_g = np.zeros((H, W), dtype=np.float32)
        gate_n = np.zeros((H, W), dtype=np.float32)
        gx, gy = geo.xy(geo.greenland_square)
        nx, ny = geo.xy(geo.northwest_square)
        gate_g[gy, gx] = 1
        gate_n[ny, nx] = 1
        self.gates = (gate_g, gate_n)
        self.large = np.array([t.large for t in geo.tiles], dtype=bool)

    def encode(self, st: State, seat: int) -> Observation:
        if isinstance(seat, bool) or not isinstance(seat, int | np.integer) or not 0 <= seat < st.n:
            raise ValueError(f"no seat {seat!r} in a {st.n}-player game")
        seat = int(seat)
        geo = self._geo
        out = np.zeros(self.size, dtype=np.float32)
        L = self.layout

        # -- squares
        sqb = L["squares"]
        planes = out[sqb.offset : sqb.end].reshape(sqb.shape)
        sq_tile = np.asarray(st.sq_tile, dtype=np.int64)
        tiles = sq_tile[self.sq]
        planes[0] = tiles >= 0
        planes[1] = tiles >= geo.n_tiles
        land = _bits(st.land, self.nbits)
        sea = _bits(st.sea, self.nbits)
        for c, idx in enumerate(self.corners):
            planes[2 + 2 * c] = land[idx]
            planes[3 + 2 * c] = sea[idx]
        planes[10] = _bits(geo.frozen_by_sun[st.sun], self.nbits)[self.sq]
        planes[11] = self.zone
        toks = np.asarray(st.board_tokens, dtype=np.int64)[self.sq]
        for k in range(len(TOKEN_KINDS)):
            planes[12 + k] = toks == k + 1
        planes[16] = (tiles >= 0) & (sq_tile[self.sq + 1] == tiles)
        planes[17] = (tiles >= 0) & (sq_tile[self.sq + geo.S] == tiles)
        planes[18], planes[19] = self.gates
        base = len(SQUARE_PLANES_FIXED)

        # -- vertices
        vb = L["vertices"]
        vplanes = out[vb.offset : vb.end].reshape(vb.shape)
        vplanes[0] = land[self.vx]
        vplanes[1] = sea[self.vx]
        vplanes[2] = self.border

        # -- seats and reserves
        sb, rb = L["seats"], L["reserves"]
        seats = out[sb.offset : sb.end].reshape(sb.shape)
        reserves = out[rb.offset : rb.end].reshape(rb.shape)
        n = st.n
        order = st.order
        current = st.current_player
        F = {name: f for f, name in enumerate(SEAT_FEATURES)}
        for k in range(min(n, self.max_seats)):
            s = (seat + k) % n
            row = seats[k]
            row[F["present"]] = 1
            row[F["to_act"]] = current == s
            row[F["passed"]] = st.passed[s]
            row[F["order"]] = order.index(s) + 1 if s in order else 0
            b = CREW_FIELDS * s
            row[F["ship_available"] : F["crew_lost"] + 1] = st.crews[b : b + CREW_FIELDS]
            nk = len(ALL_TOKEN_KINDS)
            row[F[ALL_TOKEN_KINDS[0]] : F[ALL_TOKEN_KINDS[0]] + nk] = st.ptok[nk * s : nk * s + nk]
            row[F["nw_reached"]] = st.nw_reached[s]
            row[F["nw_value"]] = st.nw_value[s] or 0
            row[F["returned"]] = st.ret_order[s] > 0
            row[F["return_order"]] = st.ret_order[s]
            row[F["gl_value"]] = st.gl_value[s] or 0
            row[F["score"]] = st.score[s]
            for v, vname in enumerate(VEHICLES):
                loc = st.loc[2 * s + v]
                if loc >= 0:
                    row[F[f"{vname}_on_board"]] = 1
                    planes[base + 2 * k + v] = tiles == loc
                elif loc == GREENLAND:
                    row[F[f"{vname}_at_greenland"]] = 1
                elif loc == NORTHWEST:
                    row[F[f"{vname}_at_northwest"]] = 1
                elif loc == PLAYER_BOARD:
                    row[F["sled_on_player_board"]] = 1
                elif loc == LOST:
                    row[F["sled_lost"]] = 1
            res = st.reserves[s]
            if res:
                reserves[k, res] = 1
                n_large = int(self.large[res].sum())
                row[F["reserve_large"]] = n_large
                row[F["reserve_small"]] = len(res) - n_large

        # -- globals
        gb = L["globals"]
        g = out[gb.offset : gb.end]
        G = {name: f for f, name in enumerate(GLOBAL_FEATURES)}
        g[G["players"]] = n
        g[G["round"]] = st.round
        g[G["sun"]] = st.sun
        g[G["frozen_rows"]] = geo.frozen_rows[st.sun]
        g[G["draft"]] = st.round == 0
        g[G["over"]] = st.over
        g[G["acted"]] = st.acted
        if st.pending >= 0:
            g[G["pending_ship"] + st.pending] = 1
        g[G["bag_size"]] = len(st.bag)
        g[G["pile_0"] : G["pile_0"] + N_PILES] = st.pile_counts
        g[G["display_size"]] = len(st.disp)
        g[G["supply_inuit"] : G["supply_inuit"] + len(ALL_TOKEN_KINDS)] = st.supply
        g[G["nw_left"]] = len(st.nw_left)
        g[G["nw_next"]] = st.nw_left[0] if st.nw_left else 0
        g[G["gl_left"]] = len(st.gl_left)
        g[G["gl_next"]] = st.gl_left[0] if st.gl_left else 0

        # -- display
        db = L["display"]
        disp = out[db.offset : db.end].reshape(db.shape)
        for i, t in enumerate(st.disp[: db.shape[0]]):
            disp[i, t] = 1
        return out


_ENCODERS: dict[int, tuple[Content, ObservationEncoder]] = {}


def observation_encoder(content: Content | None = None) -> ObservationEncoder:
    """The cached :class:`ObservationEncoder` of ``content``."""
    return per_content(_ENCODERS, content or default_content(), ObservationEncoder)


def observe(state: State, seat: int) -> Observation:
    """The observation vector of ``seat`` (public information only; see the docstring)."""
    return observation_encoder(state.content).encode(state, seat)


# ============================================================== RL set-up


def rl_for(players: int, setup: Mapping[str, Any]) -> RlEncoding:
    """The :class:`~erebus.core.game.RlEncoding` of games of a given content (the
    spec's ``rl_for`` hook: ``setup = {"content": Content}``, None or absent for the
    shipped one): the indices and the observation follow that content's board and
    tiles, and its ``new_game`` starts games of that content.  ``ValueError`` for an
    unknown key, a content that is none, or a player count the content's rules do not
    seat (its arrow tokens)."""
    unknown = sorted(set(setup) - {"content"})
    if unknown:
        raise ValueError(f"Northwest Passage's RL set-up takes 'content' only, not {unknown}")
    content = setup.get("content") or default_content()
    if not isinstance(content, Content):
        raise ValueError(f"content must be a Content, not {type(content).__name__}")
    seats = content.rules.arrow_tokens
    if isinstance(players, bool) or players not in seats:
        choices = ", ".join(str(p) for p in sorted(seats))
        raise ValueError(f"players must be one of {choices}, not {players!r}")

    def start(players: int, seed: int) -> State:
        return new_game(players, seed, content)

    return RlEncoding(
        action_space_size=lambda: action_space_size(content),
        observation_bounds=lambda: observation_bounds(content),
        observe=observe,
        legal_mask=legal_mask,
        action_at=lambda state, i: index_to_action(i, state),
        action_index=lambda state, action: action_to_index(action, state),
        new_game=start,
        legal_indices=legal_indices,
        observer=lambda: _observer(content),
        legal_parts=("legal_actions", "_placements", "_destinations", "_transfers"),
    )


def _observer(content: Content) -> Any:
    """A new incremental observer (:mod:`erebus.games.northwest.observer`) of ``content``."""
    from erebus.games.northwest.observer import Observer

    return Observer(observation_encoder(content))


__all__ = [
    "ENCODING_VERSION",
    "GLOBAL_FEATURES",
    "SEAT_FEATURES",
    "SQUARE_PLANES",
    "VERTEX_PLANES",
    "ActionSpace",
    "Block",
    "ObservationEncoder",
    "action_space",
    "action_space_size",
    "action_to_index",
    "index_to_action",
    "legal_indices",
    "legal_mask",
    "observation_bounds",
    "observation_encoder",
    "observation_layout",
    "observation_size",
    "observe",
    "rl_for",
    "split_observation",
]
