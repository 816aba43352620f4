"""Walking on Ice (§9.1) in the wire view: the sled boards, the crossing and the
module's decisions, in named fields, so the browser repeats no rule of the module.

Everything here is public on the table: the maintenance cylinder, cargo, cans and
guilt lie on each sled board, the walking deck is shown as a count (its order never
leaves the engine), its discards face up.  A game without the module gets none of
these fields (:func:`walking_view` is None, :func:`walking_seat` empty), so the
base game's view is unchanged.  The static part — the module's two map sections,
its regions, action tiles and events — is :func:`walking_content_doc`, written into
the content file under ``modules.walking_on_ice``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from erebus.games.iceandsnow import walking_rules as wr
from erebus.games.iceandsnow.actions import Action
from erebus.games.iceandsnow.layout import CANS, FOOD, FUEL, MAP_OPEN_SEA, RES, SLED, F
from erebus.games.iceandsnow.walking import WalkingState

if TYPE_CHECKING:
    from erebus.games.iceandsnow.content import Content
    from erebus.games.iceandsnow.state import State

#: Why a choice of a walking decision is missing (merged into wire_decisions.MISSING).
WALKING_MISSING = {
    "final_crossing": "the last crossing is always a Walk",
    "march_maintenance": "a Forced March needs a maintenance of at least 2 per player on the whole table",
}

#: The action types a player may use on their own Action-phase turn without using it.
FREE_ACTIONS = ("open_can", "release_sailor")


def is_walking(st: State) -> bool:
    """A game with the module (its state carries the sled boards)."""
    return (
        st.content.walking is not None
        and hasattr(st, "maint")
        and "walking_on_ice" in (st.options.get("modules") or ())
    )


def walking_view(st: State) -> dict[str, Any] | None:
    """The module's table-wide fields (None without the module)."""
    if not is_walking(st):
        return None
    w = wr.data(st)
    abandoned = st.abandoned
    return {
        "abandoned": abandoned,
        "may_abandon": isinstance(st, WalkingState) and st.may_abandon(),
        "crossing": bool(abandoned) and st.phase in ("voyage", "flow") and not st.over,
        "crossing_types": st.voyage_options() if abandoned else [],
        "walking_deck": len(st.walk_deck),
        "walking_discard": list(st.walk_disc),
        "cans_box": wr.cans_in_box(st),
        "cans_total": int(w.cans["box"]),
        "forced_below_fuel": int(w.abandon["forced_below_fuel"]),
        "guilt_modifiers": [
            {"anchor": a.id, "guilt": int(a.guilt or 0)}
            for a in st.tables.anchors.values()
            if getattr(a, "guilt", None)
        ],
    }


def walking_seat(st: State, s: int) -> dict[str, Any]:
    """The seat's sled board (empty without the module)."""
    if not is_walking(st):
        return {}
    abandoned = bool(st.abandoned)
    return {
        "sled_board": {
            "on_sled": abandoned,
            "maintenance": st.maint[s],
            "maintenance_max": st.pv[F * s + SLED],
            "food_cap": wr.food_cap(st, s) if abandoned else None,
            "cargo_used": wr.cargo_used(st, s) if abandoned else None,
            "cargo_cap": wr.cargo_cap(st, s) if abandoned else None,
            "cans": st.pv[F * s + CANS],
            "guilt": st.guilt[s],
            "sick_sailor": bool(st.sick[s]),
            "inuit_customs": st.customs[s] == 2,
        }
    }


def walking_fields(st: State) -> dict[str, Any]:
    """The wire view's ``walking`` key, only in a game with the module."""
    view = walking_view(st)
    return {} if view is None else {"walking": view}


# ----------------------------------------------------------------- decisions


def _abandon(st: State, out: dict[str, Any], legal: list[Action]) -> None:
    """Abandon or sail on: what abandoning gives each player and the guilt it costs."""
    w = wr.data(st)
    fuel = [st.pv[F * s + FUEL] for s in range(st.n)]
    guilt = 0
    for f in fuel:
        for band in w.abandon["voluntary_guilt"]:
            if int(band["from"]) <= f <= int(band["to"]):
                guilt += int(band["guilt"])
    spaces = len(w.sled["upgrade_spaces"])
    out["options"] = [
        {
            "action": a.to_json(),
            "use": bool(a.use),
            "guilt": guilt if a.use else 0,
            "seats": [
                {
                    "seat": s,
                    "wood": fuel[s],
                    "cans": int(w.abandon["cans"]),
                    "maintenance": st.pv[F * s + SLED],
                    "drops_upgrades": max(0, len(st.upgrades[s]) - spaces),
                }
                for s in range(st.n)
            ]
            if a.use
            else [],
        }
        for a in legal
    ]
    out["fuel"] = fuel
    out["forced_below_fuel"] = int(w.abandon["forced_below_fuel"])
    out["missing"] = []


def _cargo(st: State, out: dict[str, Any], legal: list[Action]) -> None:
    seat = int(st.decisions[0][1])
    out["cargo_used"] = wr.cargo_used(st, seat)
    out["cargo_cap"] = wr.cargo_cap(st, seat)
    out["options"] = [
        {
            "action": a.to_json(),
            "resource": a.resource,
            "have": st.pv[F * seat + RES[str(a.resource)]],
        }
        for a in legal
    ]
    have = {a.resource for a in legal}
    out["missing"] = [{"resource": r, "why": "none_held"} for r in wr.CARGO if r not in have]


