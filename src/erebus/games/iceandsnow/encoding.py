"""Numbers for learning agents: the RL encoding of Through Ice and Snow (``SPEC.rl``).

**Actions.**  A Through Ice and Snow decision carries open-ended parts — which
crew go to a space (counts of five pawn kinds), how much food a cabin burns,
which resources a Collect takes, the Survival deposit — whose full product has
billions of members, almost all never legal.  So an action index is the
*position in the engine's ``legal_actions()`` list* of the state to act on
(that list's order is deterministic: same state, same list).  The space is
``Discrete(MAX_ACTIONS)``; the mask marks ``0 .. len(legal)-1``.  A policy
that wants to know what index ``i`` means reads ``legal_actions()[i]`` (its
``to_json()``) — :func:`describe` does that.

**Observation** (float32, fixed length, every value clipped to [-2, 2]): what
``state.view(seat)`` shows, seats relative to the observer (slot 0 = the
observer, then clockwise); blocks in order:

* ``globals`` — round/12; flags final round, final voyage, over, lost,
  magnetised, pole found, lost expedition found; progress/5; the voyage type
  (coastal, open); leader and current player (relative one-hots of 4); player
  count one-hot (1..4); Inuit pool/15, cartography tokens/12; Survival paid
  flags (3); warehouse boxes (3 × 4 resources, /10);
* ``event`` — one-hot of the current event card (1..28, and Walking on Ice's 29..36)
  plus "none";
* ``spaces`` — occupied slots per board space (/4);
* ``map`` — fleet one-hot, dynamite-marked anchors, for every anchor of the
  data set; mapped regions; each section placed on side A / side B;
* ``cards`` — revealed hunting cards and revealed species cards (one bit per
  card id), species discovered so far (one bit per species);
* ``seats`` — 4 × the 40 numbers of the public player table (PP, tracks,
  resources, crew placed and in the infirmary, counters; each scaled), plus
  4 × upgrades owned (bits 1..11), species held (count/10), revealed
  investor (one-hot);
* ``own`` — the observer's cartography card, dealt investor and cartography
  options during setup (one-hots);
* ``myths`` — Inuit Myths (zeros without the module): creature cards in play
  (one bit per card), the creature token's region (one-hot), creature cards
  left in the deck/8, and per seat slot a curse bit and held Inuit/5;
* ``walking`` — Walking on Ice (zeros without the module or before the ships are
  abandoned): abandoned, walking events left in the deck/8, and per seat slot
  maintenance/5, guilt/20, the sick sailor, event 36 held and cargo/14 (the food
  cans are in the player table).

Hidden information never enters: everything comes from ``view(seat)``.
"""

from __future__ import annotations

import operator
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from erebus.games.iceandsnow.content import Content, default_content
from erebus.games.iceandsnow.layout import CANS, DYN, RIFLES, WOOD, F
from erebus.games.iceandsnow.position import MODULE_FIELDS

MAX_ACTIONS = 4096
MAX_SEATS = 4
CLIP = 2.0

Mask = npt.NDArray[np.int8]
Observation = npt.NDArray[np.float32]

#: Divisors of the public player table's fields (layout order), so most values land in [0, 1].
_PV_SCALE = {0: 100.0, 1: 60.0, 7: 4.0, 39: 10.0}
_PV_DIV = np.array([_PV_SCALE.get(i, 10.0) for i in range(F)], dtype=np.float64)

#: The keys of ``state.view(seat)`` that :meth:`Encoder.encode_view` reads.  Each is a
#: state field the view passes through unchanged, but for two whose size it shows
#: (:data:`_SIZES`) and those it hides from other seats (cartography cards, dealt
#: options, unrevealed investors), which the encoding reads for the observer's own
#: seat only (and investors once revealed).  A module's fields exist only when it is
#: played (:data:`_MODULE_OF`), as in ``to_json``.
_VIEW_KEYS = (
    *("round", "final_round", "final_voyage", "over", "lost", "magnetised", "pole_found"),
    *("le_found", "le_progress", "voyage", "leader", "current", "n", "inuit_pool"),
    *("carto_tokens", "col_paid", "boxes", "event", "occ", "fleet", "dyn_anchors"),
    *("mapped", "placed", "hu_rev", "sp_rev", "discovered", "pv", "upgrades", "species"),
    *("investor", "revealed", "carto", "inv_opts", "carto_opts"),
    *("curse", "cr_active", "creature_at", "cr_deck", "held_inuit"),
    *("abandoned", "walk_deck", "maint", "guilt", "sick", "customs"),
)
_MODULE_OF = {key: module for module, key, _kind in MODULE_FIELDS}
_SIZES = frozenset({"cr_deck", "walk_deck"})


