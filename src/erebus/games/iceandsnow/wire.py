"""Through Ice and Snow as a browser sees it: the wire view (``wire_view(state, seat)``).

The engine's own view (:meth:`State.view`) is its serialization with the secrets
taken out — a flat per-player int table ``pv``, decks as counts, pools for
``determinize`` — made for bots.  This module translates a state into named
fields and JSON types only, so the browser never decodes ``pv`` offsets or
repeats a rule: what a choice costs and why a space or an option is missing come
from here too.  Static things (names, coordinates, card texts) are in the content
file ``iceandsnow-content.json`` (:mod:`.wire_content`) and referred to by id.

Hidden information is left out exactly as the rules hide it (the tests check every
seat and the spectator): deck orders and unrevealed cards never appear (only deck
sizes); another seat's investor only once investors are revealed (after the
set-up); another seat's cartography card only when the game is over; the set-up
offers and the Mast's look at the top two event cards only in the view of the seat
that holds them.  The field list is ``docs/iceandsnow-wire.md``.
"""

from __future__ import annotations

from typing import Any

from erebus.games.iceandsnow.content import CREW_KINDS, RESOURCES
from erebus.games.iceandsnow.effects import POWERS
from erebus.games.iceandsnow.layout import (
    BADZONE,
    CABINS,
    CANS,
    DOGS,
    DYN,
    EXPLORES,
    FOOD,
    FUEL,
    HEALTH,
    HIRED,
    INF,
    INUIT,
    LEADS,
    MORALE,
    PASSED,
    PAWNS,
    POWER_DUE,
    POWER_HELD,
    PP,
    RESCUED,
    RIFLES,
    SAILORS,
    SHELTERS,
    SLED,
    TOW,
    TURNS,
    USED,
    WOOD,
    F,
)
from erebus.games.iceandsnow.state import State
from erebus.games.iceandsnow.wire_board import action_board
from erebus.games.iceandsnow.wire_decisions import decision, final_scoring
from erebus.games.iceandsnow.wire_myths import myths_fields
from erebus.games.iceandsnow.wire_walking import walking_fields, walking_seat

#: The format of the wire view; raised on every change a client must follow.
WIRE_FORMAT = 1


def wire_view(state: State, seat: int | None) -> dict[str, Any]:
    """What a browser at ``seat`` (None: a spectator) needs to draw ``state``."""
    if seat is not None and not (
        isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < state.n
    ):
        raise ValueError(f"no seat {seat!r} in a {state.n}-player game")
    st = state
    mover = st.current_player
    legal = st.legal_actions() if seat is not None and seat == mover else None
    return {
        "game": "iceandsnow",
        "format": WIRE_FORMAT,
        "players": st.n,
        "seat": seat,
        "options": {
            "modes": list(st.options["modes"]),
            "upgrades": st.options["upgrades"],
            "extra_events": st.options["extra_events"],
            "scenario": st.options["scenario"],
            "towing_pp": st.options["towing_pp"],
            "helm_tie": st.options["helm_tie"],
            "passing": st.options["passing"],
        },
        "round": st.round,
        "phase": st.phase if not st.over else "over",
        "pending": st.pending,
        "step": st.step,
        "expecting": st.expecting(),
        "leader": st.leader,
        "current": mover,
        "final_round": st.is_final_round,
        "final_voyage": st.final_voyage,
        "voyage": st.voyage,
        "over": st.over,
        "outcome": st.outcome,
        "lost": st.lost,
        "won": st.won,
        "reason": st.reason,
        "scores": st.scores(),
        "map": _map(st),
        "board": action_board(st, seat, legal),
        "seats": [_seat(st, s, seat) | walking_seat(st, s) for s in range(st.n)],
        "cards": _cards(st, seat),
        "decks": _decks(st),
        "decision": decision(st, seat, legal),
        "final_scoring": final_scoring(st),
        **myths_fields(st, seat, legal),
        **walking_fields(st),
    }


# ----------------------------------------------------------------- the map


