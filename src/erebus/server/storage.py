"""Persistence: games, seats and the append-only action log.

The database is the source of truth; a game's state is rebuilt by replaying
its log.  Every action is committed before anyone is told about it.  SQLite
(default ``sqlite:///var/erebus.db``) and PostgreSQL (``postgresql+psycopg://…``)
both work; the schema is brought up to date with Alembic on start-up.

SQLite runs in WAL mode with ``synchronous=NORMAL``: a commit is an append to the
write-ahead log, without an fsync, and survives the process being killed.  Such a
commit takes ~0.2 ms, less than handing it to a thread and back, so the server
makes it on its event loop (:attr:`Storage.inline_writes`).  What does fsync is the
*checkpoint* (copying the log back into the database file); a thread of this class
runs it every ``CHECKPOINT_S`` so that no commit has to (SQLite's own automatic
checkpoint, which would run inside a commit, is left as a safety net at a much
larger log size).

One server process per database, SQLite or PostgreSQL: a process caches its games in
memory (:mod:`erebus.server.service`), so two processes writing the same games would
diverge.  :class:`Storage` takes a lock held for its life and a second one refuses to
start (:class:`DatabaseInUse`): an OS file lock on ``<database file>.lock`` for SQLite,
a session-level advisory lock for PostgreSQL (keyed on the database and the current
schema, held on a connection of its own).  The exception is a cluster
(:mod:`erebus.server.cluster`, ``REDIS_URL`` on PostgreSQL): its processes open the
storage with ``exclusive=False``, hold the same advisory lock *shared* (so a lone
server and a cluster never run on one database together), and keep their caches in
step through Redis and the log itself; the unique ``(game_id, index)`` of the log
keeps one writer per version.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import sqlite3
import threading
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, cast

from alembic import command
from alembic.config import Config
from sqlalchemy import (
    Connection,
    Engine,
    Table,
    Text,
    create_engine,
    event,
    func,
    insert,
    select,
    text,
    update,
)
from sqlalchemy import cast as sql_cast
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DisconnectionError, IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from erebus.server import trace
from erebus.server.models import ActionRow, ChatRow, GameRow, SeatRow

DEFAULT_DB_URL = "sqlite:///var/erebus.db"
PG_LOCK_WAIT_S = 3.0  # how long a new server waits for another's advisory lock
CHECKPOINT_S = 1.0  # seconds between WAL checkpoints (SQLite files)
WAL_AUTOCHECKPOINT = 10_000  # pages: SQLite's own checkpoint, only if ours falls behind
# PostgreSQL: the connections a process keeps open.  Enough for every thread that
# uses one at once (the service's writer threads, the threads its reads run on, the
# writer lock's own), so none is opened per commit and closed again (a pool of 5 let
# a cluster's process open ~2,200 sessions for ~119k commits); more wait for one.
PG_POOL = 16
# Of those, opened at start-up (reads and the threads' writes; the log's commits have
# their own connections, erebus.server.pglog): a cluster's processes and the
# tests' servers share PostgreSQL's 100 connections.
PG_FILL = 6
PG_IDLE_PING_S = 30.0  # a connection idle this long is checked before use
log = logging.getLogger("erebus.server")
MIGRATIONS_DIR = Path(__file__).resolve().parent / "migrations"


_INSERT_ACTION = insert(cast(Table, ActionRow.__table__))
_INSERT_CHAT = insert(cast(Table, ChatRow.__table__))
_SQL_INSERT_ACTION = (
    'INSERT INTO actions (game_id, "index", seat, action, kind, undoes, created) '
    "VALUES (?, ?, ?, ?, ?, ?, ?)"
)
_SQL_GAME_OVER = "UPDATE games SET status = 'over' WHERE id = ?"


class StaleVersion(Exception):
    """Another action took this index first."""


class DatabaseInUse(RuntimeError):
    """Another server process holds this database (one writer per database)."""


class DamagedRecord(Exception):
    """A stored row of a game's log cannot be read back (``index``: the row)."""

    def __init__(self, game_id: str, index: int, reason: str) -> None:
        super().__init__(f"game {game_id} is damaged at action {index}: {reason}")
        self.game_id = game_id
        self.index = index
        self.reason = reason


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def resolve_db_url(db_url: str | None) -> str:
    return db_url or os.environ.get("DATABASE_URL") or DEFAULT_DB_URL


