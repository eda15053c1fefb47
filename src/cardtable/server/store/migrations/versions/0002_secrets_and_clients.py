"""Private tables' long codes, and who created a table or took a seat.

- game_tables.code and rematch_code: 32 characters (a private table's code has 26, security.py).
- game_tables.creator and seats.client: a hash of the client address that created the table or
  took the seat (the limits per address: tables per client, one seat per client at a public
  table; docs/deploy.md). Never an address itself.
- ix_game_tables_sweep: the expiry of abandoned tables looks tables up by status and age.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-24
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("game_tables") as t:
        t.alter_column("code", type_=sa.String(32), existing_type=sa.String(16),
                       existing_nullable=False)
        t.alter_column("rematch_code", type_=sa.String(32), existing_type=sa.String(16),
                       existing_nullable=True)
        t.add_column(sa.Column("creator", sa.String(64), nullable=True))
    with op.batch_alter_table("seats") as t:
        t.add_column(sa.Column("client", sa.String(64), nullable=True))
    op.create_index("ix_game_tables_sweep", "game_tables", ["status", "updated_at"])
    op.create_index("ix_game_tables_creator", "game_tables", ["creator", "status"])


def downgrade() -> None:
    """The address hashes go; the codes keep their 32 characters: a private table's code (26)
    does not fit the former 16, and the releases before read and write codes of up to 16 in
    the wider column alike (docs/deploy.md, "Backups, restore and rollback")."""
    op.drop_index("ix_game_tables_creator", table_name="game_tables")
    op.drop_index("ix_game_tables_sweep", table_name="game_tables")
    with op.batch_alter_table("seats") as t:
        t.drop_column("client")
    with op.batch_alter_table("game_tables") as t:
        t.drop_column("creator")
