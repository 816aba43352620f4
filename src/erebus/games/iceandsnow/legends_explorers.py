"""Legendary Expeditions (§9.3, seed l. 1262–1320): the four explorer abilities that
ask their player for a choice.  The engine's hooks call these functions; each does
nothing unless the seat's explorer has the ability (``legends.has``).

* **C Ross, Inuit Apprentice** — once per round one placed crew member plays an
  Inuk: the proxy role ``"inuit"`` of a ``take`` (like upgrades 1/4/5 play an
  officer), offered only when the crew holds no Inuk a requirement asks for
  (spaces naming ``inuit``, Build Shelter, event 17's Visit the Inuit; event 47's
  "Hunt with an Inuk" counts it too, in ``legends.py``).  The use is bit
  :data:`INUK_BIT` of the seat's proxy mask, which the Action phase resets: one bit
  is the data's ``per_round`` of 1.
* **D Kellett, Excellent Tracker** — on his Action-phase turn ``track`` (space
  ``discover`` or ``hunt``) looks at the top card of the species / hunting deck
  (a reveal for him alone: :class:`~.events.TopCardLooked`); he must then take that
  space, with the top card or a revealed one (``ex_peek[seat]`` holds ``deck,
  card, space`` per deck looked at, flat).  A card he does not take stays on top,
  and he keeps knowing it (``space`` ``""``) while it is still the top card: his
  Discover / Hunt may take it without a second look, which is not offered.  Other
  seats' views show ``None`` for the card.
* **G Collinson, Great Discovery** — his mapping scores ``mapping_pp`` (3); and
  ``chart`` (``to`` = a region) lowers his fuel (maintenance after abandoning the
  ships) by ``special_fuel`` to place a cartography token in an unmapped region
  holding an anchor reached by a route from the fleet's anchor, for
  ``special_pp`` (L14: 1 PP, or ``"collinson_special_pp": "mapping"``).  "At any
  time during the round" is read as: at each of his own phase decisions (his
  Action-phase turns, and the Destination / Voyage choice when he makes it).
* **H Belcher, Despotic Tendencies** — after a leader's ``destination`` a queued
  ``despot`` decision asks Belcher (not the leader, uses left, another route whose
  icebreaking the table can pay) whether to force another route; if he does, the leader chooses again
  among the others (``ex_forbid``) and Belcher chooses this round's voyage type
  (``ex_voyager``).  His uses are counted in ``ex_despot``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from erebus.core.events import Event
from erebus.games.iceandsnow import legends
from erebus.games.iceandsnow.actions import Action
from erebus.games.iceandsnow.events import RegionMapped, RouteForced, TopCardLooked
from erebus.games.iceandsnow.layout import FUEL, PROXY, RIFLES, F

if TYPE_CHECKING:
    from erebus.games.iceandsnow.events_cards import EventCardRules as State
    from erebus.games.iceandsnow.flow import FlowRules

APPRENTICE = "inuit_apprentice"
TRACKER = "excellent_tracker"
DISCOVERY = "great_discovery"
DESPOT = "despotic_tendencies"
#: Ross's "any crew member as an Inuk": the proxy role of his ``take`` and its bit in
#: the per-round proxy mask (upgrades 1/4/5 use bits 1, 2, 4).
INUK_PROXY = "inuit"
INUK_BIT = 8
#: Kellett's looks: the space he must then take, by deck.
TRACK_SPACES = {"discover": "species", "hunt": "hunting"}
DESPOT_ANSWERS = (Action("despot", use=True), Action("despot", use=False))


def setup(st: State) -> None:
    """The fields of this module's abilities (called by ``legends.setup``)."""
    st.ex_despot = [0] * st.n
    st.ex_peek = [[] for _ in range(st.n)]
    st.ex_forbid = None
    st.ex_voyager = None


def _has(st: State, seat: int, ability: str) -> bool:
    return bool(st.explorer) and legends.has(st, seat, ability)


# -- C Ross -----------------------------------------------------------------------------


