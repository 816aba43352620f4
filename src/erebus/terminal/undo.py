"""Which actions a player may take back at the terminal (``u`` in ``erebus play``).

The rule is the web server's (:func:`erebus.core.barrier.is_barrier`: the seat to
act changed, the game ended, a common turn/round event, or an event the game's
``SPEC.reveals_hidden`` names); terminal play adds one more, since it has the state
before the action: the engine's random generator moved (a draw nobody announced
would still be hidden information).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from erebus.core import barrier
from erebus.core.events import Event
from erebus.games import get_game


def is_barrier(game: str, seat: int, before: Any, after: Any, events: Sequence[Event]) -> bool:
    """True if the action by ``seat`` that took ``before`` to ``after`` (with ``events``)
    may never be taken back, nor anything before it."""
    if barrier.is_barrier(get_game(game), seat, after, events):
        return True
    return bool(before.rng != after.rng)  # the state protocol's generator state
