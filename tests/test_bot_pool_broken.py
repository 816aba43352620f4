"""A bot worker that dies (killed, out of memory) breaks a ``ProcessPoolExecutor``
for good: every later call raises ``BrokenProcessPool``.  The server starts a new
pool and retries the move, so the bots of every table go on playing."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import time
from pathlib import Path

import pytest

from erebus.bots.base import BotSpec
from erebus.games import get_game
from erebus.server.service import GameService, Settings
from erebus.server.storage import Storage


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="kills worker processes")
def test_a_dead_worker_costs_one_retried_move(tmp_path: Path) -> None:
    spec = BotSpec("greedy", 1, None, None)
    state = get_game("northwest").new_game(players=2, seed=3)
    legal = state.legal_actions()

    async def main() -> tuple[object, object, bool]:
        service = GameService(
            Storage(f"sqlite:///{tmp_path / 'g.db'}"), Settings(bot_workers=1, api_rate=0)
        )
        try:
            first = await service._choose(spec, state, 0, "g")
            pool = service._pool
            assert pool is not None
            for pid in list(pool._executor._processes):
                os.kill(pid, signal.SIGKILL)
            time.sleep(0.5)  # the executor notices the dead worker
            again = await service._choose(spec, state, 0, "g")
            return first, again, service._pool is not pool
        finally:
            await service.close()
            service.storage.close()

    first, again, replaced = asyncio.run(main())
    assert first in legal and again == first  # the same choice, from a new worker
    assert replaced
