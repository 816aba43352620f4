"""Helpers for the Walking on Ice tests (reference §9.1), on top of the kit.

Positions are set up with :mod:`erebus.games.iceandsnow.kit`; the rules are then
driven through the public API (``legal_actions``, ``apply``, ``player``, events).
"""

from __future__ import annotations

from typing import Any

from erebus.games.iceandsnow import kit
from erebus.games.iceandsnow.actions import Action
from erebus.games.iceandsnow.layout import CANS, F
from erebus.games.iceandsnow.state import State

WALK: dict[str, Any] = {"modules": ["walking_on_ice"]}
YES = Action("abandon", use=True)
NO = Action("abandon", use=False)


def walking(players: int = 2, seed: int = 1, **options: Any) -> State:
    """A walking game in round 1: calm tracks (health 6, morale 6, fuel 6), no investor."""
    st = kit.game(players, seed, {**WALK, **options})
    for s in range(players):
        kit.set_player(st, s, health=6, morale=6, fuel=6, investor=None, carto=None)
    return st


def at_leader_check(
    st: State, anchor: str = "peel_sound", side: str = "A", leader: int = 0
) -> State:
    """Put the fleet on ``anchor`` (Central West placed) and run a round's leader check."""
    kit.set_fleet(st, anchor, side)
    kit.start_round(st, leader=leader)
    return st


def cans(st: State, seat: int, k: int) -> State:
    st.pv[F * seat + CANS] = k
    st._legal = None
    return st


#: What :func:`settle` leaves behind first when the sled is over its cargo.
DISCARD_ORDER = ("rifles", "wood", "dynamite", "cans", "dogs")


def settle(st: State) -> list[Any]:
    """Answer every queued decision: discards by :data:`DISCARD_ORDER`, anything else
    with its first legal action; return the events."""
    ev: list[Any] = []
    while st.decisions and not st.is_over:
        legal = st.legal_actions()
        if st.pending in ("cargo", "discard"):
            have = {a.resource: a for a in legal}
            ev += st.apply(next(have[r] for r in DISCARD_ORDER if r in have))
        else:
            ev += st.apply(legal[0])
    return ev


def abandoned(
    players: int = 2,
    seed: int = 1,
    anchor: str = "peel_sound",
    side: str = "A",
    leader: int = 0,
    **fields: Any,
) -> State:
    """A walking game right after the ships were abandoned on ``anchor`` (every queued
    decision answered by :func:`settle`); ``fields`` set every seat before.  Every
    fuel is 3 unless ``fields`` say otherwise, so the abandonment is forced (no guilt)."""
    st = walking(players, seed)
    for s in range(players):
        kit.set_player(st, s, **{"fuel": 3, **fields})
    at_leader_check(st, anchor, side, leader)
    if st.pending == "abandon":
        st.apply(YES)
    settle(st)
    assert st.abandoned in ("voluntary", "forced")
    return st


def next_walk(st: State, number: int) -> State:
    """Make ``number`` the top card of the walking deck."""
    if number in st.walk_deck:
        st.walk_deck.remove(number)
    if number in st.walk_disc:
        st.walk_disc.remove(number)
    st.walk_deck.insert(0, number)
    return st


def takes(st: State, space: str) -> list[Action]:
    return [a for a in st.legal_actions() if a.kind == "take" and a.space == space]


def action_phase(st: State, leader: int = 0) -> State:
    kit.start_action_phase(st, leader=leader)
    return st


def crossing(st: State, to: str, kind: str = "walk") -> list[Any]:
    """From the destination step: go to ``to`` with the crossing ``kind``; events."""
    ev: list[Any] = []
    if st.pending == "abandon":
        ev += st.apply(NO)
    assert st.pending == "destination", st.pending
    ev += st.apply(Action("destination", to=to))
    if st.pending == "section":
        ev += st.apply(Action("section", side="A"))
    ev += settle(st)  # e.g. Scurvy's infirmary in the Attrition step
    assert st.pending == "voyage", st.pending
    ev += st.apply(Action("voyage", voyage=kind))
    return ev
