"""Moderation of table talk and warnings: a moderator removes a chat line, mutes a player
for a time, or warns an account; admins post an announcement.

- chat.removed_at / chat.removed_by: when a moderator removed the line and who (NULL: not
  removed). The row and its text stay (the evidence of reports and the audit log); players
  get "removed by a moderator" instead of it, in the table's chat and in the replay.
- mutes: a player muted in table talk until `until`: `kind` `account` (target: the
  account's id) or `person` (the person half of seats.client, as bans name a guest), why,
  who made it and when, and when it was lifted (NULL: not lifted).
- warnings: a moderator's warning to an account: its text, when and by whom, and when the
  player read it (NULL: unread). Deleted with the account.
- announcements: a banner for everybody (lobby and tables) in English and German, until when
  (NULL: until ended), who posted it and when, and when it was ended (NULL: not ended).

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
    op.create_table(
        "mutes",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("target", sa.String(64), nullable=False),
        sa.Column("reason", sa.String(500), nullable=False),
        sa.Column("until", sa.Float, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("created_by", sa.String(80), nullable=False),
        sa.Column("lifted_at", sa.Float, nullable=True),
    )
    op.create_index("ix_mutes_target", "mutes", ["kind", "target"])
    op.create_table(
        "warnings",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey(
            "accounts.id", name="fk_warnings_account", ondelete="CASCADE"), nullable=False),
        sa.Column("text", sa.String(500), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("created_by", sa.String(80), nullable=False),
        sa.Column("read_at", sa.Float, nullable=True),
    )
    op.create_index("ix_warnings_account", "warnings", ["account_id"])
    op.create_table(
        "announcements",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("text_en", sa.String(300), nullable=False),
        sa.Column("text_de", sa.String(300), nullable=False),
        sa.Column("until", sa.Float, nullable=True),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("created_by", sa.String(80), nullable=False),
        sa.Column("ended_at", sa.Float, nullable=True),
    )
    with op.batch_alter_table("chat") as batch:
        batch.add_column(sa.Column("removed_at", sa.Float, nullable=True))
        batch.add_column(sa.Column("removed_by", sa.String(80), nullable=True))


def downgrade() -> None:
    op.drop_table("announcements")
    op.drop_index("ix_warnings_account", table_name="warnings")
    op.drop_table("warnings")
    op.drop_index("ix_mutes_target", table_name="mutes")
    op.drop_table("mutes")
    with op.batch_alter_table("chat") as batch:
        batch.drop_column("removed_by")
        batch.drop_column("removed_at")
