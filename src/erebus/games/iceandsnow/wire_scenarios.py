"""The Myths & Legends solo scenarios in the wire view: Mysterious Epidemic (§9.4) and
Amundsen's Voyage (§9.5), so the browser and the terminal repeat none of their rules.

Everything here is public on the table: the settlement card and the Inuk pawns on
their anchor points, the disease cards beside the board with the crew on each, the
treatment cards beside the board with their two requirements and whether each is
met now, the black cylinders on the tracks and what removes them, Gjøa Haven's
state.  The disease and treatment decks are sizes only (their order never leaves
the engine); their discard piles lie face up.  The hooks in :mod:`.wire`,
:mod:`.wire_decisions` and :mod:`.wire_content` are one line each; a game of
another scenario (or none) gets nothing from here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from erebus.games.iceandsnow import legends_j
from erebus.games.iceandsnow.amundsen import HEALTH_CYL, MORALE_LEFT, MORALE_RIGHT, AmundsenState
from erebus.games.iceandsnow.content import CREW_KINDS
from erebus.games.iceandsnow.epidemic import EpidemicState, requirement_met, species_to_discard

if TYPE_CHECKING:
    from erebus.games.iceandsnow.actions import Action
    from erebus.games.iceandsnow.content import Content
    from erebus.games.iceandsnow.state import State

EPIDEMIC = "mysterious-epidemic"
AMUNDSEN = "amundsens-voyage"
#: The scenarios this module shows (the older two stay in :func:`.wire._scenario`).
SCENARIOS = (EPIDEMIC, AMUNDSEN)
#: Free actions of the Action phase (no turn used), shown beside the action board.
FREE_ACTIONS = ("treat",)
#: Why a choice is missing (merged into wire_decisions.MISSING).
SCENARIO_MISSING = {
    "no_open_sea": "the Gjøa sails along the coast only: no open-sea voyage in Amundsen's Voyage",
}
#: Why a space cannot be taken (merged into wire_board.REASONS).
SPACE_REASONS = {"officer_ill": "the officer this space needs is ill (on a disease card)"}
_CREW4 = CREW_KINDS[:4]


def _crew(c: Any) -> dict[str, int]:
    return dict(zip(CREW_KINDS, [int(x) for x in c], strict=True))


# ----------------------------------------------------------------- the view


def scenario_view(st: State) -> dict[str, Any]:
    """The scenario's fields of ``map.scenario`` (beside ``id`` and
    ``objectives_missing``)."""
    if isinstance(st, EpidemicState):
        return _epidemic(st)
    if isinstance(st, AmundsenState):
        return _amundsen(st)
    return {}


def requirement(st: EpidemicState, req: dict[str, Any], seat: int = 0) -> dict[str, Any]:
    """A treatment requirement in named fields, with whether it is met now."""
    ((kind, value),) = req.items()
    out: dict[str, Any] = {"kind": kind, "met": requirement_met(st, req, seat)}
    if kind == "species":
        out["species"] = list(value)
        out["discards"] = species_to_discard(st, req, seat) or []
        out["have"] = sorted({st.content.species[c].species for c in st.species[seat]} & set(value))
    else:
        out["value"] = int(value)
        out["best"] = st.mnp_explore if kind == "explore" else max(0, st.mnp_cabin)
    return out


def _epidemic(st: EpidemicState) -> dict[str, Any]:
    diseases = st._diseases()
    treatments = st._treatments()
    ill = st.ill_crew(0)
    healthy = st.healthy_non_inuit(0)
    return {
        "settlement": st.ep_settlement,
        "inuit": list(st.ep_inuit),
        "diseases": [
            {
                "card": str(e[0]),
                "name": str(diseases[str(e[0])].get("name", e[0])),
                "officer": str(diseases[str(e[0])]["officer"]),
                "crew": dict(zip(_CREW4, [int(x) for x in e[1:5]], strict=True)),
            }
            for e in st.ep_ill
        ],
        "ill": _crew(ill),
        "treatments": [
            {
                "card": tid,
                "name": str(treatments[tid].get("name", tid)),
                "heal_1": requirement(st, treatments[tid]["heal_1"]),
                "heal_2": requirement(st, treatments[tid]["heal_2"]),
            }
            for tid in st.ep_treat
        ],
        "disease_deck": len(st.ep_dis_deck),
        "disease_discard": list(st.ep_dis_disc),
        "treatment_deck": len(st.ep_tr_deck),
        "treatment_discard": list(st.ep_tr_disc),
        "best_explore": st.mnp_explore,
        "best_cabin_food": st.mnp_cabin if st.mnp_cabin >= 0 else None,
        "healthy_crew": healthy,
        "objectives": [
            {"id": "healthy_crew", "met": healthy >= 1, "value": healthy},
            {"id": "passage", "met": bool(st.won)},
        ],
    }


def _amundsen(st: AmundsenState) -> dict[str, Any]:
    sc = st.scen()
    ex = sc["explore_remove"]
    eaten = sorted({st.content.species[c].species for c in st.sp_eaten})
    haven = st.am_haven or None
    return {
        "explorer": str(sc.get("explorer", "J")),
        # set J: the dog track counts as filled up to this space for Explore (AV6)
        "dogs_as": legends_j.virtual_dogs(st, 0),
        "cylinders": {
            "health": bool(st.am_cyl[HEALTH_CYL]),
            "morale_right": bool(st.am_cyl[MORALE_RIGHT]),
            "morale_left": bool(st.am_cyl[MORALE_LEFT]),
        },
        "health_limit": st.track_limit("health"),
        "morale_limit": st.track_limit("morale"),
        "removal": {
            "health": {"varied_diet": 2, "eaten_species": eaten},
            "morale_right": {"explore_pp": int(ex["right"])},
            "morale_left": {"explore_pp": int(ex["left"])},
            "one_explore_removes_both": st.options.get("amundsen_explore", "both") == "both",
        },
        "best_explore": st.mnp_explore,
        "haven": {
            "revealed_round": haven,
            "this_round": bool(haven) and haven == st.round and not st.over,
            "founded": bool(st.am_founded),
            "food_needed": st.crew_count(0),
        },
        "final_voyage_type": st.options.get("amundsen_final", "open"),
        "objectives": [
            {"id": "haven", "met": bool(st.am_founded)},
            {"id": "passage", "met": bool(st.won)},
        ],
    }


def scenario_seat(st: State, d: dict[str, Any]) -> dict[str, Any]:
    """The seat's board in a new scenario: the ill crew (Epidemic; not free), the
    black cylinders on the tracks (Amundsen).  ``d`` is ``wire._seat``'s dict."""
    if isinstance(st, EpidemicState):
        ill = st.ill_crew(int(d["seat"]))
        d["crew"]["ill"] = _crew(ill)
        free = d["crew"]["free"]
        for i, k in enumerate(CREW_KINDS):
            free[k] = max(0, free[k] - ill[i])
    elif isinstance(st, AmundsenState):
        # the spaces the black cylinders keep the cylinder from (above the limit)
        for track in ("health", "morale"):
            lim = st.track_limit(track)
            d[track]["limit"] = lim
            d[track]["cylinders"] = list(range(lim + 1, int(d[track]["max"]) + 1))
    return d


