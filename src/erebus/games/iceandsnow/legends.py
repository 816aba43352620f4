"""Legendary Expeditions (§9.3, seed l. 1211–1340): explorers, ships and explorer events.

The sets are data (``data/legends.json``, vocabulary in :mod:`.legends_data`);
this module holds the state the module adds and the queries the rules ask:

* **the seat's set** (``State.explorer``: one set letter per seat, ``""`` = none)
  — its explorer's ability (:func:`has`, :func:`params`), its ship's rewards and
  its explorer event, shuffled into its deck at set-up (:func:`assign`);
* **the dealt pair** (``State.ex_dealt``) — with ``"explorers": "random"`` each
  seat is dealt two explorer cards and keeps one (hidden from the other seats
  until chosen); the returned cards are boxed (``State.ex_box``, hidden);
* **kept explorer events** (``State.ex_held``/``ex_due``) — the powers of 47 and
  53, granted at Boarding like the base game's kept cards (their player-table
  fields are the base game's two powers only: the legends' live here so that the
  table — and every saved game — keeps its width);
* **event 51's set-aside sailor** (``State.ex_sailor``: how many wait beside the
  board);
* **George Back's upgrade spaces** (``State.ex_spaces``: per seat, the bits of the
  ship-board spaces he chose; the others fill left to right).

And the rules the engine's layers call (each guarded by ``st.explorer``, empty
without the module): the set-up and its ``explorer`` decisions; the passive
abilities A Franklin (:func:`fuel_bands`, :func:`maintenance_over_sled`), B Parry
(:func:`cabin_pp`), E McClintock (:func:`explore_dogs`), F McClure (the
``benevolent`` decision at Boarding, :func:`boarding`), I Back (:func:`upgrade_slot`,
:func:`expand_upgrades`); the ship cards (:func:`ship_reward`); the explorer
events' ops (:func:`take_op`, :func:`reveal_op`) and event 47's power
(:func:`rifles_less`); the hidden explorers in views and determinizations
(:func:`hide`, :func:`deal_hidden`).  C, D, G, H are in :mod:`.legends_explorers`,
J in :mod:`.legends_j`; the readings are L1–L26 of docs/iceandsnow-decisions.md.

No rule here names a card number or a set letter.
"""

from __future__ import annotations

import dataclasses
from functools import cache
from typing import TYPE_CHECKING, Any

from erebus.core.events import Event
from erebus.games.iceandsnow import legends_data, legends_j
from erebus.games.iceandsnow.actions import Action, Crew
from erebus.games.iceandsnow.content import Content, EventCard
from erebus.games.iceandsnow.effects import Op, parse_effect
from erebus.games.iceandsnow.events import (
    CrewToInfirmary,
    ExplorerChosen,
    RegionMapped,
    SailorGained,
)
from erebus.games.iceandsnow.layout import DOGS, FOOD, INF, RES, SAILORS, F

if TYPE_CHECKING:
    from erebus.games.iceandsnow.events_cards import EventCardRules as State

MODULE = "legendary_expeditions"


# -- the data -------------------------------------------------------------------------


@cache
def sets() -> dict[str, dict[str, Any]]:
    """The sets of ``legends.json`` by letter."""
    return {s["set"]: s for s in legends_data.load()["sets"]}


@cache
def event_numbers() -> frozenset[int]:
    """The explorer events' numbers (kept out of the base decks; :func:`assign` adds
    the ones of the sets in play)."""
    return frozenset(int(e["number"]) for e in legends_data.load()["events"])


def _event_card(e: dict[str, Any]) -> EventCard:
    return EventCard(
        int(e["number"]),
        e["name"],
        e["deck"],
        e["kind"],
        tuple(e.get("crew", ())),
        False,
        parse_effect(e["effect"]),
    )


_VARIANTS: dict[int, tuple[Content, Content]] = {}


def legends_content(content: Content) -> Content:
    """``content`` with the explorer events 45–54 among its event cards (cached per
    content).  They enter a deck only through :func:`assign`."""
    hit = _VARIANTS.get(id(content))
    if hit is not None and hit[0] is content:
        return hit[1]
    events = {int(e["number"]): _event_card(e) for e in legends_data.load()["events"]}
    variant = dataclasses.replace(content, events={**content.events, **events})
    _VARIANTS[id(content)] = (content, variant)
    return variant


