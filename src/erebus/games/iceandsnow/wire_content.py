"""Through Ice and Snow's static content as the browser reads it (``iceandsnow-content.json``).

The wire view (:mod:`~erebus.games.iceandsnow.wire`) names things by id — anchors,
regions, spaces, cards — and sends only what changes.  What never changes during a
game (the map with both sides of every section, the action board, the tracks and
every card with its name and a one-line effect) is written once by
``tools/gen_web_assets.py`` from the engine's own data, so the browser draws the
printed components without repeating a rule or a number in JavaScript.

The effect lines come from the data where the data say what a thing does (event
cards' effect ops, investors' objectives, cartography regions, species and hunting
values); the upgrade tiles carry no effect field in ``cards.json`` (their rules are
engine code keyed by tile number, :mod:`~erebus.games.iceandsnow.layout`), so their
lines are kept here by the same numbers.
"""

from __future__ import annotations

from typing import Any

from erebus.games.iceandsnow import wire_scenarios
from erebus.games.iceandsnow.content import CREW_KINDS, RESOURCES, ROLES, Content
from erebus.games.iceandsnow.effects import Op
from erebus.games.iceandsnow.wire_myths import myths_content
from erebus.games.iceandsnow.wording import COMPASS_NAMES, SPACE_LABELS

#: The action board's columns, left to right (the officer columns, then General actions).
COLUMNS = ("captain", "carpenter", "scientist", "general")

#: What each upgrade tile does (reference §8.3), by tile number.
UPGRADE_TEXTS = {
    1: "once per round any crew member may act as the carpenter",
    2: "+{galley_food} food at the start of each Boarding phase",
    3: "cancels the Scurvy effect",
    4: "once per round any crew member may act as the scientist",
    5: "once per round any crew member may act as the captain",
    6: "cancels the Mutiny effect",
    7: "hunt whales and discover dual species; required by Dual Species",
    8: "in a Voyage step you may pay 1 wood instead of 1 fuel",
    9: "as leader, look at the top two event cards and choose which one is revealed",
    10: "6 PP at once",
    11: "3 PP at once",
    12: "no resource discard when the Voyage step lowers your fuel to 0-3",
    13: "you are not affected by events 2, 6, 7, 14 and 15",
    14: "you are not affected by the Inuit creature cards 39–43",
}

#: What each action space does, in a line (reference §4.6), by space id.
SPACE_TEXTS = {
    "lead": "become the expedition leader at Boarding",
    "explore": "PP by sled and dogs (the lower counts), morale +{explore_morale}",
    "visit_inuit": "{visit_dogs} dog and fuel +{visit_fuel}",
    "hire_inuk": "hire 1 Inuk (joins the crew at Boarding)",
    "build_cabin": "{wood}: a cabin here, {cabin_pp} PP, +1 PP per {cabin_food_per_pp} food lowered",
    "improve_sled": "{wood}: sled +1",
    "upgrade_ship": "wood as the tile costs: an upgrade tile",
    "recycle_wood": "fuel −{fuel}: 1 wood per crew member placed",
    "discover": "take a revealed species card (the first of its species scores {discover_pp} PP)",
    "magnetic_research": "draw a compass card (Magnetic North Pole)",
    "hunt": "crew and rifles as the prey: a revealed hunting card's food and health",
    "experiment": "{wood}: fuel +{exp_fuel} and {exp_dyn} dynamite",
    "exchange_captain": "put 1 resource in the warehouse, take 1 dynamite",
    "exchange_carpenter": "put 1 resource in the warehouse, take 1 wood",
    "exchange_scientist": "put 1 resource in the warehouse, take 1 rifle",
    "collect_captain": "take 1 resource per crew member from the warehouse",
    "collect_carpenter": "take 1 resource per crew member from the warehouse",
    "collect_scientist": "take 1 resource per crew member from the warehouse",
    "ice_fishing": "1 food per crew member (twice with an active shelter)",
    "trace_map": "{trace_map_pp_per_token} PP per region mapped",
    "document_methods": "{document_pp_per_upgrade} PP per upgrade tile",
    "lab_research": "{lab_research_pp} PP",
    "vow_captain": "{vow_pp_per_resource} PP per dynamite",
    "vow_carpenter": "{vow_pp_per_resource} PP per wood",
    "vow_scientist": "{vow_pp_per_resource} PP per rifle",
    "build_shelter": "1 Inuk + 1 crew: an Inuit shelter here (Build Shelters)",
    "event": "take this round's action event card",
}

