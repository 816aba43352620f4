"""Terminal pictures of Through Ice and Snow (Rich), from one seat's point of view.

Everything drawn here comes from ``state.view(seat)`` (the hidden cards of the
other seats, deck orders and the seed are not in it), the public queries of the
state and the static game content (map, board, cards).  The pieces:

* :func:`status_line` — round, phase, leader (the helm ⎈), who acts and what
  they decide;
* :func:`map_panel` — the placed map sections with their side, the route the
  fleet sailed (``✸`` icebreaking dynamite), the fleet ``▶``, the routes onward
  (``+1`` = one more dynamite), regions mapped ``✓``, final-round anchors ``★``
  and final anchors (``⚑ 6 PP``), cabins ``⌂`` and shelters ``△`` by seat;
* :func:`board_panel` — the action board by column: every space with its slots
  (``[2]`` seat 2 is there, ``[ ]`` free), the final-round spaces, the
  warehouse boxes and, in Survival, whether the column's deposit is paid;
* :func:`cards_panel` — this round's event card, hunting and species cards;
* :func:`players_table` — every personal board side by side;
* :func:`log_panel` — the last lines of the event log.

Without colour (``color_system=None``, as the RL environment renders) every
mark is a character, so the text stays readable.
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Sequence
from typing import Any

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.panel import Panel
from rich.style import Style
from rich.table import Table
from rich.text import Text

from erebus.core.events import Event
from erebus.games.iceandsnow.actions import Action
from erebus.games.iceandsnow.content import CREW_KINDS, RESOURCES, Content
from erebus.games.iceandsnow.events import (
    CabinBuilt,
    CardsRevealed,
    CardTaken,
    CrewPlaced,
    CrewToInfirmary,
    DestinationChosen,
    DynamitePlaced,
    EventRevealed,
    FleetMoved,
    GameOver,
    RegionMapped,
    RoundEnded,
    RoundStarted,
    ScoreChanged,
    ShelterBuilt,
    SpeciesDiscovered,
    SpeciesEaten,
    UpgradeBuilt,
)
from erebus.games.iceandsnow.layout import (
    HIRED,
    INF,
    LEADS,
    PASSED,
    RESCUED,
    SHELTERS,
    TURNS,
    USED,
    F,
)
from erebus.games.iceandsnow.layout import (
    INTERPRETER as CARD17,
)
from erebus.games.iceandsnow.layout import (
    MAP_OPEN_SEA as CARD9,
)
from erebus.games.iceandsnow.state import State
from erebus.games.iceandsnow.wording import SPACE_LABELS as SPACE_LABELS
from erebus.terminal.seats import (
    default_names,
    player_style,
    points_by_category,
    score_table,
)

GOLD = Style(bold=True, color="#ffd24a")
DIM = Style(color="#9a9a9a")
WARN = Style(bold=True, color="#e06666")
HEAD = Style(bold=True, color="#e8d27a")

COLUMNS = ("captain", "carpenter", "scientist", "general")
_RES_SHORT = {"dynamite": "dyn", "wood": "wood", "rifles": "rifle", "dogs": "dog"}
_CREW_WORDS = ("captain", "carpenter", "scientist", "sailor", "Inuk")
_CREW_PLURAL = ("captains", "carpenters", "scientists", "sailors", "Inuit")
_CREW_SHORT = ("capt", "carp", "sci", "sailor", "Inuk")
_CREW_SHORT_PLURAL = ("capt", "carp", "sci", "sailors", "Inuit")

#: What each event card does, in a few words (reference §8.1).
EVENT_EFFECTS = {
    1: "each player: morale +1",
    2: "each player: fuel −1 (towing if needed)",
    3: "each player: fuel +1",
    4: "this round sled levels count 1 lower for Explore",
    5: "each player: morale −1, applying the space effect",
    6: "each player: fuel −2 (towing if needed)",
    7: "each player discards 1 resource of their choice",
    8: "action (2 crew): food +8, health +2",
    9: "action (1 crew): 1 Inuk and this card (map on open sea as leader)",
    10: "action (2 crew): 1 rifle, fuel +2",
    11: "action (2 crew): 1 dynamite, fuel +2",
    12: "each player: food −4 and 1 wood, as far as possible",
    13: "action (2 crew): food +6, 2 wood",
    14: "each player: fuel −1 (towing if needed)",
    15: "each player: fuel −2 (towing if needed)",
    16: "action (1 crew): health +1, morale +1, food +5",
    17: "action (1 crew): 1 Inuk and this card (Visit the Inuit with 1 Inuk + 1 crew)",
    18: "each player discards 1 wood, or fuel −1 without wood",
    19: "each player's Inuit go to the infirmary this round",
    20: "action (2 crew): fuel +3",
    21: "action (2 crew): 4 wood",
    22: "action (1 crew): take the species card shown with it",
    23: "each player discards 1 dynamite",
    24: "each player: food −1 per crew member",
    25: "the player left of the leader may move the fleet to another anchor",
    26: "this round Ice fishing counts twice (three times with a shelter)",
    27: "each player with 3 or fewer rifles puts 1 crew in the infirmary",
    28: "walrus hunting cards are discarded this round",
    # Walking on Ice's walking events (§9.1)
    29: "each player: food −2 (no shortage) and discards 1 resource",
    30: "action (2 crew): 2 wood, 2 food cans",
    31: "action (1 crew, pay 1 wood): maintenance, health and morale +1",
    32: "each player carries a sick sailor on the sled (cargo, fed, never placed)",
    33: "action (2 crew): food +6, 2 food cans",
    34: "each player puts 2 crew (not Inuit) in the infirmary",
    35: "each player discards 1 rifle",
    36: "action (1 crew): keep the card; morale +1 with every scientist action",
}

_PHASES = {
    "setup": "setup",
    "section": "map section",
    "start": "start anchor",
    "destination": "voyage: destination",
    "voyage": "voyage: type",
    "action": "action phase",
    "over": "game over",
}


# ----------------------------------------------------------------- small helpers


def _names(state: State, names: Sequence[str] | None) -> list[str]:
    return list(names) if names else default_names(state.players)


def anchor_name(content: Content, anchor: str | None) -> str:
    if anchor is None:
        return "—"
    for sec in content.sections:
        for side in sec.sides.values():
            for a in side.anchors:
                if a.id == anchor:
                    return a.name
    return anchor


def region_name(content: Content, region: str) -> str:
    r = content.regions.get(region)
    return r.name if r else region


def crew_words(crew: Sequence[int], short: bool = False) -> str:
    """(1, 0, 0, 2, 1) → "captain + 2 sailors + Inuk" (short: "capt+2 sailors+Inuk")."""
    one, many = (_CREW_SHORT, _CREW_SHORT_PLURAL) if short else (_CREW_WORDS, _CREW_PLURAL)
    parts = []
    for i, k in enumerate(crew):
        if k == 1:
            parts.append(one[i])
        elif k > 1:
            parts.append(f"{k} {many[i]}")
    return ("+" if short else " + ").join(parts) or "nobody"


_ONE = {"rifles": "rifle", "dogs": "dog"}


def one(resource: str | None) -> str:
    """A resource after "1": "1 rifle", "1 dog", "1 wood"."""
    return _ONE.get(resource or "", resource or "")


def card_label(state: State, cid: str) -> str:
    """A hunting or species card in words: its name and what it gives."""
    c = state.content
    if cid in c.species:
        s = c.species[cid]
        extra = f", health {s.health:+d}" if s.health else ""
        boat = ", fishing boat" if s.fishing_boat else ""
        return f"{s.name} ({s.pp} PP, food {s.food}{extra}{boat})"
    h = state.tables.hunting_all.get(cid)
    if h is not None:
        extra = f", health +{h.health}" if h.health else ""
        kind = " whale" if h.whale else " dual" if h.species else ""
        return f"{h.name}{kind} (prey {h.prey}, food +{h.food}{extra})"
    return cid


def species_name(state: State, species: str) -> str:
    """The name of a species (not a card): "musk_ox" → "Musk Ox"."""
    for card in state.content.species.values():
        if card.species == species:
            return card.name
    return species.replace("_", " ")


def objective_text(state: State, investor: str) -> str:
    """An investor's objective and reward in words."""
    inv = state.content.investors.get(investor)
    if inv is None:
        return investor
    p = inv.params
    n = p.get("n", p.get(str(state.players), "?"))
    words = {
        "never_death_or_mutiny": "never in Death or Mutiny",
        "times_leader": f"lead {n} times",
        "explores": f"Explore {n} times",
        "most_different_species": "most different species",
        "most_cabins": "most cabins",
        "min_rounds": f"game lasts ≥ {n} rounds",
        "inuit": f"≥ {n} Inuit",
        "different_species": f"{n} different species",
        "cabins": f"{n} cabins",
        "mapped_regions": f"{n} regions mapped",
        "max_rounds": f"game lasts ≤ {n} rounds",
    }.get(inv.objective, inv.objective.replace("_", " "))
    return f"{inv.name}: {words} → {inv.reward} PP"


