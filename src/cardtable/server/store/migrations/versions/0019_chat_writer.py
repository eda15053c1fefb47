"""Who wrote a spectator's line of table talk, so that a moderator can mute its writer from
the line (talk/chat.py; http/moderation.py, POST /api/mod/mutes with `line`).

- chat.person: the person half (as seats.client's last 32 digits: a hash of the browser's
  client identity) of the spectator who wrote the line, NULL for a seat's line (the seat
  names its player) and for a spectator whose browser gave no identity.
- chat.account_id: the account of the spectator's session (NULL: a guest, or a seat's line).

Revision ID: 0019
Revises: 0018 (profiles)
Create Date: 2026-11-30
"""

import sqlalchemy as sa
from alembic import op

revision = "0019"
down_revision = "0018"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("chat") as batch:
        batch.add_column(sa.Column("person", sa.String(32), nullable=True))
        batch.add_column(sa.Column("account_id", sa.Integer, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("chat") as batch:
        batch.drop_column("account_id")
        batch.drop_column("person")
