"""Web Push: the server's VAPID key pair and the seats' push subscriptions (server/talk/push.py).

- server_keys: keys the server makes at its first start and keeps (name -> value); the VAPID
  key pair of Web Push (RFC 8292) is `vapid`.
- push_subscriptions: a seat's opted-in browsers (endpoint and the keys of RFC 8291), deleted
  with the table; `sent_n` is the action index of the last move a push went out for.

Revision ID: 0005
Revises: 0004 (accounts)
Create Date: 2026-11-27
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "server_keys",
        sa.Column("name", sa.String(32), primary_key=True),
        sa.Column("value", sa.Text, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_table(
        "push_subscriptions",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.Integer,
                  sa.ForeignKey("game_tables.id", ondelete="CASCADE"), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("endpoint", sa.String(1024), nullable=False),
        sa.Column("p256dh", sa.String(128), nullable=False),
        sa.Column("auth", sa.String(64), nullable=False),
        sa.Column("lang", sa.String(8), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("sent_n", sa.Integer, nullable=True),
        sa.UniqueConstraint("table_id", "seat", "endpoint", name="uq_push_seat_endpoint"),
    )


def downgrade() -> None:
    op.drop_table("push_subscriptions")
    op.drop_table("server_keys")