def state_fields(state: Any) -> dict[str, Any]:
    """The part of ``state.view(seat)`` that :meth:`Encoder.encode_view` reads, taken
    from the state as it is (no copies: read-only), for every seat alike."""
    modules = (*state.options["modules"], state.scenario)
    got = _GETTERS.get(modules)
    if got is None:
        keys = tuple(k for k in _VIEW_KEYS if _MODULE_OF.get(k) is None or _MODULE_OF[k] in modules)
        got = _GETTERS[modules] = (keys, operator.attrgetter(*keys))
    keys, getter = got
    out = dict(zip(keys, getter(state), strict=True))
    for key in _SIZES:
        if key in out:
            out[key] = len(out[key])
    return out


#: (keys, one getter of them all) per set of modules played.
_GETTERS: dict[tuple[str, ...], tuple[tuple[str, ...], Any]] = {}


@dataclass
class Encoder:
    """Index tables of one content; build with :func:`encoder`."""

    content: Content
    anchors: list[str] = field(default_factory=list)
    regions: list[str] = field(default_factory=list)
    sections: list[str] = field(default_factory=list)
    hunting: list[str] = field(default_factory=list)
    species_cards: list[str] = field(default_factory=list)
    species: list[str] = field(default_factory=list)
    spaces: int = 0
    events: int = 0
    investors: list[str] = field(default_factory=list)
    cartography: list[str] = field(default_factory=list)
    upgrades: list[int] = field(default_factory=list)
    creatures: list[int] = field(default_factory=list)
    layout: dict[str, tuple[int, int]] = field(default_factory=dict)
    size: int = 0

    def __post_init__(self) -> None:
        c = self.content
        seen: dict[str, None] = {}
        for sec in c.sections:
            for side in sec.sides.values():
                for a in side.anchors:
                    seen.setdefault(a.id, None)
        self.anchors = list(seen)
        self.regions = list(c.regions)
        self.sections = [s.id for s in c.sections]
        self.hunting = list(c.hunting) + list(c.whales) + list(c.dual)
        self.species_cards = list(c.species) + [d for d in c.dual if d not in c.species]
        self.species = sorted({s.species for s in c.species.values()})
        self.spaces = len(c.spaces)
        # Every event card of this content (a Walking on Ice game's content holds the
        # walking deck's cards 29–36 too).
        self.events = max(c.events) + 1
        self.investors = list(c.investors)
        self.cartography = list(c.cartography)
        self.upgrades = sorted(c.upgrades)
        self.creatures = sorted(c.creatures)
        self._a = {a: i for i, a in enumerate(self.anchors)}
        self._r = {r: i for i, r in enumerate(self.regions)}
        self._h = {h: i for i, h in enumerate(self.hunting)}
        self._sc = {s: i for i, s in enumerate(self.species_cards)}
        self._sp = {s: i for i, s in enumerate(self.species)}
        self._inv = {s: i for i, s in enumerate(self.investors)}
        self._k = {s: i for i, s in enumerate(self.cartography)}
        blocks = {
            "globals": 8 + 1 + 2 + 4 + 4 + 4 + 2 + 3 + 12,
            "event": self.events,
            "spaces": self.spaces,
            "map": 2 * len(self.anchors) + len(self.regions) + 2 * len(self.sections),
            "cards": len(self.hunting) + len(self.species_cards) + len(self.species),
            "seats": MAX_SEATS * (F + len(self.upgrades) + 1 + len(self.investors)),
            "own": len(self.cartography) + len(self.investors) + len(self.cartography),
            "myths": len(self.creatures) + len(self.regions) + 1 + 2 * MAX_SEATS,
            "walking": 2 + 5 * MAX_SEATS,
        }
        off = 0
        for name, n in blocks.items():
            self.layout[name] = (off, n)
            off += n
        self.size = off

    # ------------------------------------------------------------------ encode

    def encode(self, state: Any, seat: int) -> Observation:
        """The observation from ``state.view(seat)`` (the reference; see
        :meth:`encode_fast`)."""
        return self.encode_view(state.view(seat), seat)

    def encode_fast(self, state: Any, seat: int) -> Observation:
        """:meth:`encode` without building the view: the same fields read straight
        from the state (:func:`state_fields`), ~3× faster; tests check both agree."""
        if not (isinstance(seat, int) and 0 <= seat < state.n):  # as view() checks
            raise ValueError(f"no seat {seat!r} in a {state.n}-player game")
        return self.encode_view(state_fields(state), seat)

    def encode_view(self, v: Any, seat: int) -> Observation:
        """The observation of ``seat`` from its view ``v`` (a dict, or anything
        answering ``v[key]``, ``key in v`` and ``v.get(key)`` alike)."""
        out = np.zeros(self.size, dtype=np.float32)
        n = int(v["n"])
        rel = [(seat + k) % n for k in range(n)]  # slot -> seat

        def slot(s: int) -> int:
            return (s - seat) % n

        o, _ = self.layout["globals"]
        g = [
            v["round"] / 12,
            float(v["final_round"]),
            float(v["final_voyage"]),
            float(v["over"]),
            float(v["lost"]),
            float(v["magnetised"]),
            float(v["pole_found"]),
            float(v["le_found"]),
            v["le_progress"] / 5,
            float(v["voyage"] == "coastal"),
            float(v["voyage"] == "open"),
        ]
        out[o : o + len(g)] = g
        o += len(g)
        out[o + slot(int(v["leader"]))] = 1
        o += 4
        if v["current"] is not None:
            out[o + slot(int(v["current"]))] = 1
        o += 4
        out[o + n - 1] = 1
        o += 4
        out[o] = v["inuit_pool"] / 15
        out[o + 1] = v["carto_tokens"] / 12
        o += 2
        out[o : o + 3] = [float(x) for x in v["col_paid"][:3]]
        o += 3
        boxes = [x / 10 for x in v["boxes"][:12]]
        out[o : o + len(boxes)] = boxes

        o, _ = self.layout["event"]
        if v["event"] is not None:
            out[o + int(v["event"])] = 1
        else:
            out[o] = 1

        o, k = self.layout["spaces"]
        occ = v["occ"][:k]
        out[o : o + len(occ)] = [x / 4 for x in occ]

        o, _ = self.layout["map"]
        na = len(self.anchors)
        if v["fleet"] in self._a:
            out[o + self._a[v["fleet"]]] = 1
        for a in v["dyn_anchors"]:
            if a in self._a:
                out[o + na + self._a[a]] = 1
        o += 2 * na
        for r in v["mapped"]:
            if r in self._r:
                out[o + self._r[r]] = 1
        o += len(self.regions)
        for idx, side in v["placed"]:
            out[o + 2 * int(idx) + (0 if side == "A" else 1)] = 1

        o, _ = self.layout["cards"]
        for h in v["hu_rev"]:
            if h in self._h:
                out[o + self._h[h]] = 1
        o += len(self.hunting)
        for s in v["sp_rev"]:
            if s in self._sc:
                out[o + self._sc[s]] = 1
        o += len(self.species_cards)
        for s in v["discovered"]:
            if s in self._sp:
                out[o + self._sp[s]] = 1

        o, _ = self.layout["seats"]
        per = F + len(self.upgrades) + 1 + len(self.investors)
        pv = v["pv"]
        for k, s in enumerate(rel):
            b = o + k * per
            out[b : b + F] = np.asarray(pv[s * F : (s + 1) * F], dtype=np.float64) / _PV_DIV
            b += F
            for u in v["upgrades"][s]:
                if u in self.upgrades:
                    out[b + self.upgrades.index(u)] = 1
            b += len(self.upgrades)
            out[b] = len(v["species"][s]) / 10
            b += 1
            inv = v["investor"][s] if v["revealed"] else (v["investor"][s] if s == seat else None)
            if inv in self._inv:
                out[b + self._inv[inv]] = 1

        o, _ = self.layout["own"]
        mine = v["carto"][seat] if seat < len(v["carto"]) else None
        if mine in self._k:
            out[o + self._k[mine]] = 1
        o += len(self.cartography)
        for i in v["inv_opts"][seat] if seat < len(v["inv_opts"]) else []:
            if i in self._inv:
                out[o + self._inv[i]] = 1
        o += len(self.investors)
        for i in v["carto_opts"][seat] if seat < len(v["carto_opts"]) else []:
            if i in self._k:
                out[o + self._k[i]] = 1
        if "curse" in v:
            self._encode_myths(v, rel, out)
        if v.get("abandoned"):
            self._encode_walking(v, rel, out)
        np.clip(out, -CLIP, CLIP, out=out)
        return out

    def _encode_myths(self, v: dict[str, Any], rel: list[int], out: Observation) -> None:
        """The ``myths`` block (Inuit Myths): cards in play, token, deck, curses, held Inuit."""
        o, _ = self.layout["myths"]
        for num in v["cr_active"]:
            if num in self.creatures:
                out[o + self.creatures.index(num)] = 1
        o += len(self.creatures)
        if v["creature_at"] in self._r:
            out[o + self._r[v["creature_at"]]] = 1
        o += len(self.regions)
        out[o] = int(v["cr_deck"]) / 8
        o += 1
        for k, s in enumerate(rel):
            out[o + 2 * k] = float(v["curse"][s])
            out[o + 2 * k + 1] = v["held_inuit"][s] / 5

    def _encode_walking(self, v: dict[str, Any], rel: list[int], out: Observation) -> None:
        """The ``walking`` block (Walking on Ice, after the ships are abandoned)."""
        o, _ = self.layout["walking"]
        out[o] = 1
        out[o + 1] = int(v["walk_deck"]) / 8
        o += 2
        pv = v["pv"]
        for k, s in enumerate(rel):
            b = s * F
            cargo = pv[b + DYN] + pv[b + WOOD] + pv[b + RIFLES] + pv[b + CANS] + v["sick"][s]
            row = (v["maint"][s] / 5, v["guilt"][s] / 20, v["sick"][s], v["customs"][s] == 2)
            out[o + 5 * k : o + 5 * k + 4] = [float(x) for x in row]
            out[o + 5 * k + 4] = cargo / 14


