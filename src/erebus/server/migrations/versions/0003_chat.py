"""chat: the chat lines of each game

Chat used to be broadcast only and was lost on reconnect; now each line is stored
and the newest ones are sent to every (re)connecting client.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "chat",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column(
            "game_id",
            sa.String(32),
            sa.ForeignKey("games.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )
    with op.batch_alter_table("chat") as batch:
        batch.create_index("ix_chat_game_id", ["game_id"])


def downgrade() -> None:
    with op.batch_alter_table("chat") as batch:
        batch.drop_index("ix_chat_game_id")
    op.drop_table("chat")
