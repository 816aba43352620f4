"""Walking on Ice (§9.1): the sled board's rules as functions of a position.

The maintenance level caps a seat's food and its cargo (the resources on the
sled, dogs not counted, the sick sailor of event 32 counted); guilt rises on a
voluntary abandonment and with every Scurvy or Mutiny applied; a seat that
must lower its maintenance below 1 has its sled towed (the ship towing rules,
maintenance as fuel).  They are functions, not methods, so that the action
phase (the action tiles) and :class:`~erebus.games.iceandsnow.walking.WalkingState`
share them; each change emits its event like every other change of a seat's
numbers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from erebus.core.events import Event
from erebus.games.iceandsnow import legends
from erebus.games.iceandsnow.events import Towing, TrackChanged
from erebus.games.iceandsnow.layout import CANS, DYN, FOOD, RIFLES, SLED, TOW, WOOD, F
from erebus.games.iceandsnow.towing import tow
from erebus.games.iceandsnow.walking_data import WalkingData

if TYPE_CHECKING:
    from erebus.games.iceandsnow.events_cards import EventCardRules as State

#: The resources that ride in the sled's cargo spaces (dogs run beside it).
CARGO = ("dynamite", "wood", "rifles", "cans")
#: The tile actions the action phase hands to :func:`apply_tile`.
TILE_KINDS = frozenset({"revisit_inuit", "tin_refining", "sled_maintenance", "document_sled"})


def data(st: State) -> WalkingData:
    w = st.content.walking
    assert w is not None, "a Walking on Ice rule in a game without the module's data"
    return w


def food_cap(st: State, seat: int) -> int:
    """The food the sled can carry at the seat's maintenance level."""
    return data(st).level(st.maint[seat]).food


def cargo_cap(st: State, seat: int) -> int:
    return data(st).level(st.maint[seat]).cargo


def cargo_used(st: State, seat: int) -> int:
    """Cargo spaces in use: dynamite, wood, rifles, cans and the sick sailor."""
    b = F * seat
    pv = st.pv
    sick = int(data(st).sled.get("sick_sailor_cargo", 1)) * st.sick[seat]
    return pv[b + DYN] + pv[b + WOOD] + pv[b + RIFLES] + pv[b + CANS] + sick


def over_cargo(st: State, seat: int) -> int:
    return max(0, cargo_used(st, seat) - cargo_cap(st, seat))


def cans_in_box(st: State) -> int:
    """Food-can tokens left in the box (20 in all; spent cans go back)."""
    return int(data(st).cans["box"]) - sum(st.p(s, CANS) for s in range(st.n))


def queue_cargo(st: State, seat: int) -> None:
    """Over the cargo: the seat discards resources of its choice, one decision each."""
    if over_cargo(st, seat) and ["cargo", seat] not in st.decisions:
        st.decisions.append(["cargo", seat])


def check_sled(st: State, seat: int, reason: str, ev: list[Event]) -> None:
    """After the maintenance dropped: food down to the cap, cargo down to the spaces."""
    cap = food_cap(st, seat)
    if st.p(seat, FOOD) > cap:
        st._set(seat, FOOD, cap, "food", reason, ev)
    queue_cargo(st, seat)


def set_maintenance(st: State, seat: int, new: int, reason: str, ev: list[Event]) -> None:
    """Maintenance to ``new``, between 1 and the sled level (and the track's top);
    Franklin's may stand 1 above his sled level (Legendary Expeditions)."""
    over = legends.maintenance_over_sled(st, seat) if st.explorer else 0
    top = min(st.p(seat, SLED) + over, data(st).max_maintenance)
    new = max(1, min(new, max(1, top)))
    old = st.maint[seat]
    if new == old:
        return
    st.maint[seat] = new
    ev.append(TrackChanged(seat, "maintenance", old, new, reason))
    if new < old:
        check_sled(st, seat, reason, ev)


def raise_guilt(st: State, seat: int, k: int, reason: str, ev: list[Event]) -> None:
    if k <= 0:
        return
    old = st.guilt[seat]
    new = min(old + k, int(data(st).sled.get("guilt_max", 99)))
    if new != old:
        st.guilt[seat] = new
        ev.append(TrackChanged(seat, "guilt", old, new, reason))


def lower_maintenance(st: State, seats: list[int], reason: str, ev: list[Event]) -> None:
    """Every seat of ``seats`` lowers maintenance by 1; a seat at 1 has its sled
    towed (§4.4 with maintenance as fuel: the others' maintenance above 1 is
    what they can give)."""
    missing = [0] * st.n
    for s in seats:
        if st.maint[s] > 1:
            set_maintenance(st, s, st.maint[s] - 1, reason, ev)
        else:
            missing[s] = 1
    if not any(missing):
        return
    tt = st.content.tracks["towing"]
    pp = {int(k): abs(int(v)) for k, v in tt["pp"].items()}
    spare = [0 if missing[s] else st.maint[s] - 1 for s in range(st.n)]
    res = tow(
        spare,
        missing,
        [st.p(s, TOW) for s in range(st.n)],
        st.leader,
        pp,
        int(tt["min"]),
        int(tt["max"]),
        per_fuel=st.options["towing_pp"] == "per_fuel",
    )
    ev.append(Towing(res.towed, res.towers, res.missing))
    if res.lost:
        st._lose("there is not enough maintenance to tow every sled", ev)
        return
    for s in range(st.n):
        if not missing[s]:
            set_maintenance(st, s, res.fuel[s] + 1, "towing a sled", ev)
        st._set(s, TOW, res.towing[s], "towing", "towing", ev)
    for s, delta, why in res.pp:
        st._score(s, delta, f"{why} (sled)", ev)


def apply_tile(st: State, seat: int, kind: str, total: int, ev: list[Event]) -> None:
    """The effect of an action tile (the crew is placed, the space taken)."""
    tile = data(st).tiles[kind]
    if kind == "revisit_inuit":
        for what, v in sorted(tile["gains"].items()):
            st._gain(seat, what, int(v), "revisit the Inuit", ev)
    elif kind == "tin_refining":
        st._gain(seat, "cans", -int(tile["cans"]), "tin refining", ev)
        for what, v in sorted(tile["gains"].items()):
            st._gain(seat, what, int(v), "tin refining", ev)
    elif kind == "sled_maintenance":
        per = int(tile["maintenance_per_crew"])
        set_maintenance(st, seat, st.maint[seat] + per * total, "sled maintenance", ev)
    elif kind == "document_sled":
        pp = st.maint[seat] * int(tile["pp_per_maintenance"])
        st._score(seat, pp, "document the sled's condition", ev)