# -- queries ------------------------------------------------------------------------


def letter(st: State, seat: int) -> str:
    """The set letter of ``seat`` (``""``: none, or the module is not in play)."""
    if not st.module(MODULE) or not st.explorer:
        return ""
    return st.explorer[seat]


def summary(k: str) -> dict[str, Any]:
    """Set ``k`` in words for a player choosing it: explorer, ability, ship (and what
    it adds to an upgrade), explorer event."""
    s = sets()[k]
    num = int(s["event"])
    name = next(str(e["name"]) for e in legends_data.load()["events"] if e["number"] == num)
    return {
        "set": k,
        "explorer": str(s["explorer"]),
        "ability": str(s["ability"]),
        "ship": str(s["ship"]),
        "ship_rewards": dict(s["ship_rewards"]),
        "event": num,
        "event_name": name,
    }


def has(st: State, seat: int, ability: str) -> bool:
    """Does ``seat``'s explorer have ``ability`` (a :data:`.legends_data.ABILITIES` key)?"""
    k = letter(st, seat)
    return bool(k) and sets()[k]["ability"] == ability


def params(st: State, seat: int) -> dict[str, Any]:
    """The parameters of ``seat``'s explorer's ability (``{}`` without an explorer)."""
    k = letter(st, seat)
    p: dict[str, Any] = sets()[k]["params"] if k else {}
    return p


def holder(st: State, ability: str) -> int | None:
    """The seat whose explorer has ``ability``, if any (each set is in play once)."""
    for s in range(st.n):
        if has(st, s, ability):
            return s
    return None


def ship_rewards(st: State, seat: int) -> dict[str, int]:
    """What ``seat``'s ship card adds to each Upgrade the Ship (``{}``: no ship)."""
    k = letter(st, seat)
    r: dict[str, int] = sets()[k]["ship_rewards"] if k else {}
    return r


def holds_power(st: State, seat: int, power: str) -> bool:
    """Does ``seat`` hold a kept explorer event with ``power`` (:data:`.legends_data.NEW_POWERS`)?"""
    return st.module(MODULE) and bool(st.ex_held) and power in st.ex_held[seat]


# -- set-up ---------------------------------------------------------------------------


def setup(st: State, ev: list[Event] | None = None) -> None:
    """No seat has a set yet; ``"explorers": [letters]`` assigns them in seat order.

    With ``"random"`` each seat is dealt two explorer cards (kept in ``ex_dealt``
    until the seat chooses, :func:`choose`)."""
    n = st.n
    st.explorer = [""] * n
    st.ex_dealt = [[] for _ in range(n)]
    st.ex_box = []
    st.ex_held = [[] for _ in range(n)]
    st.ex_due = [[] for _ in range(n)]
    st.ex_sailor = 0
    from erebus.games.iceandsnow import legends_explorers

    legends_explorers.setup(st)
    st.ex_spaces = [0] * n
    chosen = st.options["explorers"]
    if chosen != "random":
        st.ex_box = sorted(sets())  # every set not in play stays in the box
        for seat, k in enumerate(chosen):
            assign(st, seat, str(k), ev=ev)
        return
    pool = sorted(sets())
    st._shuffle(pool)
    for seat in range(n):
        st.ex_dealt[seat] = sorted(pool.pop() for _ in range(2))
    st.ex_box = sorted(pool)
    for seat in range(n):  # a set-up decision per seat, in seat order
        st.decisions.append(["explorer", seat])


def choose(st: State, seat: int, k: str, ev: list[Event] | None = None) -> None:
    """``seat`` keeps ``k`` of its dealt pair; the other card is boxed."""
    pair = st.ex_dealt[seat]
    assert k in pair, (k, pair)
    st.ex_box = sorted([*st.ex_box, *(x for x in pair if x != k)])
    st.ex_dealt[seat] = []
    assign(st, seat, k, ev=ev)


