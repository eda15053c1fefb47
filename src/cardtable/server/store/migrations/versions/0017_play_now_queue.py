"""The "Play now" queue (tables/queue.py, http/queue.py): one row per player waiting to be
paired at a new table.

- queue_entries: the entry's ticket (SHA-256; the ticket is also the seat token at the
  table the entry is paired to), its owner (one entry an account or guest), the address
  group (the per-address limit), name, account, game, rule set (NULL: any), rated, pace,
  bot_wait (seconds before bots fill a casual table; NULL: never), the rating when it
  joined, since, seen_at (the owner's last poll), and once paired the table and seat.

Revision ID: 0017
Revises: 0016 (annulled games)
Create Date: 2026-11-29
"""

import sqlalchemy as sa
from alembic import op

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "queue_entries",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("ticket_hash", sa.String(64), nullable=False),
        sa.Column("owner", sa.String(80), nullable=False),
        sa.Column("addr", sa.String(32), nullable=False),
        sa.Column("client", sa.String(64), nullable=False),
        sa.Column("account_id", sa.Integer, sa.ForeignKey(
            "accounts.id", name="fk_queue_entries_account", ondelete="CASCADE"),
            nullable=True),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("variant", sa.String(32), nullable=True),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("pace", sa.String(8), nullable=False),
        sa.Column("bot_wait", sa.Float, nullable=True),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("since", sa.Float, nullable=False),
        sa.Column("seen_at", sa.Float, nullable=False),
        sa.Column("table_code", sa.String(32), nullable=True),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.UniqueConstraint("ticket_hash", name="uq_queue_ticket"),
        sa.UniqueConstraint("owner", name="uq_queue_owner"),
    )
    op.create_index("ix_queue_entries_addr", "queue_entries", ["addr"])


def downgrade() -> None:
    op.drop_index("ix_queue_entries_addr", "queue_entries")
    op.drop_table("queue_entries")
