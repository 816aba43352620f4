"""The medium level: one ply of lookahead on the game's heuristic.

For every legal action it applies the action to a determinized copy of the
position (built from the seat's view only) and keeps the action whose result
the game's ``heuristic`` rates best for the acting seat.  Stopping (end turn
or pass) is chosen when nothing improves the position: unspent crew is only
worth what it can buy.  Ties break at random (seeded), so two greedy bots do
not mirror each other.
"""

from __future__ import annotations

import random
from typing import Any

from erebus.bots.base import BotSpec, game_of, seat_world

STOP_KINDS = ("end_turn", "pass")
MIN_GAIN = 0.05  # below this an action is not worth a crewman


class GreedyBot:
    def __init__(self, spec: BotSpec) -> None:
        self.spec = spec
        self.rng = random.Random(spec.seed)

    def choose(self, state: Any) -> Any:
        seat = state.current_player
        heuristic = game_of(state).heuristic
        world, legal = seat_world(state, self.rng)
        if len(legal) == 1:
            return legal[0]
        base = heuristic(world, seat)
        best: list[Any] = []
        best_value = -float("inf")
        for action in legal:
            if action.kind in STOP_KINDS:
                continue
            child = world.clone()
            child.apply(action)
            value = heuristic(child, seat)
            if value > best_value + 1e-9:
                best, best_value = [action], value
            elif abs(value - best_value) <= 1e-9:
                best.append(action)
        if best and best_value - base >= MIN_GAIN:
            return self.rng.choice(best)
        stops = [a for a in legal if a.kind in STOP_KINDS]
        if not stops:  # drafting, or the free draw after a refresh
            return self.rng.choice(best or legal)
        ends = [a for a in stops if a.kind == "end_turn"]
        return ends[0] if ends else stops[0]
