"""Walking on Ice's data (``data/walking.json``, reference §9.1): its shape, its
checks and the content a game with the module plays on.

The module replaces the base game's Central West and West map sections with its
own two (new route types, a new final area), adds the action tiles, the
final-round tile, the walking event deck 29–36, the sled board and upgrades
12–13.  :func:`walking_content` builds the :class:`Content` of such a game once
per base content: the base content with those sections, regions, events and
spaces swapped in.  Every constraint the reference gives (and the structural
rules the engine relies on) is checked by :func:`walking_problems` at load;
the values themselves are documented in ``docs/iceandsnow-data.md``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from erebus.games.iceandsnow.effects import effect_problems
from erebus.games.iceandsnow.model import (
    Anchor,
    Content,
    EventCard,
    Region,
    Route,
    Section,
    Side,
    Space,
)

#: Route types of the module's sections (§9.1): the fuel and dynamite a route adds.
ROUTE_KINDS = ("sea", "broken_ice", "ice", "walking")
#: Values the reference states (§9.1, §11.5): maintenance level -> food cap.
STATED_FOOD_CAPS = {1: 20, 3: 28}
#: Cargo spaces at maintenance 1 and per level above it (§9.1 "6 at level 1, +2 per level").
CARGO_AT_1, CARGO_PER_LEVEL = 6, 2
#: The three action tiles and the final-round tile's two actions (§9.1), and what each covers.
TILE_REPLACES = {
    "revisit_inuit": "visit_inuit",
    "tin_refining": "experiment",
    "sled_maintenance": "recycle_wood",
    "document_sled": "document_methods",
    "vow_dogs": "vow_carpenter",
}
#: Walking event cards (§9.1): numbers 29–36, their own deck.
WALKING_EVENTS = tuple(range(29, 37))
#: Effect ops only a walking game interprets (``walking.WalkingState``), in the
#: format of :data:`.effects.OPS`: where each may stand and its parameters.
#: ``taker_pays``: the card can be taken only by a seat holding ``costs``, paid first;
#: ``sick_sailor``: each seat carries one of its sailors on the sled for the rest of
#: the game (event 32); ``each_to_infirmary``: each seat sends ``count`` crew;
#: ``scientist_morale``: the taker keeps the card; each later action with their
#: scientist raises their morale by ``amount`` (event 36).
WALKING_OPS: dict[str, tuple[tuple[str, ...], dict[str, str]]] = {
    "taker_pays": (("take",), {"costs": "limits"}),
    "sick_sailor": (("reveal",), {}),
    "each_to_infirmary": (("reveal",), {"count": "positive int", "allow_inuit": "bool"}),
    "scientist_morale": (("take",), {"amount": "positive int"}),
}
SECTIONS = ("central_west", "west")
MIN_ROUNDS, MAX_ROUNDS = 7, 12
CARTOGRAPHY_TOKENS = 12


@dataclass(frozen=True)
class Maintenance:
    """One maintenance level of the sled board: its food cap and cargo spaces."""

    level: int
    food: int
    cargo: int


@dataclass(frozen=True)
class WalkingData:
    """``walking.json`` parsed (see the module docstring)."""

    regions: dict[str, Region]
    sections: tuple[Section, ...]
    route_kinds: dict[str, dict[str, Any]]
    maintenance: tuple[Maintenance, ...]
    tiles: dict[str, dict[str, Any]]
    events: dict[int, EventCard]
    raw: dict[str, Any]

    @property
    def abandon(self) -> dict[str, Any]:
        d: dict[str, Any] = self.raw["abandon"]
        return d

    @property
    def sled(self) -> dict[str, Any]:
        d: dict[str, Any] = self.raw["sled_board"]
        return d

    @property
    def cans(self) -> dict[str, Any]:
        d: dict[str, Any] = self.raw["cans"]
        return d

    @property
    def crossing(self) -> dict[str, Any]:
        d: dict[str, Any] = self.raw["crossing"]
        return d

    @property
    def max_maintenance(self) -> int:
        return self.maintenance[-1].level

    def level(self, maint: int) -> Maintenance:
        """The sled board's row of maintenance ``maint`` (clamped to the track)."""
        i = max(1, min(maint, self.max_maintenance)) - 1
        return self.maintenance[i]