def apprentice(st: State, seat: int) -> bool:
    """May ``seat`` still use a crew member as an Inuk this round?"""
    return _has(st, seat, APPRENTICE) and not st.pv[F * seat + PROXY] & INUK_BIT


# -- G Collinson --------------------------------------------------------------------------


def _abandoned(st: State) -> bool:
    return bool(getattr(st, "abandoned", None))


def chart_targets(st: State, seat: int) -> list[str]:
    """The regions Collinson may chart now (sorted): unmapped regions holding an
    anchor that a route from the fleet's anchor leads to (the routes the
    Destination step reads: Walking on Ice's walking routes once the ships are
    abandoned), while a cartography token is left and he can lower fuel
    (maintenance) by the cost."""
    if not _has(st, seat, DISCOVERY) or st.carto_tokens <= 0 or st.fleet is None:
        return []
    cost = int(legends.params(st, seat)["special_fuel"])
    if _abandoned(st):
        if st.maint[seat] - cost < 1:  # maintenance 1 is the floor (W15: below is towing)
            return []
    elif st.p(seat, FUEL) < cost:
        return []
    flow = cast("FlowRules", st)  # the routes the Destination step would offer now
    regions = {st.region_of(to) for to, _ in flow.destinations()}
    return sorted(regions - set(st.mapped))


def chart_actions(st: State, seat: int) -> list[Action]:
    return [Action("chart", to=r) for r in chart_targets(st, seat)]


def chart(st: State, seat: int, region: str, ev: list[Event]) -> None:
    """Collinson's special mapping (a legal ``chart``)."""
    p = legends.params(st, seat)
    cost = int(p["special_fuel"])
    if _abandoned(st):
        from erebus.games.iceandsnow import walking_rules

        walking_rules.set_maintenance(st, seat, st.maint[seat] - cost, "great discovery", ev)
    else:
        st._lower(seat, "fuel", cost, "great discovery", ev, effect=False)
    st.mapped.append(region)
    st.carto_tokens -= 1
    ev.append(RegionMapped(seat, region))
    pp = int(p["special_pp"])
    if st.options.get("collinson_special_pp") == "mapping":  # L14
        pp = legends.mapping_pp(st, seat)
    st._score(seat, pp, "great discovery", ev)


# -- H Belcher ----------------------------------------------------------------------------


def offer_despot(st: FlowRules, chosen: str) -> bool:
    """After the leader's ``destination``: queue Belcher's decision (True) when he
    may force another route.  The leader's second choice clears the forbidden
    route and is final."""
    if not st.explorer:
        return False
    if st.ex_forbid is not None:
        st.ex_forbid = None
        return False
    s = legends.holder(st, DESPOT)
    if s is None or s == st.leader or st.ex_despot[s] >= int(legends.params(st, s)["uses"]):
        return False
    from erebus.games.iceandsnow.flow import ICEBREAK_DYNAMITE
    from erebus.games.iceandsnow.layout import DYN

    # "a different valid route": one the table can pay the icebreaking of (L17)
    dynamite = sum(st.pv[F * s + DYN] for s in range(st.n))
    if not any(to != chosen and ICEBREAK_DYNAMITE + d <= dynamite for to, d in st.destinations()):
        return False
    st.decisions.append(["despot", s, chosen])
    return True


def resolve_despot(st: FlowRules, seat: int, chosen: str, use: bool, ev: list[Event]) -> None:
    if not use:
        dyn = dict(st.destinations())[chosen]
        st._choose_destination(chosen, dyn, ev)
        return
    st.ex_despot[seat] += 1
    st.ex_forbid = chosen
    st.ex_voyager = seat
    ev.append(RouteForced(seat, chosen))
    st.phase = "destination"
    st.current = st.leader


def voyage_chooser(st: State) -> int:
    """Who chooses this round's voyage type: Belcher after forcing a route, else the leader."""
    v = st.ex_voyager if st.explorer else None
    return st.leader if v is None else int(v)


