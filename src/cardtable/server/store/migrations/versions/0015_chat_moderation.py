"""Moderation of table talk: a moderator removes a chat line.

- chat.removed_at / chat.removed_by: when a moderator removed the line and who (NULL: not
  removed). The row and its text stay (the evidence of reports and the audit log); players
  get "removed by a moderator" instead of it, in the table's chat and in the replay.

Revision ID: 0015
Revises: 0014 (e-mail)
Create Date: 2026-11-29
"""

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("chat") as batch:
        batch.add_column(sa.Column("removed_at", sa.Float, nullable=True))
        batch.add_column(sa.Column("removed_by", sa.String(80), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("chat") as batch:
        batch.drop_column("removed_by")
        batch.drop_column("removed_at")