def _anchor(d: dict[str, Any]) -> Anchor:
    return Anchor(
        id=d["id"],
        name=d["name"],
        region=d["region"],
        x=float(d["x"]),
        y=float(d["y"]),
        start=bool(d.get("start", False)),
        blue=bool(d.get("blue", False)),
        final_pp=d.get("final_pp"),
        edge=bool(d.get("edge", False)),
        walking_final=bool(d.get("walking_final", False)),
        guilt=d.get("guilt"),
    )


def _event(e: dict[str, Any]) -> EventCard:
    from erebus.games.iceandsnow.effects import parse_effect

    return EventCard(
        int(e["number"]),
        e["name"],
        e["deck"],
        e["kind"],
        tuple(e.get("crew", ())),
        bool(e.get("optional", False)),
        parse_effect(e["effect"]),
    )


def parse_walking(raw: dict[str, Any]) -> WalkingData | None:
    """``walking.json`` parsed, or None when it is too malformed to parse (the
    validator then says why)."""
    try:
        return _parse(raw)
    except (KeyError, TypeError, ValueError, AttributeError, IndexError):
        return None


def _parse(raw: dict[str, Any]) -> WalkingData:
    regions = {
        r["id"]: Region(r["id"], r["name"], int(r["species"]), bool(r.get("island", False)))
        for r in raw["regions"]
    }
    sections = []
    for i, s in enumerate(raw["sections"]):
        sides = {}
        for name, sd in s["sides"].items():
            sides[name] = Side(
                section=s["id"],
                side=name,
                anchors=tuple(_anchor(a) for a in sd["anchors"]),
                routes=tuple(
                    Route(r["from"], r["to"], int(r.get("dynamite", 0)), str(r.get("kind", "sea")))
                    for r in sd["routes"]
                ),
            )
        sections.append(Section(s["id"], s["name"], 2 + i, sides))
    maint = tuple(
        Maintenance(int(m["level"]), int(m["food"]), int(m["cargo"]))
        for m in raw["sled_board"]["maintenance"]
    )
    events = {}
    for e in raw["events"]:
        if effect_problems(e.get("number"), e.get("kind"), e.get("effect"), extra_ops=WALKING_OPS):
            continue
        events[int(e["number"])] = _event(e)
    return WalkingData(
        regions=regions,
        sections=tuple(sections),
        route_kinds={k: dict(v) for k, v in raw["route_kinds"].items()},
        maintenance=maint,
        tiles={t["id"]: dict(t) for t in raw["tiles"]},
        events=events,
        raw=raw,
    )


def _tile_space(t: dict[str, Any], covered: Space) -> Space:
    """A tile as a board space: it lies over ``covered`` (same column, slots, place
    above or below the warehouse, final-round or not)."""
    return Space(
        id=t["id"],
        column=covered.column,
        slots=dict(covered.slots),
        above_warehouse=covered.above_warehouse,
        final=covered.final,
        need=tuple(t.get("need", ())),
        totals=tuple(t.get("totals", ())),
        wood=int(t.get("wood", 0)),
        fuel=int(t.get("fuel", 0)),
        resource=t.get("resource"),
        replaces=t["replaces"],
        cans=int(t.get("cans", 0)),
    )


_VARIANTS: dict[int, tuple[Content, Content]] = {}


