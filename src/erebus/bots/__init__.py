"""Bots for every game: ``make_bot("random" | "greedy" | "mcts", seed=…, time_s=… | iterations=…)``.

Difficulty levels for people map to engines: easy → random, medium → greedy,
hard → mcts.  A bot sees only ``state.view(seat)``; search bots sample the hidden
information (see :mod:`erebus.bots.base`).
"""

from __future__ import annotations

from typing import Any

from erebus.bots.base import Bot, BotSpec

BOTS = ("random", "greedy", "mcts")
LEVELS = {"easy": "random", "medium": "greedy", "hard": "mcts"}


def make_bot(
    name: str,
    seed: int | None = None,
    time_s: float | None = None,
    iterations: int | None = None,
) -> Any:
    """A bot by engine name or difficulty level.

    ``mcts`` searches for ``time_s`` seconds per move (default 1.0) or, given
    ``iterations``, for that many iterations — then it is deterministic for a seed.
    """
    name = LEVELS.get(name, name)
    spec = BotSpec(name=name, seed=seed, time_s=time_s, iterations=iterations)
    return bot_from_spec(spec)


def bot_from_spec(spec: BotSpec) -> Any:
    if spec.name == "random":
        from erebus.bots.random_bot import RandomBot

        return RandomBot(spec)
    if spec.name == "greedy":
        from erebus.bots.greedy import GreedyBot

        return GreedyBot(spec)
    if spec.name == "mcts":
        from erebus.bots.mcts import MctsBot

        return MctsBot(spec)
    choices = ", ".join((*BOTS, *LEVELS))
    raise ValueError(f"unknown bot {spec.name!r}; choose one of {choices}")


__all__ = ["BOTS", "LEVELS", "Bot", "BotSpec", "bot_from_spec", "make_bot"]
