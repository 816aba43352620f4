"""Game content of Through Ice and Snow, loaded from ``data/*.json``.

The printed game's map, cards and tracks are not public (reference §11), so the
data files are **our design** (each file says so in its ``"_design"`` header and
``docs/iceandsnow-data.md`` explains the choices).  A user who owns the printed
game can replace any value in the JSON without touching code: every number the
rules engine needs that the rules text does not state lives here.

Files and their shapes (``validate.problems`` checks them at load):

``map.json``
    ``regions``: ``[{"id", "name", "species": int (cards revealed on arrival at
    each of its anchor points), "island": bool}]``.
    ``sections``: in voyage order East, Central East, Central West, West:
    ``[{"id", "name", "sides": {"A": Side, "B": Side}}]``; a Side is
    ``{"anchors": [Anchor], "routes": [{"from", "to", "dynamite": 0|1}]}``.
    An Anchor is ``{"id", "name", "region", "x", "y", "start": bool, "blue":
    bool, "final_pp": int|null, "edge": bool}``: ``x`` grows east and ``y``
    north (compass geometry); ``start`` marks the start point(s); ``blue`` a
    final-round anchor; ``final_pp`` the PP of a final anchor point (6 or 8);
    ``edge`` an anchor on the section's western edge — reaching it places the
    next section.  An anchor shared by two sections (an ``edge`` anchor) is
    listed, with the same id, name, region and coordinates, in its own section
    and in **both** sides of the next one; every other id is unique.

``board.json`` (the action board)
    ``spaces``: ``[{"id", "column": "captain"|"carpenter"|"scientist"|
    "general", "slots": {"1": n, "2": n, "3": n, "4": n} (null slots =
    unlimited), "above_warehouse": bool, "final": bool, "need": [roles] (any
    one of them must be among the crew; empty = any crew), "totals": [int] (the
    allowed crew counts; empty = any number ≥ 1), "wood": int, "fuel": int,
    "resource": str|null (Vow of Silence: the resource counted)}]``.
    ``warehouses``: ``[{"column", "officer", "gives"}]``.

``tracks.json``
    ``health``/``morale``: ``{"min": 0, "max": m, "start": s, "effects":
    {space: "death"|"scurvy"|"mutiny"}, "end_pp": [pp for space 0..max]}``;
    ``fuel``: ``{"max": 10, "start": 10, "bands": [{"from", "to", "effect":
    "morale"|"discard"|null}]}``; ``sled``: ``{"max", "start", "explore_pp":
    [pp for level 0..max]}``; ``dogs``: ``{"spaces": n, "start": d,
    "explore_pp": [pp for 0..n dogs], "groups": [[first, last] dog spaces of
    sled level 1, 2, …]}``; ``towing``: ``{"min", "max", "start", "pp":
    {level: pp}}``; ``food``: ``{"start", "max"}``; ``inuit``: ``{"max"}``;
    ``upgrade_spaces``: ``[{"morale": n, "wood": n}, …]`` bonuses of the 1st–4th
    upgrade space.

``cards.json``
    ``species`` (32): ``{"id", "species", "name", "pp", "food", "health",
    "fishing_boat": bool}``; ``hunting`` (41): ``{"id", "name", "prey", "food",
    "health", "walrus": bool, "whale": bool}``; ``whales`` (optional hunting
    cards, need upgrade 7): same shape; ``dual`` (3): hunting shape plus
    ``"species"``; ``cartography`` (10): ``{"id", "regions": [3 region ids]}``;
    ``events`` (1–28): ``{"number", "name", "deck": "open"|"coastal", "kind":
    "immediate"|"action", "crew": [allowed crew counts] (action cards),
    "optional": bool, "effect": {"reveal": [op], "take": [op]}}`` (the ops of
    :mod:`~erebus.games.iceandsnow.effects`); ``investors`` (11): ``{"id", "name", "bonus": {res:
    n}, "objective": str, "params": {...}, "reward"}``; ``upgrades`` (1–11):
    ``{"number", "name", "copies", "cost", "optional": bool}``.

``scenarios.json``
    ``{"lost-expedition": {...}, "magnetic-north-pole": {...}}`` — start
    resources, event decks, extra cards (search cards, compass cards) and
    objectives of each solo scenario.

``rules.json``
    Every other number the rules give, collected so that a house rule is a data
    change: start resources by player count, hunting cards per round, PP of the
    actions, food shortage values, majority tables, fuel costs.

``walking.json`` (Walking on Ice, optional)
    The module's map sections, route types, sled board, cans, tiles, walking
    events 29–36 and upgrades 12–13; its shape and checks are in
    :mod:`~erebus.games.iceandsnow.walking_data` (``Content.walking``).
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from erebus.games.iceandsnow.creatures import CreatureCard, creature_problems, parse_creatures
from erebus.games.iceandsnow.effects import CardEffect, effect_problems, parse_effect
from erebus.games.iceandsnow.model import (
    CREW_KINDS,
    RESOURCES,
    ROLES,
    Anchor,
    CartographyCard,
    Content,
    EventCard,
    HuntingCard,
    Investor,
    Region,
    Route,
    Section,
    Side,
    Space,
    SpeciesCard,
    Track,
    Upgrade,
    Warehouse,
)
from erebus.games.iceandsnow.validate import check_content
from erebus.games.iceandsnow.walking_data import parse_walking

__all__ = [
    "CREW_KINDS",
    "DATA_FILES",
    "RESOURCES",
    "ROLES",
    "Anchor",
    "CartographyCard",
    "Content",
    "EventCard",
    "HuntingCard",
    "Investor",
    "Region",
    "Route",
    "Section",
    "Side",
    "Space",
    "SpeciesCard",
    "Track",
    "Upgrade",
    "Warehouse",
    "default_content",
    "parse_content",
    "read_data",
]

DATA_FILES = ("map", "board", "tracks", "cards", "scenarios", "rules", "myths", "walking")


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
    )


def _hunting(d: dict[str, Any]) -> HuntingCard:
    return HuntingCard(
        id=d["id"],
        name=d["name"],
        prey=int(d["prey"]),
        food=int(d["food"]),
        health=int(d.get("health", 0)),
        walrus=bool(d.get("walrus", False)),
        whale=bool(d.get("whale", False)),
        species=d.get("species"),
    )


def _effect(e: dict[str, Any]) -> CardEffect:
    """The card's parsed effect; a faulty one is left empty here and reported by
    the validator (``effect_problems``) with the card's number."""
    eff = e.get("effect")
    if effect_problems(e.get("number"), e.get("kind"), eff):
        return CardEffect()
    assert isinstance(eff, dict)
    return parse_effect(eff)


