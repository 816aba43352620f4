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

from collections.abc import Callable
from functools import partial
from typing import Any, NamedTuple

import orjson

from erebus.games.iceandsnow import wire_scenarios
from erebus.games.iceandsnow.actions import Action
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
from erebus.games.iceandsnow.wire_legends import legends_fields
from erebus.games.iceandsnow.wire_myths import myths_fields
from erebus.games.iceandsnow.wire_walking import walking_fields, walking_seat

#: The format of the wire view; raised on every change a client must follow.
WIRE_FORMAT = 1


def wire_view(state: State, seat: int | None) -> dict[str, Any]:
    """What a browser at ``seat`` (None: a spectator) needs to draw ``state``."""
    return _view(state, seat, None)


def wire_view_shared(state: State, seat: int | None, shared: dict[Any, Any]) -> dict[str, Any]:
    """:func:`wire_view` as the same JSON bytes, for a server that builds every
    seat's view of one state in turn: ``shared`` is an empty dict for the first seat
    and then the same dict for the other seats of this state (never another
    state's).  Most of a view is the same for every seat (the map, the decks, the
    other seats' boards, the board of a seat not to move), so those parts are built
    once, into ``shared``, and from the second seat on sent as their JSON
    (``orjson.Fragment`` values: a view that only ``orjson`` can write)."""
    return _view(state, seat, shared)


def _part(shared: dict[Any, Any] | None, key: Any, build: Callable[[], Any]) -> Any:
    """``build()``; with ``shared``, built once per state (``key``): the first seat
    gets the value itself (a table often has one viewer), the next ones its JSON,
    encoded when the second asks (``orjson.Fragment``)."""
    if shared is None:
        return build()
    hit = shared.get(key, _MISSING)
    if hit is _MISSING:
        hit = shared[key] = build()
    elif type(hit) is not orjson.Fragment:
        hit = shared[key] = orjson.Fragment(orjson.dumps(hit))
    return hit


_MISSING = object()


def _fields(
    shared: dict[Any, Any] | None, key: str, build: Callable[[], dict[str, Any]]
) -> dict[str, Any]:
    """``build()`` (some top-level fields of the view); with ``shared``, built once
    per state, each value as its JSON from the second seat on (as :func:`_part`)."""
    if shared is None:
        return build()
    hit: dict[str, Any] | None = shared.get(key)
    if hit is None:
        hit = shared[key] = build()
        shared[key, "encoded"] = False
    elif not shared[key, "encoded"]:
        hit = shared[key] = {k: orjson.Fragment(orjson.dumps(v)) for k, v in hit.items()}
        shared[key, "encoded"] = True
    return hit


def _view(st: State, seat: int | None, shared: dict[Any, Any] | None) -> dict[str, Any]:
    if seat is not None and not (
        isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < st.n
    ):
        raise ValueError(f"no seat {seat!r} in a {st.n}-player game")
    mover = st.current_player
    legal = st.legal_actions() if seat is not None and seat == mover else None
    # The board tells only the seat to move in the Action phase what it may take.
    board_mine = legal is not None and st.phase == "action" and not st.over and not st.decisions
    return {
        "game": "iceandsnow",
        "format": WIRE_FORMAT,
        "players": st.n,
        "seat": seat,
        **_fields(shared, "head", lambda: _head(st)),
        "map": _part(shared, "map", lambda: _map(st)),
        "board": _board(st, seat, legal, shared) if board_mine else _others_board(st, seat, shared),
        # a seat's board differs only between its own view and everybody else's
        "seats": [
            _part(shared, ("seat", s, s == seat), partial(_seat_board, st, s, seat))
            for s in range(st.n)
        ],
        "cards": _part(
            shared, ("cards", seat is not None and seat == st.leader), lambda: _cards(st, seat)
        ),
        "decks": _part(shared, "decks", lambda: _decks(st)),
        "decision": decision(st, seat, legal),
        "final_scoring": _part(shared, "final_scoring", lambda: final_scoring(st)),
        **myths_fields(st, seat, legal),
        **_fields(shared, "walking", lambda: walking_fields(st)),
        **legends_fields(st, seat),
    }


def _board(
    st: State, seat: int | None, legal: list[Action] | None, shared: dict[Any, Any] | None
) -> dict[str, Any]:
    """The seat to move's board; kept in ``shared``, for everybody else's board to be
    derived from it (:func:`others_board`) if another seat asks."""
    board = action_board(st, seat, legal)
    if shared is not None:
        shared["mover_board"] = board
    return board


def _others_board(st: State, seat: int | None, shared: dict[Any, Any] | None) -> Any:
    """The board of a seat not to move (or the spectator): the same for all of them."""
    mover = shared.get("mover_board") if shared is not None else None
    if mover is not None:
        return _part(shared, "board", lambda: others_board(mover))
    return _part(shared, "board", lambda: action_board(st, seat, None))


def others_board(board: dict[str, Any]) -> dict[str, Any]:
    """``action_board(st, other, …)`` for a seat not to move, from the seat to move's
    board ``board``: they differ only in what the seat to move may take (the
    ``can_take`` / ``why_not`` of every space, ``can_pass`` and ``must_take``)."""
    return {
        "acting": board["acting"],
        "spaces": [sp | _NO_VERDICT for sp in board["spaces"]],
        "extra_spaces": [sp | _NO_VERDICT for sp in board["extra_spaces"]],
        "warehouses": board["warehouses"],
        "can_pass": False,
        "must_take": False,
    }