def walking_content(content: Content) -> Content:
    """The content of a game with Walking on Ice on ``content`` (cached per content):
    the module's sections in place of Central West and West, its regions, the
    walking events and the action tiles added.  ``ValueError`` if ``content``
    carries no (valid) Walking on Ice data."""
    hit = _VARIANTS.get(id(content))
    if hit is not None and hit[0] is content:
        return hit[1]
    w = content.walking
    if w is None:
        raise ValueError("this game content has no Walking on Ice data (walking.json)")
    by_id = {s.id: s for s in w.sections}
    sections = tuple(by_id.get(s.id, s) for s in content.sections)
    spaces = dict(content.spaces)
    for t in w.tiles.values():
        spaces[t["id"]] = _tile_space(t, content.spaces[t["replaces"]])
    variant = dataclasses.replace(
        content,
        sections=sections,
        regions={**content.regions, **w.regions},
        events={**content.events, **w.events},
        spaces=spaces,
    )
    _VARIANTS[id(content)] = (content, variant)
    return variant


# -- checks -------------------------------------------------------------------


def walking_problems(content: Content) -> list[str]:
    """Every broken constraint of ``content``'s Walking on Ice data ([] = valid or absent)."""
    raw = content.raw.get("walking")
    if raw is None:
        return []
    out: list[str] = []
    for key in ("regions", "route_kinds", "sections", "abandon", "sled_board", "cans"):
        if key not in raw:
            out.append(f"walking: missing key {key!r}")
    for key in ("crossing", "tiles", "events", "upgrades"):
        if key not in raw:
            out.append(f"walking: missing key {key!r}")
    if out:
        return out
    for e in raw["events"]:
        out += [
            p.replace("cards:", "walking:", 1)
            for p in effect_problems(
                e.get("number"), e.get("kind"), e.get("effect"), extra_ops=WALKING_OPS
            )
        ]
    w = content.walking
    if w is None:
        return [*out, "walking: the file is malformed (see its shape in walking_data.py)"]
    _check_sled(w, out)
    _check_tiles(content, w, out)
    _check_events(w, out)
    _check_upgrades(raw, out)
    _check_map(content, w, out)
    return out


def _check_sled(w: WalkingData, out: list[str]) -> None:
    levels = [m.level for m in w.maintenance]
    if levels != list(range(1, len(levels) + 1)):
        out.append(f"walking: maintenance levels must run 1, 2, 3 …, not {levels}")
    for m in w.maintenance:
        want = CARGO_AT_1 + CARGO_PER_LEVEL * (m.level - 1)
        if m.cargo != want:
            out.append(
                f"walking: maintenance {m.level} holds {m.cargo} cargo, reference §9.1: {want} "
                "(6 at level 1, 2 more per level)"
            )
        stated = STATED_FOOD_CAPS.get(m.level)
        if stated is not None and m.food != stated:
            out.append(f"walking: maintenance {m.level} caps food at {m.food}, reference: {stated}")
    foods = [m.food for m in w.maintenance]
    if foods != sorted(foods) or len(set(foods)) != len(foods):
        out.append("walking: the food cap must grow with the maintenance level")
    if len(levels) < 3:
        out.append("walking: the maintenance track needs at least levels 1-3 (reference example)")
    if len(w.sled.get("upgrade_spaces", [])) != 3:
        out.append("walking: the sled board has 3 upgrade spaces (a player with 4 tiles drops 1)")
    cans = w.cans
    if int(cans.get("box", 0)) != 20:
        out.append("walking: the box holds 20 food-can tokens (reference §9.1 C)")
    if int(w.abandon.get("cans", 0)) != 5:
        out.append("walking: each player gains 5 food cans when the ships are abandoned")
    if (int(cans.get("open_food", 0)), int(cans.get("open_health", 0))) != (5, -1):
        out.append("walking: opening a can gives food +5 and health -1 (reference §9.1)")
    if int(cans.get("cabin_food", 0)) != 5:
        out.append("walking: a can counts as 5 food lowered for Build a Cabin")
    guilt = {(int(g["from"]), int(g["to"])): int(g["guilt"]) for g in w.abandon["voluntary_guilt"]}
    if guilt != {(8, 10): 3, (4, 7): 1}:
        out.append("walking: voluntary abandonment: +3 guilt per player at fuel 8+, +1 at 4-7")
    if int(w.abandon.get("forced_below_fuel", 0)) != 4:
        out.append("walking: the ships must be abandoned when every fuel level is below 4")