def _map(st: State) -> dict[str, Any]:
    t = st.tables
    placed_key = st.placed_key()
    placed_idx = {i for i, _ in placed_key}
    dyn_total = sum(st.pv[F * s + DYN] for s in range(st.n))
    leader_dyn = st.pv[F * st.leader + DYN]
    routes = []
    if st.fleet:
        for to, extra in t.routes_from(placed_key, st.fleet):
            cost = 1 + extra
            routes.append(
                {
                    "to": to,
                    "dynamite": cost,
                    "extra": extra,
                    "new_section": not all(i in placed_idx for i in t.sections_of[to]),
                    "leader_can_pay": leader_dyn >= cost,
                    "table_can_pay": dyn_total >= cost,
                }
            )
    anchors_on, blue, final = _placed_anchors(st, placed_key)
    sailed = set(st.dyn_anchors)
    return {
        "placed": [
            {"section": st.content.sections[i].id, "index": i, "side": side}
            for i, side in placed_key
        ],
        "fleet": st.fleet or None,
        "previous": st.prev_fleet,
        "destination": st.dest,
        "destination_dynamite": 1 + st.dest_dyn if st.dest is not None else None,
        "sailed": st.dyn_anchors[:],
        "ahead": [a for a in anchors_on if a not in sailed and a != st.fleet],
        "routes": routes,
        "dynamite_total": dyn_total,
        "mapped": st.mapped[:],
        "cartography_tokens": st.carto_tokens,
        "cabins": [{"anchor": a, "seat": s} for a, s in st.cabins_at],
        "shelters": [{"anchor": a, "seat": s} for a, s in st.shelters_at],
        "blue_anchors": list(blue),
        "final_anchors": [{"anchor": a, "pp": pp} for a, pp in final],
        "scenario": _scenario(st),
    }


_PLACED: dict[tuple[int, tuple[tuple[int, str], ...]], Any] = {}


def _placed_anchors(
    st: State, placed_key: tuple[tuple[int, str], ...]
) -> tuple[tuple[str, ...], tuple[str, ...], tuple[tuple[str, int], ...]]:
    """The anchors on the placed sections (placing order), the blue ones and the
    final ones with their PP; the same few placements recur all game, so cached."""
    key = (id(st.tables), placed_key)
    hit = _PLACED.get(key)
    if hit is not None and hit[0] is st.tables:
        return hit[1]  # type: ignore[no-any-return]
    t = st.tables
    on: dict[str, None] = {}
    for idx, side in placed_key:
        for a in st.content.sections[idx].sides[side].anchors:
            on.setdefault(a.id)
    ids = tuple(on)
    out = (
        ids,
        tuple(a for a in ids if t.anchors[a].blue),
        tuple((a, int(pp)) for a in ids if (pp := t.anchors[a].final_pp) is not None),
    )
    if len(_PLACED) > 4096:
        _PLACED.clear()
    _PLACED[key] = (t, out)
    return out


def _scenario(st: State) -> dict[str, Any] | None:
    scen = st.scenario
    if scen is None:
        return None
    sc = st.scen()
    out: dict[str, Any] = {"id": scen, "objectives_missing": st.objectives_missing()}
    if scen == "lost-expedition":
        out.update(
            progress=st.le_progress,
            progress_max=int(sc.get("progress", {}).get("max", 5)),
            found=st.le_found,
            cabin_met=st.le_cabin,
            priority=st.priority[:],
            search_left=len(st.search),
            search_revealed=st.search_rev[:],
            rescued=st.pv[RESCUED],
        )
    elif scen == "mysterious-epidemic":
        out.update(
            settlement=st.ep_settlement,
            inuit_at=st.ep_inuit[:],
            ill=[{"card": e[0], "crew": list(e[1:])} for e in st.ep_ill],
            treatments=st.ep_treat[:],
            disease_left=len(st.ep_dis_deck),
            treatment_left=len(st.ep_tr_deck),
            disease_discard=st.ep_dis_disc[:],
            treatment_discard=st.ep_tr_disc[:],
        )
    elif scen == "amundsens-voyage":
        out.update(
            cylinders=dict(zip(("health", "morale_right", "morale_left"), st.am_cyl, strict=True)),
            haven_round=st.am_haven or None,
            haven_founded=st.am_founded,
        )
    else:
        out.update(
            magnetised=st.magnetised,
            pole_found=st.pole_found,
            pole_direction=st.pole_dir,
            compass_left=len(st.compass),
            compass_discard=st.compass_disc[:],
            best_explore=st.mnp_explore,
            best_cabin_food=st.mnp_cabin if st.mnp_cabin >= 0 else None,
        )
    return out


# ----------------------------------------------------------------- personal boards


def cartography_public(st: State) -> bool:
    """Every cartography card is shown at the end of a completed passage (the
    engine's ``CartographyRevealed``); a game the table lost reveals none."""
    return st.over and st.scenario is None and not st.lost


def _zone(track: Any, value: int) -> str | None:
    z: str | None = track.effects.get(value)
    return z


def _fuel_band(st: State, fuel: int) -> int:
    for i, band in enumerate(st.content.tracks["fuel"]["bands"]):
        if int(band["from"]) <= fuel <= int(band["to"]):
            return i
    return -1


