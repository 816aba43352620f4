"""What every part of the game service shares: the storage and its writer, the live
games in memory, and the one path by which a row joins a game's log.

:class:`erebus.server.service.GameService` is built from parts, each a class over
this one: the lobby (:mod:`erebus.server.lobby`), the autopilot
(:mod:`erebus.server.autopilot`) and the bot runner (:mod:`erebus.server.botrunner`).
A part calls another only through the hooks declared here (``get``, ``_rearm``,
``_kick_bots``), so no part imports another and the façade alone ties them together.
"""

from __future__ import annotations

import asyncio
import functools
import importlib.util
import logging
from abc import ABC, abstractmethod
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from erebus.server import trace
from erebus.server.cluster import Cluster
from erebus.server.errors import ApiError
from erebus.server.pglog import AsyncLog
from erebus.server.residency import Residency
from erebus.server.settings import Settings
from erebus.server.storage import Since, StaleVersion, Storage
from erebus.server.table import LiveGame

T = TypeVar("T")
log = logging.getLogger("erebus.server")
# Threads that commit (PostgreSQL): a commit waits for the disk (~3 ms here), and
# PostgreSQL flushes the commits that wait together at once; 4 capped a cluster
# process at ~400 commits/s with its writers queueing (the GIL hand-overs of a busy
# event loop stretch each commit to tens of ms).
WRITER_THREADS = 8


def _has_async_pool() -> bool:
    """psycopg's pool is installed (the ``postgres`` / ``cluster`` extras)."""
    return importlib.util.find_spec("psycopg_pool") is not None


