"""Persistence: games, seats and the append-only action log.

The database is the source of truth; a game's state is rebuilt by replaying
its log.  Every action is committed before anyone is told about it.  SQLite
(default ``sqlite:///var/erebus.db``) and PostgreSQL (``postgresql+psycopg://…``)
both work; the schema is brought up to date with Alembic on start-up.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import Engine, create_engine, event, select, update
from sqlalchemy.engine import make_url
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from erebus.server.models import ActionRow, GameRow, SeatRow

DEFAULT_DB_URL = "sqlite:///var/erebus.db"
MIGRATIONS_DIR = Path(__file__).resolve().parent / "migrations"


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

    def session(self) -> Session:
        return self._session()

    def close(self) -> None:
        self.engine.dispose()

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
        an undo; the undone row itself is never changed."""
        try:
            with self.session() as s, s.begin():
                s.add(
                    ActionRow(
                        game_id=game_id,
                        index=index,
                        seat=seat,
                        action=action,
                        kind=kind,
                        undoes=undoes,
                        created=_now(),
                    )
                )
                if over:
                    s.execute(update(GameRow).where(GameRow.id == game_id).values(status="over"))
        except IntegrityError as exc:
            raise StaleVersion(f"action {index} of game {game_id} already exists") from exc

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
