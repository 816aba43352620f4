"""The medium level: one ply of lookahead on the game's heuristic.

For every legal action it applies the action to a determinized copy of the
position (built from the seat's view only) and keeps the action whose result
the game's ``heuristic`` rates best for the acting seat.  Stopping (end turn
or pass) is rated the same way and chosen unless some action beats the best
way of stopping by ``MIN_GAIN``: unspent crew is only worth what it can buy.  Ties break at random (seeded), so two greedy bots do
not mirror each other.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from erebus.bots.base import BotSpec, game_of, heuristic_of, seat_world

STOP_KINDS = ("end_turn", "pass")
MIN_GAIN = 0.05  # below this an action is not worth a crewman


class GreedyBot:
    def __init__(self, spec: BotSpec) -> None:
        self.spec = spec
        self.rng = random.Random(spec.seed)

    def choose(self, state: Any) -> Any:
        seat = state.current_player
        heuristic = heuristic_of(game_of(state))
        world, legal = seat_world(state, self.rng)
        if len(legal) == 1:
            return legal[0]
        return greedy_choice(world, legal, lambda child: heuristic(child, seat), self.rng.choice)


def greedy_choice(
    world: Any,
    legal: list[Any],
    value: Callable[[Any], float],
    pick: Callable[[list[Any]], Any],
) -> Any:
    """The one-ply choice among ``legal`` in ``world``: the action whose result
    ``value`` rates best, a stop (end turn or pass) unless an action beats the best
    stop by ``MIN_GAIN``; ``pick`` breaks ties (the medium bot draws at random, the
    hard bot's model of a rival's reply takes the first)."""
    best: list[Any] = []
    best_value = -float("inf")
    stop: Any = None
    stop_value = -float("inf")
    for action in legal:
        child = world.clone()
        child.apply(action)
        v = value(child)
        if action.kind in STOP_KINDS:
            # Ending the turn or passing is judged too: passing with a vehicle
            # still out in the last round is what strands it.
            if v > stop_value:
                stop, stop_value = action, v
            continue
        if v > best_value + 1e-9:
            best, best_value = [action], v
        elif abs(v - best_value) <= 1e-9:
            best.append(action)
    if best and (stop is None or best_value - stop_value >= MIN_GAIN):
        return pick(best)
    return stop if stop is not None else pick(legal)