class ServiceBase(ABC):
    def __init__(self, storage: Storage, settings: Settings | None = None) -> None:
        self.storage = storage
        self.settings = settings or Settings()
        self._games: dict[str, LiveGame] = {}
        st = self.settings
        self.residency = Residency(st.abandon_after_s, st.evict_after_s, st.max_idle_games)
        self._closing = False
        # The other processes of a deployment (erebus.server.cluster); alone by default.
        self.cluster: Cluster = Cluster()
        # Writes: on the event loop where the storage says they are quick (SQLite: an
        # append to its log, ~0.2 ms, cheaper than two thread hops and the GIL
        # hand-overs they cost), else on a few threads of their own.
        self._writer: ThreadPoolExecutor | None = None
        if not storage.inline_writes:
            self._writer = ThreadPoolExecutor(WRITER_THREADS, thread_name_prefix="erebus-db")
        # PostgreSQL: the log's commits and catch-ups awaited on the loop (erebus.server.pglog),
        # once :meth:`open_writes` ran in the server's loop; the threads otherwise.
        self._log_writer: AsyncLog | None = None
        if storage.engine.dialect.name == "postgresql" and _has_async_pool():
            self._log_writer = AsyncLog(storage.url)

    async def open_writes(self) -> None:
        """Open the log writer's connections in the running loop (the app's start-up)."""
        if self._log_writer is None:
            return
        try:
            await self._log_writer.open()
        except Exception:  # the storage's threads still commit; slower, not wrong
            log.warning(
                "PostgreSQL async log writer unavailable; commits use threads", exc_info=True
            )
            self._log_writer = None

    async def _close_writes(self) -> None:
        if self._log_writer is not None:
            await self._log_writer.close()
        if self._writer is not None:
            await asyncio.to_thread(self._writer.shutdown, True)

    def _async_log(self) -> AsyncLog | None:
        """The log's connections on this loop, if open here (else: the threads)."""
        w = self._log_writer
        return w if w is not None and w.usable() else None

    async def _log_since(self, game_id: str, index: int) -> Since:
        """What a cluster's catch-up reads (:meth:`Storage.log_since`)."""
        if w := self._async_log():
            return await w.log_since(game_id, index)
        return await asyncio.to_thread(self.storage.log_since, game_id, index)

    async def _store_rows(
        self, game_id: str, index: int, rows: list[tuple[int, Any, str, int | None]], over: bool
    ) -> None:
        """Commit log rows ``index``… of a game (:class:`StaleVersion` if taken)."""
        if w := self._async_log():
            await w.append(game_id, index, rows, over)
        else:
            await self._write(self.storage.append_actions, game_id, index, rows, over)

    async def _write(self, fn: Callable[..., T], *args: Any) -> T:
        """Make a storage write; returns once it is committed."""
        if self._writer is None:
            return fn(*args)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._writer, functools.partial(fn, *args))

    async def _append(
        self,
        live: LiveGame,
        seat: int,
        data: dict[str, Any],
        over: bool,
        kind: str,
        undoes: int | None = None,
    ) -> None:
        """Store log row ``live.version`` (an action, an undo, a takeover or a
        hand-back).  Another process wrote first: the cache is dropped and 409."""
        t = trace.now() if trace.TRACER else None
        try:
            await self._store_rows(live.id, live.version, [(seat, data, kind, undoes)], over)
            if trace.TRACER and t:
                trace.TRACER.add("commit", *t, live.id, f"v{live.version} {kind}")
        except StaleVersion as exc:
            raise await self._lost_race(live) from exc
        if self.cluster.shared:
            self.cluster.changed(live.id)

    async def _lost_race(self, live: LiveGame) -> ApiError:
        """The 409 for a version another writer stored first.  In a cluster this
        process takes the winner's rows and stays loaded; alone, the cache is wrong
        (someone else wrote to the database) and is dropped."""
        if self.cluster.shared:
            await self._catch_up_locked(live)
            return ApiError(409, f"the game moved on elsewhere; it is at version {live.version}")
        self._forget(live.id)
        return ApiError(409, "the game moved on; reload it")

    async def _commit(
        self, live: LiveGame, seat: int, action: Any, kind: str = "action", push: bool = True
    ) -> None:
        """Apply on a copy, store, then publish.  Caller holds ``live.lock``.
        ``push=False``: the caller tells the subscribers later (a bot's turn)."""
        new = live.state.clone()
        try:
            events = new.apply(action)
        except ValueError as exc:  # IllegalAction is a ValueError
            raise ApiError(400, str(exc)) from exc
        await self._append(live, seat, action.to_json(), bool(new.is_over), kind)
        live.publish_action(seat, kind, new, events)
        if push:
            live.notify(None)
        self._rearm(live)

    async def _commit_moves(
        self, live: LiveGame, moves: list[tuple[int, Any, Any, list[Any]]], kind: str = "bot"
    ) -> None:
        """Store ``moves`` — (seat, action, state after it, its events), made one after
        the other from the current state — in one transaction, then publish them in
        order; nobody is told (the caller pushes).  Caller holds ``live.lock``.  Each
        move becomes visible only once all of them are committed."""
        if not moves:
            return
        rows: list[tuple[int, Any, str, int | None]] = [
            (seat, action.to_json(), kind, None) for seat, action, _, _ in moves
        ]
        over = bool(moves[-1][2].is_over)
        t = trace.now() if trace.TRACER else None
        try:
            await self._store_rows(live.id, live.version, rows, over)
            if trace.TRACER and t:
                trace.TRACER.add("commit", *t, live.id, f"v{live.version} {kind} ×{len(rows)}")
        except StaleVersion as exc:
            raise await self._lost_race(live) from exc
        for seat, _, new, events in moves:
            live.publish_action(seat, kind, new, events)
        if self.cluster.shared:
            self.cluster.changed(live.id)
        self._rearm(live)

    def _forget(self, game_id: str) -> None:
        """Drop the cache (another process wrote to this game); the log is reloaded."""
        live = self._games.pop(game_id, None)
        if self.cluster.shared:
            self.cluster.drop_lease(game_id)  # another process may play its bots now
        if live is not None:
            if live.watch_task is not None:
                live.watch_task.cancel()
            live.notify({"type": "error", "message": "the game changed elsewhere; reconnect"})

    # ------------------------------------------- hooks one part offers the others

    @abstractmethod
    async def get(self, game_id: str) -> LiveGame:
        """The live game (loaded from its log if need be): the service's."""

    @abstractmethod
    def _rearm(self, live: LiveGame) -> None:
        """(Re)start the autopilot's timer for the seat to move: the autopilot's."""

    @abstractmethod
    def _kick_bots(self, live: LiveGame) -> None:
        """Start the bots if one is to move: the bot runner's."""

    @abstractmethod
    async def _run_bots(self, live: LiveGame) -> None:
        """Play the bots' consecutive moves: the bot runner's."""

    # The cluster's (erebus.server.replicas), called only when ``cluster.shared``.

    @abstractmethod
    async def _catch_up_locked(self, live: LiveGame) -> bool:
        """Under the lock: apply the rows other processes stored after ``live.version``."""

    @abstractmethod
    async def _leased_bots(self, live: LiveGame) -> None:
        """The bots' turns, where this process holds the game's bot lease."""

    @abstractmethod
    def _share_presence(self, live: LiveGame) -> None:
        """Tell the other processes this one's sockets of ``live`` changed."""