def _drop_upgrade(st: State, out: dict[str, Any], legal: list[Action]) -> None:
    out["keep"] = len(wr.data(st).sled["upgrade_spaces"])
    out["options"] = [{"action": a.to_json(), "tile": a.tile} for a in legal]
    out["missing"] = []


def _cans(st: State, out: dict[str, Any], legal: list[Action]) -> None:
    d = st.decisions[0]
    seat, need = int(d[1]), int(d[2])
    cans = wr.data(st).cans
    food = st.pv[F * seat + FOOD]
    out.update(
        need=need,
        food=food,
        short=max(0, need - food),
        reason=str(d[3]),
        cans=st.pv[F * seat + CANS],
    )
    out["options"] = [
        {
            "action": a.to_json(),
            "open": a.kind == "open_can",
            "food": int(cans["open_food"]) if a.kind == "open_can" else 0,
            "health": int(cans["open_health"]) if a.kind == "open_can" else 0,
        }
        for a in legal
    ]
    out["missing"] = []


def crossing(st: State, out: dict[str, Any], legal: list[Action]) -> None:
    """The Crossing phase's choice (the voyage decision after abandonment): Walk
    (everyone feeds their crew) or Forced March (also the leader maps the region
    and every player lowers maintenance by 1; a sled at 1 is towed)."""
    w = wr.data(st)
    region = st.region_of(st.dest) if st.dest else None
    out["region"] = region
    out["crossing"] = True
    maint = list(st.maint)
    opts = []
    for a in legal:
        v = str(a.voyage)
        kind = w.crossing["types"][v]
        lowers = int(kind.get("maintenance", 0)) < 0
        maps = bool(kind.get("map")) or (v == "walk" and bool(st.pv[F * st.leader + MAP_OPEN_SEA]))
        opts.append(
            {
                "action": a.to_json(),
                "voyage": v,
                "feeds": bool(kind.get("feed")),
                "mouths": [st.fed_count(s) for s in range(st.n)],
                "maps_region": maps
                and region is not None
                and region not in st.mapped
                and st.carto_tokens > 0,
                "lowers_maintenance": lowers,
                "towed": [s for s in range(st.n) if lowers and maint[s] <= 1],
                "deck": len(st.walk_deck) + len(st.walk_disc),
            }
        )
    have = {o["voyage"] for o in opts}
    per = int(w.crossing["march_min_maintenance_per_player"])
    miss = []
    for v in ("walk", "march"):
        if v not in have:
            why = "final_crossing" if st.final_voyage else "march_maintenance"
            miss.append({"voyage": v, "why": why, "needs": per * st.n, "has": sum(maint)})
    out["options"] = opts
    out["missing"] = miss
    out["maintenance_total"] = sum(maint)


def free_actions(st: State, out: dict[str, Any], legal: list[Action]) -> None:
    """The Action phase's free actions: open a food can, leave the sick sailor."""
    if not is_walking(st):
        return
    cans = wr.data(st).cans
    seat = st.current_player
    free = []
    for a in legal:
        if a.kind == "open_can":
            free.append(
                {
                    "action": a.to_json(),
                    "kind": "open_can",
                    "food": int(cans["open_food"]),
                    "health": int(cans["open_health"]),
                    "cans": st.pv[F * int(seat or 0) + CANS],
                }
            )
        elif a.kind == "release_sailor":
            free.append(
                {
                    "action": a.to_json(),
                    "kind": "release_sailor",
                    "pp": int(wr.data(st).raw["sick_sailor_pp"]),
                }
            )
    out["free"] = free


WALKING_DETAILS = {
    "abandon": _abandon,
    "cargo": _cargo,
    "drop_upgrade": _drop_upgrade,
    "cans": _cans,
}


# ----------------------------------------------------------------- static content


def walking_content_doc(content: Content) -> dict[str, Any] | None:
    """The module's static part of the content file: the two sections that replace
    Central West and West (routes with their kind), their anchors and regions, the
    action tiles' spaces and the walking events with their texts."""
    from erebus.games.iceandsnow import wire_content as wc
    from erebus.games.iceandsnow.walking_data import walking_content

    w = content.walking
    if w is None:
        return None
    var = walking_content(content)
    anchors = wc._anchors(var)
    ids = {s.id for s in w.sections}
    return {
        "regions": [wc.region_doc(r) for r in w.regions.values()],
        "sections": [
            wc.section_doc(sec, route_kinds=True) for sec in var.sections if sec.id in ids
        ],
        "anchors": anchors,
        "bounds": wc._bounds(anchors),
        "route_kinds": {k: dict(v) for k, v in w.route_kinds.items()},
        "tiles": [
            {**wc._space(var, str(t["id"])), "replaces": t["replaces"]} for t in w.tiles.values()
        ],
        "cans": {k: int(v) for k, v in w.cans.items()},
        "maintenance": [
            {"level": m.level, "food": m.food, "cargo": m.cargo} for m in w.maintenance
        ],
        "events": [
            {
                "number": e.number,
                "name": e.name,
                "deck": e.deck,
                "kind": e.kind,
                "crew": list(e.crew),
                "extra": e.optional,
                "text": wc.event_text(var, e.number),
            }
            for e in sorted(w.events.values(), key=lambda e: e.number)
        ],
    }
