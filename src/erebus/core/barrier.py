"""The undo barrier, one rule for the web server and the terminal.

A player may take back their own actions of the current turn, one at a time, but
never past an action that revealed hidden information or moved the game on:
undoing those would let a player peek and choose again.  An action is a barrier
when the seat to act changed, the game ended, one of its events is one of the
common turn/round events (:data:`erebus.core.events.TURN_EVENTS`), or the game's
:attr:`~erebus.core.game.GameSpec.reveals_hidden` says an event showed something.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from erebus.core.events import TURN_EVENTS, Event
from erebus.core.game import GameSpec


def moves_on(spec: GameSpec, events: Sequence[Event]) -> bool:
    """True if one of ``events`` revealed hidden information or ended a turn,
    a round or the game."""
    return any(isinstance(e, TURN_EVENTS) or spec.reveals_hidden(e) for e in events)


def is_barrier(spec: GameSpec, seat: int, after: Any, events: Sequence[Event]) -> bool:
    """True if the action by ``seat`` that led to ``after`` with ``events`` may never be
    taken back (nor anything before it)."""
    return after.current_player != seat or after.is_over or moves_on(spec, events)


__all__ = ["is_barrier", "moves_on"]