def space_label(state: State, space: str | None) -> str:
    """A board space in words; Exchange/Collect/Vow name their column."""
    if space is None:
        return "?"
    replaced = state.scen().get("replaced_spaces", {}) if state.scenario else {}
    sid = str(replaced.get(space, space))
    label = SPACE_LABELS.get(sid, sid.replace("_", " ").capitalize())
    for prefix in ("exchange_", "collect_", "vow_"):
        if sid.startswith(prefix):
            label += f" ({sid[len(prefix) :]})"
    return label


def event_card_label(state: State, number: int) -> str:
    card = state.content.events.get(number)
    name = card.name if card else "?"
    return f"#{number} {name}: {EVENT_EFFECTS.get(number, '')}".rstrip(": ")


_COSTS = {
    "extra_crew": "+{count} crew (not counted)",
    "lower_food": "food −{amount}",
    "pay_any_resource": "pay {count} resource(s)",
}


def creature_label(state: State, number: int) -> str:
    """An Inuit creature card (§9.2) in words: its name and what it does, from its data."""
    card = state.content.creatures.get(number)
    if card is None:
        return f"#{number}"
    bits: list[str] = []
    if "hold_inuit" in card.reveal:
        bits.append("holds every Inuk")
    if "curse" in card.reveal:
        bits.append("curses every player")
    if card.action is not None:
        bits.append(f"action {card.action.name} ({'/'.join(map(str, card.action.crew))} crew)")
    x = card.extra
    if x is not None:
        who = f"{x.officer} actions" if x.officer else f"actions of ≤{x.crew_at_most} crew"
        p = x.params
        if x.cost == "pay_or_own":
            ((pay, k),) = p["pay"].items()
            ((own, m),) = p["own"].items()
            cost = f"pay {k} {pay} or own {m} {own}"
        elif x.cost == "lower_track":
            cost = f"{p['track']} −{p['amount']}" + (" (Death only)" if p["death_only"] else "")
        else:
            cost = _COSTS.get(x.cost, x.cost).format(**p)
        bits.append(f"{who}: {cost}")
    if card.warded_by:
        bits.append("Ritual Room wards")
    return f"#{number} {card.name}: " + "; ".join(bits)


