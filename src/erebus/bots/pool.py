"""Bot search off the caller's thread: a process pool.

A search bot takes up to seconds of CPU per move; run on a server's event
loop it would freeze every table.  ``BotPool`` ships only the seat's *view*
(never the full state) to a worker process, which rebuilds a consistent
state with the game's ``determinize`` and asks a bot built from its
``BotSpec``.  The answer comes back as action JSON.

Fairness: choices go through a :class:`FairQueue`, not straight into the
executor's first-come queue.  It holds one queue per game (the ``key``), lets at
most one choice per game run at a time, and hands free workers to the games in
turn, so a game whose bots think long (four hard bots) cannot keep the workers
from another game's quick move: that one waits for at most one choice per game
ahead of it, never for a whole turn of each.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import threading
import time
from collections import deque
from collections.abc import Awaitable, Callable, Hashable
from concurrent.futures import ProcessPoolExecutor
from typing import Any, TypeVar

from erebus.bots.base import BotSpec, determinize
from erebus.games import get_game

PARENT_CHECK_S = 1.0  # how often a worker looks whether the process that made it lives


def _watch_parent(parent: int) -> None:
    """A worker's initializer: exit once ``parent`` (the process that made the pool) is
    gone.  A worker otherwise outlives a parent killed with SIGKILL, blocked on its
    call queue, whose pipe the other workers keep open (seen: one still running 17
    minutes after its server)."""

    def watch() -> None:
        while True:
            time.sleep(PARENT_CHECK_S)
            if os.getppid() != parent:
                os._exit(0)

    threading.Thread(target=watch, name="erebus-parent-watch", daemon=True).start()


def bot_seed(spec: BotSpec, salt: int) -> int:
    """The seed of the bot that makes one choice (the same in a worker and in process)."""
    return (spec.seed or 0) * 1_000_003 + salt


def choose_from_view(spec: BotSpec, game: str, view: dict[str, Any], salt: int) -> dict[str, Any]:
    """Worker entry point: the bot's action (as JSON) for the seat of ``view``."""
    from erebus.bots import bot_from_spec

    seed = bot_seed(spec, salt)
    bot = bot_from_spec(BotSpec(spec.name, seed, spec.time_s, spec.iterations))
    world = determinize(get_game(game), view, seed)
    action: Any = bot.choose(world)
    result: dict[str, Any] = action.to_json()
    return result


#: Bots that look at the legal actions only (public information, the same list as a
#: determinized world's): :func:`choose_now` runs them in the caller's process.
IN_PROCESS = frozenset({"random"})


def choose_now(spec: BotSpec, state: Any, salt: int = 0) -> Any:
    """The action :func:`choose_from_view` would choose for ``state.current_player``,
    chosen here and now, for a bot in :data:`IN_PROCESS` (microseconds, where a trip
    to a worker process costs a view, two pickles and a pipe each way)."""
    from erebus.bots import bot_from_spec

    if spec.name not in IN_PROCESS:
        raise ValueError(f"the {spec.name} bot searches: ask a worker (BotPool)")
    return bot_from_spec(BotSpec(spec.name, bot_seed(spec, salt))).choose(state)


T = TypeVar("T")
_Job = tuple[Callable[[], Awaitable[Any]], "asyncio.Future[Any]"]