_GAIN_WORDS = {"rifles": "rifle", "dogs": "dog"}


def _gains(gains: dict[str, Any]) -> str:
    parts = []
    for what, v in gains.items():
        v = int(v)
        if what in ("food", "health", "morale", "fuel", "sled"):
            parts.append(f"{what} {'+' if v > 0 else '−'}{abs(v)}")
        else:
            word = _GAIN_WORDS.get(what, what) if abs(v) == 1 else what
            parts.append(f"{'+' if v > 0 else '−'}{abs(v)} {word}")
    return ", ".join(parts)


def op_text(op: Op) -> str:
    """One effect primitive in words (the vocabulary of :mod:`.effects`)."""
    p = op.params
    k = op.op
    if k == "each_gains":
        return f"each player: {_gains(dict(p['gains']))}"
    if k == "fleet_loses_fuel":
        return f"each player: fuel −{p['fuel']} (towing if needed)"
    if k == "each_lowers":
        return f"each player: {p['track']} −{p['amount']}, applying the space effect"
    if k == "each_discards":
        return f"each player discards {p['count']} resource(s) of their choice"
    if k == "each_pays_or_fuel":
        return f"each player discards {p['amount']} {p['resource']}, or fuel −{p['fuel']} without"
    if k == "inuit_to_infirmary":
        return "each player's Inuit go to the infirmary this round"
    if k == "to_infirmary":
        limits = ", ".join(f"{v} or fewer {r}" for r, v in dict(p["if_at_most"]).items())
        who = "crew" if p["allow_inuit"] else "crew (not an Inuk)"
        return f"each player with {limits} puts {p['count']} {who} in the infirmary"
    if k == "feed_crew":
        return f"each player: food −{p['food_per_crew']} per crew member"
    if k == "compass_detour":
        return "the player left of the leader may move the fleet to another anchor"
    if k == "round_modifier":
        m = p["modifier"]
        if m == "explore_sled":
            return f"this round sled levels count {abs(int(p['amount']))} lower for Explore"
        if m == "ice_fishing":
            return (
                f"this round Ice fishing counts {p['times']}× ({p['with_shelter']}× with a shelter)"
            )
        if m == "no_walrus":
            return "walrus hunting cards are discarded this round"
        return f"this round: {m.replace('_', ' ')}"
    if k == "draw_species":
        return "a species card is drawn onto this card"
    if k == "taker_gains":
        return _gains(dict(p["gains"]))
    if k == "take_drawn":
        return "take the species card drawn with it"
    if k == "keep_card":
        power = {
            "map_open_sea": "map a region after an open-sea voyage as leader",
            "interpreter": "Visit the Inuit with 1 Inuk + 1 crew",
        }.get(str(p["power"]), str(p["power"]).replace("_", " "))
        return f"{p['inuit']} Inuk and keep this card ({power})"
    return k.replace("_", " ")


def event_text(content: Content, number: int) -> str:
    """An event card's effect in one line."""
    card = content.events[number]
    parts = [op_text(op) for op in card.effect.reveal]
    take = "; ".join(op_text(op) for op in card.effect.take)
    if card.kind == "action":
        crew = "/".join(str(c) for c in card.crew) or "any"
        parts.append(f"action ({crew} crew): {take}")
    return "; ".join(parts)


_OBJECTIVES = {
    "never_death_or_mutiny": "never enter Death or Mutiny",
    "times_leader": "be the leader {n} times",
    "explores": "Explore {n} times",
    "most_different_species": "hold the most different species",
    "most_cabins": "build the most cabins",
    "min_rounds": "the game lasts at least {n} rounds",
    "inuit": "reach {n} on the Inuit track",
    "different_species": "{n} different species",
    "cabins": "build {n} cabins",
    "mapped_regions": "{n} regions mapped",
    "max_rounds": "the game lasts at most {n} rounds",
}