def describe(state: State, action: Action, brief: bool = False) -> str:
    """An action in words (what it costs and gives), for menus and logs.

    ``brief`` leaves out the action space (for a menu line already naming it)
    and shortens the crew.  The raw ``str(action)`` words (``space=hunt``,
    ``food=3`` …) are kept in :func:`search_text` so filters may use either form.
    """
    c = state.content
    k = action.kind
    if k == "choose_investor" and action.card:
        inv = c.investors.get(action.card)
        if inv is None:
            return f"investor {action.card}"
        bonus = ", ".join(f"{v} {r}" for r, v in inv.bonus.items())
        return f"investor {objective_text(state, inv.id)}; start bonus {bonus}"
    if k == "choose_cartography" and action.card:
        carto = c.cartography.get(action.card)
        regions = ", ".join(region_name(c, r) for r in carto.regions) if carto else "?"
        return f"cartography card: {regions}"
    if k in ("destination", "compass"):
        if action.to is None:
            return "compass: decline (the fleet returns to its destination)"
        extra = ""
        if k == "destination":
            dyn = dict(state.destinations()).get(action.to, 0) if state.phase != "start" else 0
            extra = f", +{dyn} dynamite" if dyn else ""
        a = state.tables.anchors.get(action.to)
        region = f" ({region_name(c, a.region)})" if a else ""
        star = " ★" if a and a.blue else ""
        final = f" ⚑ {a.final_pp} PP" if a and a.final_pp else ""
        verb = "sail to" if k == "destination" else "compass: go to"
        if k == "destination" and state.options["modules"] and getattr(state, "abandoned", None):
            verb = "cross to"
        if a and a.walking_final:
            final = f" ⚑ new final anchor (guilt ×{a.guilt})"
        return f"{verb} {anchor_name(c, action.to)}{region}{star}{final}{extra}"
    if k == "section":
        return f"map section side {action.side}"
    if k == "voyage":
        crossing = {
            "walk": "walk (feed the crew)",
            "march": "forced march (feed, map, maintenance −1)",
        }
        return crossing.get(str(action.voyage), f"{action.voyage} voyage")
    if k == "abandon":
        return "abandon the ships (go on foot)" if action.use else "stay on the ships"
    if k == "drop_upgrade" and action.tile is not None:
        u = c.upgrades.get(action.tile)
        return f"return upgrade {action.tile} {u.name if u else ''} to the box".replace("  ", " ")
    if k == "open_can":
        return "open a food can: food +5, health −1"
    if k == "release_sailor":
        return "let the sick sailor die (−5 PP)"
    if k == "track":  # Legendary Expeditions: Kellett (D)
        deck = "species" if action.space == "discover" else "hunting"
        return f"look at the top {deck} card, then {space_label(state, action.space)}"
    if k == "chart" and action.to:  # Collinson (G)
        return f"chart {region_name(c, action.to)}: fuel −1, +PP"
    if k == "despot":  # Belcher (H)
        if action.use:
            return "force the leader onto another route (you choose the voyage type)"
        return "let the leader's route stand"
    if k == "choose_upgrade" and action.tile is not None:  # Mysterious Epidemic's set-up
        u = c.upgrades.get(action.tile)
        return f"free upgrade {action.tile} {u.name if u else ''} on the leftmost space".replace(
            "  ", " "
        )
    if k == "fall_ill" and action.crew is not None:  # Mysterious Epidemic
        return f"{crew_words(action.crew)} fall ill"
    if k == "treat" and action.crew is not None:  # Mysterious Epidemic: a free action
        return f"treatment {action.card}: heal {crew_words(action.crew)} (no turn used)"
    if k == "mast" and action.card:
        return f"mast: reveal event {event_card_label(state, int(action.card))}"
    if k == "boiler":
        return "boiler: pay 1 wood instead of 1 fuel" if action.use else "boiler: pay fuel"
    if k == "discard":
        return f"discard 1 {one(action.resource)}"
    if k == "infirmary" and action.crew is not None:
        return f"infirmary: {crew_words(action.crew)}"
    if k == "eat" and action.card:
        return f"eat {card_label(state, action.card)}"
    if k == "pass":
        return "pass (out of this action phase)"
    if k != "take":
        return str(action)
    parts = [space_label(state, action.space)]
    sp = action.space
    if sp == "creature" and action.card:
        cr = c.creatures.get(int(action.card))
        name = cr.action.name if cr and cr.action else "creature action"
        parts[0] = f"{name} (creature #{action.card})"
    elif action.card:
        parts.append(card_label(state, action.card))
    if action.tile is not None:
        u = c.upgrades.get(action.tile)
        parts.append(f"tile {action.tile} {u.name} ({u.cost} wood)" if u else f"tile {action.tile}")
    if action.food is not None:
        # What the log will say: the cabin's own PP plus the PP for the food (§3.4).
        per = int(state.rules.get("cabin_food_per_pp", 1)) or 1
        cabin = int(state.rules.get("cabin_pp", 0)) if sp == "build_cabin" else 0
        canned = (action.cans or 0) * (int(c.walking.cans["cabin_food"]) if c.walking else 0)
        pp = cabin + (action.food + canned) // per
        parts.append(f"food −{action.food} (+{pp} PP)" if action.food else f"no food (+{pp} PP)")
        if action.cans:
            parts.append(f"{action.cans} food can{'s' if action.cans > 1 else ''} (5 food each)")
    if action.resource:
        parts.append(f"give 1 {one(action.resource)}")
    if action.take is not None:
        got = ", ".join(f"{v} {r}" for r, v in zip(RESOURCES, action.take, strict=True) if v)
        parts.append(f"take {got}")
    if sp == "event" and state.current_event is not None:
        parts[0] = f"Event {event_card_label(state, state.current_event)}"
    if brief:
        parts = parts[1:]
        crew = crew_words(action.crew or (), True)
        return (
            " · ".join([*parts, crew])
            + (f" ({action.proxy})" if action.proxy else "")
            + (f" · deposit {action.deposit}" if action.deposit else "")
        )
    text = " — ".join(parts)
    text += f" · crew {crew_words(action.crew or ())}"
    if action.proxy:
        text += f" (one plays the {action.proxy})"
    if action.deposit:
        text += f" · deposit 1 {one(action.deposit)}"
    return text


def search_text(state: State, action: Action) -> str:
    """Lower-case text a filter searches: the description and the raw action."""
    return f"{describe(state, action)} {action}".lower()


# ----------------------------------------------------------------- status


def _pending(v: dict[str, Any]) -> tuple[str, int | None]:
    if v["over"]:
        return "over", None
    if v["decisions"]:
        d = v["decisions"][0]
        return str(d[0]), int(d[1])
    return str(v["phase"]), v["current"]


