"""Inuit Myths (§9.2, seed l. 1160–1209): the creature token, the creature cards,
the curse cylinders and the Inuit held on a card.

The cards are data (``data/myths.json``, vocabulary in :mod:`.creatures`); this
module interprets them and holds the few mechanisms the module adds:

* **the creature token** — at the start of each Card setup step, if the fleet is
  in an island region without the token, the token moves there and the top
  creature card is revealed (:func:`card_setup`);
* **cards in play** (``State.cr_active``) — until Cleanup (``round``), until
  someone takes their action (``until_taken``) or until everyone has
  (``until_all_taken``, who took it: ``State.cr_takers``);
* **curse cylinders** (``State.curse``) — one space to the right of health, i.e.
  at health − 1 (decision M3); it moves with health and triggers Scurvy and Death
  when it lands on them, checked when health's own space effect is
  (``"curse_check": "with_health"``) or in the Attrition step only
  (``"attrition"``) (:func:`curse_landed`);
* **held Inuit** (``State.held_inuit``) — Inuit pawns on a ``hold_inuit`` card:
  out of play and unfed until its action brings them back (:func:`receive_pawns`);
* **extra requirements** of actions (:func:`extras`, :func:`filter_takes`,
  :func:`pay_extras`): an Inuit Ritual Room (``warded_by``) spares its owner.

No rule here names a card number.  Every function takes the state (the
``action_phase`` pattern) and does nothing unless the module is in play.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

from erebus.core.events import Event
from erebus.games.iceandsnow.actions import Action, Crew, compositions
from erebus.games.iceandsnow.content import RESOURCES, Space
from erebus.games.iceandsnow.creatures import CreatureCard, Extra
from erebus.games.iceandsnow.events import (
    AttritionPenalty,
    CreatureGone,
    CreatureMoved,
    CreatureRevealed,
    CrewToInfirmary,
    CurseChanged,
    InuitHeld,
)
from erebus.games.iceandsnow.layout import (
    DYN,
    FOOD,
    HEALTH,
    INF,
    MORALE,
    PAWNS,
    TREATMENT_ROOM,
    USED,
    F,
)

if TYPE_CHECKING:
    from erebus.games.iceandsnow.events_cards import EventCardRules as State

MODULE = "inuit_myths"
#: The ``take`` space of a creature card's action; ``card`` is its number.
CREATURE_SPACE = "creature"
_ROLE = {"captain": 0, "carpenter": 1, "scientist": 2}


# -- set-up and the creature token ----------------------------------------------------


def setup(st: State) -> None:
    """Shuffle the creature cards into a face-down deck; no curse, nobody held."""
    st.cr_deck = sorted(st.content.creatures)
    st._shuffle(st.cr_deck)
    st.creature_at = None
    st.cr_active = []
    st.cr_box = []
    st.cr_takers = []
    st.curse = [0] * st.n
    st.held_inuit = [0] * st.n


def card_setup(st: State, ev: list[Event]) -> None:
    """Start of the Card setup step: the token follows the fleet onto a new island
    and the top creature card is revealed (none once the deck is spent, M5)."""
    region = st.region_of(st.fleet)
    if not st.content.regions[region].island or st.creature_at == region:
        return
    st.creature_at = region
    ev.append(CreatureMoved(region))
    if not st.cr_deck:
        return
    num = st.cr_deck.pop(0)
    card = st.content.creatures[num]
    st.cr_active.append(num)
    ev.append(CreatureRevealed(num, card.name))
    for op in card.reveal:
        if op == "hold_inuit":
            for s in st.order_from(st.leader):
                _hold_all(st, s, ev)
        elif op == "curse":
            for s in st.order_from(st.leader):
                if not st.curse[s]:
                    st.curse[s] = 1
                    ev.append(CurseChanged(s, True))


def _hold_all(st: State, seat: int, ev: list[Event]) -> None:
    """Every Inuit pawn of ``seat`` (free, placed or in the infirmary) goes on the card."""
    b = F * seat
    k = st.pv[b + PAWNS]
    if k <= 0:
        return
    st.pv[b + PAWNS] = 0
    st.pv[b + USED + 4] = 0
    st.pv[b + INF + 4] = 0
    st.held_inuit[seat] += k
    ev.append(InuitHeld(seat, k, True))


def holding(st: State) -> bool:
    """Is a ``hold_inuit`` card in play (Inuit received go on it)?"""
    if not st.cr_active:
        return False
    cards = st.content.creatures
    return any("hold_inuit" in cards[n].reveal for n in st.cr_active)


def receive_pawns(st: State, seat: int, k: int, ev: list[Event]) -> bool:
    """``seat`` receives ``k`` Inuit pawns: held on the card while one holds Inuit
    (True), else the caller adds them to the ship (False)."""
    if k <= 0 or not holding(st):
        return False
    st.held_inuit[seat] += k
    ev.append(InuitHeld(seat, k, True))
    return True


def cleanup(st: State, ev: list[Event]) -> None:
    """Cleanup step of the Boarding phase: cards that last the round leave."""
    for num in [n for n in st.cr_active if st.content.creatures[n].lasts == "round"]:
        _to_box(st, num, ev)


def _to_box(st: State, num: int, ev: list[Event]) -> None:
    st.cr_active.remove(num)
    st.cr_box.append(num)
    st.cr_takers = [t for t in st.cr_takers if t[0] != num]
    ev.append(CreatureGone(num, st.content.creatures[num].name))


# -- curses ---------------------------------------------------------------------------


def curse_space(st: State, seat: int) -> int | None:
    """The health space of ``seat``'s curse cylinder (None: no curse)."""
    if not st.curse or not st.curse[seat]:
        return None
    return max(0, st.p(seat, HEALTH) - 1)