def parse_content(raw: dict[str, Any]) -> Content:
    """Build :class:`Content` from the parsed JSON files (``raw[name]`` per file).

    Raises ``ValueError`` (from ``validate.check_content``) when the data break
    a rule of the reference; ``KeyError``/``TypeError`` from a file missing a
    field are turned into ``ValueError`` too.
    """
    try:
        content = _parse(raw)
    except (KeyError, TypeError, AttributeError) as exc:
        raise ValueError(f"game data is malformed: {exc!r}") from exc
    check_content(content)
    return content


def _parse(raw: dict[str, Any]) -> Content:
    m, b, t, c = raw["map"], raw["board"], raw["tracks"], raw["cards"]
    myths: dict[str, Any] = raw.get("myths", {})
    regions = {
        r["id"]: Region(r["id"], r["name"], int(r["species"]), bool(r.get("island", False)))
        for r in m["regions"]
    }
    sections = []
    for i, s in enumerate(m["sections"]):
        sides = {}
        for name, sd in s["sides"].items():
            sides[name] = Side(
                section=s["id"],
                side=name,
                anchors=tuple(_anchor(a) for a in sd["anchors"]),
                routes=tuple(
                    Route(r["from"], r["to"], int(r.get("dynamite", 0))) for r in sd["routes"]
                ),
            )
        sections.append(Section(s["id"], s["name"], i, sides))
    spaces = {
        s["id"]: Space(
            id=s["id"],
            column=s["column"],
            slots={int(k): v for k, v in s["slots"].items()},
            above_warehouse=bool(s.get("above_warehouse", False)),
            final=bool(s.get("final", False)),
            need=tuple(s.get("need", ())),
            totals=tuple(s.get("totals", ())),
            wood=int(s.get("wood", 0)),
            fuel=int(s.get("fuel", 0)),
            resource=s.get("resource"),
        )
        for s in b["spaces"]
    }
    warehouses = {
        w["column"]: Warehouse(w["column"], w["officer"], w["gives"]) for w in b["warehouses"]
    }

    def track(d: dict[str, Any]) -> Track:
        return Track(
            max=int(d["max"]),
            start=int(d["start"]),
            effects={int(k): v for k, v in d["effects"].items()},
            end_pp=tuple(int(x) for x in d["end_pp"]),
        )

    return Content(
        regions=regions,
        sections=tuple(sections),
        spaces=spaces,
        warehouses=warehouses,
        health=track(t["health"]),
        morale=track(t["morale"]),
        tracks={k: v for k, v in t.items() if k not in ("health", "morale", "_design")},
        species={
            s["id"]: SpeciesCard(
                s["id"],
                s["species"],
                s["name"],
                int(s["pp"]),
                int(s["food"]),
                int(s.get("health", 0)),
                bool(s.get("fishing_boat", False)),
            )
            for s in c["species"]
        },
        hunting={h["id"]: _hunting(h) for h in c["hunting"]},
        whales={h["id"]: _hunting(h) for h in c.get("whales", [])},
        dual={h["id"]: _hunting(h) for h in c["dual"]},
        cartography={
            k["id"]: CartographyCard(k["id"], tuple(k["regions"])) for k in c["cartography"]
        },
        events={
            e["number"]: EventCard(
                int(e["number"]),
                e["name"],
                e["deck"],
                e["kind"],
                tuple(e.get("crew", ())),
                bool(e.get("optional", False)),
                _effect(e),
            )
            for e in c["events"]
        },
        investors={
            i["id"]: Investor(
                i["id"],
                i["name"],
                dict(i["bonus"]),
                i["objective"],
                dict(i.get("params", {})),
                int(i["reward"]),
            )
            for i in c["investors"]
        },
        upgrades={
            u["number"]: Upgrade(
                int(u["number"]),
                u["name"],
                int(u["copies"]),
                int(u["cost"]),
                bool(u["optional"]),
                u.get("module"),
                tuple(int(x) for x in u.get("immune_events", ())),
                bool(u.get("with_other_modules", False)),
            )
            for u in (
                *c["upgrades"],
                *myths.get("upgrades", []),
                *raw.get("walking", {}).get("upgrades", []),
            )
        },
        scenarios={k: v for k, v in raw["scenarios"].items() if not k.startswith("_")},
        rules={k: v for k, v in raw["rules"].items() if not k.startswith("_")},
        raw=raw,
        creatures=_creatures(myths, c),
        walking=parse_walking(raw["walking"]) if "walking" in raw else None,
    )


def _creatures(myths: dict[str, Any], cards: dict[str, Any]) -> dict[int, CreatureCard]:
    """The creature cards; faulty ones are left out here and reported by the
    validator (``creature_problems``)."""
    raw = myths.get("creatures", [])
    ups = {int(u["number"]) for u in (*cards["upgrades"], *myths.get("upgrades", []))}
    if creature_problems(raw, ups):
        return {}
    return parse_creatures(raw)


def read_data() -> dict[str, Any]:
    """The parsed JSON of every data file shipped with the package."""
    pkg = resources.files("erebus.games.iceandsnow") / "data"
    return {name: json.loads((pkg / f"{name}.json").read_text("utf-8")) for name in DATA_FILES}


@cache
def default_content() -> Content:
    """The shipped data set, loaded and validated once per process."""
    return parse_content(read_data())
