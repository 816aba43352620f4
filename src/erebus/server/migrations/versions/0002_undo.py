"""undo: actions.kind ("action" | "bot" | "undo") and actions.undoes

The log stays append-only: an undo is a row of its own that names the action it
takes back; replaying the log skips undone actions.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("actions") as batch:
        batch.add_column(sa.Column("kind", sa.String(8), nullable=False, server_default="action"))
        batch.add_column(sa.Column("undoes", sa.Integer, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("actions") as batch:
        batch.drop_column("undoes")
        batch.drop_column("kind")