def curse_landed(st: State, seat: int, reason: str, ev: list[Event], death_only: bool) -> None:
    """Health moved down with its space effect: the curse cylinder's own space
    triggers Scurvy and Death too (§9.2 card 38)."""
    if st.options.get("curse_check") == "attrition" and reason != "attrition":
        return
    space = curse_space(st, seat)
    if space is None:
        return
    eff = st.content.health.effects.get(space)
    if eff == "death":
        ev.append(AttritionPenalty(seat, "death (curse)"))
        st._score(seat, int(st.rules["death_pp"]), "death (curse)", ev)
        st._set(seat, HEALTH, st.p(seat, HEALTH) + 1, "health", "death (curse)", ev)
        st._lose_sailor(seat, "death (curse)", ev)
    elif eff == "scurvy" and not death_only:
        if st.has_upgrade(seat, TREATMENT_ROOM):
            ev.append(AttritionPenalty(seat, "scurvy (curse; cancelled by the Treatment Room)"))
        else:
            ev.append(AttritionPenalty(seat, "scurvy (curse)"))
            st._infirmary(seat, int(st.rules["scurvy_infirmary"]), True, ev)


def lower_death_only(
    st: State, seat: int, track: str, amount: int, reason: str, ev: list[Event]
) -> None:
    """Lower health or morale applying the Death effect of the new space only (no
    Scurvy, no Mutiny: creatures 43 and 44); a curse cylinder likewise."""
    st._lower(seat, track, amount, reason, ev, effect=False)
    idx = HEALTH if track == "health" else MORALE
    tr = st.content.health if track == "health" else st.content.morale
    new = st.p(seat, idx)
    if tr.effects.get(new) == "death":
        ev.append(AttritionPenalty(seat, "death"))
        st._score(seat, int(st.rules["death_pp"]), f"death ({track})", ev)
        st._set(seat, idx, new + 1, track, "death", ev)
        st._lose_sailor(seat, "death", ev)
    elif track == "health":
        curse_landed(st, seat, reason, ev, True)


# -- creature card actions --------------------------------------------------------------


def _takeable(st: State, seat: int, card: CreatureCard) -> bool:
    if card.action is None:
        return False
    if card.lasts == "until_all_taken" and [card.number, seat] in st.cr_takers:
        return False
    # lifting a curse needs one
    return bool(st.curse[seat]) or "lift_curse" not in card.action.take