def status_line(state: State, names: Sequence[str] | None = None, seat: int | None = None) -> Text:
    """Round, phase, leader, who acts and what they decide."""
    names = _names(state, names)
    v = state.view(seat)
    t = Text()
    t.append("Through Ice and Snow", Style(bold=True))
    scen = v["options"].get("scenario")
    if scen:
        t.append(f" · {scen.replace('-', ' ')}", Style(bold=True))
    if v["options"].get("modes"):
        t.append(f" · {', '.join(v['options']['modes'])}")
    t.append("   ")
    t.append("Setup" if v["round"] == 0 else f"Round {v['round']}", Style(bold=True))
    if v["final_round"] and not v["final_voyage"]:
        t.append(" (FINAL ROUND)", GOLD)
    elif v["final_voyage"]:
        t.append(" (final voyage)", GOLD)
    kind, cur = _pending(v)
    if kind == "over":
        t.append(" · game over", GOLD)
        outcome = state.outcome
        if outcome:
            t.append(f" ({outcome}: {v['reason']})")
        return t
    t.append(f" · {_PHASES.get(kind, kind)}")
    t.append("   helm ⎈ ")
    t.append(names[v["leader"]], player_style(v["leader"]))
    if cur is not None:
        t.append("   to act: ")
        t.append(names[cur], player_style(cur))
        t.append(f" ({state.expecting()})" if seat in (None, cur) else "")
    if v["phase"] == "action" and state.players > 1:
        passed = [s for s in range(state.players) if v["pv"][F * s + PASSED]]
        if passed:
            t.append("   passed: ")
            t.append(", ".join(names[s] for s in passed), DIM)
    return t


# ----------------------------------------------------------------- the map


def _marks(state: State, v: dict[str, Any], anchor: str) -> str:
    a = state.tables.anchors[anchor]
    m = ""
    if anchor == v["fleet"]:
        m += "▶"
    if anchor in v["dyn_anchors"]:
        m += "✸"
    if a.blue:
        m += "★"
    if a.final_pp:
        m += f"⚑{a.final_pp}PP"
    for where, s in v["cabins_at"]:
        if where == anchor:
            m += f"⌂{s + 1}"
    for where, s in v["shelters_at"]:
        if where == anchor:
            m += f"△{s + 1}"
    return m


def map_panel(state: State, seat: int | None = None) -> Panel:
    """The route so far, where the fleet is, where it may go, the placed sections."""
    v = state.view(seat)
    c = state.content
    t = state.tables
    lines: list[Text] = []
    fleet = v["fleet"]
    fa = t.anchors[fleet]
    head = Text("Fleet ▶ ", Style(bold=True))
    head.append(anchor_name(c, fleet), Style(bold=True, color="#8fd3ff"))
    mapped = v["mapped"]
    head.append(f" — {region_name(c, fa.region)}{' ✓ mapped' if fa.region in mapped else ''}")
    if v["dest"] and v["dest"] != fleet:
        head.append("   course set for ")
        head.append(anchor_name(c, v["dest"]), Style(bold=True))
    if v["voyage"]:
        head.append(f"   ({v['voyage']} voyage)")
    lines.append(head)
    route = Text("Route: ")
    for i, a in enumerate(v["dyn_anchors"]):
        if i:
            route.append(" → ", DIM)
        route.append(anchor_name(c, a) + "✸", Style(bold=a == fleet))
    if not v["dyn_anchors"]:
        route.append("(not sailed yet)", DIM)
    lines.append(route)
    placed = tuple((int(s), str(d)) for s, d in v["placed"])
    onward = t.routes_from(placed, fleet)
    nxt = Text("Onward: ")
    if not onward:
        nxt.append("no placed route leaves here", DIM)
    for i, (to, dyn) in enumerate(onward):
        if i:
            nxt.append(" · ", DIM)
        a = t.anchors[to]
        nxt.append(anchor_name(c, to), Style(bold=True))
        if region_name(c, a.region) != anchor_name(c, to):
            nxt.append(f" ({region_name(c, a.region)})")
        if dyn:
            nxt.append(f" +{dyn}✸", WARN)
        if a.blue:
            nxt.append(" ★", GOLD)
        if a.final_pp:
            nxt.append(f" ⚑{a.final_pp}PP", GOLD)
        if not all(any(int(s) == i for s, _ in placed) for i in t.sections_of[to]):
            nxt.append(" (new section)", DIM)
    lines.append(nxt)
    names_of = [region_name(c, r) for r in mapped]
    reg = Text(f"Regions mapped ({len(mapped)}, {v['carto_tokens']} tokens left): ")
    reg.append(", ".join(names_of) if names_of else "none yet", Style(color="#cfe8a0"))
    lines.append(reg)
    for idx, side in v["placed"]:
        sec = c.sections[int(idx)]
        row = Text(f"{sec.name} side {side}: ", Style(bold=True))
        for j, a in enumerate(sec.sides[str(side)].anchors):
            if j:
                row.append(" · ", DIM)
            marks = _marks(state, v, a.id)
            style = Style(bold=True, color="#8fd3ff") if a.id == fleet else Style()
            row.append(a.name, style)
            if marks:
                row.append(marks, GOLD if "★" in marks or "⚑" in marks else Style(bold=True))
        lines.append(row)
    unplaced = [s.name for s in c.sections if not any(int(i) == s.index for i, _ in v["placed"])]
    if unplaced:
        lines.append(Text(f"Not yet placed: {', '.join(unplaced)}", DIM))
    scen = v["options"].get("scenario")
    if scen == "lost-expedition":
        prio = ", ".join(region_name(c, r) for r in v["priority"])
        top = state.scen().get("progress", {}).get("max", 5)
        found = "FOUND ✓" if v["le_found"] else f"search {v['le_progress']}/{top}"
        lines.append(
            Text(
                f"Lost Expedition: {found} · priority regions: {prio} · "
                f"cabin objective {'met ✓' if v['le_cabin'] else 'not met'} · "
                f"search cards left {v['search']}",
                Style(color="#f0b0ff"),
            )
        )
    elif scen == "magnetic-north-pole":
        status = "FOUND ✓" if v["pole_found"] else "not found"
        mag = "magnetised (the compass steers)" if v["magnetised"] else "not magnetised"
        disc = ", ".join(v["compass_disc"]) or "none"
        lines.append(
            Text(
                f"Magnetic North Pole: {status} · compass {mag} · compass cards left "
                f"{v['compass']}, discarded {disc}",
                Style(color="#f0b0ff"),
            )
        )
    elif scen == "mysterious-epidemic":
        ill = " ".join(f"{e[0]}:{sum(e[1:])}" for e in v["ep_ill"]) or "nobody"
        lines.append(
            Text(
                f"Mysterious Epidemic: ill {ill} · treatments {', '.join(v['ep_treat']) or 'none'}"
                f" · Inuit at {', '.join(v['ep_inuit']) or 'nowhere'}",
                Style(color="#f0b0ff"),
            )
        )
    elif scen == "amundsens-voyage":
        cyl = "".join("●" if x else "○" for x in v["am_cyl"])
        lines.append(
            Text(
                f"Amundsen's Voyage: black cylinders {cyl} (health, morale right, left) · "
                f"Gjøa Haven {'FOUNDED ✓' if v['am_founded'] else 'not founded'}",
                Style(color="#f0b0ff"),
            )
        )
    lines.append(
        Text(
            "▶ fleet  ✸ dynamite (+1✸: 1 more)  ★ final-round anchor  ⚑ final anchor  "
            "⌂n/△n cabin/shelter of seat n  ✓ mapped",
            DIM,
        )
    )
    return Panel(Group(*lines), title="Map", title_align="left", border_style="#5a7a9a")


