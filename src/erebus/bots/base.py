"""What every bot is: a chooser of legal actions that sees only a seat's view.

Bots are game-agnostic.  They reach a game through its module
(``erebus.games.get_game(state.game)``), which provides ``determinize(view,
seed)`` — a full state consistent with a view, hidden information sampled —
and ``heuristic(state, seat)``, a score-like estimate of a seat's position.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from types import ModuleType
from typing import Any, Protocol

from erebus.games import get_game


@dataclass(frozen=True)
class BotSpec:
    """Everything needed to rebuild a bot in another process."""

    name: str
    seed: int | None = None
    time_s: float | None = None
    iterations: int | None = None


class Bot(Protocol):
    spec: BotSpec

    def choose(self, state: Any) -> Any:
        """A legal action for ``state.current_player``."""
        ...


def game_of(state: Any) -> ModuleType:
    """The game module a state belongs to."""
    return get_game(state.game)


def seat_world(state: Any, rng: random.Random) -> tuple[Any, list[Any]]:
    """A determinized copy of ``state`` built from the current seat's view only,
    and its legal actions (the same list as the real state's: they depend on
    public information only)."""
    module = game_of(state)
    view = state.view(state.current_player)
    world = module.determinize(view, rng.getrandbits(63))
    return world, candidates(module, world)


def candidates(module: Any, world: Any) -> list[Any]:
    """The actions a searching bot considers: the game's ``bot_actions(state)`` when
    it has one (a subset of the legal actions without dominated variants — e.g.
    the same action paid with a costlier crew), otherwise every legal action."""
    prune = getattr(module, "bot_actions", None)
    return list(prune(world)) if prune is not None else list(world.legal_actions())