@dataclass(frozen=True)
class SeatInfo:
    seat: int
    kind: str
    level: str | None
    token_hash: str | None
    name: str | None = None  # the host's name for a human seat; None: "Player n"
    joined: bool = False  # the player has connected or acted at least once


@dataclass(frozen=True)
class LogEntry:
    """One row of the action log: ``kind`` is "action", "bot" or "undo" (moves and
    their undoing), or "takeover" / "handback" (the autopilot starts / stops playing
    ``seat``; ``action`` holds ``{"reason", "level"}`` / ``{}``)."""

    index: int
    seat: int
    kind: str
    action: dict[str, Any]
    undoes: int | None = None


#: Log rows that are no move of the game: replaying the game's moves skips them.
NOT_MOVES = frozenset({"undo", "takeover", "handback"})


def effective_actions(log: list[LogEntry]) -> list[dict[str, Any]]:
    """The actions that count: undo rows and the actions they take back are skipped,
    and so are the autopilot's takeover and hand-back rows."""
    undone = {e.undoes for e in log if e.kind == "undo"}
    return [dict(e.action) for e in log if e.kind not in NOT_MOVES and e.index not in undone]


@dataclass(frozen=True)
class GameRecord:
    id: str
    game: str
    players: int
    seed: int
    options: dict[str, Any]
    created: datetime
    status: str
    rematch_id: str | None
    seats: list[SeatInfo]
    actions: list[dict[str, Any]]  # the effective actions (see :func:`effective_actions`)
    log: list[LogEntry] = field(default_factory=list)  # every row, undos included


@dataclass(frozen=True)
class Since:
    """What a cluster's process missed of a game (:meth:`Storage.log_since`): the log
    rows after its version, the rematch and the seats that have joined (a notice of a
    join can come while the game is being loaded there, and be lost)."""

    rows: list[LogEntry]
    rematch: str | None
    joined: frozenset[int]


@dataclass(frozen=True)
class ChatEntry:
    """One stored chat line (revision 0003); ``seat`` None would be a spectator's;
    ``version``: the game's version when it was posted (None: before revision 0004)."""

    seat: int | None
    name: str
    text: str
    created: datetime
    version: int | None = None
    id: int | None = None  # the row's id (a cluster catches up on the lines after it)


def _now() -> datetime:
    return datetime.now(UTC)


def _utc(t: datetime) -> datetime:
    """A stored timestamp as an aware UTC time (SQLite gives back naive ones)."""
    return t.replace(tzinfo=UTC) if t.tzinfo is None else t.astimezone(UTC)


def make_engine(db_url: str) -> Engine:
    url = make_url(db_url)
    if url.get_backend_name() == "sqlite":
        db = url.database
        if db and db != ":memory:" and not db.startswith("file:"):
            Path(db).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_conn: Any, _record: Any) -> None:
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA busy_timeout=5000")
            # WAL + NORMAL: a commit survives the process being killed (only a power
            # cut can lose the last commits), without an fsync per action.
            cur.execute("PRAGMA synchronous=NORMAL")
            cur.execute(f"PRAGMA wal_autocheckpoint={WAL_AUTOCHECKPOINT}")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.close()

        return engine
    engine = create_engine(url, pool_size=PG_POOL, max_overflow=PG_POOL)
    _ping_when_idle(engine, PG_IDLE_PING_S)
    return engine


def _fill_pool(engine: Engine, n: int) -> None:
    """Open ``n`` of the pool's connections now, at start-up: the first moves of many
    games at once otherwise each wait for a connection to be made (measured: the
    first commits of 200 games took 0.3–0.6 s each on a cluster's process)."""
    conns = []
    try:
        for _ in range(n):
            conns.append(engine.connect())
    finally:
        for c in conns:
            c.close()  # back to the pool, open


def _ping_when_idle(engine: Engine, idle_s: float) -> None:
    """Check a pooled connection before use only if it sat idle for ``idle_s`` (one
    that went away meanwhile, a PostgreSQL restart, is replaced), instead of a round
    trip before every checkout (``pool_pre_ping``): a busy server's connections are
    in use every few milliseconds, and one that breaks mid-use fails that request
    and is replaced as with pre-ping."""

    @event.listens_for(engine, "checkin")
    def _checkin(_dbapi_conn: Any, record: Any) -> None:
        record.info["idle_since"] = time.monotonic()

    @event.listens_for(engine, "checkout")
    def _checkout(dbapi_conn: Any, record: Any, _proxy: Any) -> None:
        since = record.info.get("idle_since")
        if since is None or time.monotonic() - since < idle_s:
            return
        try:
            cur = dbapi_conn.cursor()
            try:
                cur.execute("SELECT 1")
            finally:
                cur.close()
            dbapi_conn.rollback()
        except Exception as exc:  # the pool drops it and tries a fresh connection
            raise DisconnectionError("an idle connection went away") from exc


