"""When a seat's player first connected to a table (game_tables.seen_at): a table at which a
seat was taken and nobody ever connected expires within minutes (Settings.unseen_ttl), instead
of holding its creator's quotas and the bots' capacity for days.

game_tables.seen_at   epoch seconds of the first connection of a seat's player (NULL: none)

The tables already there count as seen (seen_at = updated_at): they keep the expiry they had.

Written on branch `caps42` after 0010 (turn-based tables); the lead re-chains it at merge.

Revision ID: 0011
Revises: 0010 (pace)
Create Date: 2026-11-29
"""

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("game_tables") as t:
        t.add_column(sa.Column("seen_at", sa.Float, nullable=True))
    op.execute("UPDATE game_tables SET seen_at = updated_at")


def downgrade() -> None:
    with op.batch_alter_table("game_tables") as t:
        t.drop_column("seen_at")
