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

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": type(self).__name__}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            out[f.name] = list(value) if isinstance(value, tuple) else value
        return out

    def text(self, names: list[str] | None = None) -> str:
        """The event in words; ``names`` maps seats to player names."""
        fields = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        if "seat" in fields and fields["seat"] is not None:
            seat = fields["seat"]
            fields["player"] = names[seat] if names else f"Player {seat + 1}"
        return self.template.format(type=type(self).__name__, **fields)
