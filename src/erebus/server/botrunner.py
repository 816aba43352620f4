"""The bots' turns: whose move a bot makes, how it is chosen, and when it is played.

A bot seat, or a human seat the autopilot holds, moves through ``_run_bots``: one
task per game plays the bots' consecutive moves (an easy bot's stored in one
transaction, a searching bot's each on its own).  Easy
(random) bots choose in this process (``choose_now``): their move depends only on
the legal actions, and a worker process would cost more to reach than the choice
itself.  Others think in a :class:`~erebus.bots.pool.BotPool` of worker processes,
or (``Settings.bot_mode`` "inline", tests) in threads behind a fair queue that
serves the tables in turn.  Bot moves yield to people's messages (``_quiet``).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from erebus.bots import LEVELS
from erebus.bots.base import BotSpec
from erebus.bots.pool import IN_PROCESS, BotPool, FairQueue, choose_from_view, choose_now
from erebus.games import get_game
from erebus.server import trace
from erebus.server.base import ServiceBase
from erebus.server.errors import ApiError
from erebus.server.settings import Settings
from erebus.server.storage import Storage
from erebus.server.table import LiveGame

log = logging.getLogger("erebus.server")
T = TypeVar("T")

QUIET_SPINS = 20  # passes of the event loop a bot move waits at most for a quiet one
BATCH_MOVES = 16  # a fast bot's consecutive moves stored in one transaction, at most


class BotRunner(ServiceBase):
    def __init__(self, storage: Storage, settings: Settings | None = None) -> None:
        super().__init__(storage, settings)
        # The bots waiting for a quiet moment of the event loop, and the task that
        # looks for it on their behalf (see _quiet).
        self._quiet_waiters: list[asyncio.Future[None]] = []
        self._quiet_task: asyncio.Task[None] | None = None
        self._pool: BotPool | None = None
        self._fair = FairQueue(self.settings.bot_workers)  # inline bots (bot_mode "inline")

    async def _close_pool(self) -> None:
        """Stop the worker processes, if any were started (and the quiet watch)."""
        if self._quiet_task is not None:
            self._quiet_task.cancel()
        if self._pool is not None:
            await asyncio.to_thread(self._pool.close)
            self._pool = None

    def _kick_bots(self, live: LiveGame) -> None:
        if self._closing or not live.is_bot_turn() or self.residency.abandoned(live):
            return
        if live.bot_task is not None and not live.bot_task.done():
            return
        run = self._leased_bots(live) if self.cluster.shared else self._run_bots(live)
        live.bot_task = asyncio.get_running_loop().create_task(run)

    def _spec(self, live: LiveGame, seat: int) -> BotSpec:
        level = live.record.seats[seat].level or live.record.options.get(
            "autopilot_level", "medium"
        )
        name = LEVELS.get(level, level)
        seed = int(live.record.options.get("bot_seed", 0)) + seat
        if name == "mcts":
            if self.settings.hard_iterations is not None:
                return BotSpec(name, seed, None, self.settings.hard_iterations)
            t = float(live.record.options.get("time_s", self.settings.hard_time_s))
            if self.settings.max_think_s > 0:
                t = min(t, self.settings.max_think_s)  # one table cannot hog the workers
            return BotSpec(name, seed, t, None)
        return BotSpec(name, seed, None, None)

    async def _choose(self, spec: BotSpec, state: Any, salt: int, key: str = "") -> Any:
        if spec.name in IN_PROCESS:
            # The easy bot looks at the legal actions only: choosing here costs
            # microseconds, and ``choose_now`` makes the move a worker would.
            return choose_now(spec, state, salt)
        if self.settings.bot_mode == "inline":
            view = state.view(state.current_player)
            data = await self._fair.run(
                key, lambda: asyncio.to_thread(choose_from_view, spec, state.game, view, salt)
            )
            return get_game(state.game).action_from_json(data)
        return await self._in_pool(lambda pool: pool.choose_async(spec, state, salt, key=key))

    async def _in_pool(self, call: Callable[[BotPool], Awaitable[T]]) -> T:
        """``call(pool)`` on the worker pool, started on first use.  A worker that
        died (killed, out of memory) breaks the pool for good: every later call
        raises ``BrokenProcessPool``.  Then, unless another bot replaced it already,
        the pool is let go, a new one started and the call made again, so one lost
        worker costs one retried move, not every bot's turn until a restart."""
        if self._pool is None:
            self._pool = BotPool(self.settings.bot_workers)
        pool = self._pool
        try:
            return await call(pool)
        except BrokenProcessPool:
            if self._pool is pool:
                log.error("a bot worker process died; starting a new pool of workers")
                pool.abandon()
                self._pool = BotPool(self.settings.bot_workers)
            return await call(self._pool)

    async def _offload(self, key: str, fn: Any, *args: Any) -> Any:
        """``fn(*args)`` where the bots think (a worker process, or a thread in
        "inline" mode), queued fairly with the bots' moves of game ``key``: hints and
        reviews (:mod:`erebus.server.advice`) never run on the event loop."""
        if self.settings.bot_mode == "inline":
            return await self._fair.run(key, lambda: asyncio.to_thread(fn, *args))
        return await self._in_pool(lambda pool: pool.run_async(fn, *args, key=key))

    async def _quiet(self) -> None:
        """Wait (a little) until nothing else is ready to run on the event loop.

        Bot moves run at a lower priority than people's messages: an easy bot's move
        and its commit hold the loop for a moment, and a message arriving meanwhile
        would wait behind it.  The bots that want to move wait together for the same
        quiet moment: one task (:meth:`_watch_quiet`) yields until a pass of the loop
        finds no other callback ready (I/O is polled between two passes), at most
        ``QUIET_SPINS`` passes, then lets every bot then waiting go.  So no bot waits
        more than ``QUIET_SPINS`` passes however many others wait (one bot at a time,
        each waiting its turn for a quiet moment, made hundreds of busy tables queue
        for seconds, some of them past the clients' 30 s)."""
        loop = asyncio.get_running_loop()
        fut: asyncio.Future[None] = loop.create_future()
        self._quiet_waiters.append(fut)
        if self._quiet_task is None or self._quiet_task.done():
            self._quiet_task = loop.create_task(self._watch_quiet(), name="erebus-quiet")
        await fut

    async def _watch_quiet(self) -> None:
        loop = asyncio.get_running_loop()
        ready = getattr(loop, "_ready", None)  # CPython's loop; None on uvloop
        while self._quiet_waiters:
            # uvloop shows no ready queue: no wait there (measured slower), but the
            # waiting bots are let go all the same
            for _ in range(QUIET_SPINS if ready is not None else 0):
                await asyncio.sleep(0)
                if not ready:
                    break
            waiting, self._quiet_waiters = self._quiet_waiters, []
            for fut in waiting:
                if not fut.done():  # (a cancelled bot task's is)
                    fut.set_result(None)

    async def _run_bots(self, live: LiveGame) -> None:
        """Play the bots' consecutive moves.  A slow bot's (one that searches, or with
        a pause between moves) are committed and pushed one by one; a fast bot's
        (:meth:`_fast`) are chosen one after the other on copies (:meth:`_plan`),
        committed together in one transaction and then published: one state pushed
        after the last of them, carrying all their events.  No move is visible, to a
        push or a read, before it is committed."""
        unpushed = False
        try:
            while not self._stopped(live) and live.is_bot_turn():
                seat = live.state.current_player
                assert seat is not None
                spec = self._spec(live, seat)
                if unpushed and (self.settings.bot_delay_s > 0 or spec.name != "random"):
                    live.notify(None)  # people should see each move of a slow turn
                    unpushed = False
                # Let the other tables run between two bot moves: an easy bot's move and
                # a SQLite commit need no await, so a whole bot turn would otherwise
                # hold the event loop.
                await asyncio.sleep(self.settings.bot_delay_s)
                await self._quiet()
                seat = live.state.current_player
                version = live.version
                if seat is None or not live.is_bot_turn():
                    break
                t = trace.now() if trace.TRACER else None
                spec = self._spec(live, seat)
                if self._fast(spec):
                    moves, failure = await self._plan(live)
                else:
                    action = await self._choose(spec, live.state, version, live.id)
                    moves, failure = [], None
                async with live.lock:
                    if (
                        live.version != version
                        or live.state.current_player != seat
                        or not live.is_bot_turn()  # the player came back
                    ):
                        continue
                    try:
                        if not self._fast(spec):
                            await self._commit(live, seat, action, "bot", push=False)
                            unpushed = True
                        elif moves:
                            await self._commit_moves(live, moves, "bot")
                            unpushed = True
                        elif failure is None:
                            break  # nothing to play (cannot happen: a fast bot is to move)
                    except ApiError as exc:
                        failure = exc.message
                    if trace.TRACER and t:
                        trace.TRACER.add("bot", *t, live.id, f"v{version} ×{max(1, len(moves))}")
                    if failure is not None:
                        log.error("bot move rejected in game %s: %s", live.id, failure)
                        return
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("bot failure in game %s", live.id)
        finally:
            if unpushed:
                live.notify(None)

    def _stopped(self, live: LiveGame) -> bool:
        """The bots of ``live`` stop here: the server closes, the game left memory,
        or nobody watches it any more (abandoned)."""
        return (
            self._closing or self._games.get(live.id) is not live or self.residency.abandoned(live)
        )

    def _fast(self, spec: BotSpec) -> bool:
        """A bot whose consecutive moves are chosen here and stored together: one
        that chooses in this process, when no pause is wanted between moves."""
        return spec.name in IN_PROCESS and self.settings.bot_delay_s <= 0

    def _bot_to_move(self, live: LiveGame, state: Any) -> int | None:
        """The seat a fast bot moves for in ``state`` (None: a person's turn, a slow
        bot's, or the game is over)."""
        cur = state.current_player
        if cur is None or state.is_over:
            return None
        if live.record.seats[cur].kind != "bot" and cur not in live.autopilot:
            return None
        return cur if self._fast(self._spec(live, cur)) else None

    async def _plan(
        self, live: LiveGame
    ) -> tuple[list[tuple[int, Any, Any, list[Any]]], str | None]:
        """A fast bot's consecutive moves from the current state, each chosen as it
        would be one at a time (the same salt: the version it will have) and
        applied to a copy, without storing or publishing any: (seat, action, state
        after, events) per move, at most ``BATCH_MOVES``, and the reason a move was
        refused, if one was (the moves before it stand).  Between two moves the
        other tables run (:meth:`_quiet`)."""
        state, version = live.state, live.version
        moves: list[tuple[int, Any, Any, list[Any]]] = []
        while len(moves) < BATCH_MOVES:
            seat = self._bot_to_move(live, state)
            if seat is None:
                break
            if moves:
                await self._quiet()
                if self._stopped(live):
                    break
            action = await self._choose(
                self._spec(live, seat), state, version + len(moves), live.id
            )
            new = state.clone()
            try:
                events = new.apply(action)
            except ValueError as exc:  # IllegalAction is a ValueError
                return moves, str(exc)
            moves.append((seat, action, new, events))
            state = new
        return moves, None

    async def wait_bots(self, live: LiveGame) -> None:
        """Until no bot is thinking (tests and shutdown)."""
        while live.bot_task is not None and not live.bot_task.done():
            await asyncio.shield(live.bot_task)