def investor_text(content: Content, ident: str) -> str:
    """An investor's start bonus, objective and reward in one line; a count that
    depends on the player count is written "5/4/4 (2/3/4 players)"."""
    inv = content.investors[ident]
    p = inv.params
    if "n" in p:
        n = str(p["n"])
    elif p:
        keys = sorted(p, key=int)
        n = "/".join(str(p[k]) for k in keys) + f" ({'/'.join(keys)} players)"
    else:
        n = ""
    goal = _OBJECTIVES.get(inv.objective, inv.objective.replace("_", " ")).format(n=n)
    bonus = ", ".join(f"{v} {r}" for r, v in inv.bonus.items())
    return f"start: {bonus}; objective: {goal} → {inv.reward} PP"


def _anchors(content: Content) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for sec in content.sections:
        for name, side in sec.sides.items():
            for a in side.anchors:
                entry = out.get(a.id)
                if entry is None:
                    entry = out[a.id] = {
                        "name": a.name,
                        "region": a.region,
                        "x": a.x,
                        "y": a.y,
                        "start": a.start,
                        "blue": a.blue,
                        "final_pp": a.final_pp,
                        "edge": a.edge,
                        "on": [],
                    }
                entry["on"].append([sec.index, name])
    return out


def _bounds(anchors: dict[str, Any]) -> dict[str, float]:
    xs = [a["x"] for a in anchors.values()]
    ys = [a["y"] for a in anchors.values()]
    return {"min_x": min(xs), "max_x": max(xs), "min_y": min(ys), "max_y": max(ys)}


def _space(content: Content, sid: str) -> dict[str, Any]:
    sp = content.spaces[sid]
    return {
        "id": sid,
        "name": SPACE_LABELS.get(sid, sid.replace("_", " ").capitalize()),
        "column": sp.column,
        "slots": {str(k): v for k, v in sorted(sp.slots.items())},
        "above_warehouse": sp.above_warehouse,
        "final": sp.final,
        "need": list(sp.need),
        "totals": list(sp.totals),
        "wood": sp.wood,
        "fuel": sp.fuel,
        "resource": sp.resource,
        "text": _fill(SPACE_TEXTS.get(sid, ""), content, sp.wood, sp.fuel),
    }


def _fill(text: str, content: Content, wood: int = 0, fuel: int = 0) -> str:
    """A text of :data:`SPACE_TEXTS` or :data:`UPGRADE_TEXTS` with the numbers of
    ``rules.json`` (so a house rule changes the line too)."""
    r = content.rules
    words: dict[str, Any] = {k: v for k, v in r.items() if isinstance(v, int)}
    words.update(
        wood=f"{wood} wood" if wood else "no wood",
        fuel=fuel,
        visit_dogs=r["visit_inuit"]["dogs"],
        visit_fuel=r["visit_inuit"]["fuel"],
        exp_fuel=r["experiment"]["fuel"],
        exp_dyn=r["experiment"]["dynamite"],
    )
    return text.format(**words)


def _hunting(h: Any) -> dict[str, Any]:
    return {
        "id": h.id,
        "name": h.name,
        "prey": h.prey,
        "food": h.food,
        "health": h.health,
        "walrus": h.walrus,
        "whale": h.whale,
        "species": h.species,
        "text": f"{h.prey} crew + {h.prey} rifles: food +{h.food}"
        + (f", health +{h.health}" if h.health else "")
        + (" (needs the Fishing Boat)" if h.whale or h.species else ""),
    }


