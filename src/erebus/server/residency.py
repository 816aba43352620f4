"""Which games stay in memory, and which may use the bots.

The database holds every game; :class:`erebus.server.service.GameService` keeps a
:class:`~erebus.server.table.LiveGame` per game in use.  Without a rule, every game
ever opened since the start would stay (and an abandoned one would keep its bots
thinking, taking turns for absent players).  ``Residency`` remembers when each game
was last *active* (an HTTP request for it, a WebSocket opening or closing) and says:

* **abandoned**: nobody has a WebSocket open to it and it has not been active for
  ``abandon_after_s``: its bots stop until someone comes back (any request for it).
* **evictable**: nobody watches it, no bot is thinking and nobody holds its lock,
  and either it is over and has been quiet for ``evict_after_s``, or there are more
  than ``max_idle_games`` such idle games (least recently active go first).  An
  evicted game is replayed from its log on the next request, the same game.
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from erebus.server.table import LiveGame

SWEEP_EVERY_S = 1.0  # a request sweeps at most this often


class Residency:
    def __init__(self, abandon_after_s: float, evict_after_s: float, max_idle_games: int) -> None:
        self.abandon_after_s = abandon_after_s
        self.evict_after_s = evict_after_s
        self.max_idle_games = max_idle_games
        self.last_active: dict[str, float] = {}
        self._last_sweep = -math.inf

    def touch(self, game_id: str, now: float | None = None) -> None:
        self.last_active[game_id] = time.monotonic() if now is None else now

    def forget(self, game_id: str) -> None:
        self.last_active.pop(game_id, None)

    def quiet_for(self, live: LiveGame, now: float) -> float:
        return now - self.last_active.get(live.id, now)

    def abandoned(self, live: LiveGame, now: float | None = None) -> bool:
        now = time.monotonic() if now is None else now
        return not live.subscribers and self.quiet_for(live, now) >= self.abandon_after_s

    def sweep_due(self, now: float) -> bool:
        if now - self._last_sweep < SWEEP_EVERY_S:
            return False
        self._last_sweep = now
        return True

    @staticmethod
    def idle(g: LiveGame) -> bool:
        """Nobody watches ``g``, no bot is thinking and nobody holds its lock: it may
        leave memory (it is the same game when loaded again)."""
        return (
            not g.subscribers and not g.lock.locked() and (g.bot_task is None or g.bot_task.done())
        )

    def evictable(self, games: Mapping[str, LiveGame], now: float) -> list[str]:
        """The ids of the games to drop from memory now."""
        idle = [g for g in games.values() if self.idle(g)]
        out = [
            g.id for g in idle if g.state.is_over and self.quiet_for(g, now) >= self.evict_after_s
        ]
        excess = len(idle) - len(out) - self.max_idle_games
        if excess > 0:
            gone = set(out)
            rest = sorted(
                (g for g in idle if g.id not in gone),
                key=lambda g: self.last_active.get(g.id, -math.inf),
            )
            out += [g.id for g in rest[:excess]]
        return out