def _check_tiles(content: Content, w: WalkingData, out: list[str]) -> None:
    if {t: d["replaces"] for t, d in w.tiles.items()} != TILE_REPLACES:
        out.append(f"walking: the tiles and what they cover must be {TILE_REPLACES}")
        return
    for tid, t in w.tiles.items():
        base = content.spaces.get(t["replaces"])
        if base is None:
            out.append(f"walking: tile {tid!r} covers unknown space {t['replaces']!r}")
            continue
    rv, tr, sm = w.tiles["revisit_inuit"], w.tiles["tin_refining"], w.tiles["sled_maintenance"]
    if rv.get("gains") != {"wood": 2, "dogs": 1} or rv["totals"] != [3]:
        out.append("walking: Revisit the Inuit: captain or Inuk + 2 crew, gains 2 wood and 1 dog")
    if tr.get("gains") != {"dynamite": 1, "food": 8} or int(tr.get("cans", 0)) != 1:
        out.append("walking: Tin Refining: scientist + 2 crew, 1 can, gains 1 dynamite, food +8")
    if sm.get("need") != ["carpenter"] or sm.get("totals") or sm.get("maintenance_per_crew") != 1:
        out.append("walking: Sled Maintenance: any crew with a carpenter, +1 maintenance per crew")
    if w.tiles["document_sled"].get("pp_per_maintenance") != 3:
        out.append("walking: Document the Sled's Condition gives 3 PP per maintenance level")
    if w.tiles["vow_dogs"].get("resource") != "dogs":
        out.append("walking: the final-round tile's Vow of Silence counts dogs")


def _check_events(w: WalkingData, out: list[str]) -> None:
    nums = sorted(int(e["number"]) for e in w.raw["events"])
    if nums != list(WALKING_EVENTS):
        out.append(f"walking: the walking events are 29-36, not {nums}")
    for num, e in w.events.items():
        if e.deck != "walking":
            out.append(f"walking: event {num} must be in the 'walking' deck")
        if e.kind == "action" and (not e.crew or any(k < 1 for k in e.crew)):
            out.append(f"walking: action event {num} needs crew counts")


def _check_upgrades(raw: dict[str, Any], out: list[str]) -> None:
    ups = {int(u["number"]): u for u in raw["upgrades"]}
    if sorted(ups) != [12, 13]:
        out.append(f"walking: the module's upgrades are 12 and 13, not {sorted(ups)}")
        return
    for num, (name, cost) in {12: ("Storeroom", 3), 13: ("Deck Upgrade", 2)}.items():
        u = ups[num]
        if (u["name"], int(u["cost"]), int(u["copies"])) != (name, cost, 2):
            out.append(f"walking: upgrade {num} is {name}, 2 copies, {cost} wood (§8.3)")
        if u.get("module") != "walking_on_ice":
            out.append(f"walking: upgrade {num} belongs to the walking_on_ice module")
    if sorted(ups[13].get("immune_events", [])) != [2, 6, 7, 14, 15]:
        out.append("walking: Deck Upgrade protects from events 2, 6, 7, 14 and 15")


# -- map ------------------------------------------------------------------------


