"""Through Ice and Snow's actions in plain words, for hints and reviews
(``SPEC.describe_action``).

``describe(state, action)`` reads the state *before* the action (what a destination
costs in dynamite, the round's event card, a treatment's requirement).  Names come
from the data: anchors, regions and sections (``map.json``), cards, investors and
upgrades (``cards.json``), explorers and ships (``legends.json``), creatures
(``myths.json``), treatments (``scenarios.json``), spaces as the board names them
(:mod:`~erebus.games.iceandsnow.wording`, the labels the browser shows too).  Crew
are counted by kind ("captain + 2 sailors").  Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from erebus.games.iceandsnow import wording
from erebus.games.iceandsnow.actions import Action
from erebus.games.iceandsnow.content import RESOURCES
from erebus.games.iceandsnow.layout import BOILER_TILE, MAST

#: A resource after "1": "1 rifle", "1 dog".
_ONE = {"rifles": "rifle", "dogs": "dog", "cans": "food can"}
_COLUMN_PREFIXES = ("exchange_", "collect_", "vow_")
#: Walking on Ice's spaces (walking.json names them by id only).
WALKING_SPACES = {
    "revisit_inuit": "Revisit the Inuit",
    "document_sled": "Document the sled",
    "tin_refining": "Tin refining",
    "sled_maintenance": "Sled maintenance",
}


def _one(resource: str | None) -> str:
    return _ONE.get(resource or "", resource or "resource")


def _amounts(pairs: Sequence[tuple[str, int]]) -> str:
    return ", ".join(f"{n} {_one(r) if n == 1 else r}" for r, n in pairs if n)


def space_name(state: Any, space: str | None) -> str:
    """A board space as the board names it; Exchange, Collect and Vow of silence name
    their column ("Exchange (captain)"); a scenario's replaced space its own name."""
    if space is None:
        return "an action space"
    replaced = state.scen().get("replaced_spaces", {}) if state.scenario else {}
    sid = str(replaced.get(space, space))
    label = wording.SPACE_LABELS.get(sid) or WALKING_SPACES.get(sid)
    for prefix in _COLUMN_PREFIXES:
        if sid.startswith(prefix):
            base = label or wording.SPACE_LABELS.get(f"{prefix}captain", wording.plain(prefix))
            return f"{base} ({sid[len(prefix) :]})"
    return label or wording.plain(sid).capitalize()


def card_name(state: Any, cid: str) -> str:
    """A hunting or species card: its name and what it gives."""
    c = state.content
    if cid in c.species:
        s = c.species[cid]
        return f"{s.name} ({s.pp} PP; food +{s.food} if eaten)"
    h = state.tables.hunting_all.get(cid)
    if h is not None:
        kind = " (whale)" if h.whale else ""
        return f"{h.name}{kind} (prey {h.prey}, food +{h.food})"
    return wording.card(cid)


#: Investors' objectives in words (cards.json names the objective by id, with its
#: numbers in ``params``: ``n``, or one per player count).
OBJECTIVES = {
    "never_death_or_mutiny": "never in Death or Mutiny",
    "times_leader": "lead {n} times",
    "explores": "Explore {n} times",
    "most_different_species": "the most different species",
    "most_cabins": "the most cabins",
    "min_rounds": "the game lasts {n} rounds or more",
    "inuit": "{n} Inuit or more",
    "different_species": "{n} different species",
    "cabins": "{n} cabins",
    "mapped_regions": "{n} regions mapped",
    "max_rounds": "the game lasts {n} rounds or fewer",
}


def _objective(state: Any, inv: Any) -> str:
    p = inv.params
    n = p.get("n", p.get(str(state.players), "?"))
    words = OBJECTIVES.get(inv.objective, wording.plain(inv.objective))
    return words.format(n=n)


def _event_name(state: Any, number: int) -> str:
    card = state.content.events.get(number)
    return f"event card {card.name}" if card else f"event card {number}"


