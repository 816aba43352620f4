"""PostgreSQL: the action log's commits (and a cluster's catch-up reads) made on the
event loop, with psycopg's async pool.

Why not the storage's threads (:meth:`erebus.server.storage.Storage.append_actions`
on :data:`erebus.server.base.WRITER_THREADS` threads)?  A commit mostly waits — for
the round trip and PostgreSQL's flush to disk — and a thread that waits must win the
GIL back from a busy event loop at every step of SQLAlchemy's and psycopg's work
(measured on a loop 70 % busy at 300 commits/s: p50/p99 3.1–6.1/12.7–14.6 ms on the
threads against 1.0–1.1/6.5–9.3 ms here).  Here a commit is one statement on an
autocommit connection, awaited on the loop itself: the rows of one move (or of a
bot's consecutive moves) in one multi-row ``INSERT``, and the game's end in the same
statement (a data-modifying CTE), so one round trip and one flush whatever it holds.

The unique index on (game_id, index) is still what makes one writer per game win:
a taken index raises :class:`erebus.server.storage.StaleVersion`, as the storage's
own path does, and nothing of the statement is stored.

A cluster's process reads the rows other processes stored (:meth:`AsyncLog.log_since`,
thousands of times a minute under load) the same way: one query on the loop instead
of two on a thread.

psycopg is the ``postgres`` / ``cluster`` extras' (imported only when a PostgreSQL
storage opens this writer); the SQLite default never loads it.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy.engine import make_url

from erebus.server.storage import LogEntry, Since, StaleVersion, parse_action

POOL_SIZE = 8  # connections: commits that may wait for PostgreSQL's flush at once
MAX_BATCH = 64  # commits stored by one statement at most (group commit)
IDLE_CHECK_S = 30.0  # a connection idle this long is checked before use (a restart)
OPEN_TIMEOUT_S = 10.0

Row = tuple[int, dict[str, Any], str, "int | None"]  # seat, action, kind, undoes


# The rows from an index on, the game's rematch and its joined seats, in one round
# trip (the game's row comes back alone, its action columns NULL, when no row is newer).
_LOG_SINCE = (
    'SELECT a."index", a.seat, a.kind, a.action::text, a.undoes, g.rematch_id, '
    "ARRAY(SELECT s.seat FROM seats s WHERE s.game_id = g.id AND s.joined) "
    'FROM games g LEFT JOIN actions a ON a.game_id = g.id AND a."index" >= %s '
    'WHERE g.id = %s ORDER BY a."index"'
)


def libpq_conninfo(sqlalchemy_url: str) -> str:
    """The libpq URI of a SQLAlchemy ``postgresql+psycopg://`` URL (same host,
    credentials, database and query options)."""
    url = make_url(sqlalchemy_url).set(drivername="postgresql")
    return url.render_as_string(hide_password=False)


@dataclass
class Pending:
    """One commit asked for: ``rows`` as log rows ``index``… of ``game_id``."""

    game_id: str
    index: int
    rows: Sequence[Row]
    over: bool
    done: asyncio.Future[None] | None = None


def insert_sql(batch: Sequence[Pending], now: datetime | None = None) -> tuple[str, list[Any]]:
    """The one statement that stores every commit of ``batch`` (and marks the games
    that end over), with its parameters: all of it or, on a taken index, none."""
    from psycopg.types.json import Json

    when = now or datetime.now(UTC)
    values: list[str] = []
    params: list[Any] = []
    for p in batch:
        for i, (seat, action, kind, undoes) in enumerate(p.rows):
            values.append("(%s, %s, %s, %s, %s, %s, %s)")
            params += [p.game_id, p.index + i, seat, Json(action), kind, undoes, when]
    insert = (
        'INSERT INTO actions (game_id, "index", seat, action, kind, undoes, created) '
        f"VALUES {', '.join(values)}"
    )
    over = [p.game_id for p in batch if p.over]
    if not over:
        return insert, params
    # The UPDATE runs only if the INSERT stored its rows: a conflict aborts both.
    sql = f"WITH ins AS ({insert} RETURNING 1) UPDATE games SET status = 'over' WHERE id = ANY(%s)"
    return sql, [*params, over]


def _settle(p: Pending, exc: BaseException | None) -> None:
    if p.done is None or p.done.done():  # its caller gave up (cancelled)
        return
    if exc is None:
        p.done.set_result(None)
    else:
        p.done.set_exception(exc)


class AsyncLog:
    """A pool of autocommit connections owned by ONE event loop (the server's).

    :meth:`open` must run in that loop; :meth:`usable` is false in any other (a test's
    own loop, a thread), where the caller falls back to the storage's threads."""

    def __init__(self, db_url: str, size: int = POOL_SIZE) -> None:
        self._conninfo = libpq_conninfo(db_url)
        self._size = size
        self._pool: Any = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._last_used: dict[int, float] = {}
        self._errors: Any = None
        self._pending: list[Pending] = []  # commits waiting for a connection
        self._busy = 0  # flushers running (at most one per connection)
        self._flushers: set[asyncio.Task[None]] = set()

    async def open(self) -> None:
        """Open the pool's connections now (a first move of many games at once would
        otherwise wait for the connections to be made)."""
        if self._pool is not None:
            return
        import psycopg
        from psycopg_pool import AsyncConnectionPool

        self._errors = psycopg
        pool = AsyncConnectionPool(
            self._conninfo,
            min_size=self._size,
            max_size=self._size,
            kwargs={"autocommit": True},
            check=self._check,
            open=False,
            name="erebus-log",
        )
        await pool.open(wait=True, timeout=OPEN_TIMEOUT_S)
        self._pool = pool
        self._loop = asyncio.get_running_loop()

    def usable(self) -> bool:
        """Open, and called from the loop it belongs to."""
        if self._pool is None:
            return False
        try:
            return asyncio.get_running_loop() is self._loop
        except RuntimeError:
            return False

    async def _check(self, conn: Any) -> None:
        """The pool's check before lending a connection: a round trip only after
        :data:`IDLE_CHECK_S` unused (a busy server's connections never pay it); a
        connection that fails it is replaced by a fresh one."""
        since = self._last_used.get(id(conn))
        if since is not None and time.monotonic() - since < IDLE_CHECK_S:
            return
        await conn.execute("SELECT 1")

    async def append(self, game_id: str, index: int, rows: Sequence[Row], over: bool) -> None:
        """Commit ``rows`` as log rows ``index``…; :class:`StaleVersion` if one is taken.

        A free connection commits at once.  Group commit: while every connection is
        busy, the commits asked for meanwhile wait together and the next free one
        stores them in ONE statement (one round trip, one flush to disk for all; the
        first moves of hundreds of games at once otherwise queue for ~1 s).  If one
        of them lost its race the statement stores nothing and each is committed
        alone, so only the loser fails."""
        assert self._loop is not None, "open() first"
        p = Pending(game_id, index, rows, over)
        if self._busy < self._size and not self._pending:
            self._busy += 1
            try:
                await self._commit_alone(p)
            finally:
                self._busy -= 1
                self._kick()
            return
        p.done = self._loop.create_future()
        self._pending.append(p)
        self._kick()
        await p.done

    def _kick(self) -> None:
        """A flusher for the waiting commits, if a connection is free."""
        if self._pending and self._busy < self._size and self._loop is not None:
            self._busy += 1
            task = self._loop.create_task(self._flush())
            self._flushers.add(task)
            task.add_done_callback(self._flushers.discard)

    async def _flush(self) -> None:
        """Commit what waits, a batch at a time, until nothing does."""
        try:
            while self._pending:
                batch = self._pending[:MAX_BATCH]
                del self._pending[:MAX_BATCH]
                await self._commit_batch(batch)
        finally:
            self._busy -= 1

    async def _commit_alone(self, p: Pending) -> None:
        try:
            await self._execute([p])
        except self._errors.IntegrityError as exc:
            raise StaleVersion(f"action {p.index} of game {p.game_id} already exists") from exc

    async def _commit_batch(self, batch: list[Pending]) -> None:
        """Store ``batch`` and settle each commit's future (never raises for them)."""
        if len(batch) > 1:
            try:
                await self._execute(batch)
            except self._errors.IntegrityError:
                pass  # which one lost?  Each alone below: the others are stored
            except Exception as exc:  # the connection broke: all of them fail
                for p in batch:
                    _settle(p, exc)
                return
            else:
                for p in batch:
                    _settle(p, None)
                return
        for p in batch:
            try:
                await self._commit_alone(p)
            except Exception as exc:
                _settle(p, exc)
            else:
                _settle(p, None)

    async def _execute(self, batch: list[Pending]) -> None:
        sql, params = insert_sql(batch)
        async with self._pool.connection() as conn:
            try:
                await conn.execute(sql, params)
            finally:
                self._last_used[id(conn)] = time.monotonic()

    async def log_since(self, game_id: str, index: int) -> Since:
        """As :meth:`erebus.server.storage.Storage.log_since` (the rows from
        ``index`` on, the game's rematch, its joined seats)."""
        async with self._pool.connection() as conn:
            try:
                cur = await conn.execute(_LOG_SINCE, (index, game_id))
                rows = await cur.fetchall()
            finally:
                self._last_used[id(conn)] = time.monotonic()
        rematch = rows[0][5] if rows else None
        joined = frozenset(int(x) for x in rows[0][6]) if rows else frozenset()
        log = [
            LogEntry(idx, seat, kind or "action", parse_action(game_id, idx, action), undoes)
            for idx, seat, kind, action, undoes, _, _ in rows
            if idx is not None
        ]
        return Since(log, rematch, joined)

    async def close(self) -> None:
        for t in list(self._flushers):
            with contextlib.suppress(BaseException):
                await t
        if self._pool is not None:
            pool, self._pool = self._pool, None
            await pool.close()
