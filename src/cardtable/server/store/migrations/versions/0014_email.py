"""E-mail of accounts: an optional address verified by a link, password reset by e-mail, and
recovery codes (people/email.py describes all three).

- account_emails: one row per account that has or asks for an address: the verified
  `address` (NULL: none yet) and its lower-cased `address_key` (what a reset request by
  address looks up), the `pending` address a verification message was sent to, the language
  of the account's messages, and when it was verified. Deleted with their account.
- email_tokens: the SHA-256 of each link's random token (never the token), its account,
  what it is for (`verify` an address, `reset` the password), the address it verifies, when
  it was made and until when it is good. Taken (deleted) by its first use: single-use.
- recovery_codes: the SHA-256 of each recovery code of an account (shown once when made),
  and when it was used (NULL: still good).

Revision ID: 0014
Revises: 0013 (moderation)
Create Date: 2026-11-29
"""

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "account_emails",
        sa.Column("account_id", sa.Integer, sa.ForeignKey(
            "accounts.id", name="fk_account_emails_account", ondelete="CASCADE"),
            primary_key=True, autoincrement=False),
        sa.Column("address", sa.String(254), nullable=True),
        sa.Column("address_key", sa.String(254), nullable=True),
        sa.Column("pending", sa.String(254), nullable=True),
        sa.Column("lang", sa.String(8), nullable=False),
        sa.Column("verified_at", sa.Float, nullable=True),
        sa.Column("updated_at", sa.Float, nullable=False),
    )
    op.create_index("ix_account_emails_key", "account_emails", ["address_key"])
    op.create_table(
        "email_tokens",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey(
            "accounts.id", name="fk_email_tokens_account", ondelete="CASCADE"),
            nullable=False),
        sa.Column("purpose", sa.String(8), nullable=False),
        sa.Column("address", sa.String(254), nullable=True),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("expires", sa.Float, nullable=False),
    )
    op.create_index("ix_email_tokens_account", "email_tokens", ["account_id"])
    op.create_index("ix_email_tokens_expires", "email_tokens", ["expires"])
    op.create_table(
        "recovery_codes",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey(
            "accounts.id", name="fk_recovery_codes_account", ondelete="CASCADE"),
            nullable=False),
        sa.Column("code_hash", sa.String(64), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("used_at", sa.Float, nullable=True),
    )
    op.create_index("ix_recovery_codes_account", "recovery_codes", ["account_id"])


def downgrade() -> None:
    op.drop_index("ix_recovery_codes_account", table_name="recovery_codes")
    op.drop_table("recovery_codes")
    op.drop_index("ix_email_tokens_expires", table_name="email_tokens")
    op.drop_index("ix_email_tokens_account", table_name="email_tokens")
    op.drop_table("email_tokens")
    op.drop_index("ix_account_emails_key", table_name="account_emails")
    op.drop_table("account_emails")