_NO_VERDICT: dict[str, Any] = {"can_take": None, "why_not": None}


def _head(st: State) -> dict[str, Any]:
    """The view's fields after ``seat`` up to ``map``: the same for every seat."""
    return {
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
        "current": st.current_player,
        "final_round": st.is_final_round,
        "final_voyage": st.final_voyage,
        "voyage": st.voyage,
        "over": st.over,
        "outcome": st.outcome,
        "lost": st.lost,
        "won": st.won,
        "reason": st.reason,
        "scores": st.scores(),
    }


def _seat_board(st: State, s: int, viewer: int | None) -> dict[str, Any]:
    """Seat ``s``'s entry of ``seats`` as ``viewer`` sees it."""
    return wire_scenarios.scenario_seat(st, _seat(st, s, viewer)) | walking_seat(st, s)


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
    if scen in wire_scenarios.SCENARIOS:  # Mysterious Epidemic, Amundsen's Voyage
        return out | wire_scenarios.scenario_view(st)
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


class _SeatStatic(NamedTuple):
    """What :func:`_seat` reads off the content for every seat of every view, looked
    up once per content (the data files, read at start-up, never change)."""

    tables: Any  # the Tables these are for (held, so their id is not reused)
    health_max: int
    health_zones: dict[int, str]
    morale_max: int
    morale_zones: dict[int, str]
    fuel_max: int
    #: fuel value -> (band index, the band's effect), for the values some band holds
    fuel_bands: dict[int, tuple[int, Any]]
    #: (pv offset of the "held" flag from the seat's base, the event card's number)
    powers_held: tuple[tuple[int, int | None], ...]
    powers_due: tuple[tuple[int, int | None], ...]


_SEAT_STATIC: dict[int, _SeatStatic] = {}


def _seat_static(st: State) -> _SeatStatic:
    t = st.tables
    hit = _SEAT_STATIC.get(id(t))
    if hit is not None and hit.tables is t:
        return hit
    c = st.content
    fuel = c.tracks["fuel"]
    bands: dict[int, tuple[int, Any]] = {}
    for i, band in enumerate(fuel["bands"]):  # the first band holding a value wins
        for v in range(int(band["from"]), int(band["to"]) + 1):
            bands.setdefault(v, (i, band["effect"]))
    numbers = [t.powers[p][0] if p in t.powers else None for p in POWERS]
    out = _SeatStatic(
        t,
        c.health.max,
        dict(c.health.effects),
        c.morale.max,
        dict(c.morale.effects),
        int(fuel["max"]),
        bands,
        tuple((POWER_HELD + i, n) for i, n in enumerate(numbers)),
        tuple((POWER_DUE + i, n) for i, n in enumerate(numbers)),
    )
    if len(_SEAT_STATIC) > 64:
        _SEAT_STATIC.clear()
    _SEAT_STATIC[id(t)] = out
    return out


def _cards_of(pv: Any, b: int, powers: tuple[tuple[int, int | None], ...]) -> list[int]:
    out = []
    for off, number in powers:
        if pv[b + off]:
            if number is None:
                raise KeyError(f"no event card grants the power at pv offset {off}")
            out.append(number)
    return out


def _seat(st: State, s: int, viewer: int | None) -> dict[str, Any]:
    k = _seat_static(st)
    b = F * s
    pv = st.pv
    owned = st.owned_crew(s)
    placed = pv[b + USED : b + USED + 5]
    sick = pv[b + INF : b + INF + 5]
    free = [max(0, o - u - i) for o, u, i in zip(owned, placed, sick, strict=True)]
    fuel = pv[b + FUEL]
    band, effect = k.fuel_bands.get(fuel, (-1, None))
    own = viewer == s
    investor = st.investor[s] if (own or st.revealed or st.over) else None
    carto = st.carto[s] if (own or cartography_public(st)) else None
    setup_own = own and st.scenario is None and not st.revealed
    action = st.phase == "action"
    health = pv[b + HEALTH]
    morale = pv[b + MORALE]
    return {
        "seat": s,
        "leader": s == st.leader,
        "pp": pv[b + PP],
        "food": pv[b + FOOD],
        "health": {"value": health, "max": k.health_max, "zone": k.health_zones.get(health)},
        "morale": {"value": morale, "max": k.morale_max, "zone": k.morale_zones.get(morale)},
        "fuel": {"value": fuel, "max": k.fuel_max, "band": band, "effect": effect},
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
        "event_cards": _cards_of(pv, b, k.powers_held),
        "event_cards_due": _cards_of(pv, b, k.powers_due),
        "times_leader": pv[b + LEADS],
        "explores": pv[b + EXPLORES],
        "entered_death_or_mutiny": pv[b + BADZONE] > 0,
        "passed": bool(pv[b + PASSED]) and action,
        "turns": pv[b + TURNS] if action else 0,
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


__all__ = ["RESOURCES", "WIRE_FORMAT", "wire_view", "wire_view_shared"]
