"""Bots wait together for a quiet moment of the event loop (``BotRunner._quiet``): on a
busy loop none waits more than ``QUIET_SPINS`` passes, however many wait at once (one
bot at a time, each waiting its own turn, made hundreds of tables queue for seconds)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from erebus.server import botrunner
from erebus.server.service import GameService
from erebus.server.settings import Settings
from erebus.server.storage import Storage


def test_many_bots_share_one_quiet_moment(tmp_path: Path) -> None:
    async def main() -> None:
        svc = GameService(Storage(f"sqlite:///{tmp_path}/q.db"), Settings(bot_mode="inline"))
        passes = 0
        stop = False

        async def busy() -> None:  # always something ready: the loop is never quiet
            nonlocal passes
            while not stop:
                passes += 1
                await asyncio.sleep(0)

        async def bot() -> int:
            start = passes
            await svc._quiet()
            return passes - start

        spinners = [asyncio.ensure_future(busy()) for _ in range(3)]
        try:
            waited = await asyncio.wait_for(asyncio.gather(*(bot() for _ in range(300))), 10)
        finally:
            stop = True
            await asyncio.gather(*spinners)
            await svc.close()
            svc.storage.close()
        # Each pass of the loop runs every spinner once: 3 counts a pass.
        assert max(waited) <= 3 * (botrunner.QUIET_SPINS + 2), max(waited)

    asyncio.run(main())


def test_a_quiet_loop_lets_a_bot_go_at_once(tmp_path: Path) -> None:
    async def main() -> None:
        svc = GameService(Storage(f"sqlite:///{tmp_path}/q.db"), Settings(bot_mode="inline"))
        try:
            await asyncio.wait_for(svc._quiet(), 1.0)
        finally:
            await svc.close()
            svc.storage.close()

    asyncio.run(main())
