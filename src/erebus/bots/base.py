"""What every bot is: a chooser of legal actions that sees only a seat's view.

Bots are game-agnostic.  They reach a game through its spec
(``erebus.games.get_game(state.game)``, an :class:`erebus.core.game.GameSpec`),
whose ``determinize(view, seed)`` gives a full state consistent with a view
(hidden information sampled) and ``heuristic(state, seat)`` a score-like estimate
of a seat's position; ``bot_actions`` and ``search`` tune the search.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Protocol

from erebus.core.game import GameSpec
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


def game_of(state: Any) -> GameSpec:
    """The spec of the game a state belongs to."""
    return get_game(state.game)


def determinize(spec: GameSpec, view: Any, seed: int) -> Any:
    """``spec.determinize(view, seed)``; ``ValueError`` for a game without the hook
    (only the random bot can play it)."""
    if spec.determinize is None:
        raise ValueError(f"{spec.title} declares no determinize: search bots cannot play it")
    return spec.determinize(view, seed)


def heuristic_of(spec: GameSpec) -> Any:
    """``spec.heuristic``; ``ValueError`` for a game without one."""
    if spec.heuristic is None:
        raise ValueError(f"{spec.title} declares no heuristic: search bots cannot play it")
    return spec.heuristic


def seat_world(state: Any, rng: random.Random) -> tuple[Any, list[Any]]:
    """A determinized copy of ``state`` built from the current seat's view only,
    and its legal actions (the same list as the real state's: they depend on
    public information only)."""
    spec = game_of(state)
    view = state.view(state.current_player)
    world = determinize(spec, view, rng.getrandbits(63))
    return world, candidates(spec, world)


def candidates(spec: GameSpec, world: Any) -> list[Any]:
    """The actions a searching bot considers: the game's ``bot_actions(state)`` when
    it has one (a subset of the legal actions without dominated variants — e.g.
    the same action paid with a costlier crew), otherwise every legal action."""
    prune = spec.bot_actions
    return list(prune(world)) if prune is not None else list(world.legal_actions())