def voyage_chosen(st: State) -> int:
    """The seat that chose the voyage type (for its event); the round's choice is spent."""
    seat = voyage_chooser(st)
    if st.explorer:
        st.ex_voyager = None
    return seat


# -- D Kellett ----------------------------------------------------------------------------


def _deck(st: State, name: str) -> list[str]:
    return st.sp_deck if name == "species" else st.hu_deck


def _entries(st: State, seat: int) -> list[list[Any]]:
    """``seat``'s looks still true: ``[deck, card, space]`` whose card is still on top
    (``ex_peek[seat]`` holds them flat, at most one per deck)."""
    if not st.explorer or not st.ex_peek:
        return []
    raw = st.ex_peek[seat]
    out = []
    for i in range(0, len(raw), 3):
        deck, card, space = raw[i : i + 3]
        d = _deck(st, deck)
        if d and d[0] == card:
            out.append([deck, card, space])
    return out


def _store(st: State, seat: int, entries: list[list[Any]]) -> None:
    st.ex_peek[seat] = [x for e in entries for x in e]


def committed(st: State, seat: int) -> str | None:
    """The space Kellett must take now after looking (``None``: no look pending)."""
    return next((str(e[2]) for e in _entries(st, seat) if e[2]), None)


def looked_card(st: State, seat: int, deck: str) -> str | None:
    """The top card of ``deck`` Kellett knows (he looked at it and it is still on top):
    his Discover / Hunt may take it (L12: a card he knows needs no second look)."""
    return next((str(e[1]) for e in _entries(st, seat) if e[0] == deck), None)


def huntable_top(st: State, seat: int) -> str | None:
    """The top hunting card Kellett knows, unless Orca Sighting (28) keeps walrus
    cards out of this round's hunts (a walrus revealed now would be discarded)."""
    card = looked_card(st, seat, "hunting")
    if card is not None and "no_walrus" in st.round_mods and st.tables.hunting_all[card].walrus:
        return None
    return card


def track_actions(st: State, seat: int) -> list[Action]:
    """Kellett's looks offered now: the space is open to him (public conditions only:
    a slot free, not blocked, crew available, a rifle for a Hunt) and its deck
    (with its discards, R2) holds a card."""
    if not _has(st, seat, TRACKER) or committed(st, seat) is not None:
        return []
    if sum(st.avail_crew(seat)) == 0:
        return []
    decks = legends.params(st, seat)["decks"]
    blocked = st.blocked_spaces()
    replaced = st.scen().get("replaced_spaces", {})
    out = []
    for i, sp in enumerate(st.tables.spaces):
        kind = replaced.get(sp.id, sp.id)
        if kind not in TRACK_SPACES or TRACK_SPACES[kind] not in decks or sp.id in blocked:
            continue
        if sp.final and not st.is_final_round:
            continue
        slots = sp.slots.get(st.n)
        if slots is not None and st.occ[i] >= slots:
            continue
        if kind == "hunt" and st.p(seat, RIFLES) < 1:
            continue
        name = TRACK_SPACES[kind]
        if looked_card(st, seat, name) is not None:
            continue  # he knows the top card already: looking again shows nothing new
        if name == "species" and not (st.sp_deck or st.sp_disc):
            continue
        if name == "hunting" and not (st.hu_deck or st.hu_disc):
            continue
        out.append(Action("track", space=sp.id))
    return out


def look(st: State, seat: int, space: str, ev: list[Event]) -> None:
    """Kellett looks at the top card of the space's deck; if no take of the space is
    then possible, the look binds him to nothing (his turn goes on)."""
    from erebus.games.iceandsnow import action_phase

    kind = st.scen().get("replaced_spaces", {}).get(space, space)
    name = TRACK_SPACES[kind]
    if name == "species":
        card = st.sp_deck_draw()
    else:
        if not st.hu_deck and st.hu_disc:
            st.hu_deck, st.hu_disc = st.hu_disc, []
            st._shuffle(st.hu_deck)
        card = st.hu_deck[0] if st.hu_deck else None
    assert card is not None
    ev.append(TopCardLooked(seat, name))
    others = [e for e in _entries(st, seat) if e[0] != name]
    _store(st, seat, [*others, [name, card, space]])
    if not any(a.space == space for a in action_phase.take_actions(st, seat)):
        _store(st, seat, [*others, [name, card, ""]])