class FairQueue:
    """Round-robin over keys: at most ``slots`` jobs run at once, at most one per key.

    ``await run(key, start)`` queues ``start`` (a coroutine factory) behind the
    earlier jobs of the same key; a key whose job ends goes to the back of the line
    of waiting keys.  A caller cancelled while its job waits leaves the line; one
    cancelled while its job runs stops waiting, but the slot stays taken until the
    job ends (a worker process cannot be interrupted)."""

    def __init__(self, slots: int) -> None:
        self.slots = max(1, slots)
        self.running = 0
        self._jobs: dict[Hashable, deque[_Job]] = {}  # waiting jobs per key
        self._turns: deque[Hashable] = deque()  # keys with a waiting job, none running
        self._busy: set[Hashable] = set()  # keys with a running job
        self._tasks: set[asyncio.Task[None]] = set()

    def waiting(self) -> int:
        return sum(len(q) for q in self._jobs.values())

    async def run(self, key: Hashable, start: Callable[[], Awaitable[T]]) -> T:
        fut: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        q = self._jobs.setdefault(key, deque())
        q.append((start, fut))
        if key not in self._busy and key not in self._turns:
            self._turns.append(key)
        self._pump()
        return await fut

    def _pump(self) -> None:
        while self.running < self.slots and self._turns:
            key = self._turns.popleft()
            q = self._jobs.get(key)
            while q and q[0][1].done():  # their callers gave up waiting
                q.popleft()
            if not q:
                self._jobs.pop(key, None)
                continue
            start, fut = q.popleft()
            if not q:
                del self._jobs[key]
            self.running += 1
            self._busy.add(key)
            task = asyncio.get_running_loop().create_task(self._go(key, start, fut))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _go(self, key: Hashable, start: Callable[[], Awaitable[Any]], fut: Any) -> None:
        try:
            result = await start()
        except asyncio.CancelledError:
            fut.cancel()
        except Exception as exc:
            if not fut.done():
                fut.set_exception(exc)
        else:
            if not fut.done():
                fut.set_result(result)
        finally:
            self.running -= 1
            self._busy.discard(key)
            if key in self._jobs:
                self._turns.append(key)
            self._pump()


class BotPool:
    """A pool of worker processes that choose moves for bots."""

    def __init__(self, workers: int = 1) -> None:
        ctx = multiprocessing.get_context("spawn")  # no forked event loops or sockets
        self._executor = ProcessPoolExecutor(
            max_workers=workers,
            mp_context=ctx,
            initializer=_watch_parent,
            initargs=(os.getpid(),),
        )
        self._fair: FairQueue | None = None  # made on first use, on the running loop
        self._workers = workers

    def _args(self, spec: BotSpec, state: Any, salt: int) -> tuple[Any, ...]:
        return (choose_from_view, spec, state.game, state.view(state.current_player), salt)

    def choose(self, spec: BotSpec, state: Any, salt: int = 0) -> Any:
        """Blocking: the bot's action for ``state.current_player``."""
        fn, *args = self._args(spec, state, salt)
        data = self._executor.submit(fn, *args).result()
        return get_game(state.game).action_from_json(data)

    async def choose_async(
        self, spec: BotSpec, state: Any, salt: int = 0, key: Hashable = None
    ) -> Any:
        """Awaitable: the event loop keeps running while the worker searches.
        ``key`` (a game's id): choices of one key run one at a time, the keys in
        turn (:class:`FairQueue`); None: a key of its own."""
        loop = asyncio.get_running_loop()
        fn, *args = self._args(spec, state, salt)
        if self._fair is None:
            self._fair = FairQueue(self._workers)
        data = await self._fair.run(
            key if key is not None else object(),
            lambda: loop.run_in_executor(self._executor, fn, *args),
        )
        return get_game(state.game).action_from_json(data)

    async def run_async(self, fn: Callable[..., T], *args: Any, key: Hashable = None) -> T:
        """Awaitable: ``fn(*args)`` (a picklable, module-level function) in a worker,
        queued fairly with the bots' choices under ``key`` (hints and reviews)."""
        loop = asyncio.get_running_loop()
        if self._fair is None:
            self._fair = FairQueue(self._workers)
        result: T = await self._fair.run(
            key if key is not None else object(),
            lambda: loop.run_in_executor(self._executor, fn, *args),
        )
        return result

    def close(self) -> None:
        self._executor.shutdown(wait=True, cancel_futures=True)

    def abandon(self) -> None:
        """Let go of a pool that broke (a worker died: every call then raises
        ``BrokenProcessPool``): queued calls are cancelled, nothing is waited for."""
        self._executor.shutdown(wait=False, cancel_futures=True)

    def __enter__(self) -> BotPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