def officer_why(st: State, seat: int, need: tuple[str, ...]) -> str | None:
    """``"officer_ill"`` when no crew member a space may use is free and one of its
    officers is on a disease card (the caller knows none is free)."""
    if not isinstance(st, EpidemicState) or not st.ep_ill:
        return None
    ill = st.ill_crew(seat)
    idx = {k: i for i, k in enumerate(CREW_KINDS[:3])}
    return "officer_ill" if any(r in idx and ill[idx[r]] for r in need) else None


# ----------------------------------------------------------------- decisions


def _choose_upgrade(st: State, out: dict[str, Any], legal: list[Action]) -> None:
    rec = [int(x) for x in st.scen().get("free_upgrade", {}).get("recommended", [])]
    out["space"] = 1
    out["options"] = [
        {"action": a.to_json(), "tile": a.tile, "recommended": a.tile in rec} for a in legal
    ]
    out["missing"] = []


def _fall_ill(st: State, out: dict[str, Any], legal: list[Action]) -> None:
    assert isinstance(st, EpidemicState)
    card = str(st.decisions[0][2])
    d = st._diseases()[card]
    out["card"] = card
    out["name"] = str(d.get("name", card))
    out["officer"] = str(d["officer"])
    out["count"] = max((sum(a.crew or ()) for a in legal), default=0)
    out["options"] = [{"action": a.to_json(), "crew": _crew(a.crew or (0,) * 5)} for a in legal]
    out["missing"] = []


