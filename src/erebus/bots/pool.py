"""Bot search off the caller's thread: a process pool.

A search bot takes up to seconds of CPU per move; run on a server's event
loop it would freeze every table.  ``BotPool`` ships only the seat's *view*
(never the full state) to a worker process, which rebuilds a consistent
state with the game's ``determinize`` and asks a bot built from its
``BotSpec``.  The answer comes back as action JSON.
"""

from __future__ import annotations

import asyncio
import multiprocessing
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from erebus.bots.base import BotSpec
from erebus.games import get_game


def choose_from_view(spec: BotSpec, game: str, view: dict[str, Any], salt: int) -> dict[str, Any]:
    """Worker entry point: the bot's action (as JSON) for the seat of ``view``."""
    from erebus.bots import bot_from_spec

    module = get_game(game)
    seed = (spec.seed or 0) * 1_000_003 + salt
    bot = bot_from_spec(BotSpec(spec.name, seed, spec.time_s, spec.iterations))
    world = module.determinize(view, seed)
    action: Any = bot.choose(world)
    result: dict[str, Any] = action.to_json()
    return result


class BotPool:
    """A pool of worker processes that choose moves for bots."""

    def __init__(self, workers: int = 1) -> None:
        ctx = multiprocessing.get_context("spawn")  # no forked event loops or sockets
        self._executor = ProcessPoolExecutor(max_workers=workers, mp_context=ctx)

    def _args(self, spec: BotSpec, state: Any, salt: int) -> tuple[Any, ...]:
        return (choose_from_view, spec, state.game, state.view(state.current_player), salt)

    def choose(self, spec: BotSpec, state: Any, salt: int = 0) -> Any:
        """Blocking: the bot's action for ``state.current_player``."""
        fn, *args = self._args(spec, state, salt)
        data = self._executor.submit(fn, *args).result()
        return get_game(state.game).Action.from_json(data)

    async def choose_async(self, spec: BotSpec, state: Any, salt: int = 0) -> Any:
        """Awaitable: the event loop keeps running while the worker searches."""
        loop = asyncio.get_running_loop()
        fn, *args = self._args(spec, state, salt)
        data = await loop.run_in_executor(self._executor, fn, *args)
        return get_game(state.game).Action.from_json(data)

    def close(self) -> None:
        self._executor.shutdown(wait=True, cancel_futures=True)

    def __enter__(self) -> BotPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
