"""Per-content lookup tables, computed once per :class:`Content` and cached.

The engine asks the same map and board questions thousands of times per
second during search (which routes leave this anchor with these sections
placed? which section does this anchor belong to?), so the answers are
precomputed here from the data files instead of being searched for.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from erebus.games.iceandsnow.effects import Op
from erebus.games.iceandsnow.model import Anchor, Content, Space

#: Immediate PP of upgrade tiles 10 and 11 (§8.3); used when cards.json gives no "pp".
UPGRADE_IMMEDIATE_PP = {10: 6, 11: 3}
#: Health gain per point of health on a hunting card is direct; food track cap when data omit it.
DEFAULT_FOOD_MAX = 99


@dataclass
class Tables:
    content: Content
    anchors: dict[str, Anchor]
    sections_of: dict[str, tuple[int, ...]]  # anchor -> section indices containing it
    section_ids: tuple[str, ...]
    side_routes: dict[tuple[int, str], tuple[tuple[str, str, int], ...]]
    spaces: tuple[Space, ...]
    space_index: dict[str, int]
    columns: tuple[str, ...]
    space_column: tuple[int, ...]  # space index -> column index (-1: none)
    hunting_all: dict[str, Any]
    upgrade_pp: dict[int, int]
    food_max: int
    #: round modifier name -> its ``round_modifier`` op (one per name, validated)
    modifiers: dict[str, Op]
    #: power name -> (number of the event card granting it, its ``keep_card`` op)
    powers: dict[str, tuple[int, Op]]
    #: extra fuel of a (from, to) route (Walking on Ice's broken-ice and ice routes)
    route_fuel: dict[tuple[str, str], int] = field(default_factory=dict)
    #: (from, to) routes open only after the ships are abandoned (walking routes)
    walking_routes: frozenset[tuple[str, str]] = frozenset()
    #: event number -> the upgrade tiles whose owners it does not affect (Deck Upgrade)
    immune: dict[int, frozenset[int]] = field(default_factory=dict)
    route_cache: dict[tuple[tuple[Any, ...], str, bool], tuple[tuple[str, int], ...]] = field(
        default_factory=dict
    )
    #: (number, tile) of every upgrade tile, in number order
    upgrades_sorted: tuple[tuple[int, Any], ...] = ()
    #: The Action phase's caches (:mod:`.action_phase`): the board spaces a ``take``
    #: may name for one (players, final round, scenario, blocked spaces); one key
    #: object per (available crew, proxies) and per tuple of crew options; the in-game
    #: upgrade tiles of an option set.
    take_rows: dict[tuple[Any, ...], tuple[Any, ...]] = field(default_factory=dict)
    take_crews: dict[tuple[Any, ...], Any] = field(default_factory=dict)
    take_opts: dict[tuple[Any, ...], Any] = field(default_factory=dict)
    take_tiles: dict[tuple[Any, ...], tuple[tuple[int, int], ...]] = field(default_factory=dict)

    def routes_from(
        self, placed: tuple[tuple[int, str], ...], anchor: str, both_ways: bool = False
    ) -> tuple[tuple[str, int], ...]:
        """(destination, extra dynamite) of every route leaving ``anchor`` on the
        placed sections; ``both_ways`` also follows arrows backwards (the
        magnetised compass)."""
        key = (placed, anchor, both_ways)
        hit = self.route_cache.get(key)
        if hit is not None:
            return hit
        seen: dict[str, int] = {}
        for sec in placed:
            for src, dst, dyn in self.side_routes.get(sec, ()):
                if src == anchor and dst not in seen:
                    seen[dst] = dyn
                elif both_ways and dst == anchor and src not in seen:
                    seen[src] = dyn
        out = tuple(sorted(seen.items()))
        self.route_cache[key] = out
        return out


_CACHE: dict[int, Tables] = {}


def tables_for(content: Content) -> Tables:
    t = _CACHE.get(id(content))
    if t is not None and t.content is content:
        return t
    anchors: dict[str, Anchor] = {}
    secs: dict[str, set[int]] = {}
    side_routes: dict[tuple[int, str], tuple[tuple[str, str, int], ...]] = {}
    for sec in content.sections:
        for name, side in sec.sides.items():
            for a in side.anchors:
                anchors.setdefault(a.id, a)
                secs.setdefault(a.id, set()).add(sec.index)
            side_routes[(sec.index, name)] = tuple((r.src, r.dst, r.dynamite) for r in side.routes)
    kinds = content.walking.route_kinds if content.walking is not None else {}
    route_fuel: dict[tuple[str, str], int] = {}
    walking: set[tuple[str, str]] = set()
    for sec in content.sections:
        for side in sec.sides.values():
            for r in side.routes:
                k = kinds.get(r.kind, {})
                if int(k.get("fuel", 0)):
                    route_fuel[(r.src, r.dst)] = int(k["fuel"])
                if k.get("abandoned_only"):
                    walking.add((r.src, r.dst))
    immune: dict[int, set[int]] = {}
    for num, u in content.upgrades.items():
        for e in u.immune_events:
            immune.setdefault(e, set()).add(num)
    spaces = tuple(content.spaces.values())
    raw_up = {int(u["number"]): u for u in content.raw.get("cards", {}).get("upgrades", [])}
    upgrade_pp = {
        n: int(raw_up.get(n, {}).get("pp", UPGRADE_IMMEDIATE_PP.get(n, 0)))
        for n in content.upgrades
    }
    hunting_all: dict[str, Any] = {**content.hunting, **content.whales, **content.dual}
    columns = tuple(w for w in content.warehouses)
    modifiers: dict[str, Op] = {}
    powers: dict[str, tuple[int, Op]] = {}
    for num in sorted(content.events):
        eff = content.events[num].effect
        for op in eff.reveal:
            if op.op == "round_modifier":
                modifiers.setdefault(str(op["modifier"]), op)
        for op in eff.take:
            if op.op == "keep_card":
                powers.setdefault(str(op["power"]), (num, op))
    t = Tables(
        content=content,
        anchors=anchors,
        sections_of={k: tuple(sorted(v)) for k, v in secs.items()},
        section_ids=tuple(s.id for s in content.sections),
        side_routes=side_routes,
        spaces=spaces,
        space_index={s.id: i for i, s in enumerate(spaces)},
        columns=columns,
        space_column=tuple(columns.index(s.column) if s.column in columns else -1 for s in spaces),
        hunting_all=hunting_all,
        upgrade_pp=upgrade_pp,
        food_max=int(content.tracks.get("food", {}).get("max", DEFAULT_FOOD_MAX)),
        modifiers=modifiers,
        powers=powers,
        route_fuel=route_fuel,
        walking_routes=frozenset(walking),
        immune={e: frozenset(v) for e, v in immune.items()},
        upgrades_sorted=tuple(sorted(content.upgrades.items())),
    )
    _CACHE[id(content)] = t
    return t