def _check_map(content: Content, w: WalkingData, out: list[str]) -> None:
    ids = tuple(s.id for s in w.sections)
    if ids != SECTIONS:
        out.append(f"walking: the module's sections are {list(SECTIONS)}, not {list(ids)}")
        return
    regions = {**content.regions, **w.regions}
    for rid in w.regions:
        if rid in content.regions:
            out.append(f"walking: region {rid!r} already exists in map.json")
    base_cw = content.sections[2] if len(content.sections) > 2 else None
    entries = {
        a.id: a for sd in (base_cw.sides.values() if base_cw else ()) for a in sd.anchors if a.edge
    }
    kinds = w.route_kinds
    if sorted(kinds) != sorted(ROUTE_KINDS):
        out.append(f"walking: route kinds must be {list(ROUTE_KINDS)}")
        return
    if (kinds["broken_ice"]["fuel"], kinds["ice"]["fuel"], kinds["ice"]["dynamite"]) != (1, 1, 1):
        out.append(
            "walking: broken-ice routes cost 1 more fuel, ice routes 1 more fuel and dynamite"
        )
    if not kinds["walking"].get("abandoned_only"):
        out.append("walking: walking routes can be chosen only after abandoning the ships")
    used: set[str] = set()
    for sec in w.sections:
        if sorted(sec.sides) != ["A", "B"]:
            out.append(f"walking: section {sec.id!r} needs sides A and B")
            continue
        for sname, sd in sec.sides.items():
            here = {a.id: a for a in sd.anchors}
            where = f"{sec.id} {sname}"
            for a in sd.anchors:
                if a.region not in regions:
                    out.append(f"walking: anchor {a.id!r} ({where}) is in unknown region")
                if a.final_pp is not None and a.guilt is None:
                    out.append(f"walking: final anchor {a.id!r} shows no guilt modifier")
                if a.walking_final and (a.guilt is None or a.final_pp is not None):
                    out.append(f"walking: new final anchor {a.id!r} needs a guilt modifier, no PP")
                if a.guilt is not None and not a.is_final:
                    out.append(f"walking: anchor {a.id!r} has a guilt modifier but is not final")
                if a.guilt is not None and a.guilt < 1:
                    out.append(f"walking: anchor {a.id!r}: the guilt modifier must be positive")
            for r in sd.routes:
                if r.kind not in kinds:
                    out.append(f"walking: route {r.src}->{r.dst} ({where}) has kind {r.kind!r}")
                    continue
                if r.src not in here or r.dst not in here:
                    out.append(f"walking: route {r.src}->{r.dst} ({where}) names an unknown anchor")
                    continue
                if r.dynamite != int(kinds[r.kind]["dynamite"]):
                    out.append(
                        f"walking: route {r.src}->{r.dst} ({where}) is {r.kind}: "
                        f"{kinds[r.kind]['dynamite']} extra dynamite, not {r.dynamite}"
                    )
                used.add(r.kind)
            if sec.id == "central_west":
                for aid, a in entries.items():
                    if here.get(aid) != a:
                        out.append(f"walking: edge anchor {aid!r} differs from Central East's")
    if used != set(ROUTE_KINDS):
        out.append(f"walking: the sections use route kinds {sorted(used)}, all four are needed")
    new_blue = [
        a
        for sec in w.sections
        for sd in sec.sides.values()
        for a in sd.anchors
        if a.blue and any(r.src == a.id and _is_walking_final(sd, r.dst) for r in sd.routes)
    ]
    per_side: dict[tuple[str, str], int] = {}
    for sec in w.sections:
        for sname, sd in sec.sides.items():
            k = sum(1 for a in new_blue if a.id in {x.id for x in sd.anchors})
            if k:
                per_side[(sec.id, sname)] = k
    for key, k in per_side.items():
        if k != 2:
            out.append(f"walking: {key[0]} side {key[1]} has {k} new final-round spaces, not 2")
    if not per_side:
        out.append("walking: no new final-round space leads to a new final anchor")
    variant = walking_content(content) if content.walking is not None else None
    if variant is not None:
        _check_paths(variant, w, out)


def _is_walking_final(sd: Side, aid: str) -> bool:
    return any(a.id == aid and a.walking_final for a in sd.anchors)