class _WriterLock:
    """The one-writer-per-database lock (see the module's doc), held until :meth:`release`."""

    # The first key of PostgreSQL's two-key advisory locks: "erebus" (any constant will do).
    PG_CLASS = 0x65726562

    def __init__(self, engine: Engine, shared: bool = False) -> None:
        self._file: Any = None
        self._conn: Connection | None = None
        self.shared = shared
        url = engine.url
        if engine.dialect.name == "sqlite" and not shared:
            path = self._sqlite_path(url.database)
            if path is not None:
                self._lock_file(path)
        elif engine.dialect.name == "postgresql":
            self._lock_pg(engine)

    @staticmethod
    def _sqlite_path(db: str | None) -> Path | None:
        if not db or db == ":memory:":
            return None
        if db.startswith("file:"):
            if "mode=memory" in db:
                return None
            db = db[5:].split("?", 1)[0]
        return Path(db)

    def _lock_file(self, db: Path) -> None:
        try:
            import fcntl
        except ImportError:  # not a POSIX system: no lock (documented: one process per file)
            log.warning("no file locks on this system: run one server per database")
            return
        path = db.with_name(db.name + ".lock")
        f = path.open("a")
        try:
            fcntl.flock(f.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            f.close()
            raise DatabaseInUse(
                f"the database {db} is in use by another erebus server (lock {path} is held); "
                "one server process per database: stop the other one first"
            ) from exc
        self._file = f  # the lock lives as long as this open file

    def _lock_pg(self, engine: Engine) -> None:
        conn = engine.connect()
        try:
            where = conn.execute(
                text("SELECT current_database() || '.' || coalesce(current_schema(), '')")
            ).scalar_one()
            # A cluster's processes hold it shared: they exclude a lone server, and
            # a lone server excludes them.
            fn = "pg_try_advisory_lock_shared" if self.shared else "pg_try_advisory_lock"
            # A server killed a moment ago holds the lock until PostgreSQL has ended
            # its session (it sees the closed socket at once, but under load that
            # takes a moment): ask again for PG_LOCK_WAIT_S before saying it is in use.
            give_up = time.monotonic() + PG_LOCK_WAIT_S
            while True:
                got = conn.execute(
                    text(f"SELECT {fn}(:k, hashtext(:w))"),
                    {"k": self.PG_CLASS, "w": where},
                ).scalar_one()
                conn.commit()  # the lock is the session's: it outlives the transaction
                if got or time.monotonic() >= give_up:
                    break
                time.sleep(0.1)
        except BaseException:
            conn.close()
            raise
        if not got:
            conn.close()
            if self.shared:
                raise DatabaseInUse(
                    f"the database {where} is in use by an erebus server running alone "
                    "(without REDIS_URL); stop it before starting a cluster's processes"
                )
            raise DatabaseInUse(
                f"the database {where} is in use by another erebus server (its advisory "
                "lock is held); one server process per database (or several, each with "
                "REDIS_URL): stop the other one first"
            )
        self._conn = conn

    def release(self) -> None:
        if self._file is not None:
            self._file.close()  # closing the file drops the lock
            self._file = None
        if self._conn is not None:
            # Close the session itself: a pooled connection would keep the lock.
            with contextlib.suppress(Exception):
                self._conn.invalidate()
            self._conn.close()
            self._conn = None


# PostgreSQL: the first key of the advisory lock that serializes migrations ("migr").
PG_MIGRATION_CLASS = 0x6D696772


def upgrade(engine: Engine) -> None:
    """Bring the schema to the newest Alembic revision.

    On PostgreSQL the migration runs under a transaction-level advisory lock of its
    database and schema: a cluster's processes started together on a fresh database
    would otherwise all create Alembic's version table at once, and all but one
    would die of the duplicate key.  The others wait, then find the schema current."""
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS_DIR))
    with engine.begin() as conn:
        if engine.dialect.name == "postgresql":
            conn.execute(
                text(
                    "SELECT pg_advisory_xact_lock(:k, hashtext(current_database() || '.' "
                    "|| coalesce(current_schema(), '')))"
                ),
                {"k": PG_MIGRATION_CLASS},
            )
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "head")