#: Decision kind → its details (merged into wire_decisions._DETAILS).
SCENARIO_DETAILS = {"choose_upgrade": _choose_upgrade, "fall_ill": _fall_ill}


def free_actions(st: State, out: dict[str, Any], legal: list[Action]) -> None:
    """The Action phase's treatments (a free action): each treatment card, the
    requirement used (``heals``: 1 or 2), the crew healed and what it costs."""
    if not isinstance(st, EpidemicState):
        return
    table = st._treatments()
    free = out.setdefault("free", [])
    for a in legal:
        if a.kind != "treat":
            continue
        t = table[str(a.card)]
        req = requirement(st, t[f"heal_{a.tile}"])
        free.append(
            {
                "action": a.to_json(),
                "kind": "treat",
                "card": a.card,
                "name": str(t.get("name", a.card)),
                "heals": a.tile,
                "crew": _crew(a.crew or (0,) * 5),
                "requirement": req,
                "discards": req.get("discards", []),
            }
        )


def voyage_missing(st: State, miss: list[dict[str, Any]]) -> None:
    """Amundsen's Voyage: the open sea is missing because the scenario forbids it."""
    if isinstance(st, AmundsenState) and not st.final_voyage:
        for m in miss:
            if m["voyage"] == "open":
                m["why"] = "no_open_sea"


# ----------------------------------------------------------------- static content


def content_entry(content: Content, sid: str, sc: dict[str, Any]) -> dict[str, Any]:
    """The scenario's cards and rules for the content file (``scenarios[sid]``)."""
    if sid == EPIDEMIC:
        return {
            "settlements": [
                {"id": c["id"], "anchors": {k: dict(v) for k, v in c["anchors"].items()}}
                for c in sc.get("settlements", [])
            ],
            "diseases": [dict(d) for d in sc.get("diseases", [])],
            "treatments": [dict(t) for t in sc.get("treatments", [])],
            "free_upgrade": dict(sc.get("free_upgrade", {})),
            "text": "the Inuit settlement card puts Inuk pawns on anchor points; ending the "
            "Voyage phase on a mapped one brings an Inuk and a treatment card, anywhere else "
            "a disease card makes an officer (or 2 crew) ill; treatments heal; keep a "
            "healthy crew member other than the Inuit, and complete the passage",
        }
    ex = sc.get("explore_remove", {})
    return {
        "explorer": sc.get("explorer"),
        "cylinders": dict(sc.get("cylinders", {})),
        "explore_remove": dict(ex),
        "coastal_deck": dict(sc.get("coastal_deck", {})),
        "haven_card": dict(sc.get("haven_card", {})),
        "text": "Roald Amundsen's Gjøa sails coastal only; black cylinders cap health and "
        f"morale until a varied diet and Explores of {ex.get('right', 7)}+ and "
        f"{ex.get('left', 10)}+ PP remove them; found Gjøa Haven in the round its card is "
        "revealed (a cabin lowering food by your crew count), and complete the passage",
    }
