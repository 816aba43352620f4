"""The pending decision and the final scoring of the wire view.

A decision lists, for the seat that makes it, every choice with the action to send
(``option["action"]``, exactly one of ``state.legal_actions()``) and what it costs;
choices the rules leave out are listed under ``missing`` with a reason key
(:data:`MISSING` gives each in English).  Other seats and spectators see only who
decides what: the set-up offers and the Mast's two cards are secret, and the rest
is theirs to choose.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from erebus.games.iceandsnow import legends, scoring, wire_scenarios, wire_walking
from erebus.games.iceandsnow.actions import Action
from erebus.games.iceandsnow.content import CREW_KINDS, RESOURCES
from erebus.games.iceandsnow.flow import ICEBREAK_DYNAMITE
from erebus.games.iceandsnow.layout import (
    BOILER_TILE,
    CABINS,
    DYN,
    FOOD,
    FUEL,
    MAP_OPEN_SEA,
    RES,
    SHELTERS,
    F,
)
from erebus.games.iceandsnow.legends_explorers import TRACK_SPACES

if TYPE_CHECKING:
    from erebus.games.iceandsnow.state import State

#: Why a choice of a decision is missing, by key.
MISSING = {
    "final_voyage": "the final voyage is always on the open sea",
    "coastal_fuel": "a coastal voyage needs at least 2 fuel per ship on the whole fleet",
    "deck_empty": "that event deck is empty",
    "none_held": "you have none to discard",
    "unplaced_section": "that anchor lies on a map section not placed yet",
    "destination": "that anchor is the destination itself",
}


def _crew(c: tuple[int, ...]) -> dict[str, int]:
    return dict(zip(CREW_KINDS, c, strict=True))


def _payers(st: State, cost: int) -> list[dict[str, int]]:
    """Who pays an icebreaking of ``cost`` dynamite: the leader first, then
    clockwise (§4.1 step 3)."""
    out = []
    left = cost
    for s in st.order_from(st.leader):
        pay = min(left, st.pv[F * s + DYN])
        if pay:
            out.append({"seat": s, "dynamite": pay})
            left -= pay
        if not left:
            break
    return out


def decision(
    st: State, viewer: int | None, legal: list[Action] | None = None
) -> dict[str, Any] | None:
    """The decision the game waits for; its choices only for the seat making it
    (``legal``: its legal actions, when the caller has them)."""
    if st.over:
        return None
    kind = st.pending
    seat = st.current_player
    out: dict[str, Any] = {
        "kind": kind,
        "seat": seat,
        "mine": viewer is not None and viewer == seat,
    }
    if kind == "setup":
        out["stage"] = "investor" if st.setup_stage == 0 else "cartography"
    elif kind == "section":
        idx = st.next_section()
        out["section"] = st.content.sections[idx].id
        out["destination"] = st.dest
    if not out["mine"]:
        return out
    legal = st.legal_actions() if legal is None else legal
    handler = _DETAILS.get(kind)
    if handler is not None:
        handler(st, out, legal)
    else:
        out["options"] = [{"action": a.to_json()} for a in legal]
        out["missing"] = []
    return out


def _opts(legal: list[Action], **extra: Any) -> list[dict[str, Any]]:
    return [{"action": a.to_json(), **extra} for a in legal]


def _setup(st: State, out: dict[str, Any], legal: list[Action]) -> None:
    out["options"] = [{"action": a.to_json(), "card": a.card} for a in legal]
    out["missing"] = []


def _section(st: State, out: dict[str, Any], legal: list[Action]) -> None:
    sec = st.content.sections[st.next_section()]
    out["options"] = [
        {
            "action": a.to_json(),
            "side": a.side,
            "anchors": [x.id for x in sec.sides[str(a.side)].anchors],
        }
        for a in legal
    ]
    out["missing"] = []


def _start(st: State, out: dict[str, Any], legal: list[Action]) -> None:
    out["options"] = [{"action": a.to_json(), "to": a.to} for a in legal]
    out["missing"] = []


#: Legendary Expeditions' free actions (no turn used): Kellett's look, Collinson's chart.
EXPLORER_FREE = ("track", "chart")


def _explorer_free(out: dict[str, Any], legal: list[Action]) -> list[Action]:
    """The explorers' free actions go to ``out["free"]`` (after Walking on Ice's, same
    shape: ``action`` and ``kind``); the other legal actions are returned."""
    mine = [a for a in legal if a.kind in EXPLORER_FREE]
    if not mine:
        return legal
    free = out.setdefault("free", [])
    for a in mine:
        if a.kind == "chart":
            free.append({"action": a.to_json(), "kind": "chart", "region": a.to})
        else:
            deck = TRACK_SPACES.get(str(a.space), "species")
            free.append({"action": a.to_json(), "kind": "track", "space": a.space, "deck": deck})
    return [a for a in legal if a.kind not in EXPLORER_FREE]


def _destination(st: State, out: dict[str, Any], legal: list[Action]) -> None:
    legal = _explorer_free(out, legal)  # Collinson may chart at his destination choice
    t = st.tables
    routes = dict(st.destinations())
    placed = {i for i, _ in st.placed_key()}
    total = sum(st.pv[F * s + DYN] for s in range(st.n))
    opts = []
    for a in legal:
        assert a.to is not None
        extra = routes.get(a.to, 0)
        cost = ICEBREAK_DYNAMITE + extra
        anchor = t.anchors[a.to]
        opts.append(
            {
                "action": a.to_json(),
                "to": a.to,
                "dynamite": cost,
                "extra": extra,
                "payable": total >= cost,
                "payers": _payers(st, cost) if total >= cost else [],
                "new_section": not all(i in placed for i in t.sections_of[a.to]),
                "blue": anchor.blue,
                "final_pp": anchor.final_pp,
                "region": anchor.region,
                "mapped": anchor.region in st.mapped,
            }
        )
    out["options"] = opts
    out["missing"] = []
    out["dynamite_total"] = total


def _voyage(st: State, out: dict[str, Any], legal: list[Action]) -> None:
    legal = _explorer_free(out, legal)  # Collinson may chart at his voyage choice
    if getattr(st, "abandoned", None):  # Walking on Ice: the Crossing phase
        wire_walking.crossing(st, out, legal)
        return
    fuel = [st.pv[F * s + FUEL] for s in range(st.n)]
    costs = st.rules["voyage_fuel"]
    decks = {"coastal": len(st.ev_coastal), "open": len(st.ev_open)}
    region = st.region_of(st.dest) if st.dest else None
    out["region"] = region
    opts = []
    for a in legal:
        v = str(a.voyage)
        cost = int(costs[v])
        short = [s for s in range(st.n) if fuel[s] < cost]
        missing = sum(max(0, cost - f) for f in fuel)
        spare = sum(f for s, f in enumerate(fuel) if s not in short)
        opts.append(
            {
                "action": a.to_json(),
                "voyage": v,
                "fuel": cost,
                "deck": decks[v],
                "maps_region": region is not None
                and region not in st.mapped
                and st.carto_tokens > 0
                and (v == "coastal" or bool(st.pv[F * st.leader + MAP_OPEN_SEA])),
                "towed": short,
                "towing_fails": bool(short) and spare < missing,
                "boiler": [
                    s
                    for s in range(st.n)
                    if BOILER_TILE in st.upgrades[s] and st.pv[F * s + RES["wood"]] > 0
                ],
            }
        )
    have = {o["voyage"] for o in opts}
    miss = []
    for v in ("coastal", "open"):
        if v in have:
            continue
        if st.final_voyage:
            why = "final_voyage"
        elif v == "coastal" and sum(fuel) < int(st.rules["coastal_min_fuel_per_player"]) * st.n:
            why = "coastal_fuel"
        else:
            why = "deck_empty"
        miss.append({"voyage": v, "fuel": int(costs[v]), "why": why})
    out["options"] = opts
    out["missing"] = miss
    out["fuel_total"] = sum(fuel)


def _mast(st: State, out: dict[str, Any], legal: list[Action]) -> None:
    out["options"] = [{"action": a.to_json(), "card": int(str(a.card))} for a in legal]
    out["missing"] = []


def _boiler(st: State, out: dict[str, Any], legal: list[Action]) -> None:
    cost = int(st.rules["voyage_fuel"][st.voyage or "open"])
    out["voyage"] = st.voyage
    out["options"] = [
        {
            "action": a.to_json(),
            "use": bool(a.use),
            "pays": {"wood": 1, "fuel": max(0, cost - 1)} if a.use else {"wood": 0, "fuel": cost},
        }
        for a in legal
    ]
    out["missing"] = []


def _discard(st: State, out: dict[str, Any], legal: list[Action]) -> None:
    d = st.decisions[0]
    seat = int(d[1])
    out["reason"] = str(d[2])
    out["options"] = [
        {
            "action": a.to_json(),
            "resource": a.resource,
            "have": st.pv[F * seat + RES[str(a.resource)]],
        }
        for a in legal
    ]
    have = {a.resource for a in legal}
    out["missing"] = [{"resource": r, "why": "none_held"} for r in RESOURCES if r not in have]


def _infirmary(st: State, out: dict[str, Any], legal: list[Action]) -> None:
    d = st.decisions[0]
    out["count"] = int(d[2])
    out["allow_inuit"] = bool(d[3])
    out["options"] = [{"action": a.to_json(), "crew": _crew(a.crew or (0,) * 5)} for a in legal]
    out["missing"] = []


def _eat(st: State, out: dict[str, Any], legal: list[Action]) -> None:
    d = st.decisions[0]
    seat = int(d[1])
    need = int(d[2])
    food = st.pv[F * seat + FOOD]
    out["need"] = need
    out["food"] = food
    out["short"] = max(0, need - food)
    out["reason"] = str(d[3])
    sp = st.content.species
    out["options"] = [
        {
            "action": a.to_json(),
            "card": a.card,
            "food": sp[str(a.card)].food,
            "health": sp[str(a.card)].health,
            "pp": sp[str(a.card)].pp,
        }
        for a in legal
    ]
    out["missing"] = []


def _compass(st: State, out: dict[str, Any], legal: list[Action]) -> None:
    out["from"] = st.prev_fleet
    out["destination"] = st.fleet
    out["options"] = [{"action": a.to_json(), "to": a.to, "decline": a.to is None} for a in legal]
    have = {a.to for a in legal}
    miss = []
    if st.prev_fleet is not None:
        for to, _ in st.tables.routes_from(st.placed_key(), st.prev_fleet):
            if to in have:
                continue
            miss.append({"to": to, "why": "destination" if to == st.fleet else "unplaced_section"})
    out["missing"] = miss


def _action(st: State, out: dict[str, Any], legal: list[Action]) -> None:
    """The Action phase: the spaces are on the board (``board.spaces[].can_take``);
    here only how many actions there are and whether passing is allowed."""
    wire_walking.free_actions(st, out, legal)
    legal = [a for a in legal if a.kind not in wire_walking.FREE_ACTIONS]
    legal = wire_scenarios.free_actions(st, out, legal)  # Mysterious Epidemic's treatments
    legal = _explorer_free(out, legal)
    passes = sum(1 for a in reversed(legal[-1:]) if a.kind == "pass")  # pass comes last
    out["takes"] = len(legal) - passes
    out["can_pass"] = bool(passes)
    out["pass_action"] = {"type": "pass"} if out["can_pass"] else None
    out["missing"] = []


def _explorer(st: State, out: dict[str, Any], legal: list[Action]) -> None:
    """Legendary Expeditions: the two dealt explorers, each with its ship and event."""
    out["options"] = [{"action": a.to_json(), **legends.summary(str(a.card))} for a in legal]
    out["missing"] = []


def _benevolent(st: State, out: dict[str, Any], legal: list[Action]) -> None:
    """McClure at Boarding: trade food for morale (again), or stop."""
    seat = st.current_player
    assert seat is not None
    p = legends.params(st, seat)
    out["food"] = st.p(seat, FOOD)
    out["options"] = [
        {
            "action": a.to_json(),
            "use": bool(a.use),
            "food": -int(p["food"]) if a.use else 0,
            "morale": int(p["morale"]) if a.use else 0,
        }
        for a in legal
    ]
    out["missing"] = []


def _despot(st: State, out: dict[str, Any], legal: list[Action]) -> None:
    """Belcher (Legendary Expeditions H): force the leader off the route to ``to``?"""
    d = st.decisions[0]
    out["to"] = str(d[2])
    out["leader"] = st.leader
    out["options"] = [{"action": a.to_json(), "use": bool(a.use)} for a in legal]
    out["missing"] = []


_DETAILS = {
    "setup": _setup,
    "section": _section,
    "start": _start,
    "destination": _destination,
    "voyage": _voyage,
    "mast": _mast,
    "boiler": _boiler,
    "discard": _discard,
    "infirmary": _infirmary,
    "eat": _eat,
    "compass": _compass,
    "despot": _despot,
    "action": _action,
    **wire_walking.WALKING_DETAILS,
    "explorer": _explorer,
    "benevolent": _benevolent,
    **wire_scenarios.DETAILS,
}
MISSING.update(wire_walking.WALKING_MISSING)

#: Final-scoring categories (§5.2, §6.2), in the order of the end screen, and the
#: ``ScoreChanged`` reasons of :func:`~erebus.games.iceandsnow.scoring.final_scores`
#: that make them up.
CATEGORIES = (
    "final_anchor",
    "species_majority",
    "species_cards",
    "cabins",
    "health",
    "morale",
    "investors",
    "cartography",
    "shelters",
)


def _category(reason: str) -> str:
    if reason == "species majority":
        return "species_majority"
    if reason == "species cards":
        return "species_cards"
    if reason == "cabin majority":
        return "cabins"
    if reason.startswith("investor"):
        return "investors"
    if reason.startswith("guilt"):
        return "guilt"
    if reason == "shelter majority":
        return "shelters"
    return reason  # health, morale, cartography


def final_scoring(st: State) -> dict[str, Any] | None:
    """The end of the game by category, per seat (None while the game runs).

    ``scored`` is False when nothing was scored at the end: a game the whole table
    lost, or a solo scenario (which is won or lost by its objectives)."""
    if not st.over:
        return None
    n = st.n
    scored = st.scenario is None and not st.lost
    cats: dict[str, list[int]] = {c: [0] * n for c in CATEGORIES}
    if scored:
        pp = st.tables.anchors[st.fleet].final_pp if st.fleet else None
        if pp:
            cats["final_anchor"][st.leader] += int(pp)
        for s, delta, reason in scoring.final_scores(st):
            cats.setdefault(_category(reason), [0] * n)[s] += delta
    return {
        "scored": scored,
        "categories": list(cats),
        "points": cats,
        "totals": st.scores(),
        "ranking": st.ranking(),
        "investor_met": [
            bool(st.investor[s] is not None and scoring.investor_met(st, s)) for s in range(n)
        ],
        "cartography": [st.carto[s] if scored else None for s in range(n)],
        "cartography_mapped": [
            [r for r in st.content.cartography[c].regions if r in st.mapped]
            if scored and (c := st.carto[s]) is not None
            else []
            for s in range(n)
        ],
        "species_counts": [len(st.species[s]) for s in range(n)],
        "cabins": [st.pv[F * s + CABINS] for s in range(n)],
        "shelters": [st.pv[F * s + SHELTERS] for s in range(n)],
        "outcome": st.outcome,
        "reason": st.reason,
        "objectives_missing": st.objectives_missing() if st.scenario else [],
    }
