"""seats: players' names and "joined"; chat lines' game version

A human seat whose player never connected is never played by a bot, so whether a
player ever joined must outlive the process (``seats.joined``).  The host may name
the human seats (``seats.name``; NULL: the default "Player n").  A chat line keeps
the game's version when it was posted (``chat.version``; NULL for older lines), so a
client can place it among the game's events.

Takeovers and hand-backs are rows of the action log (``actions.kind`` "takeover" /
"handback"): no schema change, ``kind`` is a String(8).

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("name", sa.String(64), nullable=True))
        batch.add_column(sa.Column("joined", sa.Boolean, nullable=False, server_default=sa.false()))
    with op.batch_alter_table("chat") as batch:
        batch.add_column(sa.Column("version", sa.Integer, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("chat") as batch:
        batch.drop_column("version")
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("joined")
        batch.drop_column("name")