def _anchor(state: Any, ident: str) -> str:
    a = state.tables.anchors.get(ident)
    if a is None:
        return wording.anchor(ident)
    region = wording.region(a.region)
    extra = [region] if region != a.name else []
    if a.walking_final:
        extra.append("a final anchor")
    elif a.final_pp:
        extra.append(f"final anchor, {a.final_pp} PP")
    return f"{a.name} ({', '.join(extra)})" if extra else a.name


def _crew(crew: Sequence[int] | None) -> str:
    return wording.crew(crew or (0, 0, 0, 0, 0))


def _take(state: Any, a: Action) -> str:
    c = state.content
    sp = a.space
    head = space_name(state, sp)
    if sp == "creature" and a.card:
        cr = c.creatures.get(int(a.card)) if a.card.isdigit() else None
        head = cr.action.name if cr and cr.action else "the creature card's action"
    elif sp == "event":
        number = state.current_event
        head = "Take the " + (_event_name(state, number) if number is not None else "event card")
    parts = [f"{head} with {_crew(a.crew)}"]
    if a.proxy:
        role = "an Inuk" if a.proxy == "inuit" else f"the {a.proxy}"
        who = "acting" if sum(a.crew or ()) == 1 else "one of them acting"
        parts[0] += f" ({who} as {role})"
    if a.card and sp != "creature":
        parts.append(f"taking {card_name(state, a.card)}")
    if a.tile is not None:
        u = c.upgrades.get(a.tile)
        what = f"{u.name} ({u.cost} wood)" if u else f"upgrade {a.tile}"
        where = f" on upgrade space {a.slot}" if a.slot is not None else ""
        parts.append(f"building the {what}{where}")
    if a.food is not None:
        per = int(state.rules.get("cabin_food_per_pp", 1)) or 1
        cabin = int(state.rules.get("cabin_pp", 0)) if sp == "build_cabin" else 0
        walking = c.walking
        canned = (a.cans or 0) * (int(walking.cans["cabin_food"]) if walking else 0)
        pp = cabin + (a.food + canned) // per
        food = f"lowering food by {a.food}" if a.food else "lowering no food"
        if a.cans:
            food += f" and {a.cans} food can{'s' if a.cans > 1 else ''}"
        parts.append(f"{food} (+{pp} PP)")
    if a.resource:
        parts.append(f"giving 1 {_one(a.resource)}")
    if a.take is not None:
        got = _amounts(list(zip(RESOURCES, a.take, strict=False)))
        parts.append(f"taking {got}" if got else "taking nothing")
    if a.deposit:
        parts.append(f"depositing 1 {_one(a.deposit)} in the warehouse")
    return ", ".join(parts)


def _legends(state: Any, a: Action) -> str:
    from erebus.games.iceandsnow import legends

    k = a.kind
    seat = int(state.current_player or 0)
    if k == "choose_explorer":
        s = legends.sets().get(str(a.card), {})
        return f"Keep the explorer {s.get('explorer', a.card)} and the ship {s.get('ship', '?')}"
    if k == "benevolent":
        p = legends.params(state, seat)
        if not a.use:
            return "McClure: stop trading food for morale"
        if "food" in p and "morale" in p:
            return f"McClure: trade {p['food']} food for {p['morale']} morale"
        return "McClure: trade food for morale"
    if k == "despot":
        d: Sequence[Any] = state.decisions[0] if state.decisions else ()
        to = wording.anchor(str(d[2])) if len(d) > 2 else "the leader's destination"
        if a.use:
            return f"Belcher: force another route than the one to {to}"
        return f"Belcher: let the route to {to} stand"
    if k == "track":
        deck = "species" if a.space == "discover" else "hunting"
        return f"Kellett: look at the top {deck} card, then take {space_name(state, a.space)}"
    # chart
    p = legends.params(state, seat)
    region = wording.region(str(a.to))
    if "special_pp" not in p:
        return f"Collinson: chart {region}"
    pp = int(p["special_pp"])
    if state.options.get("collinson_special_pp") == "mapping":
        pp = legends.mapping_pp(state, seat)
    cost = "maintenance" if getattr(state, "abandoned", None) else "fuel"
    return f"Collinson: chart {region} ({cost} −{p.get('special_fuel', 1)}, +{pp} PP)"


