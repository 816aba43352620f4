"""A position as JSON (``to_json``/``from_json``, format 1), its copy and its
consistency checks when loaded.

The JSON keys are the field names of format 1; three round modifiers and the
drawn event card keep their format-1 keys (:data:`LEGACY_FLAGS`, ``ev22``), so
that saved games and the golden files stay valid.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Self

from erebus.games.iceandsnow import legends, myths
from erebus.games.iceandsnow.content import Content, default_content
from erebus.games.iceandsnow.decisions import DecisionRules
from erebus.games.iceandsnow.flow import FlowRules
from erebus.games.iceandsnow.layout import (
    F,
)
from erebus.games.iceandsnow.options import normalize
from erebus.games.iceandsnow.position import (
    _ATTR,
    _FIELDS,
    _LISTS,
    _MOD_LISTS,
    _MOD_NESTED,
    _MOD_SCALARS,
    _NESTED,
    _SCALARS,
    LEGACY_FLAGS,
    MODULE_FIELDS,
    WAITING,
)

FORMAT = 1
#: Every kind of queued decision (Walking on Ice adds abandon, cargo, drop_upgrade, cans).
DECISION_KINDS = (
    *("discard", "infirmary", "eat", "compass", "mast", "boiler"),
    *("abandon", "cargo", "drop_upgrade", "cans"),
    "despot",  # Legendary Expeditions: Belcher forces another route (or not)
    *("explorer", "benevolent"),  # Legendary Expeditions: the dealt pair, McClure's trade
    *("choose_upgrade", "fall_ill"),  # Mysterious Epidemic
)
#: Every step name a saved state may hold.
_STEPS = {name[len("_step_") :] for name in dir(FlowRules) if name.startswith("_step_")} | {
    "setup",
    "over",
}


#: The scalar JSON keys in format order, with their kind ("s" or "f").
_JSON_SCALARS = tuple((n, k) for n, k in _FIELDS if k in ("s", "f"))
_LEGACY_MODS = frozenset(LEGACY_FLAGS.values())
#: Fields format 1 writes only when they hold something (saves made before them load).
_OPTIONAL = frozenset({"stands"})


def _make_copier() -> Callable[[Any, Any], None]:
    """A function copying every field from one state to another, one statement per
    field: search clones states millions of times, and a loop of ``getattr`` /
    ``setattr`` over the field names costs about a third of ``clone()``.  The
    names come from :data:`_FIELDS` (identifiers of this package), never from data."""
    lines = ["def copy_fields(src, dst):"]
    lines += [f"    dst.{n} = src.{n}" for n in _SCALARS]
    lines += [f"    dst.{n} = src.{n}[:]" for n in _LISTS]
    lines += [f"    dst.{n} = [x[:] for x in src.{n}]" for n in _NESTED]
    lines += [f"    dst.{n} = src.{n}" for n in _MOD_SCALARS]
    lines += [f"    dst.{n} = src.{n}[:]" for n in _MOD_LISTS]
    lines += [f"    dst.{n} = [x[:] for x in src.{n}]" for n in _MOD_NESTED]
    names = (*_SCALARS, *_LISTS, *_NESTED, *_MOD_SCALARS, *_MOD_LISTS, *_MOD_NESTED)
    assert all(n.isidentifier() for n in names)
    namespace: dict[str, Any] = {}
    exec("\n".join(lines), namespace)
    fn: Callable[[Any, Any], None] = namespace["copy_fields"]
    return fn


_copy_fields = _make_copier()


def _jcopy(x: Any) -> Any:
    if isinstance(x, dict):
        return {k: _jcopy(v) for k, v in x.items()}
    if isinstance(x, list):
        return [_jcopy(v) for v in x]
    return x


class Serialization(DecisionRules):
    """JSON of format 1, copies and the checks of a loaded position."""

    __slots__ = ()

    def clone(self) -> Self:
        """An independent copy: a few list copies."""
        c = type(self).__new__(type(self))
        c._t = self._t
        c._legal = self._legal
        c.options = self.options
        c.setup_events = self.setup_events
        c.viewer = self.viewer
        _copy_fields(self, c)
        return c

    __copy__ = clone

    def __deepcopy__(self, memo: dict[int, Any]) -> Self:
        return self.clone()

    def to_json(self) -> dict[str, Any]:
        """Every field as JSON types; :meth:`from_json` restores it exactly."""
        out: dict[str, Any] = {
            "format": FORMAT,
            "game": "iceandsnow",
            "options": _jcopy(self.options),
        }
        mods = self.round_mods
        for key, kind in _JSON_SCALARS:
            if kind == "f":
                out[key] = LEGACY_FLAGS[key] in mods
            else:
                out[key] = getattr(self, _ATTR.get(key, key))
        for name in _LISTS:
            out[name] = getattr(self, name)[:]
        for name in _NESTED:
            if name in _OPTIONAL and not getattr(self, name):
                continue
            out[name] = [x[:] for x in getattr(self, name)]
        extra = [m for m in mods if m not in _LEGACY_MODS]
        if extra:  # modifiers format 1 has no flag for (new cards)
            out["round_mods"] = extra
        modules = (*self.options["modules"], self.scenario)  # a scenario's rows too
        for module, key, kind in MODULE_FIELDS:
            if module in modules:
                v = getattr(self, key)
                out[key] = v if kind == "s" else _jcopy(v)
        return out

    @classmethod
    def from_json(cls, d: Any, content: Content | None = None) -> Self:
        """Restore a state saved by :meth:`to_json`; ``ValueError`` if it is damaged."""
        return cls._load(d, content, deep=True)

    @classmethod
    def _load(cls, d: Any, content: Content | None, deep: bool) -> Self:
        if not isinstance(d, dict) or d.get("game") != "iceandsnow" or d.get("format") != FORMAT:
            raise ValueError("not a saved Through Ice and Snow state (format 1)")
        try:
            n = d["n"]
            if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= 4:
                raise ValueError("bad player count")
            opts = normalize(d["options"], n)
            st = cls._blank(n, int(d["seed"]), opts, content or default_content())
            mods: list[str] = []
            for key, kind in _JSON_SCALARS:
                v = d[key]
                if kind == "f":
                    if type(v) is not bool:
                        raise ValueError(f"field {key!r} must be true or false")
                    if v:
                        mods.append(LEGACY_FLAGS[key])
                    continue
                if not (v is None or isinstance(v, int | str | bool)):
                    raise ValueError(f"field {key!r} is not a scalar")
                setattr(st, _ATTR.get(key, key), v)
            extra = d.get("round_mods", [])
            if not isinstance(extra, list) or not all(m in st._t.modifiers for m in extra):
                raise ValueError("field 'round_mods' names an unknown round modifier")
            st.round_mods = (*mods, *extra)
            for name in _LISTS:
                v = d[name]
                if not isinstance(v, list) or not all(
                    x is None or isinstance(x, int | str) for x in v
                ):
                    raise ValueError(f"field {name!r} is not a list")
                setattr(st, name, v[:])
            for name in _NESTED:
                v = d.get(name, []) if name in _OPTIONAL else d[name]
                if not isinstance(v, list) or not all(isinstance(x, list) for x in v):
                    raise ValueError(f"field {name!r} is not a list of lists")
                setattr(st, name, [x[:] for x in v])
            st._load_module_fields(d)
            problem = st._consistency_problem()
            if problem is None and deep:
                st._check_deep()
        except (
            KeyError,
            TypeError,
            IndexError,
            AttributeError,
            ValueError,
            OverflowError,
            AssertionError,
        ) as exc:
            raise ValueError(f"corrupt saved state: {exc!r}") from exc
        if problem:
            raise ValueError(f"corrupt saved state: {problem}")
        return st

    def _load_module_fields(self, d: dict[str, Any]) -> None:
        """The fields of the modules in play (:data:`MODULE_FIELDS`), type-checked."""
        modules = (*self.options["modules"], self.scenario)  # a scenario's rows too
        for module, key, kind in MODULE_FIELDS:
            if module not in modules:
                continue
            v = d[key]
            if kind == "s":
                if not (v is None or isinstance(v, int | str | bool)):
                    raise ValueError(f"field {key!r} is not a scalar")
                setattr(self, key, v)
            elif kind == "l":
                if not isinstance(v, list) or not all(
                    x is None or isinstance(x, int | str) for x in v
                ):
                    raise ValueError(f"field {key!r} is not a list")
                setattr(self, key, v[:])
            else:
                if not isinstance(v, list) or not all(isinstance(x, list) for x in v):
                    raise ValueError(f"field {key!r} is not a list of lists")
                setattr(self, key, [x[:] for x in v])

    def _consistency_problem(self) -> str | None:
        n = self.n
        if len(self.pv) != F * n:
            return "the player table does not match the player count"
        for name in ("pv", "occ", "col_paid", "boxes", "upg_left", "ev_open", "ev_coastal"):
            if not all(type(x) is int for x in getattr(self, name)):
                return f"{name} must hold whole numbers"
        for name in ("ev_open_disc", "ev_coastal_disc", "ev_box"):
            if not all(type(x) is int and x in self.content.events for x in getattr(self, name)):
                return f"{name} holds an unknown event card"
        for name in ("round", "leader", "lead_taker", "dest_dyn", "inuit_pool", "carto_tokens"):
            if type(getattr(self, name)) is not int:
                return f"{name} must be a whole number"
        if not 0 <= self.leader < n:
            return "the leader is not a seat"
        if self.current is not None and (
            type(self.current) is not int or not 0 <= self.current < n
        ):
            return "the current player is not a seat"
        for name in (
            "over",
            "lost",
            "event_taken",
            "final_round",
            "final_voyage",
            "magnetised",
            "pole_found",
            "le_found",
            "le_cabin",
            "revealed",
        ):
            if type(getattr(self, name)) is not bool:
                return f"{name} must be true or false"
        if self.event is not None and self.event not in self.content.events:
            return "unknown event card"
        hunting = self._t.hunting_all
        for name in ("hu_deck", "hu_disc", "hu_box", "hu_rev"):
            if any(x not in hunting for x in getattr(self, name)):
                return f"{name} holds an unknown hunting card"
        for name in ("sp_deck", "sp_disc", "sp_eaten", "sp_rev"):
            if any(x not in self.content.species for x in getattr(self, name)):
                return f"{name} holds an unknown species card"
        for name in ("dest", "prev_fleet"):
            v = getattr(self, name)
            if v is not None and v not in self._t.anchors:
                return f"{name} is not an anchor point"
        if any(x not in self._t.anchors for x in self.dyn_anchors):
            return "dynamite on an unknown anchor point"
        for seat_cards in self.upgrades:
            if any(type(x) is not int or x not in self.content.upgrades for x in seat_cards):
                return "unknown upgrade tile"
        for name in ("species", "gained", "upgrades", "inv_opts", "carto_opts"):
            if len(getattr(self, name)) != n:
                return f"{name} does not match the player count"
        if len(self.investor) != n or len(self.carto) != n:
            return "investor/cartography do not match the player count"
        if len(self.occ) != len(self._t.spaces):
            return "space occupancy does not match the board"
        for stand in self.stands:
            if (
                len(stand) != 7
                or not isinstance(stand[0], str)
                or not all(type(x) is int and x >= 0 for x in stand[1:])
                or stand[1] >= n
            ):
                return "a crew on the action board is not [space, seat, five counts]"
        if self.fleet not in self._t.anchors:
            return f"unknown anchor {self.fleet!r}"
        if self.step not in _STEPS:
            return f"unknown step {self.step!r}"
        if self.phase not in (*WAITING, "flow", "over"):
            return f"unknown phase {self.phase!r}"
        if not self.over and self.current_player is None:
            return "no current player"
        c = self.content
        for hand in self.species:
            if any(x not in c.species for x in hand):
                return "unknown species card"
        for s, side in self.placed:
            if (
                not (isinstance(s, int) and 0 <= s < len(c.sections))
                or side not in c.sections[s].sides
            ):
                return "bad map section"
        for dd in self.decisions:
            if not dd or dd[0] not in DECISION_KINDS:
                return "bad decision"
            if not isinstance(dd[1], int) or not 0 <= dd[1] < n:
                return "bad decision seat"
        if self.module("inuit_myths"):
            problem = myths.consistency_problem(self)
            if problem:
                return problem
        if self.module(legends.MODULE):
            return legends.consistency_problem(self)
        return None

    def _check_deep(self) -> None:
        """Compute the legal actions once: a damaged state fails here, not later."""
        if not self.over:
            self._legal = None
            if not self.legal_actions():
                raise ValueError("no legal action in a running game")