def assign(st: State, seat: int, k: str, event: bool = True, ev: list[Event] | None = None) -> None:
    """Give ``seat`` set ``k``: its explorer and ship; with ``event`` its explorer
    event replaces a random card of its deck (L3: each deck keeps its size; the
    replaced card goes to the box).  A solo scenario calls this at set-up for its
    fixed set."""
    if k not in sets():
        raise ValueError(f"unknown explorer set {k!r}")
    if k in st.explorer:
        raise ValueError(f"explorer set {k} is in play already")
    st.explorer[seat] = k
    legends_j.assigned(st, seat, [] if ev is None else ev)  # set J: Amundsen places no dogs
    if k in st.ex_box:
        st.ex_box.remove(k)
    if not event:
        return
    num = int(sets()[k]["event"])
    card = st.content.events[num]
    if any(op.op == "rescue_sailor" for op in card.effect.take):
        st.ex_sailor += 1  # a sailor pawn set aside beside the table (seed l. 1231)
    deck = st.ev_open if st.content.events[num].deck == "open" else st.ev_coastal
    # the replaced card is one of the deck's own (never another set's explorer event)
    own = [i for i, x in enumerate(deck) if x not in event_numbers()]
    if own:
        st.ev_box.append(deck.pop(own[st._rand(len(own))]))
    deck.insert(st._rand(len(deck) + 1), num)


# -- passive abilities (A, B, E, I; the ship cards; event 47's power) -------------------


