"""Checks of the Through Ice and Snow data set against the rules reference.

``problems(content)`` returns one readable message per broken constraint (an
empty list means the data set is valid); ``check_content(content)`` raises
``ValueError`` listing them.  ``content.parse_content`` calls it, so a data file
edited by hand (for example an owner of the printed game entering the printed
values) is checked when it is loaded.

Two kinds of constraint are checked:

* a few values the reference **states** that the engine or the map checks
  build on (sled level 1 → 5 PP, 4 dogs → 7 PP, Devon = 2 species, card
  counts, the regions the reference names);
* structural rules every data set must obey for the engine to work: ids exist
  and are unique, routes run one way and never back east across a section
  boundary, no dead ends, edge anchors are shared identically, and — by
  enumerating every side combination and every path — every game lasts 7–12
  rounds and maps at most 12 regions (the box has 12 cartography tokens).

The reference tables that only restate the data (the rules values, the
action-board spaces, the investor and upgrade tables, the event table, the solo
scenario set-ups) are not copied here: ``tests/iceandsnow/test_reference.py``
holds them, so that a changed data set (a house rule, an expansion) is checked
by the tests, not refused at load by a copy of itself.  Event cards' ``effect``
fields are checked against the vocabulary of :mod:`.effects`.

The path helpers (:func:`map_paths`, :func:`round_range`) are public so that
tests, documentation and the engine can use the same definition of a round:
each arrival at an anchor point up to and including the first blue anchor is a
round; the start point and the final voyage to the final anchor are not.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from erebus.games.iceandsnow import scenario_data
from erebus.games.iceandsnow.creatures import creature_problems
from erebus.games.iceandsnow.effects import effect_problems
from erebus.games.iceandsnow.model import (
    RESOURCES,
    ROLES,
    Anchor,
    Content,
    Route,
)
from erebus.games.iceandsnow.options import MODULES
from erebus.games.iceandsnow.walking_data import walking_problems

SECTION_IDS = ("east", "central_east", "central_west", "west")
SIDES = ("A", "B")
MIN_ROUNDS, MAX_ROUNDS = 7, 12  # reference §4: "A game lasts 7-12 rounds"
CARTOGRAPHY_TOKENS = 12  # reference §1 / §3.7
REQUIRED_REGIONS = ("baffin", "devon", "somerset", "kent_p", "st_patrick")
CREW_NEEDS = ("captain", "carpenter", "scientist", "inuit")
COMPASS = ("N", "S", "E", "W")

#: The action-board spaces the engine implements (``action_phase`` dispatches on them).
KNOWN_SPACES = frozenset(
    {
        "lead",
        "explore",
        "visit_inuit",
        "hire_inuk",
        "build_cabin",
        "improve_sled",
        "upgrade_ship",
        "recycle_wood",
        "discover",
        "hunt",
        "experiment",
        "exchange_captain",
        "exchange_carpenter",
        "exchange_scientist",
        "collect_captain",
        "collect_carpenter",
        "collect_scientist",
        "ice_fishing",
        "trace_map",
        "document_methods",
        "lab_research",
        "vow_captain",
        "vow_carpenter",
        "vow_scientist",
    }
)
#: What an investor's bonus may give.
BONUS_KEYS = frozenset({"dynamite", "wood", "rifles", "dogs", "food", "inuit"})


# -- map paths ----------------------------------------------------------------


@dataclass(frozen=True)
class MapPath:
    """One way through the map: the sides chosen and the anchors visited.

    ``anchors`` runs from the start point to the first blue anchor; ``finals``
    lists the final anchors reachable from that blue anchor.
    """

    sides: tuple[str, ...]  # side of each section placed so far (East first)
    anchors: tuple[str, ...]
    regions: tuple[str, ...]  # region of each arrival (anchors[1:])
    finals: tuple[str, ...]

    @property
    def rounds(self) -> int:
        return len(self.anchors) - 1

    @property
    def mappable(self) -> frozenset[str]:
        """Regions a coastal voyage can map on this path (arrivals before the final voyage)."""
        return frozenset(self.regions)


class _MapError(Exception):
    pass


def _anchor_index(content: Content) -> dict[str, Anchor]:
    out: dict[str, Anchor] = {}
    for sec in content.sections:
        for sd in sec.sides.values():
            for a in sd.anchors:
                out.setdefault(a.id, a)
    return out


def _home_section(content: Content) -> dict[str, int]:
    """Index of the section each anchor belongs to (an edge anchor: the one it ends)."""
    home: dict[str, int] = {}
    for sec in content.sections:
        for sd in sec.sides.values():
            for a in sd.anchors:
                home.setdefault(a.id, sec.index)
    return home


def map_paths(content: Content, limit: int = 100_000) -> list[MapPath]:
    """Every path of every side combination, start point to first blue anchor.

    Raises ``ValueError`` on a cycle, a dead end or more than ``limit`` paths
    (the validator turns these into problems).
    """
    anchors = _anchor_index(content)
    home = _home_section(content)
    sections = content.sections
    out: list[MapPath] = []

    def succ(aid: str, sides: tuple[str, ...]) -> list[Route]:
        # routes leave an anchor in the section where it is not the western edge
        idx = home[aid]
        a = anchors[aid]
        if a.edge and idx + 1 < len(sections):
            idx += 1
        if idx >= len(sides):
            return []
        return [r for r in sections[idx].sides[sides[idx]].routes if r.src == aid]

    def walk(path: list[str], sides: tuple[str, ...]) -> Iterator[MapPath]:
        if len(out) + 1 > limit:
            raise ValueError(f"more than {limit} paths")
        cur = path[-1]
        a = anchors[cur]
        if a.blue and len(path) > 1:
            finals = tuple(
                r.dst
                for r in succ(cur, sides)
                if r.dst in anchors and anchors[r.dst].final_pp is not None
            )
            yield MapPath(sides, tuple(path), tuple(anchors[x].region for x in path[1:]), finals)
            return
        idx = home[cur]
        if a.edge and idx + 1 < len(sections) and len(sides) == idx + 1:
            for s in SIDES:
                if s in sections[idx + 1].sides:
                    yield from walk(path, (*sides, s))
            return
        routes = succ(cur, sides)
        if not routes:
            raise ValueError(
                f"dead end at {cur!r} (sides {'/'.join(sides)}, path {' > '.join(path)})"
            )
        for r in routes:
            if r.dst in path:
                raise ValueError(f"cycle through {r.dst!r} (path {' > '.join([*path, r.dst])})")
            if r.dst not in anchors:
                raise ValueError(f"route {r.src!r} -> {r.dst!r} leads to an unknown anchor")
            yield from walk([*path, r.dst], sides)

    east = sections[0] if sections else None
    if east is None:
        return out
    for side_name, side in east.sides.items():
        for a in side.anchors:
            if a.start:
                for p in walk([a.id], (side_name,)):
                    out.append(p)
    return out


def round_range(content: Content) -> dict[tuple[str, ...], tuple[int, int]]:
    """(min, max) rounds for each complete side combination (East, CE, CW, W)."""
    res: dict[tuple[str, ...], tuple[int, int]] = {}
    for p in map_paths(content):
        lo, hi = res.get(p.sides, (p.rounds, p.rounds))
        res[p.sides] = (min(lo, p.rounds), max(hi, p.rounds))
    return dict(sorted(res.items()))


# -- the checks ---------------------------------------------------------------


def problems(content: Content) -> list[str]:
    """Every broken constraint of ``content``, one message each ([] = valid)."""
    out: list[str] = []
    checks: list[tuple[str, Callable[[Content, list[str]], None]]] = [
        ("map", _check_regions),
        ("map", _check_sections),
        ("map", _check_paths),
        ("map", _check_compass),
        ("board", _check_board),
        ("tracks", _check_tracks),
        ("cards", _check_cards),
        ("cards", _check_cartography),
        ("scenarios", _check_scenarios),
        ("rules", _check_rules),
        ("myths", _check_myths),
        ("walking", _check_walking),
    ]
    for name, check in checks:
        try:
            check(content, out)
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
            out.append(f"{name}: malformed data ({exc!r})")
    return out


def check_content(content: Content) -> None:
    """Raise ``ValueError`` listing every problem of ``content``."""
    found = problems(content)
    if found:
        lines = "\n".join(f"  - {p}" for p in found)
        raise ValueError(f"Through Ice and Snow data: {len(found)} problem(s):\n{lines}")


def _dupes(ids: list[Any]) -> list[Any]:
    seen: set[Any] = set()
    d: list[Any] = []
    for i in ids:
        if i in seen and i not in d:
            d.append(i)
        seen.add(i)
    return d


# map ----------------------------------------------------------------------------


def _check_regions(c: Content, out: list[str]) -> None:
    raw_ids = [r["id"] for r in c.raw.get("map", {}).get("regions", [])] or list(c.regions)
    for d in _dupes(raw_ids):
        out.append(f"map: region id {d!r} is duplicated")
    for r in c.regions.values():
        if not 0 <= r.species <= 3:
            out.append(f"map: region {r.id!r} reveals {r.species} species cards (allowed 0-3)")
    for rid in REQUIRED_REGIONS:
        if rid not in c.regions:
            out.append(f"map: region {rid!r} named by the reference is missing")
    if "devon" in c.regions and c.regions["devon"].species != 2:
        out.append(
            f"map: Devon reveals {c.regions['devon'].species} species cards (reference §4.1: 2)"
        )
    if "st_patrick" in c.regions and not c.regions["st_patrick"].island:
        out.append("map: St. Patrick Island must be an island region (reference §11.1 M6)")
    used = {a.region for a in _anchor_index(c).values()}
    for rid in c.regions:
        if rid not in used:
            out.append(f"map: region {rid!r} has no anchor point")


def _anchor_fields(a: Anchor) -> tuple[Any, ...]:
    return (a.id, a.name, a.region, a.x, a.y, a.start, a.blue, a.final_pp, a.edge)


def _check_sections(c: Content, out: list[str]) -> None:
    ids = tuple(s.id for s in c.sections)
    if ids != SECTION_IDS:
        out.append(f"map: sections must be {list(SECTION_IDS)} in voyage order, not {list(ids)}")
        return
    for sec in c.sections:
        if sorted(sec.sides) != list(SIDES):
            out.append(f"map: section {sec.id!r} must have sides A and B, not {sorted(sec.sides)}")
            return
    # anchors: where each id occurs
    where: dict[str, list[tuple[int, str, Anchor]]] = {}
    for sec in c.sections:
        for sname, sd in sec.sides.items():
            for d in _dupes([a.id for a in sd.anchors]):
                out.append(f"map: anchor id {d!r} is listed twice in {sec.id} side {sname}")
            for a in sd.anchors:
                where.setdefault(a.id, []).append((sec.index, sname, a))
                if a.region not in c.regions:
                    out.append(
                        f"map: anchor {a.id!r} ({sec.id} {sname}) is in unknown region {a.region!r}"
                    )
                if a.final_pp is not None and a.final_pp not in (6, 8):
                    out.append(
                        f"map: final anchor {a.id!r} is worth {a.final_pp} PP (reference §5.1: 6 or 8)"
                    )
    exits: dict[int, set[str]] = {}
    for aid, occ in where.items():
        secs = sorted({i for i, _, _ in occ})
        first = occ[0][2]
        if len(occ) == 1:
            if first.edge and secs[0] < len(c.sections) - 1:
                out.append(
                    f"map: edge anchor {aid!r} must also be listed in both sides of the next section"
                )
            elif first.edge:
                out.append(f"map: anchor {aid!r} on the West section cannot be an edge anchor")
            continue
        if not first.edge:
            out.append(f"map: anchor id {aid!r} is used more than once but is not an edge anchor")
            continue
        if len(secs) != 2 or secs[1] != secs[0] + 1:
            out.append(
                f"map: edge anchor {aid!r} must be shared by one section and the next, not {secs}"
            )
            continue
        placed = {(i, s) for i, s, _ in occ}
        missing = [f"{c.sections[i].id} {s}" for i in secs for s in SIDES if (i, s) not in placed]
        if missing:
            out.append(f"map: edge anchor {aid!r} is missing from {', '.join(missing)}")
        for _, _, a in occ[1:]:
            if _anchor_fields(a) != _anchor_fields(first):
                out.append(
                    f"map: the copies of edge anchor {aid!r} differ (id, name, region, x, y and flags must be identical)"
                )
                break
        exits.setdefault(secs[0], set()).add(aid)
    for sec in c.sections[:-1]:
        if not exits.get(sec.index):
            out.append(f"map: section {sec.id!r} has no edge anchor shared with the next section")
    # starts
    for sec in c.sections:
        for sname, sd in sec.sides.items():
            starts = [a for a in sd.anchors if a.start]
            want = {("east", "A"): 1, ("east", "B"): 2}.get((sec.id, sname), 0)
            if len(starts) != want:
                out.append(
                    f"map: {sec.id} side {sname} has {len(starts)} start anchor(s), expected {want}"
                    + (
                        " (reference §7.2: East side B has 2)"
                        if (sec.id, sname) == ("east", "B")
                        else ""
                    )
                )
            for a in starts:
                if a.region != "baffin":
                    out.append(f"map: start anchor {a.id!r} is not in Baffin, the first region")
            for a in sd.anchors:
                if a.blue and sec.id not in ("central_west", "west"):
                    out.append(
                        f"map: blue anchor {a.id!r} is on the {sec.name} section (only Central West or West)"
                    )
                if a.final_pp is not None and sec.id != "west":
                    out.append(f"map: final anchor {a.id!r} is not on the West section")
                if a.blue and a.final_pp is not None:
                    out.append(f"map: anchor {a.id!r} cannot be both blue and final")
    # routes, per side
    for sec in c.sections:
        entries = exits.get(sec.index - 1, set())
        own_exits = exits.get(sec.index, set())
        finals_pp: set[int] = set()
        for sname, sd in sec.sides.items():
            ids_here = {a.id: a for a in sd.anchors}
            for d in _dupes([(r.src, r.dst) for r in sd.routes]):
                out.append(f"map: route {d[0]!r} -> {d[1]!r} is listed twice in {sec.id} {sname}")
            for r in sd.routes:
                where_s = f"{sec.id} {sname}"
                if r.src not in ids_here or r.dst not in ids_here:
                    bad = r.src if r.src not in ids_here else r.dst
                    out.append(
                        f"map: route {r.src!r} -> {r.dst!r} ({where_s}) names {bad!r}, not an anchor of that side"
                    )
                    continue
                if r.src == r.dst:
                    out.append(f"map: route {r.src!r} -> {r.dst!r} ({where_s}) goes nowhere")
                if r.dynamite not in (0, 1):
                    out.append(
                        f"map: route {r.src!r} -> {r.dst!r} ({where_s}) needs {r.dynamite} extra dynamite (0 or 1)"
                    )
                if r.dst in entries:
                    out.append(
                        f"map: route {r.src!r} -> {r.dst!r} ({where_s}) goes back east across a section boundary"
                    )
                if r.src in own_exits:
                    out.append(
                        f"map: route {r.src!r} -> {r.dst!r} ({where_s}) leaves an edge anchor inside its own section"
                    )
                src, dst = ids_here[r.src], ids_here[r.dst]
                if src.final_pp is not None:
                    out.append(
                        f"map: route {r.src!r} -> {r.dst!r} ({where_s}) leaves a final anchor"
                    )
                if dst.final_pp is not None and not src.blue:
                    out.append(
                        f"map: route {r.src!r} -> {r.dst!r} ({where_s}) reaches a final anchor from a non-blue anchor"
                    )
                if src.blue and dst.final_pp is None:
                    out.append(
                        f"map: route {r.src!r} -> {r.dst!r} ({where_s}) leaves a blue anchor for a non-final anchor"
                    )
            outgoing = {r.src for r in sd.routes}
            incoming = {r.dst for r in sd.routes}
            for a in sd.anchors:
                if a.id in own_exits or a.final_pp is not None:
                    continue
                if a.id not in outgoing:
                    out.append(
                        f"map: anchor {a.id!r} has no outgoing route in {sec.id} side {sname} (dead end)"
                    )
                if a.id not in incoming and not a.start and a.id not in entries:
                    out.append(
                        f"map: anchor {a.id!r} ({sec.id} {sname}) cannot be reached: no route leads to it"
                    )
            side_finals = {a.final_pp for a in sd.anchors if a.final_pp is not None}
            if sec.id == "west":
                if len(side_finals) != 1:
                    out.append(
                        f"map: West side {sname} must have final anchors of one value, not {sorted(side_finals)}"
                    )
                if not any(a.blue for a in sd.anchors):
                    out.append(f"map: West side {sname} has no blue anchor")
                finals_pp |= side_finals
        if sec.id == "west" and finals_pp != {6, 8}:
            out.append(
                f"map: the two West sides must have final anchors worth 6 and 8 PP, not {sorted(finals_pp)}"
            )


def _check_paths(c: Content, out: list[str]) -> None:
    if tuple(s.id for s in c.sections) != SECTION_IDS:
        return
    try:
        paths = map_paths(c)
    except ValueError as exc:
        out.append(f"map: {exc}")
        return
    if not paths:
        out.append("map: no path leads from a start anchor to a blue anchor")
        return
    bad_len: dict[tuple[str, ...], list[MapPath]] = {}
    bad_map: dict[tuple[str, ...], list[MapPath]] = {}
    for p in paths:
        if not MIN_ROUNDS <= p.rounds <= MAX_ROUNDS:
            bad_len.setdefault(p.sides, []).append(p)
        if len(p.mappable) > CARTOGRAPHY_TOKENS:
            bad_map.setdefault(p.sides, []).append(p)
        if not p.finals:
            out.append(f"map: blue anchor {p.anchors[-1]!r} has no route to a final anchor")
    for sides, bad in bad_len.items():
        worst = max(bad, key=lambda p: abs(p.rounds - (MIN_ROUNDS + MAX_ROUNDS) / 2))
        out.append(
            f"map: sides {'/'.join(sides)}: {len(bad)} path(s) outside {MIN_ROUNDS}-{MAX_ROUNDS} rounds "
            f"(reference §4), e.g. {worst.rounds} rounds: {' > '.join(worst.anchors)}"
        )
    for sides, bad in bad_map.items():
        worst = max(bad, key=lambda p: len(p.mappable))
        out.append(
            f"map: sides {'/'.join(sides)}: {len(bad)} path(s) can map more regions than the "
            f"{CARTOGRAPHY_TOKENS} cartography tokens, e.g. {len(worst.mappable)}: {' > '.join(worst.anchors)}"
        )
    seen = {a for p in paths for a in p.anchors} | {f for p in paths for f in p.finals}
    for aid in _anchor_index(c):
        if aid not in seen:
            out.append(f"map: anchor {aid!r} is on no path from a start anchor to a blue anchor")
    combos = {p.sides for p in paths}
    for combo in itertools.product(SIDES, repeat=len(SECTION_IDS)):
        if combo not in combos:
            out.append(f"map: side combination {'/'.join(combo)} has no complete path")


def _neighbours(c: Content, combo: tuple[str, ...]) -> dict[str, set[str]]:
    nb: dict[str, set[str]] = {}
    for sec, s in zip(c.sections, combo, strict=True):
        for r in sec.sides[s].routes:
            nb.setdefault(r.src, set()).add(r.dst)
            nb.setdefault(r.dst, set()).add(r.src)
    return nb


def _check_compass(c: Content, out: list[str]) -> None:
    """Magnetic North Pole: 'farthest in a direction' must be well defined (§7.2)."""
    if tuple(s.id for s in c.sections) != SECTION_IDS:
        return
    anchors = _anchor_index(c)
    home = _home_section(c)
    reported: set[tuple[str, str]] = set()
    for combo in itertools.product(SIDES, repeat=len(SECTION_IDS)):
        nb = _neighbours(c, combo)
        for aid, ns in sorted(nb.items()):
            if aid not in anchors:
                continue  # reported by the route check
            a = anchors[aid]
            if a.final_pp is not None or home[aid] < 1:
                continue
            pts = [anchors[n] for n in sorted(ns) if n in anchors]
            for axis in ("x", "y"):
                vals = [getattr(p, axis) for p in pts] + [getattr(a, axis)]
                if len(set(vals)) != len(vals) and (aid, axis) not in reported:
                    reported.add((aid, axis))
                    out.append(
                        f"map: anchor {aid!r} and its route neighbours share an {axis} coordinate "
                        "('farthest in a compass direction' would be ambiguous)"
                    )
            # from Central West on (its entry anchors included) the compass needs several directions
            if home[aid] >= 2 or a.edge:
                dirs = {
                    d
                    for p in pts
                    for d, ok in (
                        ("N", p.y > a.y),
                        ("S", p.y < a.y),
                        ("E", p.x > a.x),
                        ("W", p.x < a.x),
                    )
                    if ok
                }
                if len(dirs) < 3 and (aid, "dirs") not in reported:
                    reported.add((aid, "dirs"))
                    out.append(
                        f"map: anchor {aid!r} has route neighbours only to the "
                        f"{''.join(sorted(dirs))} (sides {'/'.join(combo)}); the magnetised compass "
                        "needs at least 3 directions"
                    )


# board ---------------------------------------------------------------------------


def _check_board(c: Content, out: list[str]) -> None:
    raw_ids = [s["id"] for s in c.raw.get("board", {}).get("spaces", [])] or list(c.spaces)
    for d in _dupes(raw_ids):
        out.append(f"board: space id {d!r} is duplicated")
    for sid, sp in c.spaces.items():
        if sid not in KNOWN_SPACES:
            out.append(f"board: unknown space {sid!r} (the engine implements {len(KNOWN_SPACES)})")
            continue
        for n in sp.need:
            if n not in CREW_NEEDS:
                out.append(f"board: space {sid!r} needs unknown crew {n!r}")
        if (
            sp.final or sp.column == "general" or sid.startswith(("exchange_", "collect_"))
        ) and sp.above_warehouse:
            out.append(f"board: space {sid!r} cannot be above a warehouse")
        if sid.startswith("vow_"):
            if sp.resource not in RESOURCES:
                out.append(
                    f"board: Vow of Silence space {sid!r} counts {sp.resource!r}, not a resource"
                )
        elif sp.resource is not None:
            out.append(f"board: space {sid!r} has a resource but is not a Vow of Silence space")
    vows = [sp.resource for sid, sp in c.spaces.items() if sid.startswith("vow_")]
    for d in _dupes(vows):
        out.append(f"board: two Vow of Silence spaces count {d!r}")
    if sorted(c.warehouses) != sorted(ROLES):
        out.append(
            f"board: warehouses must be one per column {list(ROLES)}, not {sorted(c.warehouses)}"
        )
    for col, w in c.warehouses.items():
        if w.officer != col:
            out.append(f"board: the {col} warehouse needs the {w.officer}, expected the {col}")
        if w.gives not in ("dynamite", "wood", "rifles"):
            out.append(
                f"board: the {col} warehouse gives {w.gives!r} (reference §4.6.4: dynamite, wood or rifles)"
            )
    if "captain" in c.warehouses and c.warehouses["captain"].gives != "dynamite":
        out.append("board: the captain warehouse must give dynamite (reference §4.6.4 example)")
    for d in _dupes([w.gives for w in c.warehouses.values()]):
        out.append(f"board: two warehouses give {d!r}")


# tracks --------------------------------------------------------------------------


def available_sled_level(groups: list[list[int]], sled: int, dogs: int) -> int:
    """Lost Expedition: highest level <= ``sled`` with at least one dog space filled."""
    best = 0
    for level, (first, _last) in enumerate(groups, start=1):
        if level <= sled and dogs >= first:
            best = level
    return best


def _check_tracks(c: Content, out: list[str]) -> None:
    for name, tr, start, zone in (
        ("health", c.health, 4, "scurvy"),
        ("morale", c.morale, 5, "mutiny"),
    ):
        if tr.start != start:
            out.append(f"tracks: {name} starts at {tr.start}, reference §2.2: {start}")
        if not 0 < tr.start <= tr.max:
            out.append(f"tracks: {name} start {tr.start} is outside 1..{tr.max}")
        if len(tr.end_pp) != tr.max + 1:
            out.append(
                f"tracks: {name} end_pp has {len(tr.end_pp)} values, expected {tr.max + 1} (spaces 0..{tr.max})"
            )
        if tr.effects.get(0) != "death":
            out.append(f"tracks: {name} space 0 must be 'death' (reference §4.3)")
        if zone not in tr.effects.values():
            out.append(f"tracks: {name} has no {zone} zone (reference §4.3)")
        for sp, eff in tr.effects.items():
            if not 0 <= sp <= tr.max:
                out.append(f"tracks: {name} effect on space {sp} is off the track")
            if eff not in ("death", zone):
                out.append(f"tracks: {name} space {sp} has effect {eff!r} (allowed death, {zone})")
            if sp >= tr.start and eff != "death":
                out.append(f"tracks: {name} start space {tr.start} must be above the {eff} zone")
    if 1 not in c.health.end_pp:
        out.append("tracks: no health space is worth +1 PP (reference §5.2 example)")
    if -1 not in c.morale.end_pp:
        out.append("tracks: no morale space is worth -1 PP (reference §5.2 example)")
    t = c.tracks
    fuel = t["fuel"]
    if (fuel["max"], fuel["start"]) != (10, 10):
        out.append(f"tracks: fuel max/start {fuel['max']}/{fuel['start']}, reference §4.4: 10/10")
    bands = sorted((b["from"], b["to"], b["effect"]) for b in fuel["bands"])
    if bands != [(0, 3, "discard"), (4, 7, None), (8, 10, "morale")]:
        out.append(
            f"tracks: fuel bands {bands}, reference §4.4: 0-3 discard, 4-7 none, 8-10 morale"
        )
    sled = t["sled"]
    spp = sled["explore_pp"]
    if sled["start"] != 1:
        out.append(f"tracks: sled starts at {sled['start']}, reference §2.2: 1")
    if len(spp) != sled["max"] + 1:
        out.append(f"tracks: sled explore_pp has {len(spp)} values, expected {sled['max'] + 1}")
    if sled["max"] < 3:
        out.append("tracks: sled level 3 must exist (reference §7.1 example)")
    if spp[:2] != [0, 5]:
        out.append(
            f"tracks: sled explore_pp must start [0, 5] (level 1 caps Explore at 5, §4.6.1), not {spp[:2]}"
        )
    if any(b < a for a, b in itertools.pairwise(spp)):
        out.append("tracks: sled explore_pp must not decrease")
    dogs = t["dogs"]
    dpp = dogs["explore_pp"]
    n = dogs["spaces"]
    if n < 7:
        out.append(f"tracks: dog track has {n} spaces, reference §11.3 P5: at least 7")
    if dogs["start"] != 3:
        out.append(f"tracks: dogs start at {dogs['start']}, reference §2.2: 3")
    if len(dpp) != n + 1:
        out.append(f"tracks: dogs explore_pp has {len(dpp)} values, expected {n + 1} (0..{n} dogs)")
    if len(dpp) > 4 and (dpp[0], dpp[4]) != (0, 7):
        out.append(
            f"tracks: dogs explore_pp must give 0 for 0 dogs and 7 for 4 dogs (§4.6.1), not {dpp[0]}/{dpp[4]}"
        )
    if any(b < a for a, b in itertools.pairwise(dpp)):
        out.append("tracks: dogs explore_pp must not decrease")
    groups = [list(g) for g in dogs["groups"]]
    if len(groups) != sled["max"]:
        out.append(
            f"tracks: dogs has {len(groups)} groups, expected one per sled level 1..{sled['max']}"
        )
    expect_first = 1
    for g in groups:
        if g[0] != expect_first or g[1] < g[0]:
            out.append(
                f"tracks: dog groups must cover spaces 1..{n} in order without gaps, not {groups}"
            )
            break
        expect_first = g[1] + 1
    else:
        if expect_first - 1 != n:
            out.append(f"tracks: dog groups cover spaces 1..{expect_first - 1}, the track has {n}")
    if available_sled_level(groups, 3, 4) != 2:
        out.append(
            "tracks: a sled at level 3 with 4 dogs must have available level 2 (reference §7.1 example)"
        )
    if max(min(a, b) for a in spp for b in dpp) < 13:
        out.append(
            "tracks: no sled/dog combination reaches 13 PP (Magnetic North Pole West needs it)"
        )
    tow = t["towing"]
    pp = {int(k): v for k, v in tow["pp"].items()}
    if tow["start"] != 0:
        out.append(f"tracks: towing starts at {tow['start']}, reference §2.2: 0")
    if not tow["min"] <= -1 < 0 < tow["max"]:
        out.append(
            f"tracks: towing range {tow['min']}..{tow['max']} must include -1 and a level above 0"
        )
    if sorted(pp) != list(range(tow["min"], tow["max"] + 1)):
        out.append(
            f"tracks: towing pp must give a value for every level {tow['min']}..{tow['max']}"
        )
    if pp.get(-1) != 5:
        out.append(
            f"tracks: towing level -1 must be worth 5 PP (reference §4.4 example), not {pp.get(-1)}"
        )
    food = t["food"]
    if food["start"] != 25 or food["max"] < 50:
        out.append(
            f"tracks: food start {food['start']} max {food['max']}, reference §2.2: start 25, above 50 possible"
        )
    if t["inuit"]["max"] != 15:
        out.append(f"tracks: Inuit track max {t['inuit']['max']}, the box has 15 Inuit pawns")
    ups = t["upgrade_spaces"]
    if len(ups) != 4 or ups[1:] != [{"morale": 1}, {"wood": 1}, {"morale": 1}]:
        out.append(
            f"tracks: upgrade spaces must be 4 with bonuses -, +1 morale, +1 wood, +1 morale (§4.6.2), not {ups}"
        )


# cards ---------------------------------------------------------------------------


def _check_cards(c: Content, out: list[str]) -> None:
    raw = c.raw.get("cards", {})
    counts = {"species": 32, "hunting": 41, "dual": 3, "cartography": 10, "investors": 11}
    for key, want in counts.items():
        got = len(raw[key]) if key in raw else len(getattr(c, key))
        if got != want:
            out.append(f"cards: {got} {key} cards, reference §1: {want}")
    all_ids = [
        x["id"]
        for key in ("species", "hunting", "whales", "dual", "cartography", "investors")
        for x in raw.get(key, [])
    ]
    for d in _dupes(all_ids):
        out.append(f"cards: card id {d!r} is duplicated")
    for s in c.species.values():
        if s.pp < 0 or s.food < 0 or s.health < 0:
            out.append(f"cards: species card {s.id!r} has a negative value")
    per_species: dict[str, int] = {}
    for s in c.species.values():
        per_species[s.species] = per_species.get(s.species, 0) + 1
    if per_species and max(per_species.values()) < 2:
        out.append(
            "cards: no species has more than one card ('first to acquire this species', §4.6.3)"
        )
    for h in c.hunting.values():
        if not 1 <= h.prey <= 4 or h.food < 0 or h.health < 0:
            out.append(
                f"cards: hunting card {h.id!r} has prey {h.prey} food {h.food} health {h.health}"
            )
        if h.whale:
            out.append(
                f"cards: hunting card {h.id!r} is a whale; whale cards belong in 'whales' (need upgrade 7)"
            )
        if h.species is not None:
            out.append(f"cards: hunting card {h.id!r} names a species; dual cards belong in 'dual'")
    discards_walrus = [
        e.number
        for e in c.events.values()
        if any(o.op == "round_modifier" and o["modifier"] == "no_walrus" for o in e.effect.reveal)
    ]
    if discards_walrus and not any(h.walrus for h in c.hunting.values()):
        out.append(f"cards: no walrus hunting card (event {discards_walrus[0]} discards them)")
    for h in c.whales.values():
        if not h.whale:
            out.append(f"cards: whale card {h.id!r} is not marked whale")
    for h in c.dual.values():
        if not h.species:
            out.append(f"cards: dual species card {h.id!r} names no species")
        if not 1 <= h.prey <= 4:
            out.append(f"cards: dual species card {h.id!r} has prey {h.prey}")
    # events
    for d in _dupes([e["number"] for e in raw.get("events", [])]):
        out.append(f"cards: event {d} is duplicated")
    for e in c.events.values():
        if e.kind == "action" and (
            not e.crew or any(not isinstance(k, int) or k < 1 for k in e.crew)
        ):
            out.append(
                f"cards: action event {e.number} needs crew counts (positive integers), not {list(e.crew)}"
            )
        if e.kind == "immediate" and e.crew:
            out.append(f"cards: immediate event {e.number} has crew counts")
    out += _effects_problems(raw.get("events", []))
    # investors
    for iid, inv in c.investors.items():
        for k in inv.bonus:
            if k not in BONUS_KEYS:
                out.append(
                    f"cards: investor {iid!r} bonus {k!r} is not one of {sorted(BONUS_KEYS)}"
                )
    # upgrades
    for num, u in c.upgrades.items():
        if u.copies < 1 or u.cost < 0:
            out.append(f"cards: upgrade {num} has {u.copies} copies cost {u.cost}")


def _check_walking(c: Content, out: list[str]) -> None:
    """Walking on Ice (``walking.json``): see :func:`.walking_data.walking_problems`."""
    out += walking_problems(c)


def _check_myths(c: Content, out: list[str]) -> None:
    """Inuit Myths (``myths.json``): the creature cards in the vocabulary of
    :mod:`.creatures`, module tiles naming a known module."""
    myths = c.raw.get("myths", {})
    if not myths:
        return
    extra = set(myths) - {"_design", "creatures", "upgrades"}
    if extra:
        out.append(f"myths: unknown key(s) {sorted(extra)}")
    out += creature_problems(myths.get("creatures", []), set(c.upgrades))
    for num, u in c.upgrades.items():
        if u.module is not None and u.module not in MODULES:
            out.append(f"upgrade {num}: unknown module {u.module!r}")


def _effects_problems(events: list[Any]) -> list[str]:
    """Every event card's ``effect`` in the vocabulary of :mod:`.effects`, and one
    set of parameters per round modifier and per power (the engine looks them
    up by name)."""
    out: list[str] = []
    seen: dict[str, tuple[Any, dict[str, Any]]] = {}
    for e in events:
        number = e.get("number") if isinstance(e, dict) else e
        if not isinstance(e, dict) or "effect" not in e:
            out.append(f"cards: event {number} has no effect field")
            continue
        problems = effect_problems(number, e.get("kind"), e["effect"])
        out += problems
        if problems:
            continue
        for phase, op_name, key in (
            ("reveal", "round_modifier", "modifier"),
            ("take", "keep_card", "power"),
        ):
            for op in e["effect"].get(phase, []):
                if op["op"] != op_name:
                    continue
                params = {k: v for k, v in op.items() if k != "op"}
                first = seen.setdefault(f"{key} {op[key]!r}", (number, params))
                if first[1] != params:
                    out.append(
                        f"cards: event {number} gives {key} {op[key]!r} {params}, "
                        f"event {first[0]} {first[1]}; one set of parameters per {key} name"
                    )
    return out


def _check_cartography(c: Content, out: list[str]) -> None:
    sets = []
    for k in c.cartography.values():
        names = list(k.regions)
        if len(names) != 3 or len(set(names)) != 3:
            out.append(
                f"cards: cartography card {k.id!r} must name 3 different regions, not {names}"
            )
            continue
        bad = [r for r in names if r not in c.regions]
        if bad:
            out.append(f"cards: cartography card {k.id!r} names unknown region(s) {bad}")
            continue
        sets.append((k.id, frozenset(names)))
    for d in _dupes([s for _, s in sets]):
        out.append(f"cards: two cartography cards name the same regions {sorted(d)}")
    if tuple(s.id for s in c.sections) != SECTION_IDS:
        return
    try:
        paths = map_paths(c)
    except ValueError:
        return  # reported by the path check
    if not paths:
        return
    for cid, regs in sets:
        full = sum(1 for p in paths if regs <= p.mappable)
        if full == 0:
            out.append(f"cards: cartography card {cid!r}: no path visits all of {sorted(regs)}")
        elif full == len(paths):
            out.append(
                f"cards: cartography card {cid!r}: every path visits all of {sorted(regs)} (trivially certain)"
            )


# scenarios -----------------------------------------------------------------------


def _check_scenarios(c: Content, out: list[str]) -> None:
    sc = c.scenarios
    for name in ("lost-expedition", "magnetic-north-pole", "mysterious-epidemic"):
        s = sc.get(name)
        if not isinstance(s, dict):
            out.append(f"scenarios: scenario {name!r} is missing")
            continue
        for deck, nums in s.get("decks", {}).items():
            for n in nums:
                e = c.events.get(n)
                if e is None or e.deck != deck:
                    out.append(
                        f"scenarios: {name} puts event {n} in the {deck} deck, which it is not in"
                    )
    le = sc.get("lost-expedition")
    if isinstance(le, dict):
        cards = le.get("search_cards", [])
        if len(cards) != 5:
            out.append(
                f"scenarios: lost-expedition has {len(cards)} search cards, reference §7.1: 5"
            )
        if sum(1 for k in cards if k.get("result") == "survivors") != 1:
            out.append("scenarios: exactly one lost-expedition search card must show the survivors")
        if le.get("progress") != {"start": 0, "max": 5}:
            out.append(
                f"scenarios: lost-expedition progress {le.get('progress')}, expected start 0 max 5"
            )
        obj = le.get("objective", {})
        species = {s.species for s in c.species.values()}
        if obj.get("species") not in species:
            out.append(
                f"scenarios: lost-expedition objective species {obj.get('species')!r} is not on a species card"
            )
        if obj.get("cabin_forbidden_region") != "baffin" or obj.get("cabin_food") != 4:
            out.append(
                "scenarios: lost-expedition objective must forbid a cabin in Baffin and need food 4 (§7.1)"
            )
    mnp = sc.get("magnetic-north-pole")
    if isinstance(mnp, dict):
        if mnp.get("magnetise_section") not in SECTION_IDS:
            out.append(
                f"scenarios: magnetise_section {mnp.get('magnetise_section')!r} is not a section"
            )
        for sid in mnp.get("blocked_spaces", []):
            if sid not in c.spaces:
                out.append(f"scenarios: magnetic-north-pole blocks unknown space {sid!r}")
        for sid in mnp.get("replaced_spaces", {}):
            if sid not in c.spaces:
                out.append(f"scenarios: magnetic-north-pole replaces unknown space {sid!r}")
    scenario_data.check(c, out)  # Mysterious Epidemic, Amundsen's Voyage (§9.4, §9.5)


# rules ---------------------------------------------------------------------------


def _check_rules(c: Content, out: list[str]) -> None:
    st = c.rules.get("start_tracks", {})
    for name, tr in (("health", c.health), ("morale", c.morale)):
        if st.get(name) != tr.start:
            out.append(
                f"rules: start_tracks {name} {st.get(name)} differs from tracks.json ({tr.start})"
            )
