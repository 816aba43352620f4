"""Actions of Expedition: Northwest Passage and their JSON wire format.

An :class:`Action` is an immutable, hashable named tuple: cheap to create in
the thousands during search, comparable with ``==`` and usable in sets.  The
wire format is the table in ``shared/design/engine-api.md``; ``from_json``
raises ``ValueError`` with a clear message on anything malformed.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from erebus.core.jsonutil import get_int, get_str, require_dict

VEHICLES = ("ship", "sled")
KINDS = (
    "draft",
    "draw",
    "refresh",
    "place",
    "move",
    "transfer",
    "explore",
    "discover",
    "end_turn",
    "pass",
)
FREE_KINDS = ("end_turn", "pass", "draft")
"""Kinds that never cost crew (rules §5.6, §6, §7.H)."""
COSTED_KINDS = tuple(k for k in KINDS if k not in FREE_KINDS)
"""Kinds whose base crew cost ``rules.json`` gives (rules §7)."""
ARROWS = ("greenland", "northwest")
EXPLORE_TOKENS = ("franklin", "strait")
DISCOVER_TOKENS = ("inuit", "cairn")

Destination = tuple[int, int] | str


class Action(NamedTuple):
    """One move of a player.  Fields not used by ``kind`` are ``None``."""

    kind: str
    vehicle: str | None = None
    source: str | None = None  # draw: "display" | "pile"
    slot: int | None = None  # draft / draw from display: display slot ("index" in JSON)
    pile: int | None = None  # draw from pile: rotation class 0..5
    tile: str | None = None  # place
    x: int | None = None
    y: int | None = None
    rotation: int | None = None
    side: str | None = None
    to: Destination | None = None  # move
    sled_available: int | None = None  # transfer: the sled column afterwards
    sled_resting: int | None = None
    token: str | None = None  # explore / discover

    # -- constructors ---------------------------------------------------------

    @staticmethod
    def draft(index: int) -> Action:
        return Action("draft", slot=index)

    @staticmethod
    def draw_display(vehicle: str, index: int) -> Action:
        return Action("draw", vehicle, source="display", slot=index)

    @staticmethod
    def draw_pile(vehicle: str, pile: int) -> Action:
        return Action("draw", vehicle, source="pile", pile=pile)

    @staticmethod
    def place(vehicle: str, tile: str, x: int, y: int, rotation: int, side: str = "a") -> Action:
        return Action("place", vehicle, tile=tile, x=x, y=y, rotation=rotation, side=side)

    @staticmethod
    def move(vehicle: str, to: Destination) -> Action:
        return Action("move", vehicle, to=to)

    @staticmethod
    def transfer(vehicle: str, sled_available: int, sled_resting: int) -> Action:
        return Action("transfer", vehicle, sled_available=sled_available, sled_resting=sled_resting)

    # -- wire format ----------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        k = self.kind
        if k == "draft":
            return {"type": k, "index": self.slot}
        if k in ("end_turn", "pass"):
            return {"type": k}
        out: dict[str, Any] = {"type": k, "vehicle": self.vehicle}
        if k == "draw":
            out["source"] = self.source
            if self.source == "display":
                out["index"] = self.slot
            else:
                out["pile"] = self.pile
        elif k == "place":
            out.update(tile=self.tile, x=self.x, y=self.y, rotation=self.rotation, side=self.side)
        elif k == "move":
            out["to"] = list(self.to) if isinstance(self.to, tuple) else self.to
        elif k == "transfer":
            out["sled"] = {"available": self.sled_available, "resting": self.sled_resting}
        elif k in ("explore", "discover"):
            out["token"] = self.token
        return out

    @staticmethod
    def from_json(data: Any) -> Action:
        """Parse the wire format; raises ``ValueError`` naming what is wrong."""
        d = require_dict(data, "action")
        k = get_str(d, "type", "action", KINDS)
        what = f"{k} action"
        if k == "draft":
            return Action.draft(get_int(d, "index", what))
        if k in ("end_turn", "pass"):
            return Action(k)
        vehicle = get_str(d, "vehicle", what, VEHICLES)
        if k == "refresh":
            return Action("refresh", vehicle)
        if k == "draw":
            source = get_str(d, "source", what, ("display", "pile"))
            if source == "display":
                return Action.draw_display(vehicle, get_int(d, "index", what))
            return Action.draw_pile(vehicle, get_int(d, "pile", what))
        if k == "place":
            return Action.place(
                vehicle,
                get_str(d, "tile", what),
                get_int(d, "x", what),
                get_int(d, "y", what),
                get_int(d, "rotation", what),
                get_str(d, "side", what, ("a", "b")) if "side" in d else "a",
            )
        if k == "move":
            to = d.get("to")
            if isinstance(to, str):
                if to not in ARROWS:
                    raise ValueError(f"{what}: 'to' must be [x, y], 'greenland' or 'northwest'")
                return Action.move(vehicle, to)
            if (
                isinstance(to, list | tuple)
                and len(to) == 2
                and all(isinstance(c, int) and not isinstance(c, bool) for c in to)
            ):
                return Action.move(vehicle, (to[0], to[1]))
            raise ValueError(f"{what}: 'to' must be [x, y], 'greenland' or 'northwest'")
        if k == "transfer":
            sled = require_dict(d.get("sled"), f"{what}: 'sled'")
            return Action.transfer(
                vehicle, get_int(sled, "available", what), get_int(sled, "resting", what)
            )
        choices = EXPLORE_TOKENS if k == "explore" else DISCOVER_TOKENS
        return Action(k, vehicle, token=get_str(d, "token", what, choices))

    # -- display --------------------------------------------------------------

    def __str__(self) -> str:
        k = self.kind
        if k == "draft":
            return f"draft display #{self.slot}"
        if k == "end_turn":
            return "end turn"
        if k == "pass":
            return "pass"
        v = self.vehicle
        if k == "draw":
            if self.source == "display":
                return f"{v}: draw display #{self.slot}"
            return f"{v}: draw small pile {self.pile}"
        if k == "refresh":
            return f"{v}: refresh display"
        if k == "place":
            return f"{v}: place {self.tile}{self.side} r{self.rotation} at {self.x},{self.y}"
        if k == "move":
            to = (
                self.to
                if isinstance(self.to, str)
                else f"{self.to[0]},{self.to[1]}"
                if self.to
                else "?"
            )
            return f"{v}: move to {to}"
        if k == "transfer":
            return (
                f"{v}: transfer (sled {self.sled_available} available, {self.sled_resting} resting)"
            )
        return f"{v}: {k} {self.token}"
