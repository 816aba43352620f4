"""The Inuit creature cards of the Inuit Myths module (§9.2): their data vocabulary.

``data/myths.json`` lists the creature cards 37–44, each in the named primitives
below, so that a creature is data and the engine holds only the mechanisms the
module truly adds (the creature token, the curse cylinders, the Inuit held on a
card, the extra requirements of board actions)::

    {"number": 39, "name": "Sedna", "lasts": "round", "warded_by": [14],
     "extra": {"when": {"officer": "carpenter"},
               "cost": {"op": "extra_crew", "count": 1}}}

* ``lasts`` — how long a revealed card stays in play: ``round`` (back to the box
  in the Cleanup step of the Boarding phase), ``until_taken`` (as soon as any
  player takes its action), ``until_all_taken`` (when every player has).
* ``reveal`` — what happens when it is revealed: ``hold_inuit`` (every player's
  Inuit pawns go on the card; Inuit received while it is in play too),
  ``curse`` (every player takes a curse cylinder).
* ``action`` — the card's own action ``{"name", "crew": [allowed crew counts],
  "take": [ops]}``: ``release_inuit`` (the crew used and every Inuk on the card
  go to their owners' infirmaries), ``lift_curse`` (the taker's curse cylinder
  goes back to the box).
* ``extra`` — a requirement added to actions: ``when`` is ``{"officer": role}``
  (action-board spaces whose requirement names that officer) or
  ``{"crew_at_most": n}`` (any action taken with at most n crew); ``cost`` is one
  of :data:`COSTS`.
* ``warded_by`` — upgrade tiles whose owner the card does not affect.

:func:`creature_problems` refuses anything else at load, naming the card; the
engine interprets the primitives in :mod:`erebus.games.iceandsnow.myths`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from erebus.games.iceandsnow.model import RESOURCES, ROLES

LASTS = ("round", "until_taken", "until_all_taken")
REVEAL_OPS = ("hold_inuit", "curse")
TAKE_OPS = ("release_inuit", "lift_curse")
#: The extra costs and their parameters (``lower_track``'s ``death_only``: the drop
#: applies the Death effect of the space, not Scurvy or Mutiny).
COSTS: dict[str, tuple[str, ...]] = {
    "extra_crew": ("count",),
    "pay_or_own": ("pay", "own"),
    "lower_food": ("amount",),
    "pay_any_resource": ("count",),
    "lower_track": ("track", "amount", "death_only"),
}


@dataclass(frozen=True)
class CreatureAction:
    name: str
    crew: tuple[int, ...]
    take: tuple[str, ...]


@dataclass(frozen=True)
class Extra:
    """A requirement a creature adds: to which actions (``officer`` or
    ``crew_at_most``) and what (``cost`` with its ``params``)."""

    officer: str | None
    crew_at_most: int | None
    cost: str
    params: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class CreatureCard:
    number: int
    name: str
    lasts: str
    reveal: tuple[str, ...] = ()
    action: CreatureAction | None = None
    extra: Extra | None = None
    warded_by: tuple[int, ...] = ()


def _pos(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and v > 0


def _amounts(v: Any, names: tuple[str, ...]) -> bool:
    return isinstance(v, dict) and len(v) == 1 and all(k in names and _pos(x) for k, x in v.items())


def _extra_problems(where: str, x: Any) -> list[str]:
    if not isinstance(x, dict) or set(x) != {"when", "cost"}:
        return [f"{where}: 'extra' must be an object with 'when' and 'cost'"]
    out: list[str] = []
    when = x["when"]
    if not isinstance(when, dict) or len(when) != 1:
        out.append(f"{where}: 'when' must be {{'officer': role}} or {{'crew_at_most': n}}")
    elif "officer" in when:
        if when["officer"] not in ROLES:
            out.append(f"{where}: 'when' officer must be one of {list(ROLES)}")
    elif "crew_at_most" in when:
        if not _pos(when["crew_at_most"]):
            out.append(f"{where}: 'crew_at_most' must be a positive whole number")
    else:
        out.append(f"{where}: 'when' must name 'officer' or 'crew_at_most'")
    cost = x["cost"]
    if not isinstance(cost, dict) or cost.get("op") not in COSTS:
        return [*out, f"{where}: 'cost' must be an op of {sorted(COSTS)}"]
    op = cost["op"]
    params = set(cost) - {"op"}
    if params != set(COSTS[op]):
        out.append(f"{where}: cost {op!r} takes exactly {list(COSTS[op])}")
        return out
    if op in ("extra_crew", "pay_any_resource", "lower_food") and not _pos(cost[COSTS[op][0]]):
        out.append(f"{where}: cost {op!r} needs a positive whole number")
    if op == "pay_or_own" and not (
        _amounts(cost["pay"], RESOURCES) and _amounts(cost["own"], RESOURCES)
    ):
        out.append(f"{where}: pay_or_own needs one resource amount in 'pay' and in 'own'")
    if op == "lower_track" and (
        cost["track"] not in ("health", "morale")
        or not _pos(cost["amount"])
        or not isinstance(cost["death_only"], bool)
    ):
        out.append(f"{where}: lower_track needs track health|morale, amount > 0, death_only")
    return out


def creature_problems(raw: Any, upgrades: set[int]) -> list[str]:
    """Every problem of ``myths.json``'s creature list (empty: valid)."""
    if not isinstance(raw, list):
        return ["myths: 'creatures' must be a list"]
    out: list[str] = []
    seen: set[Any] = set()
    for c in raw:
        if not isinstance(c, dict):
            out.append(f"myths: creature card {c!r} must be an object")
            continue
        num = c.get("number")
        where = f"myths: creature {num}"
        if not _pos(num) or num in seen:
            out.append(f"{where}: the number must be a positive whole number, once")
        seen.add(num)
        extra_keys = set(c) - {"number", "name", "lasts", "reveal", "action", "extra", "warded_by"}
        if extra_keys:
            out.append(f"{where}: unknown key(s) {sorted(extra_keys)}")
        if not isinstance(c.get("name"), str) or not c["name"]:
            out.append(f"{where}: needs a name")
        if c.get("lasts") not in LASTS:
            out.append(f"{where}: 'lasts' must be one of {list(LASTS)}")
        rev = c.get("reveal", [])
        if not isinstance(rev, list) or any(r not in REVEAL_OPS for r in rev):
            out.append(f"{where}: 'reveal' must list ops of {list(REVEAL_OPS)}")
        act = c.get("action")
        if act is not None:
            if (
                not isinstance(act, dict)
                or set(act) != {"name", "crew", "take"}
                or not isinstance(act["crew"], list)
                or not act["crew"]
                or not all(_pos(k) for k in act["crew"])
                or not isinstance(act["take"], list)
                or any(t not in TAKE_OPS for t in act["take"])
            ):
                out.append(
                    f"{where}: 'action' must be {{'name', 'crew': [counts], 'take': "
                    f"[ops of {list(TAKE_OPS)}]}}"
                )
        elif c.get("lasts") in ("until_taken", "until_all_taken"):
            out.append(f"{where}: a card that lasts {c['lasts']!r} needs an 'action'")
        if "extra" in c:
            out += _extra_problems(where, c["extra"])
        wards = c.get("warded_by", [])
        if not isinstance(wards, list) or any(w not in upgrades for w in wards):
            out.append(f"{where}: 'warded_by' must list upgrade tiles")
    return out


def parse_creatures(raw: list[dict[str, Any]]) -> dict[int, CreatureCard]:
    """The creature cards of a validated list, by number."""
    out: dict[int, CreatureCard] = {}
    for c in raw:
        act = c.get("action")
        x = c.get("extra")
        extra = None
        if x is not None:
            cost = dict(x["cost"])
            extra = Extra(
                officer=x["when"].get("officer"),
                crew_at_most=x["when"].get("crew_at_most"),
                cost=cost.pop("op"),
                params=cost,
            )
        out[int(c["number"])] = CreatureCard(
            number=int(c["number"]),
            name=str(c["name"]),
            lasts=str(c["lasts"]),
            reveal=tuple(c.get("reveal", ())),
            action=CreatureAction(str(act["name"]), tuple(act["crew"]), tuple(act["take"]))
            if act
            else None,
            extra=extra,
            warded_by=tuple(c.get("warded_by", ())),
        )
    return out