@cache
def _crews(avail: Crew, totals: tuple[int, ...]) -> tuple[Crew, ...]:
    return tuple(c for c in compositions(avail) if sum(c) in totals)


def creature_takes(st: State, seat: int, avail: Crew) -> list[Action]:
    """The ``take`` actions of the creature cards in play for ``seat``."""
    out: list[Action] = []
    for num in st.cr_active:
        card = st.content.creatures[num]
        if card.action is None or not _takeable(st, seat, card):
            continue
        out += [
            Action("take", space=CREATURE_SPACE, card=str(num), crew=c)
            for c in _crews(avail, card.action.crew)
        ]
    return out


def apply_creature_take(st: State, seat: int, a: Action, ev: list[Event]) -> None:
    """``seat`` takes a creature card's action (its crew is placed already)."""
    assert a.card is not None and a.crew is not None
    num = int(a.card)
    card = st.content.creatures[num]
    assert card.action is not None
    for op in card.action.take:
        if op == "release_inuit":
            b = F * seat
            for i, k in enumerate(a.crew):  # the crew used go to the infirmary
                st.pv[b + USED + i] -= k
                st.pv[b + INF + i] += k
            ev.append(CrewToInfirmary(seat, a.crew))
            for s in st.order_from(seat):
                k = st.held_inuit[s]
                if k:
                    st.held_inuit[s] = 0
                    st.pv[F * s + PAWNS] += k
                    st.pv[F * s + INF + 4] += k
                    ev.append(InuitHeld(s, k, False))
        elif op == "lift_curse":
            st.curse[seat] = 0
            ev.append(CurseChanged(seat, False))
    st.cr_takers.append([num, seat])
    takers = {s for n, s in st.cr_takers if n == num}
    if card.lasts == "until_taken" or (card.lasts == "until_all_taken" and len(takers) >= st.n):
        _to_box(st, num, ev)


# -- extra requirements -----------------------------------------------------------------


def extras(st: State, seat: int) -> tuple[Extra, ...]:
    """The extra requirements the creatures in play put on ``seat``'s actions."""
    if not st.cr_active:
        return ()
    ups = st.upgrades[seat]
    out = []
    for num in st.cr_active:
        card = st.content.creatures[num]
        if card.extra is not None and not any(u in ups for u in card.warded_by):
            out.append(card.extra)
    return tuple(out)


def names_officer(st: State, sp: Space, officer: str) -> bool:
    """Does board space ``sp`` "need 1 ``officer``"?  Reading M2: its requirement
    names the officer (Inuk stand-ins, warehouse and final-round spaces included);
    ``"creature_officer": "only"``: the officer is its whole requirement."""
    if st.options.get("creature_officer") == "only":
        return sp.need == (officer,)
    return officer in sp.need


def extra_crew(st: State, seat: int, sp: Space) -> int:
    """Crew ``sp`` needs on top of its requirement (Sedna), not counted for its effect."""
    return sum(
        int(x.params["count"])
        for x in extras(st, seat)
        if x.cost == "extra_crew" and x.officer is not None and names_officer(st, sp, x.officer)
    )


def plus_totals(totals: tuple[int, ...], k: int) -> tuple[int, ...]:
    """A space's allowed crew counts with ``k`` more crew (any number: at least 1 + k)."""
    if totals:
        return tuple(t + k for t in totals)
    return tuple(range(1 + k, 1 + k + 20))


def _applies(st: State, x: Extra, a: Action) -> bool:
    assert a.crew is not None and a.space is not None
    if x.crew_at_most is not None:
        return sum(a.crew) <= x.crew_at_most
    sp = st.content.spaces.get(a.space)
    return sp is not None and x.officer is not None and names_officer(st, sp, x.officer)


