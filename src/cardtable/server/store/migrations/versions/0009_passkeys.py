"""Passkeys (WebAuthn credentials) of accounts, and the challenges of their ceremonies
(server/people/passkeys.py describes both).

- passkeys: one row per credential: its account, the credential id (base64url, unique),
  the COSE public key, the sign counter, the transports the browser named, the user handle
  (the account's random WebAuthn user id), a label the player gave, when it was made and
  last used. Deleted with their account.
- passkey_challenges: a ceremony under way: the SHA-256 of a short-lived cookie's random
  value, the challenge, what it is for, the account (adding a passkey) or the name (a
  sign-up), until when it is good. Taken (deleted) by the first answer: single-use.

A password-less account (signed up with a passkey) stores '' as its password hash: no
password matches it (passwords.py), so nothing of table `accounts` changes.

Revision ID: 0009
Revises: 0008 (friends)
Create Date: 2026-11-27
"""

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "passkeys",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey(
            "accounts.id", name="fk_passkeys_account", ondelete="CASCADE"), nullable=False),
        sa.Column("credential_id", sa.String(1400), nullable=False, unique=True),
        sa.Column("public_key", sa.LargeBinary, nullable=False),
        sa.Column("sign_count", sa.BigInteger, nullable=False),
        sa.Column("transports", sa.String(200), nullable=False),
        sa.Column("user_handle", sa.String(100), nullable=False),
        sa.Column("label", sa.String(64), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("last_used", sa.Float, nullable=True),
    )
    op.create_index("ix_passkeys_account", "passkeys", ["account_id"])
    op.create_table(
        "passkey_challenges",
        sa.Column("id_hash", sa.String(64), primary_key=True),
        sa.Column("challenge", sa.String(128), nullable=False),
        sa.Column("purpose", sa.String(12), nullable=False),
        sa.Column("account_id", sa.Integer, nullable=True),
        sa.Column("name", sa.String(64), nullable=True),
        sa.Column("user_handle", sa.String(100), nullable=True),
        sa.Column("expires", sa.Float, nullable=False),
    )
    op.create_index("ix_passkey_challenges_expires", "passkey_challenges", ["expires"])


def downgrade() -> None:
    op.drop_index("ix_passkey_challenges_expires", table_name="passkey_challenges")
    op.drop_table("passkey_challenges")
    op.drop_index("ix_passkeys_account", table_name="passkeys")
    op.drop_table("passkeys")
