"""The effect vocabulary of Through Ice and Snow's event cards.

Every event card in ``data/cards.json`` carries an ``effect`` field that says
what the card does, in the named primitives below, so that new cards (the
Myths & Legends expansion) are data, not engine branches::

    "effect": {"reveal": [<op>, ...], "take": [<op>, ...]}

``reveal`` runs when the card is revealed in the Voyage phase (§4.1 step 5),
for every seat from the expedition leader clockwise where the primitive says
"each"; ``take`` runs for the seat that takes an *action* card in the Action
phase (§4.6.5).  An immediate card has only ``reveal``; an action card must
have ``take`` (and may also have ``reveal``).  An op is ``{"op": name,
...parameters}``; :data:`OPS` lists the names with their parameters, and
:func:`effect_problems` refuses unknown names and bad parameters at load with a
message naming the card.

Primitives that need a mechanism of their own are named for it, not for a
card number: ``compass_detour`` (the Damaged Compass's move back to another
anchor), the *round modifiers* (rules changed for the rest of the round:
``explore_sled``, ``ice_fishing``, ``no_walrus``) and the *powers* a kept card
grants its holder for the rest of the game (``map_open_sea``,
``interpreter``).  The engine interprets the primitives in
:mod:`erebus.games.iceandsnow.events_cards`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

#: What a gain or a cost may name: resources, tracks and Inuit (``State._gain``).
#: ``cans`` and ``maintenance`` exist only after Walking on Ice's abandonment (§9.1).
GAINS = frozenset(
    {
        *("dynamite", "wood", "rifles", "dogs", "food", "health", "morale", "fuel", "sled"),
        *("inuit", "cans", "maintenance"),
    }
)
RESOURCE_NAMES = frozenset({"dynamite", "wood", "rifles", "dogs"})

#: Round modifiers and their parameters: a rule changed until the round ends.
#: ``explore_sled``: the sled counts ``amount`` more for Explore (§4.6.1);
#: ``ice_fishing``: Ice Fishing yields ``times`` its food, ``with_shelter`` with an
#: active shelter (§6.2); ``no_walrus``: walrus hunting cards are discarded when
#: the hunting cards are revealed.
MODIFIERS: dict[str, tuple[str, ...]] = {
    "explore_sled": ("amount",),
    "ice_fishing": ("times", "with_shelter"),
    "no_walrus": (),
}

#: Powers a kept action card grants its holder for the rest of the game, in the
#: order of their fields in the player table (``layout.POWER_HELD``).
#: ``map_open_sea``: the holder maps a region after an open-sea voyage too while
#: leader; ``interpreter``: Visit the Inuit with 1 Inuk and 1 crew member.
POWERS: tuple[str, ...] = ("map_open_sea", "interpreter")

_INT = "int"
_POS = "positive int"
_BOOL = "bool"
_GAINS = "gains"
_RES = "resource"
_TRACK = "track"
_MOD = "modifier"
_POWER = "power"
_LIMITS = "limits"

#: Every op: where it may stand, its parameters and their types (all required).
OPS: dict[str, tuple[tuple[str, ...], dict[str, str]]] = {
    # every seat from the leader gains (or, negative, loses) each amount; no
    # band effects on health or morale
    "each_gains": (("reveal",), {"gains": _GAINS}),
    # every seat loses ``fuel``; fuel a ship lacks is towed (§4.4)
    "fleet_loses_fuel": (("reveal",), {"fuel": _POS}),
    # every seat lowers health or morale with the new space's effect (§3.4)
    "each_lowers": (("reveal",), {"track": _TRACK, "amount": _POS}),
    # every seat discards ``count`` resources of its choice
    "each_discards": (("reveal",), {"count": _POS}),
    # every seat pays ``amount`` of ``resource``, or ``fuel`` (towed if lacking) without it
    "each_pays_or_fuel": (("reveal",), {"resource": _RES, "amount": _POS, "fuel": _POS}),
    # every seat sends all its available Inuit pawns to the infirmary
    "inuit_to_infirmary": (("reveal",), {}),
    # every seat whose resources are at most ``if_at_most`` sends ``count`` crew
    # (officers and sailors; Inuit if ``allow_inuit``) to the infirmary
    "to_infirmary": (
        ("reveal",),
        {"count": _POS, "allow_inuit": _BOOL, "if_at_most": _LIMITS},
    ),
    # every seat loses ``food_per_crew`` food per own crew member (food shortage rules)
    "feed_crew": (("reveal",), {"food_per_crew": _POS}),
    # the leader's left neighbour may move the fleet to another anchor reachable
    # from the previous one (Damaged Compass)
    "compass_detour": (("reveal",), {}),
    # a rule changed until the round ends (:data:`MODIFIERS`)
    "round_modifier": (("reveal",), {"modifier": _MOD}),
    # the top species card is drawn and lies on the card for its taker
    "draw_species": (("reveal",), {}),
    # the taker gains each amount
    "taker_gains": (("take",), {"gains": _GAINS}),
    # the taker takes the drawn species card (the card is takeable only with one)
    "take_drawn": (("take",), {}),
    # the taker keeps the card at Boarding with a power (:data:`POWERS`) and hires ``inuit``
    "keep_card": (("take",), {"power": _POWER, "inuit": _INT}),
}


@dataclass(frozen=True)
class Op:
    """One primitive of an effect: its name and parameters (as in the JSON)."""

    op: str
    params: Mapping[str, Any]

    def __getitem__(self, key: str) -> Any:
        return self.params[key]


@dataclass(frozen=True)
class CardEffect:
    """An event card's effect: the ops run at reveal and at take."""

    reveal: tuple[Op, ...] = ()
    take: tuple[Op, ...] = ()
    #: takeable only with a drawn card lying on it (``take_drawn``)
    needs_draw: bool = False
    #: the taker keeps the card (``keep_card``): it is not discarded at Cleanup
    keeps: bool = False

    def has(self, op: str) -> bool:
        return any(o.op == op for o in (*self.reveal, *self.take))

    def first(self, op: str) -> Op | None:
        for o in (*self.reveal, *self.take):
            if o.op == op:
                return o
        return None


