"""Accounts and their sessions; seats may belong to an account.

- accounts: a name (as strict as a seat's, security.clean_name) with its two lookalike keys
  (security.name_keys), each unique; an Argon2id hash of the password (passwords.py).
- sessions: the SHA-256 of a session cookie's random value, its account, when it was made,
  last seen and when it expires (sessions.py).
- seats.account_id: the account whose player holds the seat (taken while logged in, or a
  guest's seat claimed at sign-up or log-in). NULL for guests and bots; set NULL when the
  account is deleted (its seats keep their games under a neutral name).

Existing tables, seats and actions are kept as they are (every seat a guest's).

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-27
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("name_key", sa.String(256), nullable=False, unique=True),
        sa.Column("name_key2", sa.String(256), nullable=False, unique=True),
        sa.Column("password_hash", sa.String(256), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("password_at", sa.Float, nullable=False),
    )
    op.create_table(
        "sessions",
        sa.Column("id_hash", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.Integer,
                  sa.ForeignKey("accounts.id", name="fk_sessions_account", ondelete="CASCADE"),
                  nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("last_seen", sa.Float, nullable=False),
        sa.Column("expires", sa.Float, nullable=False),
    )
    op.create_index("ix_sessions_account", "sessions", ["account_id"])
    with op.batch_alter_table("seats") as t:
        t.add_column(sa.Column("account_id", sa.Integer, nullable=True))
        t.create_foreign_key("fk_seats_account", "accounts", ["account_id"], ["id"],
                             ondelete="SET NULL")
    op.create_index("ix_seats_account", "seats", ["account_id"])


def downgrade() -> None:
    op.drop_index("ix_seats_account", table_name="seats")
    with op.batch_alter_table("seats") as t:
        t.drop_constraint("fk_seats_account", type_="foreignkey")
        t.drop_column("account_id")
    op.drop_index("ix_sessions_account", table_name="sessions")
    op.drop_table("sessions")
    op.drop_table("accounts")