def _scenarios(content: Content) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for sid, sc in content.scenarios.items():
        entry: dict[str, Any] = {
            "name": sc.get("name", sid),
            "blocked_spaces": list(sc.get("blocked_spaces", [])),
            "replaced_spaces": dict(sc.get("replaced_spaces", {})),
            "start": dict(sc.get("start", {})),
            "decks": {k: list(v) for k, v in sc.get("decks", {}).items()},
        }
        if sid == "lost-expedition":
            obj = sc.get("objective", {})
            entry["progress"] = dict(sc.get("progress", {}))
            entry["search_cards"] = [dict(c) for c in sc.get("search_cards", [])]
            entry["objective"] = dict(obj)
            entry["text"] = (
                "find the lost expedition by exploring in the priority regions "
                f"(search track to {sc.get('progress', {}).get('max', 5)}, then search cards); "
                f"own a {obj.get('species', '?').replace('_', ' ')} species card; build a cabin "
                f"lowering at least {obj.get('cabin_food', 0)} food outside "
                f"{content.regions[obj['cabin_forbidden_region']].name if obj.get('cabin_forbidden_region') in content.regions else '?'} "
                "before the expedition is found; and complete the passage"
            )
        elif sid in wire_scenarios.SCENARIOS:  # Mysterious Epidemic, Amundsen's Voyage
            entry.update(wire_scenarios.content_entry(content, sid, sc))
        else:
            entry["compass"] = dict(sc.get("compass", {}))
            entry["pole_card"] = bool(sc.get("pole_card", False))
            entry["requirements"] = {k: dict(v) for k, v in sc.get("requirements", {}).items()}
            entry["magnetise_section"] = sc.get("magnetise_section")
            entry["text"] = (
                "reach the magnetised section, follow the compass cards and discover the "
                "magnetic north pole (an Explore and a cabin as the pole's direction asks), "
                "then complete the passage"
            )
        out[sid] = entry
    return out


def content_document(content: Content) -> dict[str, Any]:
    """The document of ``iceandsnow-content.json`` (see docs/iceandsnow-wire.md)."""
    anchors = _anchors(content)
    spaces = [_space(content, sid) for sid in content.spaces]
    extra_spaces = [
        {
            "id": "build_shelter",
            "name": SPACE_LABELS["build_shelter"],
            "column": "general",
            "need": ["inuit"],
            "totals": [2],
            "mode": "shelters",
            "text": SPACE_TEXTS["build_shelter"],
        },
        {
            "id": "event",
            "name": SPACE_LABELS["event"],
            "column": "general",
            "need": [],
            "totals": [],
            "mode": None,
            "text": SPACE_TEXTS["event"],
        },
    ]
    for sid, label in SPACE_LABELS.items():
        if sid not in content.spaces and sid not in ("build_shelter", "event"):
            extra_spaces.append(
                {
                    "id": sid,
                    "name": label,
                    "column": None,
                    "need": [],
                    "totals": [],
                    "mode": None,
                    "text": SPACE_TEXTS.get(sid, ""),
                }
            )
    t = content.tracks

    def track(tr: Any) -> dict[str, Any]:
        return {
            "min": 0,
            "max": tr.max,
            "start": tr.start,
            "effects": {str(k): v for k, v in sorted(tr.effects.items())},
            "end_pp": list(tr.end_pp),
        }

    fuel_effects = {"morale": "morale +1", "discard": "discard 1 resource", None: "no effect"}
    return {
        "_comment": (
            "Generated by tools/gen_web_assets.py from erebus.games.iceandsnow data "
            "(map.json, board.json, tracks.json, cards.json, scenarios.json, rules.json) "
            "for the web client; see docs/iceandsnow-wire.md."
        ),
        "crew_kinds": list(CREW_KINDS),
        "roles": list(ROLES),
        "resources": list(RESOURCES),
        "regions": [region_doc(r) for r in content.regions.values()],
        "sections": [section_doc(sec) for sec in content.sections],
        "anchors": anchors,
        "bounds": _bounds(anchors),
        "board": {
            "columns": list(COLUMNS),
            "spaces": spaces,
            "extra_spaces": extra_spaces,
            "warehouses": [
                {"column": w.column, "officer": w.officer, "gives": w.gives}
                for w in content.warehouses.values()
            ],
        },
        "tracks": {
            "health": track(content.health),
            "morale": track(content.morale),
            "fuel": {
                "max": t["fuel"]["max"],
                "start": t["fuel"]["start"],
                "bands": [
                    {
                        "from": b["from"],
                        "to": b["to"],
                        "effect": b["effect"],
                        "text": fuel_effects.get(b["effect"], str(b["effect"])),
                    }
                    for b in t["fuel"]["bands"]
                ],
            },
            "sled": dict(t["sled"]),
            "dogs": dict(t["dogs"]),
            "towing": {
                "min": t["towing"]["min"],
                "max": t["towing"]["max"],
                "start": t["towing"]["start"],
                "pp": dict(t["towing"]["pp"]),
            },
            "food": dict(t["food"]),
            "inuit": dict(t["inuit"]),
            "upgrade_spaces": [dict(x) for x in t.get("upgrade_spaces", [])],
        },
        "cards": {
            "species": [
                {
                    "id": s.id,
                    "species": s.species,
                    "name": s.name,
                    "pp": s.pp,
                    "food": s.food,
                    "health": s.health,
                    "fishing_boat": s.fishing_boat,
                    "text": f"{s.pp} PP at the end; eaten: food +{s.food}"
                    + (f", health +{s.health}" if s.health else "")
                    + (" (needs the Fishing Boat)" if s.fishing_boat else ""),
                }
                for s in content.species.values()
            ],
            "hunting": [_hunting(h) for h in content.hunting.values()],
            "whales": [_hunting(h) for h in content.whales.values()],
            "dual": [_hunting(h) for h in content.dual.values()],
            "events": [
                {
                    "number": e.number,
                    "name": e.name,
                    "deck": e.deck,
                    "kind": e.kind,
                    "crew": list(e.crew),
                    "extra": e.optional,
                    "text": event_text(content, e.number),
                }
                for e in sorted(content.events.values(), key=lambda e: e.number)
            ],
            "upgrades": [
                {
                    "number": u.number,
                    "name": u.name,
                    "copies": u.copies,
                    "cost": u.cost,
                    "optional": u.optional,
                    "text": _fill(UPGRADE_TEXTS.get(u.number, ""), content),
                }
                for u in sorted(content.upgrades.values(), key=lambda u: u.number)
            ],
            "investors": [
                {
                    "id": i.id,
                    "name": i.name,
                    "bonus": dict(i.bonus),
                    "objective": i.objective,
                    "params": dict(i.params),
                    "reward": i.reward,
                    "text": investor_text(content, i.id),
                }
                for i in content.investors.values()
            ],
            "cartography": [
                {
                    "id": k.id,
                    "regions": list(k.regions),
                    "text": "PP per region mapped at the end: "
                    + ", ".join(content.regions[r].name for r in k.regions),
                }
                for k in content.cartography.values()
            ],
            "compass": [{"id": k, "name": v} for k, v in COMPASS_NAMES.items()],
        },
        "scenarios": _scenarios(content),
        "rules": {k: v for k, v in content.rules.items()},
        "space_labels": dict(SPACE_LABELS),
        "modules": {
            "inuit_myths": myths_content(content),
            "walking_on_ice": _walking_doc(content),
            "legendary_expeditions": _legends_doc(content),
        },
    }