_ENCODERS: dict[int, Encoder] = {}


def encoder(content: Content | None = None) -> Encoder:
    """The (cached) encoder of a content."""
    content = content or default_content()
    enc = _ENCODERS.get(id(content))
    if enc is None or enc.content is not content:
        enc = _ENCODERS[id(content)] = Encoder(content)
    return enc


def observe(state: Any, seat: int) -> Observation:
    """The observation of ``seat`` (see the module docstring)."""
    return encoder(state.content).encode(state, seat)


def observe_fast(state: Any, seat: int) -> Observation:
    """:func:`observe`, the same numbers without building ``state.view(seat)``."""
    return encoder(state.content).encode_fast(state, seat)


def _legal(state: Any) -> list[Any]:
    """``state.legal_actions()`` without its copy: the engine's cached list (read only)."""
    legal: list[Any] = state._legal_list()
    return legal


def legal_indices(state: Any) -> range:
    """The legal indices: ``0 .. len(legal_actions()) - 1``."""
    n = len(_legal(state))
    if n > MAX_ACTIONS:
        raise ValueError(f"{n} legal actions exceed the RL action space of {MAX_ACTIONS}")
    return range(n)


def legal_mask(state: Any) -> Mask:
    """1 for the indices ``0 .. len(legal_actions()) - 1``."""
    n = len(state.legal_actions())
    if n > MAX_ACTIONS:
        raise ValueError(f"{n} legal actions exceed the RL action space of {MAX_ACTIONS}")
    mask = np.zeros(MAX_ACTIONS, dtype=np.int8)
    mask[:n] = 1
    return mask


def index_to_action(state: Any, index: int) -> Any:
    """The action index ``index`` stands for in ``state`` (``ValueError`` if none)."""
    legal = _legal(state)
    if not 0 <= index < len(legal):
        raise ValueError(f"action index {index} is not legal here (0..{len(legal) - 1})")
    return legal[index]


def action_to_index(state: Any, action: Any) -> int:
    """The index of a legal ``action`` in ``state`` (``ValueError`` if it is not legal)."""
    try:
        return list(state.legal_actions()).index(action)
    except ValueError:
        raise ValueError(f"{action} is not a legal action here") from None


def describe(state: Any, index: int) -> dict[str, Any]:
    """The wire format of action ``index`` in ``state``."""
    return dict(index_to_action(state, index).to_json())
