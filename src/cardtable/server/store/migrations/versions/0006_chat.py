"""The table talk: the table `chat`, one row per message, reaction or change of the
chat's mode (server/talk/chat.py), deleted with its table.

Written on branch `talk` next to the accounts branch's revision 0004: when both are merged,
`down_revision` here becomes that revision's id (so the chain stays linear).

Revision ID: 0006
Revises: 0005 (Web Push)
Create Date: 2026-11-27
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "chat",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.Integer, sa.ForeignKey("game_tables.id", ondelete="CASCADE"),
                  nullable=False),
        sa.Column("channel", sa.String(12), nullable=False),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("spectator", sa.Integer, nullable=True),
        sa.Column("name", sa.String(64), nullable=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("text", sa.String(1200), nullable=True),
        sa.Column("n", sa.Integer, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("ix_chat_table", "chat", ["table_id", "id"])


def downgrade() -> None:
    op.drop_index("ix_chat_table", table_name="chat")
    op.drop_table("chat")