def _seat(st: State, s: int, viewer: int | None) -> dict[str, Any]:
    c = st.content
    b = F * s
    pv = st.pv
    owned = st.owned_crew(s)
    placed = pv[b + USED : b + USED + 5]
    sick = pv[b + INF : b + INF + 5]
    free = [max(0, o - u - i) for o, u, i in zip(owned, placed, sick, strict=True)]
    fuel = pv[b + FUEL]
    band = _fuel_band(st, fuel)
    bands = c.tracks["fuel"]["bands"]
    own = viewer == s
    investor = st.investor[s] if (own or st.revealed or st.over) else None
    carto = st.carto[s] if (own or cartography_public(st)) else None
    setup_own = own and st.scenario is None and not st.revealed
    return {
        "seat": s,
        "leader": s == st.leader,
        "pp": pv[b + PP],
        "food": pv[b + FOOD],
        "health": {
            "value": pv[b + HEALTH],
            "max": c.health.max,
            "zone": _zone(c.health, pv[b + HEALTH]),
        },
        "morale": {
            "value": pv[b + MORALE],
            "max": c.morale.max,
            "zone": _zone(c.morale, pv[b + MORALE]),
        },
        "fuel": {
            "value": fuel,
            "max": int(c.tracks["fuel"]["max"]),
            "band": band,
            "effect": bands[band]["effect"] if band >= 0 else None,
        },
        "sled": pv[b + SLED],
        "dogs": pv[b + DOGS],
        "inuit": pv[b + INUIT],
        "inuit_joining": pv[b + HIRED],
        "towing": pv[b + TOW],
        "dynamite": pv[b + DYN],
        "wood": pv[b + WOOD],
        "rifles": pv[b + RIFLES],
        "cans": pv[b + CANS],
        "crew": {
            "owned": dict(zip(CREW_KINDS, owned, strict=True)),
            "free": dict(zip(CREW_KINDS, free, strict=True)),
            "placed": dict(zip(CREW_KINDS, placed, strict=True)),
            "sick": dict(zip(CREW_KINDS, sick, strict=True)),
            "sailors": pv[b + SAILORS],
            "inuit_pawns": pv[b + PAWNS],
        },
        "rescued": pv[b + RESCUED],
        "mouths": st.fed_count(s),
        "upgrades": st.upgrades[s][:],
        "cabins": pv[b + CABINS],
        "shelters": pv[b + SHELTERS],
        "species": st.species[s][:],
        "species_kinds": st.gained[s][:],
        "event_cards": [
            st.tables.powers[p][0] for i, p in enumerate(POWERS) if pv[b + POWER_HELD + i]
        ],
        "event_cards_due": [
            st.tables.powers[p][0] for i, p in enumerate(POWERS) if pv[b + POWER_DUE + i]
        ],
        "times_leader": pv[b + LEADS],
        "explores": pv[b + EXPLORES],
        "entered_death_or_mutiny": pv[b + BADZONE] > 0,
        "passed": bool(pv[b + PASSED]) and st.phase == "action",
        "turns": pv[b + TURNS] if st.phase == "action" else 0,
        "investor": investor,
        "investor_options": st.inv_opts[s][:] if setup_own else [],
        "cartography": carto,
        "cartography_options": st.carto_opts[s][:] if setup_own else [],
    }


# ----------------------------------------------------------------- cards and decks


def _cards(st: State, viewer: int | None) -> dict[str, Any]:
    ev = st.event
    card = st.content.events.get(ev) if ev is not None else None
    return {
        "event": None
        if ev is None
        else {
            "number": ev,
            "kind": card.kind if card else None,
            "taken": st.event_taken,
            "takeable": st.event_takeable(),
            "species": st.event_draw,
        },
        "modifiers": list(st.round_mods),
        "hunting": st.hu_rev[:],
        "species": st.sp_rev[:],
        "discovered": st.discovered[:],
        "eaten": st.sp_eaten[:],
        "dual_boxed": [x for x in st.hu_box if x in st.content.dual],
        # the event card the leader chose with the Mast, face down until revealed
        "mast_chosen": st.event_pending if viewer is not None and viewer == st.leader else None,
    }


def _decks(st: State) -> dict[str, Any]:
    return {
        "hunting": len(st.hu_deck),
        "hunting_discard": len(st.hu_disc),
        "species": len(st.sp_deck),
        "species_discard": len(st.sp_disc),
        "events_open": len(st.ev_open),
        "events_coastal": len(st.ev_coastal),
        "events_open_discard": st.ev_open_disc[:],
        "events_coastal_discard": st.ev_coastal_disc[:],
        "compass": len(st.compass),
        "search": len(st.search),
        "inuit_pool": st.inuit_pool,
        "upgrades_left": {
            str(n): st.upg_left[n]
            for n in sorted(st.content.upgrades)
            if n < len(st.upg_left) and st.upgrade_in_game(n)
        },
    }


__all__ = ["RESOURCES", "WIRE_FORMAT", "wire_view"]