# ----------------------------------------------------------------- the action board


def occupants(events: Iterable[Event] | None) -> dict[str, list[int]]:
    """Who sits on each space this round, from the CrewPlaced events since the round began."""
    out: dict[str, list[int]] = {}
    if events is None:
        return out
    for ev in events:
        if isinstance(ev, RoundStarted | RoundEnded):
            out = {}
        elif isinstance(ev, CrewPlaced):
            out.setdefault(ev.space, []).append(ev.seat)
    return out


def _slots_text(count: int | None, taken: int, seats: list[int]) -> Text:
    t = Text()
    seats = seats[:taken] + [-1] * max(0, taken - len(seats))
    if count is None:  # unlimited
        t.append("[∞]", DIM)
        for s in seats:
            t.append(f"[{s + 1 if s >= 0 else 'x'}]", player_style(s) if s >= 0 else Style())
        return t
    for i in range(count):
        if i < len(seats):
            s = seats[i]
            t.append(f"[{s + 1 if s >= 0 else 'x'}]", player_style(s) if s >= 0 else Style())
        else:
            t.append("[ ]", DIM)
    return t


def board_panel(
    state: State,
    seat: int | None = None,
    log: Iterable[Event] | None = None,
) -> Panel:
    """The action board by column: spaces and slots, warehouses, Survival deposits."""
    v = state.view(seat)
    t = state.tables
    n = state.players
    # Crew go home at Boarding: outside the Action phase the board is empty.
    acting = v["phase"] == "action"
    occ = v["occ"] if acting else [0] * len(v["occ"])
    who = occupants(log)
    final = v["final_round"] and not v["final_voyage"]
    scen = state.scen() if state.scenario else {}
    blocked = set(scen.get("blocked_spaces", ()))
    # Walking on Ice: the tiles beside the board / the spaces they cover are not shown
    hidden = set(state.blocked_spaces()) - blocked
    survival = "survival" in v["options"]["modes"]
    cols: dict[str, list[Text]] = {c: [] for c in COLUMNS}
    for i, sp in enumerate(t.spaces):
        if (sp.final and not final) or sp.id in hidden:
            continue
        line = Text()
        label = space_label(state, sp.id)
        label = label.split(" (")[0]
        if sp.id in blocked:
            line.append(f"{label} (blocked)", DIM)
            cols.setdefault(sp.column, []).append(line)
            continue
        line.append(f"{label:<17}", Style(bold=sp.final))
        line.append_text(_slots_text(sp.slots.get(n), occ[i], who.get(sp.id, [])))
        if sp.above_warehouse and survival:
            line.append(" ⇩", DIM)
        cols.setdefault(sp.column, []).append(line)
    if "shelters" in v["options"]["modes"]:
        cols["general"].append(Text("Build a shelter  1 Inuk + 1 crew", DIM))
    foot: dict[str, list[Text]] = {c: [] for c in COLUMNS}
    for ci, col in enumerate(t.columns):
        box = v["boxes"][4 * ci : 4 * ci + 4]
        inside = ", ".join(f"{k} {_RES_SHORT[r]}" for r, k in zip(RESOURCES, box, strict=True) if k)
        w = Text("warehouse: ", DIM)
        w.append(inside or "empty")
        foot.setdefault(col, []).append(w)
        if survival and acting:
            paid = v["col_paid"][ci]
            foot[col].append(
                Text("deposit paid ✓", Style(color="#7fcf7f"))
                if paid
                else Text("deposit due at next ⇩", Style(color="#e0a060"))
            )
    heads = {}
    for c in COLUMNS:
        wh = state.content.warehouses.get(c)
        heads[c] = f"{c.capitalize()} (exchange → {wh.gives})" if wh else c.capitalize()
    grid = _BoardGrid([(heads[c], cols[c], foot.get(c, [])) for c in COLUMNS])
    title = "Action board"
    if final:
        title += " — FINAL ROUND: the bold spaces are open"
    notes = Text("[n] seat n placed crew there · [ ] free · [∞] unlimited", DIM)
    if survival:
        notes.append(" · ⇩ above a warehouse (Survival deposit)", DIM)
    return Panel(Group(grid, notes), title=title, title_align="left", border_style="#7a6a4a")


_BOARD_COLUMN = 36  # width one column of the action board needs


