"""Small helpers for the rule tests (on top of ``erebus.games.iceandsnow.kit``).

Positions are built with the kit; the rules are then driven only through the
public API: ``legal_actions()``, ``apply()``, ``player()`` and the events.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import pytest

from erebus.core.errors import IllegalAction
from erebus.games.iceandsnow import default_content, kit
from erebus.games.iceandsnow.actions import Action
from erebus.games.iceandsnow.events import ScoreChanged
from erebus.games.iceandsnow.state import State

C = default_content()
RULES = C.rules
TRACKS = C.tracks

#: crew tuples (captain, carpenter, scientist, sailors, inuit)
CAPTAIN = (1, 0, 0, 0, 0)
CARPENTER = (0, 1, 0, 0, 0)
SCIENTIST = (0, 0, 1, 0, 0)


def crew(
    captain: int = 0, carpenter: int = 0, scientist: int = 0, sailors: int = 0, inuit: int = 0
):
    return (captain, carpenter, scientist, sailors, inuit)


def calm(st: State, **extra: Any) -> State:
    """Every seat at health 6 / morale 6 / fuel 6 (no attrition penalty, no fuel
    band effect after an open-sea voyage), plus ``extra`` for every seat."""
    for s in range(st.n):
        kit.set_player(st, s, health=6, morale=6, fuel=6, **extra)
    return st


def fresh(players: int = 2, seed: int = 1, options: dict[str, Any] | None = None) -> State:
    """A game in round 1 with calm tracks and no investor (so no objective scores)."""
    st = kit.game(players, seed, options)
    calm(st)
    for s in range(players):
        kit.set_player(st, s, investor=None, carto=None)
    return st


def action_phase(
    players: int = 2, seed: int = 1, leader: int = 0, options: dict[str, Any] | None = None
) -> State:
    st = fresh(players, seed, options)
    kit.start_action_phase(st, leader=leader)
    assert st.pending == "action" and st.current_player == leader
    return st


def at_voyage(st: State, dest: str | None = None, side: str = "A", leader: int = 0) -> list[Any]:
    """From now: start a round with ``leader``, go to ``dest`` (first legal if
    None), place sections on ``side``; stop at the voyage-type choice."""
    kit.start_round(st, leader=leader)
    ev: list[Any] = []
    a = Action("destination", to=dest) if dest else st.legal_actions()[0]
    ev += st.apply(a)
    while st.pending == "section":
        ev += st.apply(Action("section", side=side))
    while st.pending == "infirmary":
        ev += st.apply(st.legal_actions()[0])
    assert st.pending == "voyage", st.pending
    return ev


def resolve(
    st: State, kinds: Iterable[str] = ("discard", "infirmary", "eat", "boiler")
) -> list[Any]:
    """Answer queued decisions of these kinds with the first legal choice."""
    ev: list[Any] = []
    kinds = tuple(kinds)
    while not st.is_over and st.pending in kinds:
        ev += st.apply(st.legal_actions()[0])
    return ev


def deltas(events: Sequence[object], reason: str | None = None) -> dict[int, int]:
    out: dict[int, int] = {}
    for e in events:
        if isinstance(e, ScoreChanged) and (reason is None or e.reason == reason):
            out[e.seat] = out.get(e.seat, 0) + e.delta
    return out


def of_type(events: Sequence[object], cls: type) -> list[Any]:
    return [e for e in events if isinstance(e, cls)]


def takes(st: State, space: str) -> list[Action]:
    return [a for a in st.legal_actions() if a.kind == "take" and a.space == space]


def first_take(st: State, space: str, **want: Any) -> Action:
    """The first legal take of ``space`` whose fields have the values ``want`` gives."""
    for a in takes(st, space):
        if all(getattr(a, k) == v for k, v in want.items()):
            return a
    raise AssertionError(f"no legal {space} {want}: {takes(st, space)[:5]}")


def spaces(st: State) -> set[str]:
    return {a.space for a in st.legal_actions() if a.kind == "take"}  # type: ignore[misc]


def take(st: State, space: str, crew: tuple[int, ...] | None = None, **kw: Any) -> list[Any]:
    """Apply the legal take of ``space`` with this crew and fields (first match)."""
    for a in takes(st, space):
        if crew is not None and a.crew != crew:
            continue
        if all(getattr(a, k) == v for k, v in kw.items()):
            return st.apply(a)
    raise AssertionError(f"no legal {space} take with crew={crew} {kw}: {takes(st, space)}")


def assert_illegal(st: State, action: Action | dict[str, Any]) -> None:
    """Absent from legal_actions() AND refused by apply, leaving the state as it was."""
    a = Action.from_json(action) if isinstance(action, dict) else action
    assert a not in st.legal_actions()
    before = st.to_json()
    with pytest.raises(IllegalAction):
        st.apply(action)
    assert st.to_json() == before


def pass_all(st: State) -> list[Any]:
    """Everybody passes until the Action phase ends."""
    ev: list[Any] = []
    while st.pending == "action":
        ev += st.apply(Action("pass"))
    return ev
