"""Legendary Expeditions (§9.3) in the wire view: the ``legends`` field, the module's
decisions and its free actions, in named fields and JSON types only.

What is public: each seat's kept explorer and ship (face up beside its board once
chosen), the powers of its kept explorer events (47, 53), Belcher's uses left, whether
Ross has used his Inuk this round, which deck Kellett has looked at and the space he
must now take, the route Belcher forbade and who chooses the voyage type, the sailors
set aside for event 51, how many explorer cards lie in the box.  What is not: the two
explorer cards dealt to a seat that has not chosen yet (only in its own view), which
explorers are boxed, and the card Kellett looked at (only in his view; another seat
sees ``card: null``).  A game without the module gets no ``legends`` field, so the
base game's view is unchanged.  The static part — the ten sets with their abilities
in words and the explorer events 45–54 — is :func:`legends_content_doc`, written into
the content file under ``modules.legendary_expeditions``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from erebus.games.iceandsnow import legends, legends_data, legends_explorers
from erebus.games.iceandsnow.layout import FOOD, MORALE, F

if TYPE_CHECKING:
    from erebus.games.iceandsnow.actions import Action
    from erebus.games.iceandsnow.content import Content
    from erebus.games.iceandsnow.state import State

MODULE = legends.MODULE
#: The free actions of the module (no turn used): Kellett's look, Collinson's chart.
FREE_ACTIONS = ("track", "chart")

#: Each ability in a line (English; the browser words them with ``ilg_ab_<ability>``
#: keys and the same parameters), seed 001 l. 1250–1340.
ABILITY_TEXTS = {
    "long_voyage": "his own fuel bands: morale +1 at {high}, nothing at {mid}, discard at {low}"
    " (Walking on Ice: maintenance may go {walking_maintenance} above the sled level)",
    "cabin_supplier": "Build a Cabin: 1 PP for each of the first {food_spaces_1pp} food spaces lowered",
    "inuit_apprentice": "once per round, one crew member may act as an Inuk",
    "excellent_tracker": "on his turn, look at the top card of the species or hunting deck"
    " (free); then take that space with it or a revealed card",
    "sled_innovation": "Explore counts {explore_dogs} dog more for its PP",
    "benevolent_leader": "at the end of Boarding, trade {food} food for {morale} morale, as often as he likes",
    "great_discovery": "mapping scores {mapping_pp} PP; at any time, fuel −{special_fuel}: map a region"
    " a route from the fleet leads to, for {special_pp} PP",
    "despotic_tendencies": "{uses} times a game, force the leader to choose another route;"
    " he then chooses the voyage type",
    "arctic_artist": "Upgrade the Ship: the tile may go on any empty upgrade space",
    "excellent_explorer": "Improve the Sled needs {sled_wood} wood; the dog track counts as"
    " {dogs_as} for Explore (he never places dogs)",
}


def legends_on(st: State) -> bool:
    """Is Legendary Expeditions in this game (also Amundsen's Voyage, which brings set J)?"""
    return MODULE in (st.options.get("modules") or ()) and bool(getattr(st, "explorer", None))


def _band_text(bands: list[dict[str, Any]], effect: str | None) -> str:
    b = next((x for x in bands if x.get("effect") == effect), None)
    return f"{b['from']}–{b['to']}" if b else "—"


def ability_params(k: str) -> dict[str, Any]:
    """Set ``k``'s ability parameters as the words need them (Franklin's bands as
    ranges ``high``/``mid``/``low`` besides the raw list)."""
    s = legends.sets()[k]
    p: dict[str, Any] = dict(s["params"])
    if s["ability"] == "long_voyage":
        bands = list(p["bands"])
        p.update(
            high=_band_text(bands, "morale"),
            mid=_band_text(bands, None),
            low=_band_text(bands, "discard"),
        )
    if "decks" in p:
        p["decks"] = list(p["decks"])
    return p


def ability_text(k: str) -> str:
    """Set ``k``'s ability in English."""
    s = legends.sets()[k]
    return ABILITY_TEXTS[s["ability"]].format(**ability_params(k))


def set_doc(k: str) -> dict[str, Any]:
    """Set ``k`` as the wire names it (its explorer, ability, ship and event)."""
    s = legends.sets()[k]
    return {
        "set": k,
        "explorer": s["explorer"],
        "ability": s["ability"],
        "params": ability_params(k),
        "ship": s["ship"],
        "ship_rewards": {str(a): int(v) for a, v in s["ship_rewards"].items()},
        "event": int(s["event"]),
        "event_name": str(legends.summary(k)["event_name"]),
    }


# ----------------------------------------------------------------- the view


def _looks(st: State, s: int, viewer: int | None) -> list[dict[str, Any]]:
    """Kellett's looks still true: the deck, the card (his own view only) and the space
    he must now take (None: his look binds him to nothing any more)."""
    raw = legends_explorers.view_peeks(st, viewer)[s]
    return [
        {"deck": str(raw[i]), "card": raw[i + 1], "space": raw[i + 2] or None}
        for i in range(0, len(raw), 3)
    ]


def _upgrade_spaces(st: State, s: int) -> list[dict[str, Any]]:
    """George Back's ship board: each upgrade space (1-based), its bonus and whether a
    tile lies on it."""
    free = set(legends.free_spaces(st, s))
    bonuses = st.upgrade_space_bonuses()
    return [
        {
            "space": i + 1,
            "bonus": {str(a): int(v) for a, v in (bonuses[i] if i < len(bonuses) else {}).items()},
            "filled": i not in free,
        }
        for i in range(st.upgrade_space_limit())
    ]


def seat_view(st: State, s: int, viewer: int | None) -> dict[str, Any]:
    """One seat's explorer, ship, kept powers and its ability's counters."""
    k = st.explorer[s]
    out: dict[str, Any] = {
        "seat": s,
        "set": k or None,
        "explorer": set_doc(k) if k else None,
        "choosing": not k and bool(st.ex_dealt[s]),
        "dealt": list(st.ex_dealt[s]) if viewer == s else [],
        "powers": [{"power": p, "event": int(st.tables.powers[p][0])} for p in st.ex_held[s]],
        "powers_due": [{"power": p, "event": int(st.tables.powers[p][0])} for p in st.ex_due[s]],
        "despot_uses_left": None,
        "apprentice_used": None,
        "looked": [],
        "upgrade_spaces": None,
    }
    if not k:
        return out
    ability = legends.sets()[k]["ability"]
    if ability == legends_explorers.DESPOT:
        out["despot_uses_left"] = int(legends.params(st, s)["uses"]) - int(st.ex_despot[s])
    elif ability == legends_explorers.APPRENTICE:
        out["apprentice_used"] = not legends_explorers.apprentice(st, s)
    elif ability == legends_explorers.TRACKER:
        out["looked"] = _looks(st, s, viewer)
    elif ability == "arctic_artist" and legends.any_space(st, s):
        out["upgrade_spaces"] = _upgrade_spaces(st, s)
    return out


def legends_view(st: State, seat: int | None) -> dict[str, Any]:
    """The module's fields (docs/iceandsnow-wire.md, ``legends``)."""
    return {
        "seats": [seat_view(st, s, seat) for s in range(st.n)],
        "box": len(st.ex_box),
        "sailors_aside": int(st.ex_sailor),
        "forbidden_route": st.ex_forbid,
        "voyage_chooser": st.ex_voyager,
        "collinson_special_pp": st.options.get("collinson_special_pp", "special"),
    }


def legends_fields(st: State, seat: int | None) -> dict[str, Any]:
    """The wire view's ``legends`` key, only in a game with the module."""
    if not legends_on(st):
        return {}
    return {"legends": legends_view(st, seat)}


# ----------------------------------------------------------------- decisions


def split_free(st: State, legal: list[Action]) -> tuple[list[Action], list[Action]]:
    """The decision's legal actions without the module's free actions, and those."""
    if not legends_on(st):
        return legal, []
    free = [a for a in legal if a.kind in FREE_ACTIONS]
    if not free:
        return legal, []
    return [a for a in legal if a.kind not in FREE_ACTIONS], free


def add_free(st: State, out: dict[str, Any], free: list[Action]) -> None:
    """The module's free actions of this decision under ``out["free"]`` (Kellett's
    ``track``: the space and its deck; Collinson's ``chart``: the region, its fuel (or
    maintenance) cost and its PP); a Destination / Voyage decision also names the route
    Belcher forbade and who chooses the voyage type."""
    if out.get("kind") in ("destination", "voyage"):
        voyage_chooser_note(st, out)
    if not free:
        return
    seat = int(st.current_player or 0)
    rows = out.setdefault("free", [])
    for a in free:
        if a.kind == "track":
            kind = st.scen().get("replaced_spaces", {}).get(a.space, a.space)
            rows.append(
                {
                    "action": a.to_json(),
                    "kind": "track",
                    "space": a.space,
                    "deck": legends_explorers.TRACK_SPACES.get(str(kind)),
                }
            )
        else:
            p = legends.params(st, seat)
            pp = int(p["special_pp"])
            if st.options.get("collinson_special_pp") == "mapping":
                pp = legends.mapping_pp(st, seat)
            walking = bool(getattr(st, "abandoned", None))
            rows.append(
                {
                    "action": a.to_json(),
                    "kind": "chart",
                    "region": a.to,
                    "pays": {"maintenance" if walking else "fuel": int(p["special_fuel"])},
                    "pp": pp,
                }
            )


def _explorer(st: State, out: dict[str, Any], legal: list[Action]) -> None:
    """Keep one of the two dealt explorers (the other goes to the box)."""
    out["options"] = [
        {"action": a.to_json(), "card": a.card, **set_doc(str(a.card))} for a in legal
    ]
    out["missing"] = []


def _benevolent(st: State, out: dict[str, Any], legal: list[Action]) -> None:
    """McClure's trade at Boarding: food for morale, again while he has the food."""
    seat = int(st.decisions[0][1])
    p = legends.params(st, seat)
    out["food"] = st.pv[F * seat + FOOD]
    out["morale"] = st.pv[F * seat + MORALE]
    out["morale_max"] = st.content.morale.max
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
    """Belcher: force the leader off the route just chosen (he then chooses the
    voyage type), or let it stand."""
    d = st.decisions[0]
    seat, chosen = int(d[1]), str(d[2])
    left = int(legends.params(st, seat)["uses"]) - int(st.ex_despot[seat])
    out["to"] = chosen
    out["leader"] = st.leader
    out["uses_left"] = left
    out["others"] = sorted(to for to, _ in st.destinations() if to != chosen)
    out["options"] = [
        {"action": a.to_json(), "use": bool(a.use), "uses_left": left - 1 if a.use else left}
        for a in legal
    ]
    out["missing"] = []


LEGENDS_DETAILS = {"explorer": _explorer, "benevolent": _benevolent, "despot": _despot}


def voyage_chooser_note(st: State, out: dict[str, Any]) -> None:
    """The destination/voyage decision's note: Belcher forbade a route, and who
    chooses this round's voyage type."""
    if not legends_on(st):
        return
    if st.ex_forbid is not None:
        out["forbidden_route"] = st.ex_forbid
    if st.ex_voyager is not None:
        out["voyage_chooser"] = st.ex_voyager


# ----------------------------------------------------------------- static content

#: The explorer events' own ops in words (the base vocabulary is wire_content.op_text's).
_OP_TEXTS = {
    "taker_gains_per_crew": "{gains} per crew member placed",
    "taker_scores": "{pp} PP",
    "taker_scores_per_crew": "{pp} PP per crew member placed (the captain too)",
    "rescue_sailor": "the sailor set aside joins your crew, in the infirmary",
    "map_current_region": "the leader maps the fleet's region (with its PP)",
    "reveal_top_event": "the top card of the {deck} deck replaces this card and is revealed",
    "each_pays_or_infirmary": "each player discards {amount} {resource}, or puts {count} crew"
    " in the infirmary without",
}
_POWER_TEXTS = {
    "skilled_hunter": "Hunt with 1 rifle less when an Inuk goes",
    "sled_master": "Improve the Sled with 1 Inuk and no other crew",
}


def _op_text(op: Any, base: Any) -> str:
    p = dict(op.params)
    if op.op == "keep_card" and p.get("power") in _POWER_TEXTS:
        return f"{p['inuit']} Inuk and keep this card ({_POWER_TEXTS[str(p['power'])]})"
    if op.op in _OP_TEXTS:
        if "gains" in p:
            p["gains"] = ", ".join(f"{k} +{v}" for k, v in dict(p["gains"]).items())
        return _OP_TEXTS[op.op].format(**p)
    return str(base(op))


def event_text(content: Content, number: int, base: Any) -> str:
    """An explorer event's effect in one line (``base``: the base ops' words)."""
    card = content.events[number]
    parts = [_op_text(op, base) for op in card.effect.reveal]
    if card.kind == "action":
        take = "; ".join(_op_text(op, base) for op in card.effect.take)
        parts.append(f"action ({'/'.join(str(c) for c in card.crew) or 'any'} crew): {take}")
    return "; ".join(parts)


def legends_content_doc(content: Content) -> dict[str, Any]:
    """The module's static part of the content file: the ten sets (explorer, ability
    in words with its parameters, ship with its reward, explorer event) and the
    explorer events 45–54 as cards."""
    from erebus.games.iceandsnow import wire_content as wc

    var = legends.legends_content(content)
    return {
        "sets": [{**set_doc(k), "text": ability_text(k)} for k in legends_data.SETS],
        "events": [
            {
                "number": n,
                "name": var.events[n].name,
                "deck": var.events[n].deck,
                "kind": var.events[n].kind,
                "crew": list(var.events[n].crew),
                "extra": var.events[n].optional,
                "text": event_text(var, n, wc.op_text),
                "set": next(k for k, s in legends.sets().items() if int(s["event"]) == n),
            }
            for n in sorted(legends.event_numbers())
        ],
    }
