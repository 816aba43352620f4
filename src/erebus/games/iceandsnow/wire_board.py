"""The action board of the wire view: spaces, slots, warehouses and, for the seat to
move in the Action phase, whether it may take each space now and if not, why.

Whether a space can be taken is read off ``state.legal_actions()`` (the engine's
own answer, so the board and the engine never disagree); :func:`why_not_space`
only explains a space the legal actions leave out, by the same checks in the same
order as :func:`~erebus.games.iceandsnow.action_phase.take_actions`.  The reasons
are keys (:data:`REASONS` gives each in English) so that a client can translate
them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from erebus.games.iceandsnow import wire_scenarios
from erebus.games.iceandsnow.action_phase import (
    EVENT_SPACE,
    ROLE_INDEX,
    SHELTER_NEED,
    SHELTER_SPACE,
    SHELTER_TOTALS,
    active_shelter,
    crew_options,
    proxies_of,
    sled_for_explore,
)
from erebus.games.iceandsnow.actions import Action
from erebus.games.iceandsnow.content import CREW_KINDS, RESOURCES, Space
from erebus.games.iceandsnow.layout import (
    CABINS,
    DOGS,
    FISHING_BOAT,
    FUEL,
    RES,
    RIFLES,
    SHELTERS,
    SLED,
    TURNS,
    WOOD,
    F,
)
from erebus.games.iceandsnow.wire_myths import creature_on

if TYPE_CHECKING:
    from erebus.games.iceandsnow.state import State
    from erebus.games.iceandsnow.tables import Tables

#: Why a space cannot be taken now, by key.
REASONS = {
    "not_your_turn": "it is not your turn in the Action phase",
    "final_round_only": "a final-round action: open only in the final round",
    "blocked": "not used in this scenario",
    "full": "every slot of this space is taken this round",
    "no_crew": "you have no crew member left to place",
    "leader_first_turn": "the leader cannot take Lead on their first turn",
    "no_dogs": "Explore needs at least 1 dog",
    "no_sled": "Explore needs a sled of level 1 or more this round",
    "no_inuit_left": "no Inuk is left to hire",
    "cabin_limit": "you have built every cabin you may",
    "shelter_limit": "you have built every shelter you may",
    "active_shelter": "you already have a shelter on this map section",
    "no_wood": "you do not have the wood it costs",
    "sled_max": "your sled is at its highest level",
    "upgrade_spaces_full": "every upgrade space of your ship is used",
    "no_upgrade": "no upgrade tile left that you can pay and do not own",
    "no_fuel": "you do not have the fuel it costs",
    "compass_empty": "the compass deck is empty",
    "no_card": "no revealed card you may take",
    "no_rifles": "no revealed hunting card whose prey your rifles and crew can meet",
    "no_resource": "you have no resource to put in the warehouse",
    "warehouse_empty": "the warehouse is empty",
    "no_event": "no action event card to take this round",
    "event_taken": "the event card is taken",
    "officer_busy": "the officer this space needs is placed or in the infirmary",
    "too_few_crew": "you have too few free crew members for this space",
    "crew": "your free crew cannot make up what this space needs",
    "deposit": "you have no resource left for the Survival deposit",
    "mode": "not in this game's modes",
    "creature": "you cannot meet what the creature in play adds to this space",
    **wire_scenarios.SPACE_REASONS,
}


def why_not_space(st: State, seat: int, sid: str) -> str:
    """The key of :data:`REASONS` saying why ``seat`` may not take ``sid`` now (the
    caller knows no legal ``take`` names it)."""
    if st.pending != "action" or st.current_player != seat:
        return "not_your_turn"
    return _why_not(st, seat, sid, st.avail_crew(seat), proxies_of(st, seat))


def _why_not(
    st: State, seat: int, sid: str, avail: tuple[int, ...], proxies: tuple[str, ...]
) -> str:
    """:func:`why_not_space` in the Action phase, for the seat to move, given its
    free crew and proxies (the board asks for every space: it works them out once)."""
    if sum(avail) == 0:
        return "no_crew"
    b = F * seat
    pv = st.pv
    if sid == SHELTER_SPACE:
        if not st.mode("shelters"):
            return "mode"
        if pv[b + SHELTERS] >= int(st.rules["limits"]["shelters"]):
            return "shelter_limit"
        if active_shelter(st, seat):
            return "active_shelter"
        return _why_not_crew(st, seat, avail, proxies, SHELTER_NEED, SHELTER_TOTALS)
    if sid == EVENT_SPACE:
        if st.event is None or st.content.events[st.event].kind != "action":
            return "no_event"
        if st.event_taken:
            return "event_taken"
        if not st.event_takeable():
            return "no_card"
        return _why_not_crew(st, seat, avail, proxies, (), tuple(st.content.events[st.event].crew))
    t = st.tables
    i = t.space_index[sid]
    sp = t.spaces[i]
    scen = st.scen()
    if sp.final and not st.is_final_round:
        return "final_round_only"
    if sid in scen.get("blocked_spaces", ()):
        return "blocked"
    slots = sp.slots.get(st.n)
    if slots is not None and st.occ[i] >= slots:
        return "full"
    kind = scen.get("replaced_spaces", {}).get(sid, sid)
    wood = pv[b + WOOD]
    if kind == "lead":
        if seat == st.leader and pv[b + TURNS] == 0:
            return "leader_first_turn"
    elif kind == "explore":
        if pv[b + DOGS] < 1:
            return "no_dogs"
        if sled_for_explore(st, seat) < 1:
            return "no_sled"
    elif kind == "hire_inuk":
        if st.inuit_pool <= 0:
            return "no_inuit_left"
    elif kind == "build_cabin":
        if pv[b + CABINS] >= int(st.rules["limits"]["cabins"]):
            return "cabin_limit"
        if wood < sp.wood:
            return "no_wood"
    elif kind == "improve_sled":
        if wood < sp.wood:
            return "no_wood"
        if pv[b + SLED] >= int(st.content.tracks["sled"]["max"]):
            return "sled_max"
    elif kind == "upgrade_ship":
        if len(st.upgrades[seat]) >= int(st.rules["limits"]["upgrade_spaces"]):
            return "upgrade_spaces_full"
        if not any(
            st.upgrade_in_game(num)
            and st.upg_left[num] > 0
            and num not in st.upgrades[seat]
            and wood >= u.cost
            for num, u in st.content.upgrades.items()
        ):
            return "no_upgrade"
    elif kind == "recycle_wood":
        if pv[b + FUEL] < sp.fuel:
            return "no_fuel"
    elif kind == "magnetic_research":
        if not st.compass:
            return "compass_empty"
    elif kind == "discover":
        boat = FISHING_BOAT in st.upgrades[seat]
        species = st.content.species
        cards = [c for c in st.sp_rev if boat or not species[c].fishing_boat]
        if boat:
            cards += [c for c in st.hu_rev if c in st.content.dual]
        if not cards:
            return "no_card"
    elif kind == "hunt":
        return _why_not_hunt(st, seat, sp)
    elif kind == "experiment":
        if wood < sp.wood:
            return "no_wood"
    elif kind.startswith("exchange"):
        if not any(pv[b + RES[r]] > 0 for r in RESOURCES):
            return "no_resource"
    elif kind.startswith("collect"):
        ci = t.space_column[i]
        if not any(st.boxes[4 * ci : 4 * ci + 4]):
            return "warehouse_empty"
    if not kind.startswith("vow") and not crew_options(avail, sp.need, sp.totals, proxies):
        return _why_not_crew(st, seat, avail, proxies, sp.need, sp.totals)
    if _deposit_due(st, sp, i):
        return "deposit"
    if creature_on(st, seat, sid):
        return "creature"
    return "crew"


def _why_not_crew(
    st: State,
    seat: int,
    avail: tuple[int, ...],
    proxies: tuple[str, ...],
    need: tuple[str, ...],
    totals: tuple[int, ...],
) -> str:
    """No free crew composition meets the space: its officer is busy, or too few are free."""
    if need and not any(avail[ROLE_INDEX[r]] or r in proxies for r in need):
        return wire_scenarios.officer_why(st, seat, need) or "officer_busy"
    if totals and sum(avail) < min(totals):
        return "too_few_crew"
    return "crew"


def _deposit_due(st: State, sp: Space, i: int) -> bool:
    ci = st.tables.space_column[i]
    return bool(st.mode("survival") and sp.above_warehouse and ci >= 0 and not st.col_paid[ci])


def _why_not_hunt(st: State, seat: int, sp: Space) -> str:
    boat = FISHING_BOAT in st.upgrades[seat]
    hunting = st.tables.hunting_all
    cards = [c for c in st.hu_rev if boat or not (hunting[c].whale or c in st.content.dual)]
    if not cards:
        return "no_card"
    rifles = st.pv[F * seat + RIFLES]
    if not any(hunting[c].prey <= rifles for c in cards):
        return "no_rifles"
    return "crew"


_STATIC: dict[tuple[int, int, str | None], tuple[dict[str, Any], ...]] = {}


def _static_spaces(t: Tables, n: int, scenario: str | None) -> tuple[dict[str, Any], ...]:
    """The fields of every space that a game never changes (cached per content,
    player count and scenario; callers copy them)."""
    key = (id(t), n, scenario)
    hit = _STATIC.get(key)
    if hit is not None:
        return hit
    scen = t.content.scenarios.get(scenario, {}) if scenario else {}
    blocked = set(scen.get("blocked_spaces", ()))
    replaced = scen.get("replaced_spaces", {})
    out = tuple(
        {
            "id": sp.id,
            "kind": replaced.get(sp.id, sp.id),
            "column": sp.column,
            "slots": sp.slots.get(n),
            "final": sp.final,
            "blocked": sp.id in blocked,
        }
        for sp in t.spaces
    )
    _STATIC[key] = out
    return out


_ROWS: dict[
    tuple[int, int, str | None], tuple[tuple[dict[str, Any], str, bool, bool, int], ...]
] = {}


def _space_rows(
    t: Tables, n: int, scenario: str | None
) -> tuple[tuple[dict[str, Any], str, bool, bool, int], ...]:
    """Per space: its static fields, id, whether it is a final-round space, whether
    it is above a warehouse, and its warehouse column (cached as ``_static_spaces``)."""
    key = (id(t), n, scenario)
    hit = _ROWS.get(key)
    if hit is not None and hit[0][0] is _static_spaces(t, n, scenario)[0]:
        return hit
    out = tuple(
        (static, sp.id, bool(sp.final), bool(sp.above_warehouse), t.space_column[i])
        for i, (static, sp) in enumerate(zip(_static_spaces(t, n, scenario), t.spaces, strict=True))
    )
    _ROWS[key] = out
    return out


def action_board(st: State, seat: int | None, legal: list[Action] | None = None) -> dict[str, Any]:
    """The board: every space (with its slots for this player count, how many are
    taken, whether it is open now) and the warehouses; for ``seat`` when it is the
    seat to move in the Action phase, ``can_take`` and ``why_not`` per space
    (``legal``: that seat's legal actions, when the caller has them)."""
    t = st.tables
    n = st.n
    final = st.is_final_round
    acting = st.phase == "action" and not st.over
    survival = st.mode("survival")
    mine = acting and seat is not None and st.current_player == seat and not st.decisions
    legal_spaces: set[str | None] = set()
    can_pass = False
    if mine:
        legal = st.legal_actions() if legal is None else legal
        legal_spaces = {a.space for a in legal}
        can_pass = None in legal_spaces and any(a.kind == "pass" for a in reversed(legal))
    spaces = []
    occ = st.occ
    stands: dict[str, list[dict[str, Any]]] = {}
    for sid, who, *crew in st.stands:
        stands.setdefault(sid, []).append(
            {"seat": who, "crew": dict(zip(CREW_KINDS, crew, strict=True))}
        )
    paid = st.col_paid
    # Whether the seat to move may take a space and why not: its free crew and
    # proxies are the same for every space, so they are worked out once.
    why: Any = None
    if mine:
        assert seat is not None
        if st.pending != "action" or st.current_player != seat:
            why = "not_your_turn"
        else:
            avail, proxies = st.avail_crew(seat), proxies_of(st, seat)
    for i, (static, sid, sp_final, above, ci) in enumerate(_space_rows(t, n, st.scenario)):
        can: bool | None = None
        reason: str | None = None
        if mine:
            can = sid in legal_spaces
            if not can:
                reason = why or _why_not(st, seat, sid, avail, proxies)  # type: ignore[arg-type]
        spaces.append(
            {
                **static,
                "taken": occ[i] if acting else 0,
                "stands": stands.get(sid, []),
                "open": (final or not sp_final) and not static["blocked"],
                "deposit_due": bool(acting and survival and above and ci >= 0 and not paid[ci]),
                "can_take": can,
                "why_not": reason,
            }
        )
    extra: list[dict[str, Any]] = []
    entry: dict[str, Any]
    if st.mode("shelters"):
        entry = {
            "id": SHELTER_SPACE,
            "kind": SHELTER_SPACE,
            "column": "general",
            "stands": stands.get(SHELTER_SPACE, []),
        }
        _verdict(st, seat, entry, SHELTER_SPACE, mine, legal_spaces)
        extra.append(entry)
    if st.event is not None and st.content.events[st.event].kind == "action":
        entry = {
            "id": EVENT_SPACE,
            "kind": EVENT_SPACE,
            "column": "general",
            "number": st.event,
            "stands": stands.get(EVENT_SPACE, []),
        }
        _verdict(st, seat, entry, EVENT_SPACE, mine, legal_spaces)
        extra.append(entry)
    return {
        "acting": acting,
        "spaces": spaces,
        "extra_spaces": extra,
        "warehouses": [
            {
                "column": col,
                "gives": st.content.warehouses[col].gives,
                "box": dict(zip(RESOURCES, st.boxes[4 * ci : 4 * ci + 4], strict=True)),
                "deposit_paid": bool(st.col_paid[ci]) if acting and st.col_paid else False,
            }
            for ci, col in enumerate(t.columns)
        ],
        "can_pass": can_pass,
        "must_take": mine and not can_pass,
    }


def _verdict(
    st: State,
    seat: int | None,
    entry: dict[str, Any],
    sid: str,
    mine: bool,
    legal_spaces: set[str | None],
) -> None:
    if not mine:
        entry["can_take"] = None
        entry["why_not"] = None
        return
    ok = sid in legal_spaces
    entry["can_take"] = ok
    entry["why_not"] = None if ok else why_not_space(st, seat, sid)  # type: ignore[arg-type]
