"""Checks both games' bot tests make: whole games of legal choices, determinism and
information hiding, written once so that every game's bots are held to the same."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from erebus.bots import make_bot


def play_legal(state: Any, bots: Sequence[Any]) -> Any:
    """Plays ``state`` to the end with ``bots`` (one per seat), every choice legal."""
    while not state.is_over:
        seat = state.current_player
        assert seat is not None
        action = bots[seat].choose(state)
        assert action in state.legal_actions()
        state.apply(action)
    return state


def assert_deterministic(name: str, state: Any) -> None:
    """Two bots of one seed choose the same action for the same position."""
    a = make_bot(name, seed=3, iterations=40).choose(state.clone())
    b = make_bot(name, seed=3, iterations=40).choose(state.clone())
    assert a == b


def assert_same_choice(name: str, state: Any, other: Any) -> None:
    """A bot chooses alike in two states that differ only in hidden information."""
    a = make_bot(name, seed=5, iterations=40).choose(state)
    b = make_bot(name, seed=5, iterations=40).choose(other)
    assert a == b
