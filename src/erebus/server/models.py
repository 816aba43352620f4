"""Database tables (SQLAlchemy 2 declarative).  The schema's history lives in
``migrations/`` (Alembic); keep both in step."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    ForeignKey,
    Integer,
    String,
    Text,
    UniqueConstraint,
    false,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    pass


class GameRow(Base):
    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(32))
    players: Mapped[int] = mapped_column(Integer)
    seed: Mapped[int] = mapped_column(BigInteger)
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    status: Mapped[str] = mapped_column(String(16))  # "active" | "over"
    rematch_id: Mapped[str | None] = mapped_column(String(32), nullable=True)


class SeatRow(Base):
    __tablename__ = "seats"

    game_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(8))  # "human" | "bot"
    level: Mapped[str | None] = mapped_column(String(16), nullable=True)
    # SHA-256 (hex) of the seat token; the token itself is never stored.
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)
    # The name the host typed for a human seat; NULL: "Player n" (revision 0004).
    name: Mapped[str | None] = mapped_column(String(64), nullable=True)
    # The seat's player has connected (or acted) at least once: only then may a bot
    # ever play for them (revision 0004).
    joined: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())


class ActionRow(Base):
    """The append-only action log; a game's state is ``replay`` of it."""

    __tablename__ = "actions"
    __table_args__ = (UniqueConstraint("game_id", "index", name="uq_actions_game_index"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("games.id", ondelete="CASCADE"), index=True
    )
    index: Mapped[int] = mapped_column("index", Integer)
    seat: Mapped[int] = mapped_column(Integer)
    action: Mapped[dict[str, Any]] = mapped_column(JSON)
    # "action": a move by the seat's player; "bot": a move by a bot (a bot seat, or the
    # autopilot of a human seat); "undo": takes back action number ``undoes`` (revision 0002);
    # "takeover" / "handback": the autopilot starts / stops playing the seat (``action``
    # holds {"reason", "level"} / {}; no schema change).
    kind: Mapped[str] = mapped_column(String(8), default="action", server_default="action")
    undoes: Mapped[int | None] = mapped_column(Integer, nullable=True)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ChatRow(Base):
    """Chat lines of a game (revision 0003), so a reconnecting player sees the recent
    conversation.  Chat is not part of the game: the action log never refers to it."""

    __tablename__ = "chat"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("games.id", ondelete="CASCADE"), index=True
    )
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    name: Mapped[str] = mapped_column(String(64))
    text: Mapped[str] = mapped_column(Text)
    # The game's version when the line was posted (revision 0004; NULL before).
    version: Mapped[int | None] = mapped_column(Integer, nullable=True)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))