def parse_action(game_id: str, index: int, stored: Any) -> dict[str, Any]:
    """A log row's action, parsed from its stored text (:class:`DamagedRecord` if it is
    not a JSON object)."""
    try:
        data = json.loads(stored) if isinstance(stored, str | bytes) else stored
    except ValueError as exc:
        raise DamagedRecord(game_id, index, f"its JSON does not parse ({exc})") from exc
    if not isinstance(data, dict):
        raise DamagedRecord(game_id, index, "its JSON is not an action object")
    return data


_CHAT_COLUMNS = (
    ChatRow.seat,
    ChatRow.name,
    ChatRow.text,
    ChatRow.created,
    ChatRow.version,
    ChatRow.id,
)


def _chat_entry(r: Any) -> ChatEntry:
    return ChatEntry(r.seat, r.name, r.text, _utc(r.created), r.version, r.id)


class Storage:
    def __init__(self, db_url: str | None = None, exclusive: bool = True) -> None:
        self.url = resolve_db_url(db_url)
        self.engine = make_engine(self.url)
        try:
            # Before the migrations: a second process must not touch the schema either.
            self._writer_lock = _WriterLock(self.engine, shared=not exclusive)
        except BaseException:
            self.engine.dispose()
            raise
        try:
            upgrade(self.engine)
        except BaseException:
            self._writer_lock.release()
            self.engine.dispose()
            raise
        self._session = sessionmaker(self.engine, expire_on_commit=False)
        sqlite = self.engine.dialect.name == "sqlite"
        if self.engine.dialect.name == "postgresql":
            _fill_pool(self.engine, PG_FILL)
        # Writes quick enough to make on the caller's thread (see the module's doc).
        self.inline_writes = sqlite
        self._stop = threading.Event()
        self._checkpointer: threading.Thread | None = None
        # SQLite files: action rows go through one DB-API connection of their own with
        # the column types' own converters (the same stored text as SQLAlchemy's insert,
        # at a fraction of its cost per row).
        self._raw: Any = None
        self._raw_lock = threading.Lock()
        self._raw_ok = sqlite and self.engine.url.database not in (None, "", ":memory:")
        cols = cast(Table, ActionRow.__table__).c
        dialect = self.engine.dialect
        self._bind_action = cols.action.type.dialect_impl(dialect).bind_processor(dialect)
        self._bind_created = cols.created.type.dialect_impl(dialect).bind_processor(dialect)
        if sqlite and self.engine.url.database not in (None, "", ":memory:"):
            self._checkpointer = threading.Thread(
                target=self._checkpoint_loop, name="erebus-checkpoint", daemon=True
            )
            self._checkpointer.start()

    def session(self) -> Session:
        return self._session()

    def close(self) -> None:
        self._stop.set()
        with self._raw_lock:
            if self._raw is not None:
                self._raw.close()  # back to the pool
                self._raw = None
        if self._checkpointer is not None:
            self._checkpointer.join(timeout=30)
            self._checkpointer = None
        self._writer_lock.release()
        self.engine.dispose()

    def checkpoint(self) -> None:
        """Copy the SQLite write-ahead log back into the database file (without
        waiting for readers or writers: PASSIVE)."""
        t = trace.now() if trace.TRACER else None
        with self.engine.connect() as conn:
            conn.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")
        if trace.TRACER and t:
            trace.TRACER.add("checkpoint", *t)

    def _checkpoint_loop(self) -> None:
        while not self._stop.wait(CHECKPOINT_S):
            try:
                self.checkpoint()
            except Exception:  # the next round tries again; SQLite's own is the backstop
                log.exception("WAL checkpoint failed")

    # ------------------------------------------------------------- writes

    def create_game(
        self,
        game_id: str,
        game: str,
        players: int,
        seed: int,
        options: dict[str, Any],
        seats: list[SeatInfo],
    ) -> None:
        with self.session() as s, s.begin():
            s.add(
                GameRow(
                    id=game_id,
                    game=game,
                    players=players,
                    seed=seed,
                    options=options,
                    created=_now(),
                    status="active",
                )
            )
            s.flush()
            for info in seats:
                s.add(
                    SeatRow(
                        game_id=game_id,
                        seat=info.seat,
                        kind=info.kind,
                        level=info.level,
                        token_hash=info.token_hash,
                        name=info.name,
                        joined=info.joined,
                    )
                )

    def append_action(
        self,
        game_id: str,
        index: int,
        seat: int,
        action: dict[str, Any],
        over: bool,
        kind: str = "action",
        undoes: int | None = None,
    ) -> None:
        """Commit log row number ``index``; :class:`StaleVersion` if it is taken.

        ``kind`` "undo" (with ``undoes``, the index of the action taken back) records
        an undo; the undone row itself is never changed.  One transaction per row
        (SQLAlchemy Core: the ORM's unit of work cost three times as much per action)."""
        self.append_actions(game_id, index, [(seat, action, kind, undoes)], over)

    def append_actions(
        self,
        game_id: str,
        index: int,
        rows: list[tuple[int, dict[str, Any], str, int | None]],
        over: bool,
    ) -> None:
        """Commit ``rows`` (seat, action, kind, undoes) as log rows ``index``,
        ``index + 1``, … in ONE transaction (a fast bot's consecutive moves: one
        commit instead of one each); :class:`StaleVersion` if one is taken, and
        then none of them is stored.  ``over``: the last row ends the game."""
        if self._raw_ok:
            self._append_actions_raw(game_id, index, rows, over)
            return
        now = _now()
        values = [
            {
                "game_id": game_id,
                "index": index + i,
                "seat": seat,
                "action": action,
                "kind": kind,
                "undoes": undoes,
                "created": now,
            }
            for i, (seat, action, kind, undoes) in enumerate(rows)
        ]
        try:
            with self.engine.begin() as conn:
                conn.execute(_INSERT_ACTION, values)
                if over:
                    conn.execute(update(GameRow).where(GameRow.id == game_id).values(status="over"))
        except IntegrityError as exc:
            raise StaleVersion(f"action {index} of game {game_id} already exists") from exc

    def _append_actions_raw(
        self,
        game_id: str,
        index: int,
        rows: list[tuple[int, dict[str, Any], str, int | None]],
        over: bool,
    ) -> None:
        """:meth:`append_actions` on a SQLite file, through the DB-API directly."""
        ba, bc = self._bind_action, self._bind_created
        now = bc(_now()) if bc else _now()
        params = [
            (game_id, index + i, seat, ba(action) if ba else action, kind, undoes, now)
            for i, (seat, action, kind, undoes) in enumerate(rows)
        ]
        with self._raw_lock:
            if self._raw is None:
                self._raw = self.engine.raw_connection()
            conn = self._raw.driver_connection
            try:
                if len(params) == 1:
                    conn.execute(_SQL_INSERT_ACTION, params[0])
                else:
                    conn.executemany(_SQL_INSERT_ACTION, params)
                if over:
                    conn.execute(_SQL_GAME_OVER, (game_id,))
                conn.commit()
            except sqlite3.IntegrityError as exc:
                conn.rollback()
                raise StaleVersion(f"action {index} of game {game_id} already exists") from exc
            except BaseException:
                conn.rollback()
                raise

    def append_chat(
        self, game_id: str, seat: int | None, name: str, text: str, version: int | None = None
    ) -> ChatEntry:
        """Commit one chat line (posted at game version ``version``) and return it."""
        created = _now()
        with self.engine.begin() as conn:
            res = conn.execute(
                _INSERT_CHAT,
                {
                    "game_id": game_id,
                    "seat": seat,
                    "name": name,
                    "text": text,
                    "version": version,
                    "created": created,
                },
            )
            key = res.inserted_primary_key
        return ChatEntry(seat, name, text, created, version, key[0] if key else None)

    def set_joined(self, game_id: str, seat: int) -> None:
        """Record that the seat's player has connected (or acted): from now on a bot
        may play for them when they are away."""
        with self.engine.begin() as conn:
            conn.execute(
                update(SeatRow)
                .where(SeatRow.game_id == game_id, SeatRow.seat == seat)
                .values(joined=True)
            )

    def recent_chat(self, game_id: str, limit: int) -> list[ChatEntry]:
        """The newest ``limit`` chat lines of a game, oldest first."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(*_CHAT_COLUMNS)
                .where(ChatRow.game_id == game_id)
                .order_by(ChatRow.id.desc())
                .limit(limit)
            ).all()
        return [_chat_entry(r) for r in reversed(rows)]

    def chat_since(self, game_id: str, after_id: int) -> list[ChatEntry]:
        """The chat lines of a game stored after row ``after_id``, oldest first (a
        cluster's process catching up on lines another one stored)."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(*_CHAT_COLUMNS)
                .where(ChatRow.game_id == game_id, ChatRow.id > after_id)
                .order_by(ChatRow.id)
            ).all()
        return [_chat_entry(r) for r in rows]

    def versions(self, game_ids: list[str]) -> dict[str, int]:
        """The stored version (rows in the log) of each of these games that has rows:
        one query, for a cluster's check that no notice was missed."""
        if not game_ids:
            return {}
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(ActionRow.game_id, func.max(ActionRow.index))
                .where(ActionRow.game_id.in_(game_ids))
                .group_by(ActionRow.game_id)
            ).all()
        return {str(g): int(m) + 1 for g, m in rows if m is not None}

    def log_since(self, game_id: str, index: int) -> Since:
        """What a cluster's process that holds the game at version ``index`` has
        missed: the log rows from ``index`` on, the rematch, the joined seats."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(
                    ActionRow.index.label("idx"),
                    ActionRow.seat,
                    ActionRow.kind,
                    sql_cast(ActionRow.action, Text).label("action"),
                    ActionRow.undoes,
                )
                .where(ActionRow.game_id == game_id, ActionRow.index >= index)
                .order_by(ActionRow.index)
            ).all()
            rematch = conn.execute(
                select(GameRow.rematch_id).where(GameRow.id == game_id)
            ).scalar_one_or_none()
            joined = conn.execute(
                select(SeatRow.seat).where(SeatRow.game_id == game_id, SeatRow.joined)
            ).scalars()
            seats = frozenset(int(x) for x in joined)
        log = [
            LogEntry(
                a.idx, a.seat, a.kind or "action", parse_action(game_id, a.idx, a.action), a.undoes
            )
            for a in rows
        ]
        return Since(log, rematch, seats)

    def set_rematch(self, game_id: str, rematch_id: str) -> bool:
        """Record the rematch once; False if another one was recorded first."""
        with self.session() as s, s.begin():
            res = s.execute(
                update(GameRow)
                .where(GameRow.id == game_id, GameRow.rematch_id.is_(None))
                .values(rematch_id=rematch_id)
            )
            return bool(res.rowcount)  # type: ignore[attr-defined]

    # -------------------------------------------------------------- reads

    def load_game(self, game_id: str) -> GameRecord | None:
        """The game with its whole log; :class:`DamagedRecord` if a row is unreadable."""
        with self.session() as s:
            row = s.get(GameRow, game_id)
            if row is None:
                return None
            seats = s.scalars(
                select(SeatRow).where(SeatRow.game_id == game_id).order_by(SeatRow.seat)
            ).all()
            # The action as text, parsed here: one unreadable row names itself instead
            # of failing somewhere inside the driver.
            actions = s.execute(
                select(
                    ActionRow.index.label("idx"),  # (``Row.index`` is the tuple method)
                    ActionRow.seat,
                    ActionRow.kind,
                    sql_cast(ActionRow.action, Text).label("action"),
                    ActionRow.undoes,
                )
                .where(ActionRow.game_id == game_id)
                .order_by(ActionRow.index)
            ).all()
            log = [
                LogEntry(
                    a.idx,
                    a.seat,
                    a.kind or "action",
                    parse_action(game_id, a.idx, a.action),
                    a.undoes,
                )
                for a in actions
            ]
            return GameRecord(
                id=row.id,
                game=row.game,
                players=row.players,
                seed=row.seed,
                options=dict(row.options or {}),
                created=row.created,
                status=row.status,
                rematch_id=row.rematch_id,
                seats=[
                    SeatInfo(x.seat, x.kind, x.level, x.token_hash, x.name, bool(x.joined))
                    for x in seats
                ],
                actions=effective_actions(log),
                log=log,
            )

    def games_for_tokens(self, hashes: list[str]) -> list[tuple[GameRow, int]]:
        """(game, seat) for every seat holding one of these token hashes, newest first."""
        if not hashes:
            return []
        with self.session() as s:
            rows = s.execute(
                select(GameRow, SeatRow.seat)
                .join(SeatRow, SeatRow.game_id == GameRow.id)
                .where(SeatRow.token_hash.in_(hashes))
                .order_by(GameRow.created.desc())
                .limit(200)
            ).all()
            return [(g, seat) for g, seat in rows]
