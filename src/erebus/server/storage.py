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
larger log size).  One server process per SQLite file; several processes should
share a PostgreSQL database instead.
"""

from __future__ import annotations

import hashlib
import logging
import os
import sqlite3
import threading
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, cast

from alembic import command
from alembic.config import Config
from sqlalchemy import Engine, Table, create_engine, event, insert, select, update
from sqlalchemy.engine import make_url
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from erebus.server.models import ActionRow, ChatRow, GameRow, SeatRow

DEFAULT_DB_URL = "sqlite:///var/erebus.db"
CHECKPOINT_S = 1.0  # seconds between WAL checkpoints (SQLite files)
WAL_AUTOCHECKPOINT = 10_000  # pages: SQLite's own checkpoint, only if ours falls behind
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


@dataclass(frozen=True)
class LogEntry:
    """One row of the action log: ``kind`` is "action", "bot" or "undo"."""

    index: int
    seat: int
    kind: str
    action: dict[str, Any]
    undoes: int | None = None


def effective_actions(log: list[LogEntry]) -> list[dict[str, Any]]:
    """The actions that count: undo rows and the actions they take back are skipped."""
    undone = {e.undoes for e in log if e.kind == "undo"}
    return [dict(e.action) for e in log if e.kind != "undo" and e.index not in undone]


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
class ChatEntry:
    """One stored chat line (revision 0003); ``seat`` None would be a spectator's."""

    seat: int | None
    name: str
    text: str
    created: datetime


def _now() -> datetime:
    return datetime.now(UTC)


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
    return create_engine(url, pool_pre_ping=True)


def upgrade(engine: Engine) -> None:
    """Bring the schema to the newest Alembic revision."""
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS_DIR))
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "head")


class Storage:
    def __init__(self, db_url: str | None = None) -> None:
        self.url = resolve_db_url(db_url)
        self.engine = make_engine(self.url)
        upgrade(self.engine)
        self._session = sessionmaker(self.engine, expire_on_commit=False)
        sqlite = self.engine.dialect.name == "sqlite"
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
        self.engine.dispose()

    def checkpoint(self) -> None:
        """Copy the SQLite write-ahead log back into the database file (without
        waiting for readers or writers: PASSIVE)."""
        with self.engine.connect() as conn:
            conn.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")

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
        if self._raw_ok:
            self._append_action_raw(game_id, index, seat, action, over, kind, undoes)
            return
        row = {
            "game_id": game_id,
            "index": index,
            "seat": seat,
            "action": action,
            "kind": kind,
            "undoes": undoes,
            "created": _now(),
        }
        try:
            with self.engine.begin() as conn:
                conn.execute(_INSERT_ACTION, row)
                if over:
                    conn.execute(update(GameRow).where(GameRow.id == game_id).values(status="over"))
        except IntegrityError as exc:
            raise StaleVersion(f"action {index} of game {game_id} already exists") from exc

    def _append_action_raw(
        self,
        game_id: str,
        index: int,
        seat: int,
        action: dict[str, Any],
        over: bool,
        kind: str,
        undoes: int | None,
    ) -> None:
        """:meth:`append_action` on a SQLite file, through the DB-API directly."""
        ba, bc = self._bind_action, self._bind_created
        params = (
            game_id,
            index,
            seat,
            ba(action) if ba else action,
            kind,
            undoes,
            bc(_now()) if bc else _now(),
        )
        with self._raw_lock:
            if self._raw is None:
                self._raw = self.engine.raw_connection()
            conn = self._raw.driver_connection
            try:
                conn.execute(_SQL_INSERT_ACTION, params)
                if over:
                    conn.execute(_SQL_GAME_OVER, (game_id,))
                conn.commit()
            except sqlite3.IntegrityError as exc:
                conn.rollback()
                raise StaleVersion(f"action {index} of game {game_id} already exists") from exc
            except BaseException:
                conn.rollback()
                raise

    def append_chat(self, game_id: str, seat: int | None, name: str, text: str) -> ChatEntry:
        """Commit one chat line and return it as stored."""
        entry = ChatEntry(seat, name, text, _now())
        with self.engine.begin() as conn:
            conn.execute(
                _INSERT_CHAT,
                {
                    "game_id": game_id,
                    "seat": seat,
                    "name": name,
                    "text": text,
                    "created": entry.created,
                },
            )
        return entry

    def recent_chat(self, game_id: str, limit: int) -> list[ChatEntry]:
        """The newest ``limit`` chat lines of a game, oldest first."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(ChatRow.seat, ChatRow.name, ChatRow.text, ChatRow.created)
                .where(ChatRow.game_id == game_id)
                .order_by(ChatRow.id.desc())
                .limit(limit)
            ).all()
        return [ChatEntry(r.seat, r.name, r.text, r.created) for r in reversed(rows)]

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
        with self.session() as s:
            row = s.get(GameRow, game_id)
            if row is None:
                return None
            seats = s.scalars(
                select(SeatRow).where(SeatRow.game_id == game_id).order_by(SeatRow.seat)
            ).all()
            actions = s.scalars(
                select(ActionRow).where(ActionRow.game_id == game_id).order_by(ActionRow.index)
            ).all()
            log = [
                LogEntry(a.index, a.seat, a.kind or "action", dict(a.action), a.undoes)
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
                seats=[SeatInfo(x.seat, x.kind, x.level, x.token_hash) for x in seats],
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
