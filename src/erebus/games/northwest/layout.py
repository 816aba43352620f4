"""Where each number of a Northwest Passage :class:`~erebus.games.northwest.state.State` lives.

The state keeps its positions as flat integer lists (cheap to clone for search);
these constants name the codes and offsets in those lists.  They live apart from
the state so that the modules that read a state's lists (scoring, heuristics,
the observation encoder) need not import the state module, and the state can
import them.
"""

from __future__ import annotations

from erebus.games.northwest.content_types import ALL_TOKEN_KINDS

# Vehicle locations (``State.loc``): a tile index (>= 0) or one of these.
GREENLAND = -1
NORTHWEST = -2
PLAYER_BOARD = -3
LOST = -4
ARROW_CODE = {"greenland": GREENLAND, "northwest": NORTHWEST}
ARROW_NAME = {GREENLAND: "greenland", NORTHWEST: "northwest"}

# ``State.loc[2 * seat + vehicle]``: the ship and the sled of each seat.
SHIP, SLED = 0, 1
# Offsets into the per-seat crew block (``State.crews[CREW_FIELDS * seat + ...]``).
SHIP_AV, SHIP_REST, SLED_AV, SLED_REST, CREW_LOST = range(5)
CREW_FIELDS = 5
# Token kinds a player collects (``State.ptok[N_KINDS * seat + kind]``), as indices
# into ALL_TOKEN_KINDS.
N_KINDS = len(ALL_TOKEN_KINDS)
CARTOGRAPHY = ALL_TOKEN_KINDS.index("cartography")

JOKER = -2
"""``State.tile_orient`` of a small tile placed Joker side up."""
