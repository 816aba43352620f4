"""The base of every event a rules engine emits."""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar


@dataclasses.dataclass(frozen=True, slots=True)
class Event:
    """Something that happened.  Subclasses are plain frozen data classes.

    ``to_json()`` gives a dict with ``"type"`` equal to the class name, and
    ``text()`` a sentence for the event log.  ``seat`` names the player it
    concerns, or ``None``.
    """

    template: ClassVar[str] = "{type}"

    # The fields, in order, are the data class's ``__match_args__`` (every field of an
    # event is an init field; a test checks it for every event of every game):
    # ``dataclasses.fields`` filters them anew on each call, a third of the cost of
    # an event's JSON and text, which the server makes for every event it logs.

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": type(self).__name__}
        names: tuple[str, ...] = type(self).__match_args__
        for name in names:
            value = getattr(self, name)
            out[name] = list(value) if isinstance(value, tuple) else value
        return out

    def text(self, names: list[str] | None = None) -> str:
        """The event in words; ``names`` maps seats to player names."""
        own: tuple[str, ...] = type(self).__match_args__
        fields: dict[str, Any] = {name: getattr(self, name) for name in own}
        if "seat" in fields and fields["seat"] is not None:
            seat = fields["seat"]
            fields["player"] = names[seat] if names else f"Player {seat + 1}"
        return self.template.format(type=type(self).__name__, **fields)


# -- The events every game shares ------------------------------------------------------
#
# Consumers (the server's undo barrier and score log, tournaments, the terminal's
# score column) recognise these with ``isinstance`` instead of matching class names.
# A game subclasses each under the same class name and appends its own fields after
# the common ones, so ``to_json()`` (``"type"`` = the class name, fields in order) is
# unchanged by the shared base.


@dataclasses.dataclass(frozen=True, slots=True)
class ScoreChanged(Event):
    """A seat's score moved by ``delta`` for ``reason`` (the sum of a seat's deltas is
    its score; ``reason`` is what tournaments map to a score source)."""

    seat: int
    delta: int
    reason: str


@dataclasses.dataclass(frozen=True, slots=True)
class RoundStarted(Event):
    """Round ``round`` begins (a game adds who leads or the order of play)."""

    round: int


@dataclasses.dataclass(frozen=True, slots=True)
class RoundEnded(Event):
    """Round ``round`` ends."""

    round: int
    seat: int | None = None


@dataclasses.dataclass(frozen=True, slots=True)
class TurnEnded(Event):
    """``seat`` ended its turn: the next seat is to act."""

    seat: int


@dataclasses.dataclass(frozen=True, slots=True)
class Passed(Event):
    """``seat`` passed (for the rest of the round)."""

    seat: int


@dataclasses.dataclass(frozen=True, slots=True)
class GameOver(Event):
    """The game ended; the fields (final scores, outcome) are the game's own."""


#: The common events after which the game has moved on to another turn, round or the
#: end: an action that emitted one of them can never be taken back (the undo barrier).
TURN_EVENTS: tuple[type[Event], ...] = (TurnEnded, Passed, RoundStarted, RoundEnded, GameOver)
