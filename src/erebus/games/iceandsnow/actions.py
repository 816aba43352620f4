"""Actions of Through Ice and Snow and their JSON wire format.

An :class:`Action` is an immutable, hashable named tuple (cheap to create in the
thousands during search, usable in sets).  ``kind`` is the JSON ``"type"``;
fields a kind does not use are ``None``.  Crew are counted by kind, never by
pawn: ``crew`` is ``(captain, carpenter, scientist, sailors, inuit)``.

| kind | JSON | when |
|---|---|---|
| choose_investor | ``{"type": "choose_investor", "card": "lady_franklin"}`` | setup: keep one of the two dealt investors |
| choose_cartography | ``{"type": "choose_cartography", "card": "K3"}`` | setup: keep one of the two dealt cartography cards |
| destination | ``{"type": "destination", "to": "CE-A-2"}`` | voyage step 2: the leader picks an anchor along a route |
| section | ``{"type": "section", "side": "B"}`` | the destination is on a section edge: the leader picks the next section's side |
| voyage | ``{"type": "voyage", "voyage": "coastal"}`` (or ``"open"``) | voyage step 5 |
| mast | ``{"type": "mast", "card": "14"}`` | upgrade 9: which of the top two event cards to reveal |
| boiler | ``{"type": "boiler", "use": true}`` | upgrade 8: pay 1 wood instead of 1 fuel this voyage step |
| discard | ``{"type": "discard", "resource": "wood"}`` | fuel 0–3, event 7: the resource of your choice |
| infirmary | ``{"type": "infirmary", "crew": {...}}`` | scurvy (2 crew), event 27 (1 non-Inuk crew) |
| eat | ``{"type": "eat", "card": "S07"}`` | food shortage: the species card to discard |
| compass | ``{"type": "compass", "to": "CE-A-3"}`` or ``"to": null`` | event 25: the new anchor, or decline |
| take | ``{"type": "take", "space": "hunt", "crew": {...}, "card": "H12", ...}`` | an action of the action phase |
| pass | ``{"type": "pass"}`` | out of the action phase for this round |
| abandon | ``{"type": "abandon", "use": true}`` | Walking on Ice: the leader abandons the ships (or not) at the end of the leader check |
| drop_upgrade | ``{"type": "drop_upgrade", "tile": 3}`` | abandoning ship with 4 upgrade tiles: the one returned to the box |
| open_can | ``{"type": "open_can"}`` | after abandoning ship, on your Action-phase turn: food +5, health −1 (no turn used) |
| release_sailor | ``{"type": "release_sailor"}`` | event 32: let the sick sailor die (−5 PP; no turn used) |
| choose_explorer | ``{"type": "choose_explorer", "card": "A"}`` | Legendary Expeditions set-up: keep one of the two dealt explorers (set letter) |
| benevolent | ``{"type": "benevolent", "use": true}`` | Robert McClure at Boarding: food −3 for morale +1 (again), or stop |
| track | ``{"type": "track", "space": "hunt"}`` | Kellett (Legendary Expeditions D), on his Action-phase turn: look at the top card of that space's deck, then take the space (no turn used by the look) |
| chart | ``{"type": "chart", "to": "devon"}`` | Collinson (G), at his own decisions: fuel −1 to map that region (no turn used) |
| despot | ``{"type": "despot", "use": true}`` | Belcher (H), after the leader's destination: force another route (or not) |
| choose_upgrade | ``{"type": "choose_upgrade", "tile": 1}`` | Mysterious Epidemic set-up: the free tile on the leftmost upgrade space |
| fall_ill | ``{"type": "fall_ill", "crew": {...}}`` | Mysterious Epidemic: the 2 crew who fall ill when the card's officer already is |
| treat | ``{"type": "treat", "card": "T1", "tile": 2, "crew": {...}}`` | Mysterious Epidemic, on your Action-phase turn: a treatment card's requirement (``tile``: the one healing 1 or 2) heals ``crew`` (no turn used) |

After abandoning ship ``voyage`` is ``"walk"`` or ``"march"`` (Forced March), a
``discard`` (also ``cargo``: over the sled's cargo) may name ``"cans"``, and Build a
Cabin's ``take`` may carry ``cans`` (food cans counted as 5 food lowered each).
With Legendary Expeditions George Back's Upgrade the Ship may carry ``slot`` (the
1-based upgrade space he puts the tile on; absent: the leftmost empty one).

``take`` fields: ``space`` (a board space id, ``"build_shelter"``, or
``"event"`` for the current action event card), ``crew`` (the pawns placed:
``{"captain", "carpenter", "scientist", "sailors", "inuit"}``, missing keys are
0), ``card`` (hunting/species card taken), ``tile`` (upgrade number), ``food``
(Build a Cabin: food lowered), ``resource`` (Exchange: the resource put in the
warehouse; Survival: the deposit), ``take`` (Collect: ``{"dynamite", "wood",
"rifles", "dogs"}`` taken), ``proxy`` (the officer role one of the placed crew
plays through upgrade 1, 4 or 5).  In Survival mode a ``take`` that is the first
above-warehouse action of its column this round carries ``deposit`` (the
resource put in that column's warehouse).
"""

