"""Friends: friend requests by name, friendships, presence, invitations to a
table, and the accounts' Web Push subscriptions for invitations (server/people/friends.py).

- friend_requests: a request of an account for a name, kept with the name's two lookalike
  keys (security.name_keys) whether or not an account has that name (so the answer never
  tells); `declined_at` once the addressee declined (the requester is not told, and cannot
  ask again); `withdrawn_at` once the requester took back a declined one (kept, so that
  asking again does not show it again).
- friends: one row each way per friendship.
- presence: when an account was last seen online (a page of the site polling, or an open
  WebSocket), shared by every server process.
- invites: an invitation of a friend to a table that waits for players; deleted with the
  table, shown only while the table waits.
- account_push: where to send an invitation as a browser notification (Web Push).

Revision ID: 0008
Revises: 0007 (ratings)
Create Date: 2026-11-27
"""

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def _account(name: str, fk: str, **kw) -> sa.Column:
    return sa.Column(name, sa.Integer, sa.ForeignKey("accounts.id", name=fk, ondelete="CASCADE"),
                     **kw)


def upgrade() -> None:
    op.create_table(
        "friend_requests",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        _account("from_id", "fk_freq_from", nullable=False),
        sa.Column("to_name", sa.String(64), nullable=False),
        sa.Column("to_key", sa.String(256), nullable=False),
        sa.Column("to_key2", sa.String(256), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("declined_at", sa.Float, nullable=True),
        sa.Column("withdrawn_at", sa.Float, nullable=True),
        sa.UniqueConstraint("from_id", "to_key", name="uq_friend_request"),
    )
    op.create_index("ix_friend_requests_key", "friend_requests", ["to_key"])
    op.create_index("ix_friend_requests_key2", "friend_requests", ["to_key2"])
    op.create_table(
        "friends",
        _account("account_id", "fk_friends_account", primary_key=True),
        _account("friend_id", "fk_friends_friend", primary_key=True),
        sa.Column("since", sa.Float, nullable=False),
    )
    op.create_table(
        "presence",
        _account("account_id", "fk_presence_account", primary_key=True),
        sa.Column("seen_at", sa.Float, nullable=False),
    )
    op.create_table(
        "invites",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.Integer, sa.ForeignKey("game_tables.id", name="fk_invites_table",
                                                        ondelete="CASCADE"), nullable=False),
        _account("from_id", "fk_invites_from", nullable=False),
        _account("to_id", "fk_invites_to", nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.UniqueConstraint("table_id", "to_id", name="uq_invite"),
    )
    op.create_index("ix_invites_to", "invites", ["to_id"])
    op.create_table(
        "account_push",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        _account("account_id", "fk_account_push_account", nullable=False),
        sa.Column("endpoint", sa.String(1024), nullable=False),
        sa.Column("p256dh", sa.String(128), nullable=False),
        sa.Column("auth", sa.String(64), nullable=False),
        sa.Column("lang", sa.String(8), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.UniqueConstraint("account_id", "endpoint", name="uq_account_push"),
    )


def downgrade() -> None:
    op.drop_table("account_push")
    op.drop_index("ix_invites_to", table_name="invites")
    op.drop_table("invites")
    op.drop_table("presence")
    op.drop_table("friends")
    op.drop_index("ix_friend_requests_key2", table_name="friend_requests")
    op.drop_index("ix_friend_requests_key", table_name="friend_requests")
    op.drop_table("friend_requests")