class _BoardGrid:
    """The board's columns side by side, as many per row as the width allows;
    the warehouse lines (``foot``) line up under the spaces of each row."""

    def __init__(self, columns: list[tuple[str, list[Text], list[Text]]]) -> None:
        self.columns = columns

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        per_row = max(1, min(len(self.columns), options.max_width // _BOARD_COLUMN))
        for i in range(0, len(self.columns), per_row):
            chunk = self.columns[i : i + per_row]
            depth = max(len(spaces) for _, spaces, _ in chunk)
            lines = [[*sp, *[Text("")] * (depth - len(sp)), *ft] for _, sp, ft in chunk]
            table = Table(show_header=True, header_style=HEAD, box=None, padding=(0, 2))
            for head, _, _ in chunk:
                table.add_column(head, no_wrap=True)
            for r in range(max(len(x) for x in lines)):
                table.add_row(*(x[r] if r < len(x) else Text("") for x in lines))
            yield table


# ----------------------------------------------------------------- cards


def cards_panel(
    state: State,
    seat: int | None = None,
    log: Iterable[Event] | None = None,
    names: Sequence[str] | None = None,
) -> Panel:
    """This round's event card (and who took it) and the face-up hunting and species cards."""
    names = _names(state, names)
    v = state.view(seat)
    lines: list[Text] = []
    ev = v["event"]
    t = Text("Event: ", Style(bold=True))
    if ev is None:
        t.append("none revealed yet this round", DIM)
    else:
        card = state.content.events.get(ev)
        t.append(event_card_label(state, ev), Style(color="#f0c080"))
        if card and card.kind == "action":
            takers = occupants(log).get("event", []) if v["event_taken"] else []
            if takers:
                t.append(f" — taken by {names[takers[-1]]}")
            else:
                t.append(" — taken" if v["event_taken"] else " — open to take (key 'event')")
    lines.append(t)
    if v.get("ev22"):
        lines.append(Text(f"  with species card {card_label(state, v['ev22'])}"))
    flags = [
        name
        for key, name in (
            ("ev4", "Freezing Wind"),
            ("ev26", "School of Fish"),
            ("ev28", "Orca Sighting"),
        )
        if v[key]
    ]
    if flags:
        lines.append(Text(f"  in force this round: {', '.join(flags)}", DIM))
    h = Text("Hunting: ", Style(bold=True))
    h.append(" · ".join(card_label(state, c) for c in v["hu_rev"]) or "none", Style())
    lines.append(h)
    s = Text("Species: ", Style(bold=True))
    s.append(" · ".join(card_label(state, c) for c in v["sp_rev"]) or "none", Style())
    lines.append(s)
    events = (
        f"walking events {v['walk_deck']}"
        if v.get("abandoned")
        else f"events open sea {v['ev_open']} / coastal {v['ev_coastal']}"
    )
    decks = Text(
        f"Decks: hunting {v['hu_deck']}, species {v['sp_deck']}, {events} "
        f"· Inuit pool {v['inuit_pool']}",
        DIM,
    )
    if v["discovered"]:
        found = ", ".join(species_name(state, x) for x in v["discovered"])
        decks.append(f" · species discovered: {found}", DIM)
    lines.append(decks)
    if "curse" in v:  # Inuit Myths
        cr = Text("Creatures: ", Style(bold=True))
        at = v["creature_at"]
        cr.append(f"token {'on ' + region_name(state.content, at) if at else 'beside the map'}")
        cr.append(f" · deck {v['cr_deck']}", DIM)
        lines.append(cr)
        for num in v["cr_active"]:
            lines.append(
                Text(f"  in play {creature_label(state, int(num))}", Style(color="#d0a0f0"))
            )
    return Panel(Group(*lines), title="Cards", title_align="left", border_style="#6a8a6a")


# ----------------------------------------------------------------- personal boards


def _zone(state: State, track: str, value: int) -> str:
    tr = state.content.health if track == "health" else state.content.morale
    eff = tr.effects.get(value)
    return f"{value}/{tr.max}" + (f" {eff.upper()}" if eff else "")


def _fuel_band(state: State, fuel: int) -> str:
    for band in state.content.tracks["fuel"]["bands"]:
        if int(band["from"]) <= fuel <= int(band["to"]):
            eff = band["effect"]
            word = {"morale": "morale +1", "discard": "discard!"}.get(eff, "no effect")
            return f"{fuel}/10 ({band['from']}–{band['to']}: {word})"
    return str(fuel)


def crew_state(state: State, seat: int, v: dict[str, Any] | None = None) -> dict[str, list[int]]:
    """A seat's crew by kind (captain, carpenter, scientist, sailors, inuit):
    ``owned``, ``placed`` this round, in the ``infirmary`` and ``free`` to place."""
    v = v if v is not None else state.view(seat)
    pv = v["pv"]
    b = F * seat
    crew = state.player(seat)["crew"]
    owned = [int(crew[k]) for k in CREW_KINDS]
    used = list(pv[b + USED : b + USED + 5])
    inf = list(pv[b + INF : b + INF + 5])
    free = [max(0, o - u - i) for o, u, i in zip(owned, used, inf, strict=True)]
    return {"owned": owned, "placed": used, "infirmary": inf, "free": free}


def player_rows(state: State, s: int, v: dict[str, Any], viewer: int | None) -> list[Text]:
    """The lines of one personal board."""
    c = state.content
    pv = v["pv"]
    b = F * s
    p = state.player(s)
    rows: list[Text] = []

    def row(label: str, value: str | Text, style: Style | None = None) -> None:
        t = Text(f"{label:<9}", DIM)
        t.append_text(value if isinstance(value, Text) else Text(value, style or Style()))
        rows.append(t)

    row("PP", str(p["pp"]), GOLD)
    row("food", str(p["food"]))
    hz = _zone(state, "health", p["health"])
    row("health", hz, WARN if " " in hz else None)
    mz = _zone(state, "morale", p["morale"])
    row("morale", mz, WARN if " " in mz else None)
    if p.get("abandoned"):  # Walking on Ice: the sled board replaces the ship board
        row("sled bd", f"maintenance {p['maintenance']} (food ≤ {p['food_cap']})")
        over = p["cargo"] > p["cargo_cap"]
        row(" cargo", f"{p['cargo']}/{p['cargo_cap']}", WARN if over else None)
        row(" cans", str(p["cans"]))
        row(" guilt", str(p["guilt"]), WARN if p["guilt"] else None)
        if p["sick_sailor"]:
            row(" sick", "1 sailor carried on the sled (fed, never placed)", WARN)
        if p["inuit_customs"]:
            row(" #36", "morale +1 with every scientist action")
    else:
        fb = _fuel_band(state, p["fuel"])
        row("fuel", fb, WARN if "discard" in fb else None)
    row("sled", f"{p['sled']}  dogs {p['dogs']}")
    row("Inuit", f"track {p['inuit']}" + (f" (+{pv[b + HIRED]} boarding)" if pv[b + HIRED] else ""))
    row("towing", f"{p['towing']:+d}")
    row("supplies", f"{p['dynamite']} dyn, {p['wood']} wood, {p['rifles']} rifles")
    cs = crew_state(state, s, v)
    owned, used, inf, avail = cs["owned"], cs["placed"], cs["infirmary"], cs["free"]
    row("crew", crew_words(owned, True))
    row(" free", crew_words(avail, True) if sum(avail) else "none")
    if sum(used):
        row(" placed", crew_words(used, True))
    if sum(inf):
        row(" sick", crew_words(inf, True), WARN)
    if pv[b + RESCUED]:
        row(" rescued", f"{pv[b + RESCUED]} survivors (fed)")
    if p.get("curse"):
        space = max(0, p["health"] - 1)
        eff = c.health.effects.get(space)
        row("curse", f"cylinder at health {space}" + (f" {eff.upper()}" if eff else ""), WARN)
    if p.get("held_inuit"):
        row(" held", f"{p['held_inuit']} Inuit on the creature card", WARN)
    ups = [f"{u} {c.upgrades[u].name}" if u in c.upgrades else str(u) for u in p["upgrades"]]
    row("upgrades", ", ".join(ups) or "none")
    extra = f", shelters {pv[b + SHELTERS]}" if "shelters" in v["options"]["modes"] else ""
    row("cabins", f"{p['cabins']}{extra}")
    sp = [c.species[x].name if x in c.species else x for x in p["species"]]
    row("species", f"{len(sp)}: " + ", ".join(sp) if sp else "none")
    cards = [n for n, f in ((9, CARD9), (17, CARD17)) if pv[b + f]]
    if cards:
        row("events", ", ".join(f"#{n} {c.events[n].name}" for n in cards))
    inv = v["investor"][s]
    if inv is not None and inv in c.investors:
        row("investor", objective_text(state, inv))
    elif v["options"].get("scenario") is None:
        row("investor", "not chosen yet" if s == viewer else "hidden", DIM)
    if s == viewer:
        carto = v["carto"][s]
        if carto is not None and carto in c.cartography:
            regs = [
                region_name(c, r) + (" ✓" if r in v["mapped"] else "")
                for r in c.cartography[carto].regions
            ]
            row("carto", ", ".join(regs))
    if v["phase"] == "action" and state.players > 1:
        row("turns", f"{pv[b + TURNS]}" + (" · PASSED" if pv[b + PASSED] else ""))
    if state.players > 1:
        row("leader", f"{pv[b + LEADS]}× so far")
    return rows


_BOARD_WIDTH = 40  # columns one personal board needs to stay readable


def players_table(
    state: State,
    names: Sequence[str] | None = None,
    bots: Sequence[bool] | None = None,
    seat: int | None = None,
) -> Table:
    """Every personal board side by side, one column per seat (the viewer's first)."""
    order = list(range(state.players))
    if seat is not None:
        order = [seat] + [s for s in order if s != seat]
    return _boards_of(state, names, bots, seat, order)


class PlayerBoards:
    """Every personal board, as many side by side as the console width allows."""

    def __init__(
        self,
        state: State,
        names: Sequence[str] | None = None,
        bots: Sequence[bool] | None = None,
        seat: int | None = None,
    ) -> None:
        self.state, self.names, self.bots, self.seat = state, names, bots, seat

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        n = self.state.players
        per_row = max(1, min(n, options.max_width // _BOARD_WIDTH))
        order = list(range(n))
        if self.seat is not None:
            order = [self.seat] + [s for s in order if s != self.seat]
        for i in range(0, n, per_row):
            chunk = order[i : i + per_row]
            yield _boards_of(self.state, self.names, self.bots, self.seat, chunk)


def _boards_of(
    state: State,
    names: Sequence[str] | None,
    bots: Sequence[bool] | None,
    seat: int | None,
    seats: Sequence[int],
) -> Table:
    names = _names(state, names)
    v = state.view(seat)
    _kind, cur = _pending(v)
    table = Table(box=None, padding=(0, 3), show_header=True, expand=False)
    cells: list[list[Text]] = []
    for s in seats:
        head = Text()
        if s == v["leader"]:
            head.append("⎈ ", GOLD)
        if s == cur:
            head.append("▶ ", Style(bold=True))
        head.append(names[s], player_style(s))
        tag = " (you)" if s == seat else " (bot)" if bots and bots[s] else ""
        head.append(f" [{s + 1}]{tag}", DIM)
        table.add_column(head, no_wrap=False, min_width=30, max_width=46)
        cells.append(player_rows(state, s, v, seat))
    for r in range(max(len(x) for x in cells)):
        table.add_row(*(col[r] if r < len(col) else Text("") for col in cells))
    return table


# ----------------------------------------------------------------- the event log


def event_text(state: State, ev: Event, names: Sequence[str]) -> str:
    """An event in words, with place, space and card names instead of ids."""
    c = state.content
    names = list(names)

    def who(seat: int) -> str:
        return names[seat] if 0 <= seat < len(names) else f"Player {seat + 1}"

    if isinstance(ev, DestinationChosen):
        return f"{who(ev.seat)} sets course for {anchor_name(c, ev.to)}."
    if isinstance(ev, FleetMoved):
        return f"The fleet sails to {anchor_name(c, ev.to)}."
    if isinstance(ev, DynamitePlaced):
        return (
            f"{who(ev.seat)} pays {ev.count} dynamite to break the ice towards "
            f"{anchor_name(c, ev.anchor)}."
        )
    if isinstance(ev, CrewPlaced):
        return f"{who(ev.seat)}: {space_label(state, ev.space)} with {crew_words(ev.crew)}."
    if isinstance(ev, CrewToInfirmary):
        return f"{who(ev.seat)} puts {crew_words(ev.crew)} in the infirmary."
    if isinstance(ev, CardTaken):
        return f"{who(ev.seat)} takes {ev.deck} card {card_label(state, ev.card)}."
    if isinstance(ev, CardsRevealed):
        return f"Revealed {ev.deck}: " + " · ".join(card_label(state, x) for x in ev.cards) + "."
    if isinstance(ev, CabinBuilt):
        return (
            f"{who(ev.seat)} builds a cabin at {anchor_name(c, ev.anchor)}, "
            f"lowering food by {ev.food}."
        )
    if isinstance(ev, ShelterBuilt):
        return f"{who(ev.seat)} builds an Inuit shelter at {anchor_name(c, ev.anchor)}."
    if isinstance(ev, RegionMapped):
        return f"{who(ev.seat)} maps {region_name(c, ev.region)}."
    if isinstance(ev, UpgradeBuilt):
        u = c.upgrades.get(ev.tile)
        return f"{who(ev.seat)} builds upgrade {ev.tile} {u.name if u else ''} (space {ev.space})."
    if isinstance(ev, SpeciesDiscovered):
        return f"{who(ev.seat)} is the first to discover the {species_name(state, ev.species)}."
    if isinstance(ev, SpeciesEaten):
        return f"{who(ev.seat)} eats {card_label(state, ev.card)}."
    if isinstance(ev, EventRevealed):
        return f"Event {event_card_label(state, ev.number)}."
    return ev.text(names)


def event_style(ev: Event) -> tuple[str, Style | None]:
    """Prefix and style of a log line: round marks, scores, losses."""
    if isinstance(ev, RoundStarted | RoundEnded | GameOver):
        return "— ", HEAD
    if isinstance(ev, ScoreChanged):
        return "  ", GOLD
    name = type(ev).__name__
    if name in ("CrewLost", "FoodShortage", "AttritionPenalty", "Towing"):
        return "  ", WARN
    if name in ("TrackChanged", "ResourceChanged"):
        return "  ", Style(dim=True)
    return "  ", None


def event_line(state: State, ev: Event, names: Sequence[str]) -> Text:
    prefix, style = event_style(ev)
    t = Text(prefix)
    seat = getattr(ev, "seat", None)
    if isinstance(seat, int) and prefix == "  ":
        t.append("● ", player_style(seat))
    t.append(event_text(state, ev, names), style or Style())
    return t


def log_panel(
    state: State, events: Sequence[Event], names: Sequence[str] | None = None, limit: int = 12
) -> Panel:
    """The last ``limit`` lines of the event log."""
    names = _names(state, names)
    shown = list(events)[-limit:]
    lines = [event_line(state, ev, names) for ev in shown] or [Text("(nothing yet)", DIM)]
    return Panel(Group(*lines), title="Log", title_align="left", border_style="#555555")


# ----------------------------------------------------------------- the whole screen


def game_view(
    state: State,
    names: Sequence[str] | None = None,
    bots: Sequence[bool] | None = None,
    seat: int | None = None,
    log: Sequence[Event] | None = None,
    log_lines: int = 8,
) -> Group:
    """Everything ``seat`` may see (``None``: a spectator): status, map, board,
    cards, personal boards and, given the event log, its last lines."""
    parts: list[RenderableType] = [
        status_line(state, names, seat),
        map_panel(state, seat),
        board_panel(state, seat, log),
        cards_panel(state, seat, log, names),
        PlayerBoards(state, names, bots, seat),
    ]
    if log is not None and log_lines:
        parts.append(log_panel(state, log, names, log_lines))
    return Group(*parts)


def render_text(
    state: State,
    seat: int | None = None,
    width: int = 140,
    log: Sequence[Event] | None = None,
    names: Sequence[str] | None = None,
) -> str:
    """The game view as plain text (no colour): for the RL environment and logs."""
    console = Console(
        record=True, width=width, file=io.StringIO(), color_system=None, force_terminal=False
    )
    console.print(game_view(state, names, None, seat, log))
    return console.export_text()


# ----------------------------------------------------------------- final scores

_CATEGORIES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("Start", ("start",)),
    ("Explore", ("explore",)),
    ("Cabins", ("cabin",)),
    ("First discoveries", ("first ", "dual species")),
    ("Mapping", ("mapping",)),
    ("Final-round actions", ("trace the map", "document", "laboratory", "vow")),
    ("Track overflow", ("health overflow", "morale overflow")),
    ("Hardship", ("death", "dog eaten", "sailor lost", "missing food", "sick sailor")),
    ("Final anchor", ("final anchor",)),
    ("Species majority", ("species majority",)),
    ("Species cards", ("species cards",)),
    ("Cabin majority", ("cabin majority",)),
    ("Health (end)", ("health",)),
    ("Morale (end)", ("morale",)),
    ("Investor", ("investor",)),
    ("Cartography", ("cartography",)),
    ("Shelter majority", ("shelter majority",)),
    ("Guilt", ("guilt",)),  # Walking on Ice's end penalty
)


def score_category(reason: str) -> str:
    r = reason.strip().lower()
    # exact final-scoring reasons first, then prefixes
    for label, keys in _CATEGORIES:
        if r in keys:
            return label
    for label, keys in _CATEGORIES:
        if any(r.startswith(k) for k in keys):
            return label
    if "tow" in r:
        return "Towing"
    return "Other (" + reason + ")" if reason else "Other"


def score_breakdown(events: Iterable[Event], players: int) -> dict[str, list[int]]:
    """Points per category and seat, summed from the ScoreChanged events."""
    return points_by_category(
        events, players, score_category, tuple(label for label, _ in _CATEGORIES)
    )


def final_table(
    state: State,
    events: Iterable[Event] | None = None,
    names: Sequence[str] | None = None,
) -> RenderableType:
    """Scores by category per seat, totals and ranks; in solo, the objectives too."""
    outcome = state.outcome
    title = f"Final scores ({outcome})" if state.is_over else f"Scores in round {state.round}"
    breakdown = None if events is None else score_breakdown(events, state.players)
    table = score_table(title, _names(state, names), state.scores(), state.ranking(), breakdown)
    parts: list[RenderableType] = [table]
    if state.is_over:
        v = state.view(None)
        line = Text(f"Outcome: {outcome}", GOLD if outcome in ("won", "finished") else WARN)
        if v["reason"]:
            line.append(f" — {v['reason']}")
        parts.append(line)
    elif state.scenario is not None:
        missing = state.objectives_missing()
        parts.append(Text("Objectives missing: " + ("; ".join(missing) or "none"), DIM))
    return Group(*parts)