from __future__ import annotations

import itertools
from functools import cache
from typing import Any, NamedTuple

from erebus.core.jsonutil import get_str, require_dict
from erebus.games.iceandsnow.content import CREW_KINDS, RESOURCES, ROLES

KINDS = (
    "choose_investor",
    "choose_cartography",
    "destination",
    "section",
    "voyage",
    "mast",
    "boiler",
    "discard",
    "infirmary",
    "eat",
    "compass",
    "take",
    "pass",
    "abandon",
    "drop_upgrade",
    "open_can",
    "release_sailor",
    "choose_explorer",
    "benevolent",
    "track",
    "chart",
    "despot",
    "choose_upgrade",
    "fall_ill",
    "treat",
)
#: Voyage types, and Walking on Ice's crossing types after abandoning the ships (§9.1).
VOYAGES = ("coastal", "open", "walk", "march")
#: What a ``discard`` may name: the resources, and food cans after abandoning ship.
DISCARDABLE = (*RESOURCES, "cans")
SIDES = ("A", "B")
#: The roles a ``take``'s ``proxy`` may name: an officer (upgrades 1, 4, 5) or, for
#: Ross (Legendary Expeditions C), an Inuk.
PROXY_ROLES = (*ROLES, "inuit")
#: Collect may also return dogs put in a warehouse.
TAKEABLE = RESOURCES

Crew = tuple[int, int, int, int, int]
Take = tuple[int, int, int, int]

_FIELDS = {
    "choose_investor": ("card",),
    "choose_cartography": ("card",),
    "destination": ("to",),
    "section": ("side",),
    "voyage": ("voyage",),
    "mast": ("card",),
    "boiler": ("use",),
    "discard": ("resource",),
    "infirmary": ("crew",),
    "eat": ("card",),
    "compass": ("to",),
    "take": (
        *("space", "crew", "card", "tile", "food", "resource", "take", "proxy", "deposit"),
        *("cans", "slot"),
    ),
    "pass": (),
    "abandon": ("use",),
    "drop_upgrade": ("tile",),
    "open_can": (),
    "release_sailor": (),
    "choose_explorer": ("card",),
    "benevolent": ("use",),
    "track": ("space",),
    "chart": ("to",),
    "despot": ("use",),
    "choose_upgrade": ("tile",),
    "fall_ill": ("crew",),
    "treat": ("card", "tile", "crew"),
}
#: Fields that must be present: all of a kind's fields, except ``take``'s optional ones.
_REQUIRED = {**_FIELDS, "take": ("space", "crew")}


def crew_json(crew: Crew) -> dict[str, int]:
    return dict(zip(CREW_KINDS, crew, strict=True))


def _count(v: Any, what: str) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or v < 0 or v > 99:
        raise ValueError(f"{what} must be a whole number 0..99, not {v!r}")
    return v


def crew_from_json(d: Any, what: str = "crew") -> Crew:
    d = require_dict(d, what)
    unknown = set(d) - set(CREW_KINDS)
    if unknown:
        raise ValueError(f"{what}: unknown crew kind(s) {', '.join(sorted(unknown))}")
    c = tuple(_count(d.get(k, 0), f"{what}.{k}") for k in CREW_KINDS)
    return c  # type: ignore[return-value]