def take_card(st: State, seat: int, deck: str, card: str) -> None:
    """Remove a taken card: from the deck's top if it is the one Kellett knows, else
    from the revealed row.  His pending look is spent; a top card he did not take
    stays known."""
    entries = _entries(st, seat)
    if looked_card(st, seat, deck) == card:
        _deck(st, deck).pop(0)
        entries = [e for e in entries if e[0] != deck]
    else:
        (st.sp_rev if deck == "species" else st.hu_rev).remove(card)
    if st.ex_peek:
        _store(st, seat, [[e[0], e[1], ""] for e in entries])


def filter_committed(st: State, seat: int, takes: list[Action]) -> list[Action] | None:
    """Kellett's legal actions while his look binds him (``None``: not bound).

    A look binds him only while its take is possible (L12): if something he did
    after looking (a free action such as opening a food can, whose health loss may
    send the officer to the infirmary) leaves no way to take the space, the binding
    lapses and his turn goes on as usual — a position with no legal action at all
    must never arise."""
    space = committed(st, seat)
    if space is None:
        return None
    return [a for a in takes if a.space == space] or None


def free_actions(st: State, seat: int) -> list[Action]:
    """The free actions of ``seat``'s Action-phase turn (no turn used)."""
    if not st.explorer:
        return []
    return [*track_actions(st, seat), *chart_actions(st, seat)]


# -- hidden information -------------------------------------------------------------------


def view_peeks(st: State, seat: int | None) -> list[list[Any]]:
    """``ex_peek`` as ``seat`` may see it: its own looks, the others' without the card."""
    out: list[list[Any]] = []
    for s in range(st.n):
        entries = _entries(st, s)
        out.append([x for e in entries for x in (e if s == seat else [e[0], None, e[2]])])
    return out


def deal_peeks(st: State, seat: int | None) -> None:
    """After dealing the decks anew: ``seat``'s known top cards go back on top; the other
    seats' looks take the new top card."""
    if not st.ex_peek:
        return
    for s in range(st.n):
        raw = st.ex_peek[s]
        keep: list[list[Any]] = []
        for i in range(0, len(raw), 3):
            deck_name, card, space = raw[i : i + 3]
            deck = _deck(st, deck_name)
            if card is None or s != seat:
                if deck:
                    keep.append([deck_name, deck[0], space])
                continue
            if card in deck:
                deck.remove(card)
                deck.insert(0, card)
            elif deck_name == "hunting" and card in st.hu_box and deck:
                # the set-up boxes ordinary hunting cards only: an ordinary one takes
                # the known card's place in the box (never a dual species card)
                ordinary = [j for j, x in enumerate(deck) if x not in st.content.dual]
                if ordinary:
                    j = ordinary[st._rand(len(ordinary))]
                    st.hu_box[st.hu_box.index(card)] = deck.pop(j)
                    deck.insert(0, card)
            keep.append([deck_name, card, space])
        _store(st, s, keep)


def consistency_problem(st: State) -> str | None:
    """What is wrong with this module's fields of a loaded position, if anything."""
    n = st.n
    if len(st.ex_despot) != n or len(st.ex_peek) != n:
        return "explorer ability fields do not match the player count"
    if not all(type(x) is int and x >= 0 for x in st.ex_despot):
        return "Belcher's uses must be whole numbers"
    for k in st.ex_peek:
        if len(k) % 3 or any(d not in ("species", "hunting") for d in k[::3]):
            return "Kellett's looks must be [deck, card, space, ...]"
    if st.ex_voyager is not None and not (type(st.ex_voyager) is int and 0 <= st.ex_voyager < n):
        return "the voyage chooser must be a seat"
    return None