def fuel_bands(st: State, seat: int, default: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The fuel bands checked after ``seat`` lowers fuel in a Voyage step (Franklin's
    own bands, else the track's)."""
    if has(st, seat, "long_voyage"):
        bands: list[dict[str, Any]] = params(st, seat)["bands"]
        return bands
    return default


def maintenance_over_sled(st: State, seat: int) -> int:
    """How far above the sled level ``seat``'s maintenance may go (Franklin with
    Walking on Ice: 1; else 0)."""
    if has(st, seat, "long_voyage"):
        return int(params(st, seat)["walking_maintenance"])
    return 0


def cabin_pp(st: State, seat: int, lowered: int, per: int) -> int:
    """The PP of ``lowered`` food spaces of Build a Cabin: Parry's first
    ``food_spaces_1pp`` spaces give 1 PP each, the rest 1 per ``per`` (L8: food cans
    count as the food they stand for)."""
    if has(st, seat, "cabin_supplier"):
        first = min(lowered, int(params(st, seat)["food_spaces_1pp"]))
        return first + (lowered - first) // per
    return lowered // per


def extra_dogs(st: State, seat: int) -> int:
    """Dogs ``seat`` counts beyond its own for Explore's PP (McClintock)."""
    if has(st, seat, "sled_innovation"):
        return int(params(st, seat)["explore_dogs"])
    return 0


def sled_dogs(st: State, seat: int) -> int:
    """The dogs on ``seat``'s track (Amundsen's counts as filled up to ``dogs_as``,
    set J): Explore needs one."""
    virtual = legends_j.virtual_dogs(st, seat)
    if virtual is not None:
        return virtual
    return st.p(seat, DOGS)


def explore_dogs(st: State, seat: int) -> int:
    """The dogs ``seat``'s sled counts for Explore's PP: its track's, plus
    McClintock's extra dog (which does not let him Explore without a dog)."""
    return sled_dogs(st, seat) + extra_dogs(st, seat)


def hunt_with_inuk(
    opts: tuple[tuple[Crew, str | None], ...],
    sid: str,
    cid: str,
    deposits: tuple[str | None, ...],
    have: tuple[Action, ...],
) -> list[Action]:
    """Event 47's Hunts of ``cid`` with 1 rifle less: the crews of ``opts`` holding an
    Inuk, with ``deposits`` (Survival) — those not already in ``have``."""
    seen = set(have)
    out = []
    for crew, proxy in opts:
        if crew[4] < 1 and proxy != "inuit":  # Ross's crew member as an Inuk counts
            continue
        for d in deposits:
            a = Action("take", space=sid, crew=crew, card=cid, proxy=proxy, deposit=d)
            if a not in seen:
                out.append(a)
    return out


def rifles_less(st: State, seat: int) -> int:
    """Rifles a Hunt with at least 1 Inuk may need less (event 47's power)."""
    return 1 if holds_power(st, seat, "skilled_hunter") else 0


def free_spaces(st: State, seat: int, tiles: int | None = None) -> list[int]:
    """The empty upgrade spaces of ``seat``'s ship board (0-based), leftmost first,
    with ``tiles`` tiles on it (default: its upgrades).  Spaces hold tiles left to
    right unless George Back chose (``ex_spaces`` bits)."""
    limit = st.upgrade_space_limit()
    mask = st.ex_spaces[seat] if st.ex_spaces else 0
    filled = [i for i in range(limit) if mask >> i & 1]
    placed = len(st.upgrades[seat]) if tiles is None else tiles
    extra = placed - len(filled)  # tiles placed the ordinary way
    free = [i for i in range(limit) if not mask >> i & 1]
    return free[max(0, extra) :]


def any_space(st: State, seat: int) -> bool:
    """May ``seat`` choose the upgrade space (George Back, on the ship board: the sled
    board of Walking on Ice has no space bonuses to choose between)?"""
    return has(st, seat, "arctic_artist") and not getattr(st, "abandoned", None)


def upgrade_slot(st: State, seat: int, chosen: int | None) -> int:
    """The 0-based upgrade space the new tile goes on (``chosen``: Back's 1-based pick)
    and, for Back, mark it filled."""
    if not any_space(st, seat):
        return len(st.upgrades[seat]) - 1
    free = free_spaces(st, seat, len(st.upgrades[seat]) - 1)  # the new tile is listed
    slot = free[0] if chosen is None else chosen - 1
    if slot in free:
        st.ex_spaces[seat] |= 1 << slot
    return slot


def expand_upgrades(st: State, seat: int, out: list[Any]) -> list[Any]:
    """George Back's Upgrade the Ship: the same take on every other empty space
    (``slot``: the 1-based space; ``None`` stays the leftmost)."""
    if not any_space(st, seat):
        return out
    free = free_spaces(st, seat)[1:]
    if not free:
        return out
    res: list[Any] = []
    for a in out:
        res.append(a)
        if a.kind == "take" and a.tile is not None:  # only Upgrade the Ship names a tile
            res += [a._replace(slot=i + 1) for i in free]
    return res


def ship_reward(st: State, seat: int, ev: list[Event]) -> None:
    """The ship card's rewards for a tile added with Upgrade the Ship (seed l. 1240)."""
    k = letter(st, seat)
    if not k:
        return
    ship = str(sets()[k]["ship"])
    for what, v in sorted(ship_rewards(st, seat).items()):
        st._gain(seat, what, int(v), ship, ev)


# -- McClure's Boarding trade (a queued decision) -------------------------------------

#: The queued decisions of this module: the explorer choice and McClure's trade.
DECISIONS = ("explorer", "benevolent")


def boarding(st: State) -> None:
    """The end of Boarding (after feeding, L6): McClure may trade food for morale."""
    seat = holder(st, "benevolent_leader")
    if seat is not None and st.p(seat, FOOD) >= int(params(st, seat)["food"]):
        st.decisions.append(["benevolent", seat])


def decision_actions(st: State, d: list[Any]) -> list[Action]:
    kind, seat = d[0], int(d[1])
    if kind == "explorer":
        return [Action("choose_explorer", card=k) for k in st.ex_dealt[seat]]
    if kind == "benevolent":
        if st.p(seat, FOOD) < int(params(st, seat)["food"]):
            return []
        return [_TRADE, _STOP]
    raise AssertionError(kind)  # pragma: no cover


def resolve(st: State, d: list[Any], a: Action, ev: list[Event]) -> None:
    kind, seat = d[0], int(d[1])
    if kind == "explorer":
        assert a.card is not None
        choose(st, seat, a.card, ev)
        ev.append(ExplorerChosen(seat, a.card, str(sets()[a.card]["explorer"])))
    elif kind == "benevolent" and a.use:
        p = params(st, seat)
        name = str(sets()[st.explorer[seat]]["explorer"])
        st._gain(seat, "food", -int(p["food"]), name, ev)
        st._gain(seat, "morale", int(p["morale"]), name, ev)
        if st.p(seat, FOOD) >= int(p["food"]) and not st.over:
            st.decisions.insert(0, ["benevolent", seat])


_TRADE = Action("benevolent", use=True)
_STOP = Action("benevolent", use=False)


# -- the explorer events' ops (legends_data.NEW_OPS, keep_card with NEW_POWERS) ----------


def is_new_op(op: Op) -> bool:
    """Is ``op`` one this module interprets (a new op, or a kept card with a new power)?"""
    return op.op in legends_data.NEW_OPS or (
        op.op == "keep_card" and op.params.get("power") in legends_data.NEW_POWERS
    )


def _crew_on_event(st: State, seat: int) -> int:
    """How many crew ``seat`` placed on this round's event card (its last stand there)."""
    for stand in reversed(st.stands):
        if stand[1] == seat and stand[0] == "event":
            return sum(int(x) for x in stand[2:])
    return 0


def take_op(st: State, seat: int, op: Op, reason: str, ev: list[Event]) -> None:
    """One ``take`` primitive of an explorer event, for its taker."""
    kind = op.op
    if kind == "taker_gains_per_crew":
        k = _crew_on_event(st, seat)
        for what, v in op["gains"].items():
            st._gain(seat, what, int(v) * k, reason, ev)
    elif kind == "taker_scores":
        st._score(seat, int(op["pp"]), reason, ev)
    elif kind == "taker_scores_per_crew":
        st._score(seat, int(op["pp"]) * _crew_on_event(st, seat), reason, ev)
    elif kind == "rescue_sailor":
        if st.ex_sailor > 0:  # L5: the taker of the card gets the one sailor set aside
            st.ex_sailor -= 1
            b = F * seat
            st.pv[b + SAILORS] += 1
            st.pv[b + INF + 3] += 1
            ev.append(SailorGained(seat, reason))
            ev.append(CrewToInfirmary(seat, (0, 0, 0, 1, 0)))
    elif kind == "keep_card":
        st.ex_due[seat] = [*st.ex_due[seat], str(op["power"])]
    else:  # pragma: no cover - the validator refuses unknown ops
        raise AssertionError(f"effect {kind!r} cannot be taken")


def grant_powers(st: State, seat: int, ev: list[Event]) -> None:
    """Boarding: a kept explorer event taken this round joins its taker with its power
    and its Inuk (as the base game's kept cards, §4.6.5)."""
    due = st.ex_due[seat]
    if not due:
        return
    st.ex_due[seat] = []
    for power in due:
        st.ex_held[seat] = [*st.ex_held[seat], power]
        num, op = st.tables.powers[power]
        st._hire(seat, int(op["inuit"]), f"event {num}", ev, at_once=True)


def mapping_pp(st: State, seat: int) -> int:
    """The PP ``seat`` gains for mapping a region (Collinson's ``mapping_pp``)."""
    if has(st, seat, "great_discovery"):
        return int(params(st, seat)["mapping_pp"])
    return int(st.rules["mapping_pp"])


def reveal_op(st: State, op: Op, reason: str, order: list[int], ev: list[Event]) -> None:
    """One ``reveal`` primitive of an explorer event, for every seat from the leader."""
    kind = op.op
    if kind == "map_current_region":
        # L4: the leader maps the fleet's region as at the Map step, with its PP
        region = st.region_of(st.fleet)
        if region not in st.mapped and st.carto_tokens > 0:
            st.mapped.append(region)
            st.carto_tokens -= 1
            ev.append(RegionMapped(st.leader, region))
            st._score(st.leader, mapping_pp(st, st.leader), "mapping", ev)
    elif kind == "reveal_top_event":
        _reveal_next(st, str(op["deck"]), ev)
    elif kind == "each_pays_or_infirmary":
        res, amount = str(op["resource"]), int(op["amount"])
        for s in order:
            if st.p(s, RES[res]) >= amount:
                st._gain(s, res, -amount, reason, ev)
            else:
                st._infirmary(s, int(op["count"]), True, ev)
    else:  # pragma: no cover - the validator refuses unknown ops
        raise AssertionError(f"effect {kind!r} cannot be revealed")


def _reveal_next(st: State, deck_name: str, ev: list[Event]) -> None:
    """Event 48's second half (L4): the top card of ``deck_name`` replaces this round's
    event card (which goes to its discards) and is revealed, its effect applied."""
    voyage = "open" if deck_name == "open" else "coastal"
    current = st.event
    deck = st._event_deck(voyage)  # type: ignore[attr-defined]
    if not deck:
        return
    num = deck.pop(0)
    if current is not None:
        own = st.content.events[current].deck
        (st.ev_open_disc if own == "open" else st.ev_coastal_disc).append(current)
    st.event = num
    st._reveal_event(num, ev)


# -- hidden information ---------------------------------------------------------------


def _pending(st: State) -> list[int]:
    """The seats still to choose between their two dealt explorers."""
    return [int(dd[1]) for dd in st.decisions if dd[0] == "explorer"]


def unknown_explorers(st: State, seat: int | None) -> list[str]:
    """The explorer cards ``seat`` has not seen: the box and the other seats' dealt
    pairs (every kept explorer is face up beside its board)."""
    seen = {k for k in st.explorer if k}
    if seat is not None:
        seen |= set(st.ex_dealt[seat])
    return sorted(k for k in sets() if k not in seen)


def hide(st: State, d: dict[str, Any], seat: int | None) -> None:
    """``seat``'s view: no other seat's dealt pair, no boxed explorer."""
    d["ex_box"] = []
    d["ex_dealt"] = [pair[:] if s == seat else [] for s, pair in enumerate(st.ex_dealt)]


def forget(st: State, seat: int | None) -> None:
    """Before dealing anew (``resample_hidden``): what ``seat`` does not know, gone."""
    st.ex_box = []
    st.ex_dealt = [pair[:] if s == seat else [] for s, pair in enumerate(st.ex_dealt)]


def deal_hidden(st: State, pools: dict[str, Any], seat: int | None) -> None:
    """A determinization: deal the other pending seats their two explorers from the
    unknown ones (the rest to the box); then put back into its deck every explorer
    event of a set in play that the shuffle boxed (everyone knows it is in the deck)."""
    unknown = list(pools.get("explorers", []))
    st._shuffle(unknown)
    for s in _pending(st):
        if s != seat and not st.ex_dealt[s]:
            st.ex_dealt[s] = sorted(unknown.pop() for _ in range(2))
    st.ex_box = sorted(unknown)
    known = {int(sets()[k]["event"]) for k in st.explorer if k}
    # cards the seat has seen through the Mast stay where the dealing put them
    seen = {int(x) for dd in st.decisions if dd[0] == "mast" for x in dd[2:4] if x is not None}
    seen |= {x for x in (st.event_pending, pools.get("ev_under")) if x is not None}
    for deck in (st.ev_open, st.ev_coastal):
        for e in [e for e in st.ev_box if e in known]:
            swap = [
                i
                for i, x in enumerate(deck)
                if x not in known and x not in seen and _same_deck(st, e, x)
            ]
            if not swap:
                continue
            i = swap[st._rand(len(swap))]
            st.ev_box[st.ev_box.index(e)] = deck[i]
            deck[i] = e


def _same_deck(st: State, a: int, b: int) -> bool:
    return st.content.events[a].deck == st.content.events[b].deck


# -- loading --------------------------------------------------------------------------


def consistency_problem(st: State) -> str | None:
    """What is wrong with a loaded position's Legendary Expeditions fields, if anything."""
    n = st.n
    known = sets()
    if len(st.explorer) != n or len(st.ex_dealt) != n:
        return "explorer sets do not match the player count"
    if len(st.ex_held) != n or len(st.ex_due) != n:
        return "kept explorer events do not match the player count"
    if not all(isinstance(k, str) and (k == "" or k in known) for k in st.explorer):
        return "explorer holds an unknown set"
    for pair in st.ex_dealt:
        if pair and len(pair) != 2:
            return "a dealt explorer pair must hold two cards"
    played = [k for k in st.explorer if k]
    dealt = [k for pair in st.ex_dealt for k in pair]
    every = [*played, *dealt, *st.ex_box]
    if not all(isinstance(k, str) and k in known for k in [*dealt, *st.ex_box]):
        return "an unknown explorer card is dealt or boxed"
    if len(set(every)) != len(every):
        return "an explorer card is in two places"
    powers = legends_data.NEW_POWERS
    for seat_powers in (*st.ex_held, *st.ex_due):
        if not all(p in powers for p in seat_powers):
            return "an unknown explorer-event power"
    if type(st.ex_sailor) is not int or st.ex_sailor < 0:
        return "the set-aside sailors must be a whole number"
    if len(st.ex_spaces) != n or not all(type(x) is int and x >= 0 for x in st.ex_spaces):
        return "the upgrade spaces chosen must be one whole number per seat"
    from erebus.games.iceandsnow import legends_explorers

    return legends_explorers.consistency_problem(st)