def resources_after(st: State, seat: int, a: Action) -> list[int]:
    """``seat``'s dynamite, wood, rifles and dogs once ``a`` has paid and gained."""
    b = F * seat
    res = [st.pv[b + DYN + i] for i in range(4)]
    if a.deposit is not None:
        res[RESOURCES.index(a.deposit)] -= 1
    sp = st.content.spaces.get(a.space or "")
    if sp is None:
        return res
    kind = st.scen().get("replaced_spaces", {}).get(sp.id, sp.id)
    if kind in ("build_cabin", "improve_sled", "experiment"):
        res[1] -= sp.wood
    elif kind == "upgrade_ship" and a.tile is not None:
        res[1] -= st.content.upgrades[a.tile].cost
    elif kind.startswith("exchange") and a.resource is not None:
        res[RESOURCES.index(a.resource)] -= 1
        gives = st.content.warehouses[sp.column].gives
        if gives in RESOURCES:
            res[RESOURCES.index(gives)] += 1
    elif kind.startswith("collect") and a.take is not None:
        res = [r + t for r, t in zip(res, a.take, strict=True)]
    return res


def _payable(st: State, seat: int, x: Extra, a: Action) -> bool:
    p = x.params
    if x.cost == "pay_or_own":
        ((own, k_own),) = p["own"].items()
        if st.p(seat, DYN + RESOURCES.index(own)) >= int(k_own):
            return True
        ((pay, k_pay),) = p["pay"].items()
        return resources_after(st, seat, a)[RESOURCES.index(pay)] >= int(k_pay)
    if x.cost == "lower_food":
        return st.p(seat, FOOD) - (a.food or 0) >= int(p["amount"])
    if x.cost == "pay_any_resource":
        return sum(resources_after(st, seat, a)) >= int(p["count"])
    return True  # extra_crew is in the crew already; lower_track always can


def filter_takes(st: State, seat: int, takes: list[Action]) -> list[Action]:
    """The ``take`` actions whose creature requirements ``seat`` can meet."""
    xs = [x for x in extras(st, seat) if x.cost != "extra_crew"]
    if not xs:
        return takes
    return [a for a in takes if all(_payable(st, seat, x, a) for x in xs if _applies(st, x, a))]


def pay_extras(st: State, seat: int, a: Action, ev: list[Event]) -> None:
    """Pay the creature requirements of a legal ``take`` before its effect."""
    for x in extras(st, seat):
        if x.cost == "extra_crew" or not _applies(st, x, a):
            continue
        p = x.params
        why = "creature"
        if x.cost == "pay_or_own":
            ((own, k_own),) = p["own"].items()
            if st.p(seat, DYN + RESOURCES.index(own)) < int(k_own):
                ((pay, k_pay),) = p["pay"].items()
                st._gain(seat, pay, -int(k_pay), why, ev)
        elif x.cost == "lower_food":
            st._lower_food(seat, int(p["amount"]), why, ev)
        elif x.cost == "pay_any_resource":
            for _ in range(int(p["count"])):
                st._discard_choice(seat, why, ev)
        elif x.cost == "lower_track":
            lower_death_only(st, seat, str(p["track"]), int(p["amount"]), why, ev)
        if st.over:
            return


# -- loading ---------------------------------------------------------------------------


def consistency_problem(st: State) -> str | None:
    """What is wrong with a loaded position's Inuit Myths fields, if anything."""
    cards = st.content.creatures
    for name in ("cr_deck", "cr_active", "cr_box"):
        if not all(type(x) is int and x in cards for x in getattr(st, name)):
            return f"{name} holds an unknown creature card"
    every = st.cr_deck + st.cr_active + st.cr_box
    if sorted(every) != sorted(cards):
        return "the creature cards are not each in one place"
    if len(st.curse) != st.n or len(st.held_inuit) != st.n:
        return "curse/held Inuit do not match the player count"
    if not all(x in (0, 1) for x in st.curse):
        return "curse must be 0 or 1 per seat"
    if not all(type(x) is int and x >= 0 for x in st.held_inuit):
        return "held Inuit must be whole numbers"
    if st.creature_at is not None and st.creature_at not in st.content.regions:
        return "the creature token is on an unknown region"
    for t in st.cr_takers:
        if len(t) != 2 or t[0] not in st.cr_active or not 0 <= t[1] < st.n:
            return "bad creature taker"
    return None