def _treatment(state: Any, a: Action) -> str:
    t = next((x for x in state.scen().get("treatments", []) if x["id"] == a.card), None)
    name = t["name"] if t else str(a.card)
    heals = a.tile or 1
    return f"Heal {_crew(a.crew)} with the treatment {name} (heals {heals})"


def describe(state: Any, action: Action) -> str:
    """``action`` (legal in ``state``) in a few plain words."""
    c = state.content
    k = action.kind
    if k == "take":
        return _take(state, action)
    if k == "pass":
        return "Pass (out of this round's action phase)"
    if k == "choose_investor":
        inv = c.investors.get(str(action.card))
        if inv is None:
            return f"Keep the investor {wording.investor(str(action.card))}"
        bonus = _amounts(list(inv.bonus.items()))
        goal = f"{_objective(state, inv)}: {inv.reward} PP"
        return f"Keep the investor {inv.name} ({goal}; start with {bonus})"
    if k == "choose_cartography":
        carto = c.cartography.get(str(action.card))
        regions = wording.regions(carto.regions) if carto else wording.plain(str(action.card))
        return f"Keep the cartography card of {regions}"
    if k == "destination":
        dyn = 0
        if state.phase != "start":
            dyn = dict(state.destinations()).get(action.to, 0)
        verb = "Cross to" if getattr(state, "abandoned", None) else "Sail to"
        cost = f", using {dyn} dynamite" if dyn else ""
        return f"{verb} {_anchor(state, str(action.to))}{cost}"
    if k == "compass":
        if action.to is None:
            return "Compass: decline (the fleet keeps its destination)"
        return f"Compass: go to {_anchor(state, action.to)} instead"
    if k == "section":
        return f"Lay the next map section on side {action.side}"
    if k == "voyage":
        return {
            "coastal": "Coastal voyage (along the coast)",
            "open": "Open-sea voyage",
            "walk": "Walk across the ice (feed the crew)",
            "march": "Forced march (feed the crew, map, maintenance −1)",
        }.get(str(action.voyage), f"{wording.plain(str(action.voyage)).capitalize()} voyage")
    if k == "abandon":
        return "Abandon the ships and go on foot" if action.use else "Stay on the ships"
    if k == "drop_upgrade":
        return f"Return the {wording.upgrade(int(action.tile or 0))} to the box"
    if k == "open_can":
        return "Open a food can (food +5, health −1)"
    if k == "release_sailor":
        return "Let the sick sailor die (−5 PP)"
    if k == "mast":
        number = int(action.card) if action.card and action.card.isdigit() else None
        shown = _event_name(state, number) if number is not None else "an event card"
        return f"{wording.upgrade(MAST)}: reveal {shown}"
    if k == "boiler":
        boiler = wording.upgrade(BOILER_TILE)
        return (
            f"{boiler}: pay 1 wood instead of 1 fuel" if action.use else f"{boiler}: pay the fuel"
        )
    if k == "discard":
        return f"Discard 1 {_one(action.resource)}"
    if k == "infirmary":
        return f"Send {_crew(action.crew)} to the infirmary"
    if k == "eat":
        sp = c.species.get(str(action.card))
        if sp is not None:
            return f"Eat the {sp.name} card (food +{sp.food})"
        return f"Eat the {card_name(state, str(action.card))} card"
    if k in ("choose_explorer", "benevolent", "despot", "track", "chart"):
        return _legends(state, action)
    if k == "choose_upgrade":
        number = int(action.tile or 0)
        rec = state.scen().get("free_upgrade", {}).get("recommended", [])
        star = " (recommended)" if number in rec else ""
        return f"Take the {wording.upgrade(number)}{star} as the free upgrade"
    if k == "fall_ill":
        crew = action.crew or (0, 0, 0, 0, 0)
        verb = "falls" if sum(crew) == 1 else "fall"
        return f"{_crew(crew).capitalize()} {verb} ill"
    if k == "treat":
        return _treatment(state, action)
    return wording.plain(k).capitalize()


__all__ = ["card_name", "describe", "space_name"]