def _legends_doc(content: Content) -> dict[str, Any]:
    """Legendary Expeditions' sets and explorer events (:mod:`.wire_legends`)."""
    from erebus.games.iceandsnow.wire_legends import legends_content_doc

    return legends_content_doc(content)


def _walking_doc(content: Content) -> dict[str, Any] | None:
    """Walking on Ice's sections, tiles and events (:mod:`.wire_walking`, imported
    here because it builds on this module's helpers)."""
    from erebus.games.iceandsnow.wire_walking import walking_content_doc

    return walking_content_doc(content)


def region_doc(r: Any) -> dict[str, Any]:
    """A region as the content file gives it (the base map and a module's)."""
    return {"id": r.id, "name": r.name, "species": r.species, "island": r.island}


def section_doc(sec: Any, route_kinds: bool = False) -> dict[str, Any]:
    """A map section with both sides: anchor ids and routes ``[src, dst, dynamite]``
    (and the route's kind, for a module whose routes have kinds: Walking on Ice)."""
    return {
        "id": sec.id,
        "name": sec.name,
        "index": sec.index,
        "sides": {
            name: {
                "anchors": [a.id for a in side.anchors],
                "routes": [
                    [r.src, r.dst, r.dynamite, r.kind]
                    if route_kinds
                    else [r.src, r.dst, r.dynamite]
                    for r in side.routes
                ],
            }
            for name, side in sorted(sec.sides.items())
        },
    }
