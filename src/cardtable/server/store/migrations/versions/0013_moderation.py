"""Moderation: roles, the audit log, bans and suspensions, blocks, reports.

- accounts.role: player (everybody), moderator or admin (server/mod/moderation.py).
- audit_log: one row per moderator action: who (the account, or the operator's terminal),
  what, the target, when and why.
- bans: a ban (no `until`) or a suspension (until `until`) of an account, a person (the
  person half of seats.client: the browser's client identity, or a guest without one by
  its address) or an address group (an IPv4 address, an IPv6 /64); `lifted_at` once lifted.
- blocks: an account blocks another (private to the blocker).
- reports: a player reports a player or a chat line, with the evidence; a moderator claims
  and resolves it.
- name_reservations: the name an account had before a moderator renamed it (its two
  lookalike keys), nobody's to sign up with until `until`.

Revision ID: 0013
Revises: 0012 (one seat per account and table; provisional ratings)
Create Date: 2026-11-29
"""

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def _account(name: str, fk: str, **kw) -> sa.Column:
    return sa.Column(name, sa.Integer, sa.ForeignKey("accounts.id", name=fk, ondelete="CASCADE"),
                     **kw)


def upgrade() -> None:
    with op.batch_alter_table("accounts") as t:
        t.add_column(sa.Column("role", sa.String(16), nullable=False,
                               server_default="player"))
    op.create_table(
        "audit_log",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("actor", sa.String(80), nullable=False),
        sa.Column("action", sa.String(32), nullable=False),
        sa.Column("target", sa.String(120), nullable=False),
        sa.Column("reason", sa.String(500), nullable=False),
        sa.Column("detail", sa.Text, nullable=False),
    )
    op.create_index("ix_audit_log_at", "audit_log", ["at"])
    op.create_table(
        "bans",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("target", sa.String(64), nullable=False),
        sa.Column("reason", sa.String(500), nullable=False),
        sa.Column("until", sa.Float, nullable=True),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("created_by", sa.String(80), nullable=False),
        sa.Column("lifted_at", sa.Float, nullable=True),
    )
    op.create_index("ix_bans_target", "bans", ["kind", "target"])
    op.create_table(
        "blocks",
        _account("blocker_id", "fk_blocks_blocker", primary_key=True),
        _account("blocked_id", "fk_blocks_blocked", primary_key=True),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_index("ix_blocks_blocked", "blocks", ["blocked_id"])
    op.create_table(
        "reports",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        _account("reporter_id", "fk_reports_reporter", nullable=False),
        sa.Column("target_id", sa.Integer, sa.ForeignKey("accounts.id", name="fk_reports_target",
                                                         ondelete="SET NULL"), nullable=True),
        sa.Column("target_name", sa.String(64), nullable=False),
        sa.Column("reason", sa.String(16), nullable=False),
        sa.Column("note", sa.String(500), nullable=False),
        sa.Column("evidence", sa.Text, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("claimed_by", sa.String(80), nullable=True),
        sa.Column("claimed_at", sa.Float, nullable=True),
        sa.Column("resolved_at", sa.Float, nullable=True),
        sa.Column("outcome", sa.String(16), nullable=True),
        sa.Column("resolution", sa.String(500), nullable=True),
    )
    op.create_index("ix_reports_open", "reports", ["resolved_at", "created_at"])
    op.create_index("ix_reports_reporter", "reports", ["reporter_id"])
    op.create_table(
        "name_reservations",
        sa.Column("name_key", sa.String(256), primary_key=True),
        sa.Column("name_key2", sa.String(256), nullable=False),
        sa.Column("until", sa.Float, nullable=False),
    )
    op.create_index("ix_name_reservations_key2", "name_reservations", ["name_key2"])


def downgrade() -> None:
    op.drop_index("ix_name_reservations_key2", table_name="name_reservations")
    op.drop_table("name_reservations")
    op.drop_index("ix_reports_reporter", table_name="reports")
    op.drop_index("ix_reports_open", table_name="reports")
    op.drop_table("reports")
    op.drop_index("ix_blocks_blocked", table_name="blocks")
    op.drop_table("blocks")
    op.drop_index("ix_bans_target", table_name="bans")
    op.drop_table("bans")
    op.drop_index("ix_audit_log_at", table_name="audit_log")
    op.drop_table("audit_log")
    with op.batch_alter_table("accounts") as t:
        t.drop_column("role")
