"""Bot moves yield to people's messages (``BotRunner._quiet``) on both event loops the
server runs on: CPython's asyncio loop and uvloop (what uvicorn picks when installed)."""

from __future__ import annotations

import asyncio
import time
import types
from collections.abc import Callable

import pytest

from erebus.server.botrunner import QUIET_SPINS, BotRunner


def _loops() -> list[tuple[str, Callable[[], asyncio.AbstractEventLoop]]]:
    out: list[tuple[str, Callable[[], asyncio.AbstractEventLoop]]] = [
        ("asyncio", asyncio.new_event_loop)
    ]
    return out  # uvloop: no wait (a spinning watcher made the server slower there)


def _runner() -> types.SimpleNamespace:
    """What ``BotRunner._quiet`` uses of a bot runner: its waiters and watcher task."""
    runner = types.SimpleNamespace(_quiet_waiters=[], _quiet_task=None)
    runner._watch_quiet = lambda: BotRunner._watch_quiet(runner)  # type: ignore[arg-type]
    return runner


def _busy(ms: float) -> None:
    end = time.perf_counter() + ms / 1000
    while time.perf_counter() < end:
        pass


@pytest.mark.parametrize("loop_factory", [f for _, f in _loops()], ids=[n for n, _ in _loops()])
def test_a_bot_move_waits_for_a_quiet_pass_of_the_loop(
    loop_factory: Callable[[], asyncio.AbstractEventLoop],
) -> None:
    runner = _runner()

    async def main() -> tuple[int, int]:
        done = 0

        async def person() -> None:  # messages that keep arriving for a few passes
            nonlocal done
            for _ in range(QUIET_SPINS // 2):
                _busy(1.0)
                done += 1
                await asyncio.sleep(0)

        task = asyncio.get_running_loop().create_task(person())
        await asyncio.sleep(0)  # the person's task runs first
        await BotRunner._quiet(runner)  # type: ignore[arg-type]
        seen = done
        await task
        return seen, done

    with asyncio.Runner(loop_factory=loop_factory) as r:
        seen, done = r.run(main())
    assert seen == done == QUIET_SPINS // 2  # the bot moved only once the person was done


@pytest.mark.parametrize("loop_factory", [f for _, f in _loops()], ids=[n for n, _ in _loops()])
def test_a_busy_server_still_lets_the_bot_move(
    loop_factory: Callable[[], asyncio.AbstractEventLoop],
) -> None:
    runner = _runner()

    async def main() -> bool:
        stop = False

        async def flood() -> None:
            while not stop:
                _busy(0.5)
                await asyncio.sleep(0)

        task = asyncio.get_running_loop().create_task(flood())
        await BotRunner._quiet(runner)  # type: ignore[arg-type]
        stop = True
        await task
        return True

    with asyncio.Runner(loop_factory=loop_factory) as r:
        assert r.run(main())  # returned after QUIET_SPINS passes at most


def test_on_uvloop_a_waiting_bot_is_let_go() -> None:
    uvloop = pytest.importorskip("uvloop")
    runner = _runner()

    async def main() -> None:
        await asyncio.wait_for(BotRunner._quiet(runner), 5)  # type: ignore[arg-type]

    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as r:
        r.run(main())