def take_from_json(d: Any) -> Take:
    d = require_dict(d, "take")
    unknown = set(d) - set(TAKEABLE)
    if unknown:
        raise ValueError(f"take: unknown resource(s) {', '.join(sorted(unknown))}")
    return tuple(_count(d.get(k, 0), f"take.{k}") for k in TAKEABLE)  # type: ignore[return-value]


class Action(NamedTuple):
    """One decision of a player.  Fields not used by ``kind`` are ``None``."""

    kind: str
    card: str | None = None
    space: str | None = None
    to: str | None = None
    side: str | None = None
    voyage: str | None = None
    use: bool | None = None
    resource: str | None = None
    crew: Crew | None = None
    tile: int | None = None
    food: int | None = None
    take: Take | None = None
    proxy: str | None = None
    deposit: str | None = None
    cans: int | None = None
    slot: int | None = None

    # -- wire format -----------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.kind}
        for name in _FIELDS[self.kind]:
            value = getattr(self, name)
            if value is None and name not in _REQUIRED[self.kind]:
                continue
            if name == "crew" and value is not None:
                value = crew_json(value)
            elif name == "take" and value is not None:
                value = dict(zip(TAKEABLE, value, strict=True))
            out[name] = value
        return out

    @staticmethod
    def from_json(d: Any) -> Action:
        """Parse the wire format; ``ValueError`` with a clear message on anything malformed."""
        d = require_dict(d, "action")
        kind = get_str(d, "type", "action", KINDS)
        allowed = set(_FIELDS[kind]) | {"type"}
        stray = set(d) - allowed
        if stray:
            raise ValueError(f"action {kind!r}: unexpected field(s) {', '.join(sorted(stray))}")
        for name in _REQUIRED[kind]:
            if name not in d:
                raise ValueError(f"action {kind!r}: missing field {name!r}")
        kw: dict[str, Any] = {}
        for name in _FIELDS[kind]:
            if name not in d:
                continue
            v = d[name]
            what = f"action {kind!r}: field {name!r}"
            if name in ("card", "space", "to"):
                if v is None and (kind, name) == ("compass", "to"):
                    kw[name] = None
                    continue
                if not isinstance(v, str) or not v or len(v) > 64:
                    raise ValueError(f"{what} must be a non-empty string")
                kw[name] = v
            elif name == "side":
                kw[name] = get_str(d, name, f"action {kind!r}", SIDES)
            elif name == "voyage":
                kw[name] = get_str(d, name, f"action {kind!r}", VOYAGES)
            elif name == "use":
                if not isinstance(v, bool):
                    raise ValueError(f"{what} must be true or false")
                kw[name] = v
            elif name == "resource":
                kw[name] = get_str(d, name, f"action {kind!r}", DISCARDABLE)
            elif name == "deposit":
                kw[name] = get_str(d, name, f"action {kind!r}", RESOURCES)
            elif name == "proxy":
                kw[name] = get_str(d, name, f"action {kind!r}", PROXY_ROLES)
            elif name == "crew":
                kw[name] = crew_from_json(v)
            elif name == "take":
                kw[name] = take_from_json(v)
            elif name in ("tile", "food", "cans", "slot"):
                kw[name] = _count(v, what)
        return Action(kind, **kw)

    def __str__(self) -> str:
        j = self.to_json()
        kind = str(j.pop("type"))
        if not j:
            return kind
        parts = []
        for k, v in j.items():
            if isinstance(v, dict):
                v = "+".join(f"{n}{'' if c == 1 else c}" for n, c in v.items() if c) or "none"
            parts.append(f"{k}={v}")
        return f"{kind} " + " ".join(parts)


@cache
def compositions(avail: Crew) -> tuple[Crew, ...]:
    """Every crew (by counts) that fits in ``avail``, the empty crew included."""
    return tuple(
        c  # type: ignore[misc]
        for c in itertools.product(*(range(k + 1) for k in avail))
    )