def _check_paths(variant: Content, w: WalkingData, out: list[str]) -> None:
    """Every way through the module's map, with the ships (no walking routes) and
    on foot (walking routes from Central West on): no cycle, no dead end, 7–12
    rounds, at most 12 mappable regions; blue anchors lead only to final anchors."""
    try:
        ship = list(_paths(variant, walking=False))
        foot = list(_paths(variant, walking=True))
    except ValueError as exc:
        out.append(f"walking: map: {exc}")
        return
    for label, paths in (("by ship", ship), ("on foot", foot)):
        if not paths:
            out.append(f"walking: map: no path {label} from a start anchor to a final anchor")
        for sides, anchors in paths:
            rounds = len(anchors) - 2  # the start point and the final voyage are no rounds
            if not MIN_ROUNDS <= rounds <= MAX_ROUNDS:
                out.append(
                    f"walking: map {label}, sides {'/'.join(sides)}: {rounds} rounds "
                    f"(reference §4: 7-12): {' > '.join(anchors)}"
                )
                return
            regions = {variant_anchor(variant, a).region for a in anchors[1:-1]}
            if len(regions) > CARTOGRAPHY_TOKENS:
                out.append(f"walking: map {label}: more than 12 mappable regions: {anchors}")
                return
    ship_finals = {p[1][-1] for p in ship}
    if any(variant_anchor(variant, a).walking_final for a in ship_finals):
        out.append("walking: map: a new final anchor can be reached without abandoning the ships")
    reached = {a for _, p in foot for a in p}
    for sec in w.sections:
        for sd in sec.sides.values():
            for a in sd.anchors:
                if a.id not in reached:
                    out.append(f"walking: map: anchor {a.id!r} is on no path")


_ANCHORS: dict[int, dict[str, Anchor]] = {}


def variant_anchor(variant: Content, aid: str) -> Anchor:
    idx = _ANCHORS.get(id(variant))
    if idx is None:
        idx = {}
        for sec in variant.sections:
            for sd in sec.sides.values():
                for a in sd.anchors:
                    idx.setdefault(a.id, a)
        _ANCHORS[id(variant)] = idx
    return idx[aid]


def _paths(
    c: Content, walking: bool, limit: int = 200_000
) -> Iterator[tuple[tuple[str, ...], tuple[str, ...]]]:
    """(sides, anchors from a start point to a final anchor) for every way through."""
    home: dict[str, int] = {}
    for sec in c.sections:
        for sd in sec.sides.values():
            for a in sd.anchors:
                home.setdefault(a.id, sec.index)
    count = 0

    def succ(aid: str, sides: tuple[str, ...]) -> list[Route]:
        idx = home[aid]
        if variant_anchor(c, aid).edge and idx + 1 < len(c.sections):
            idx += 1
        if idx >= len(sides):
            return []
        return [
            r
            for r in c.sections[idx].sides[sides[idx]].routes
            if r.src == aid and (walking or r.kind != "walking")
        ]

    def walk(
        path: tuple[str, ...], sides: tuple[str, ...]
    ) -> Iterator[tuple[tuple[str, ...], tuple[str, ...]]]:
        nonlocal count
        count += 1
        if count > limit:
            raise ValueError(f"more than {limit} paths")
        cur = path[-1]
        a = variant_anchor(c, cur)
        if a.is_final:
            yield sides, path
            return
        idx = home[cur]
        if a.edge and idx + 1 < len(c.sections) and len(sides) == idx + 1:
            for s in sorted(c.sections[idx + 1].sides):
                yield from walk(path, (*sides, s))
            return
        routes = succ(cur, sides)
        if not routes:
            raise ValueError(f"dead end at {cur!r} (sides {'/'.join(sides)})")
        for r in routes:
            if r.dst in path:
                raise ValueError(f"cycle through {r.dst!r}")
            dst = variant_anchor(c, r.dst)
            if a.blue and not dst.is_final:
                raise ValueError(f"blue anchor {cur!r} leads to non-final {r.dst!r}")
            if dst.is_final and not a.blue:
                raise ValueError(f"final anchor {r.dst!r} reached from non-blue {cur!r}")
            yield from walk((*path, r.dst), sides)

    east = c.sections[0]
    for sname, side in sorted(east.sides.items()):
        if sname != "A":
            continue  # East side B is the Magnetic North Pole's (a solo scenario)
        for a in side.anchors:
            if a.start:
                yield from walk((a.id,), (sname,))