def _param_problem(kind: str, name: str, op: dict[str, Any]) -> str | None:
    """Why the parameter ``name`` of ``op`` is not of ``kind``, or None."""
    v = op.get(name)
    if kind == _INT:
        ok = isinstance(v, int) and not isinstance(v, bool)
        return None if ok else f"{name} must be a whole number, not {v!r}"
    if kind == _POS:
        ok = isinstance(v, int) and not isinstance(v, bool) and v > 0
        return None if ok else f"{name} must be a positive whole number, not {v!r}"
    if kind == _BOOL:
        return None if isinstance(v, bool) else f"{name} must be true or false, not {v!r}"
    if kind in (_GAINS, _LIMITS):
        names = GAINS if kind == _GAINS else RESOURCE_NAMES
        if not isinstance(v, dict) or not v:
            return f"{name} must be a non-empty object of amounts, not {v!r}"
        for k, x in v.items():
            if k not in names:
                return f"{name} names {k!r}, not one of {sorted(names)}"
            if not isinstance(x, int) or isinstance(x, bool):
                return f"{name} {k!r} must be a whole number, not {x!r}"
        return None
    if kind == _RES:
        ok = v in RESOURCE_NAMES
        return None if ok else f"{name} must be one of {sorted(RESOURCE_NAMES)}, not {v!r}"
    if kind == _TRACK:
        ok = v in ("health", "morale")
        return None if ok else f"{name} must be 'health' or 'morale', not {v!r}"
    if kind == _POWER:
        return None if v in POWERS else f"{name} must be one of {list(POWERS)}, not {v!r}"
    raise AssertionError(kind)  # pragma: no cover


def _op_problems(
    where: str, phase: str, op: Any, ops: Mapping[str, tuple[tuple[str, ...], dict[str, str]]]
) -> list[str]:
    if not isinstance(op, dict) or not isinstance(op.get("op"), str):
        return [f"{where}: each op must be an object with an 'op' name, not {op!r}"]
    name = op["op"]
    spec = ops.get(name)
    if spec is None:
        return [f"{where}: unknown effect {name!r} (known: {', '.join(sorted(ops))})"]
    phases, params = spec
    out: list[str] = []
    if phase not in phases:
        out.append(f"{where}: effect {name!r} cannot stand in {phase!r} (only {list(phases)})")
    want = dict(params)
    if name == "round_modifier":
        mod = op.get("modifier")
        if mod not in MODIFIERS:
            return [f"{where}: unknown round modifier {mod!r} (known: {sorted(MODIFIERS)})"]
        want.pop("modifier")
        want.update({p: _INT for p in MODIFIERS[mod]})
        extra = set(op) - {"op", "modifier", *want}
    else:
        extra = set(op) - {"op", *want}
    if extra:
        out.append(f"{where}: effect {name!r} has unknown parameter(s) {sorted(extra)}")
    for p, kind in want.items():
        if p not in op:
            out.append(f"{where}: effect {name!r} needs the parameter {p!r}")
            continue
        why = _param_problem(kind, p, op)
        if why:
            out.append(f"{where}: effect {name!r}: {why}")
    return out


def effect_problems(
    number: Any,
    kind: Any,
    effect: Any,
    extra_ops: Mapping[str, tuple[tuple[str, ...], dict[str, str]]] | None = None,
) -> list[str]:
    """Every problem of event card ``number``'s ``effect`` field (empty: valid).

    ``extra_ops`` are a module's own primitives in the format of :data:`OPS`
    (Walking on Ice's cards, ``walking_data.WALKING_OPS``)."""
    known = {**OPS, **extra_ops} if extra_ops else OPS
    where = f"cards: event {number} effect"
    if not isinstance(effect, dict):
        return [f"{where} must be an object with 'reveal' and/or 'take' lists, not {effect!r}"]
    out: list[str] = []
    extra = set(effect) - {"reveal", "take"}
    if extra:
        out.append(f"{where} has unknown key(s) {sorted(extra)} (only 'reveal', 'take')")
    for phase in ("reveal", "take"):
        ops = effect.get(phase, [])
        if not isinstance(ops, list):
            out.append(f"{where}: {phase!r} must be a list of ops, not {ops!r}")
            continue
        for op in ops:
            out += _op_problems(where, phase, op, known)
    if kind == "action" and not effect.get("take"):
        out.append(f"{where}: an action card needs a 'take' list")
    if kind != "action" and effect.get("take"):
        out.append(f"{where}: only an action card may have a 'take' list")
    return out


def parse_effect(effect: dict[str, Any]) -> CardEffect:
    """The :class:`CardEffect` of a validated ``effect`` field."""

    def ops(phase: str) -> tuple[Op, ...]:
        return tuple(
            Op(o["op"], {k: v for k, v in o.items() if k != "op"}) for o in effect.get(phase, [])
        )

    take = ops("take")
    return CardEffect(
        reveal=ops("reveal"),
        take=take,
        needs_draw=any(o.op == "take_drawn" for o in take),
        keeps=any(o.op == "keep_card" for o in take),
    )
