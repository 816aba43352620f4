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
  board).

No rule here names a card number or a set letter.  Every function takes the
state and does nothing unless the module is in play.
"""

from __future__ import annotations

import dataclasses
from functools import cache
from typing import TYPE_CHECKING, Any

from erebus.core.events import Event
from erebus.games.iceandsnow import legends_data
from erebus.games.iceandsnow.content import Content, EventCard
from erebus.games.iceandsnow.effects import Op, parse_effect
from erebus.games.iceandsnow.events import CrewToInfirmary, RegionMapped
from erebus.games.iceandsnow.layout import INF, RES, SAILORS, F

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


def setup(st: State) -> None:
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
    chosen = st.options["explorers"]
    if chosen != "random":
        for seat, k in enumerate(chosen):
            assign(st, seat, str(k))
        return
    pool = sorted(sets())
    st._shuffle(pool)
    for seat in range(n):
        st.ex_dealt[seat] = sorted(pool.pop() for _ in range(2))
    st.ex_box = sorted(pool)
    # SKELETON: until the set-up decision lands, each seat keeps its first dealt card
    for seat in range(n):
        choose(st, seat, st.ex_dealt[seat][0])


def choose(st: State, seat: int, k: str) -> None:
    """``seat`` keeps ``k`` of its dealt pair; the other card is boxed."""
    pair = st.ex_dealt[seat]
    assert k in pair, (k, pair)
    st.ex_box = sorted([*st.ex_box, *(x for x in pair if x != k)])
    st.ex_dealt[seat] = []
    assign(st, seat, k)


def assign(st: State, seat: int, k: str, event: bool = True) -> None:
    """Give ``seat`` set ``k``: its explorer and ship; with ``event`` its explorer
    event replaces a random card of its deck (L3: each deck keeps its size; the
    replaced card goes to the box).  A solo scenario calls this at set-up for its
    fixed set."""
    if k not in sets():
        raise ValueError(f"unknown explorer set {k!r}")
    if k in st.explorer:
        raise ValueError(f"explorer set {k} is in play already")
    st.explorer[seat] = k
    if k in st.ex_box:
        st.ex_box.remove(k)
    if not event:
        return
    num = int(sets()[k]["event"])
    card = st.content.events[num]
    if any(op.op == "rescue_sailor" for op in card.effect.take):
        st.ex_sailor += 1  # a sailor pawn set aside beside the table (seed l. 1231)
    deck = st.ev_open if st.content.events[num].deck == "open" else st.ev_coastal
    if deck:
        st.ev_box.append(deck.pop(st._rand(len(deck))))
    deck.insert(st._rand(len(deck) + 1), num)


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
    played = [k for k in st.explorer if k]
    dealt = [k for pair in st.ex_dealt for k in pair]
    every = [*played, *dealt, *st.ex_box]
    if not all(isinstance(k, str) and k in known for k in [*dealt, *st.ex_box]):
        return "an unknown explorer card is dealt or boxed"
    if len(set(every)) != len(every):
        return "an explorer card is in two places"
    for pair in st.ex_dealt:
        if pair and len(pair) != 2:
            return "a dealt explorer pair must hold two cards"
    powers = legends_data.NEW_POWERS
    for seat_powers in (*st.ex_held, *st.ex_due):
        if not all(p in powers for p in seat_powers):
            return "an unknown explorer-event power"
    if type(st.ex_sailor) is not int or st.ex_sailor < 0:
        return "the set-aside sailors must be a whole number"
    from erebus.games.iceandsnow import legends_explorers

    return legends_explorers.consistency_problem(st)
