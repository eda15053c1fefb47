"""A player's identity (people/profiles.py, http/profile.py): one row per account that chose
one.

- profiles: the account (deleted with it), the avatar (an index into the browser's generated
  avatars, NULL: none), the profile line (plain text, at most people/profiles.LINE_MAX
  characters; '' none), the country (an ISO 3166-1 alpha-2 code, NULL: none) and when it
  was last changed.

Revision ID: 0018
Revises: 0017 (the "Play now" queue)
Create Date: 2026-11-29
"""

import sqlalchemy as sa
from alembic import op

revision = "0018"
down_revision = "0017"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "profiles",
        sa.Column("account_id", sa.Integer, sa.ForeignKey(
            "accounts.id", name="fk_profiles_account", ondelete="CASCADE"), primary_key=True),
        sa.Column("avatar", sa.Integer, nullable=True),
        sa.Column("line", sa.String(400), nullable=False, server_default=""),
        sa.Column("country", sa.String(2), nullable=True),
        sa.Column("updated_at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("profiles")
