"""Turn-based tables: the pace of a table and what its driver and "my games" need.

game_tables.pace         'live' (NULL: a table made before, live) or 'turn'
game_tables.moved_at     epoch seconds of a player's last own decision (a turn-based table
                         nobody moved at for Settings.turn_ttl is deleted)
game_tables.reminded     the action index whose reminder went out (one reminder a move)
game_tables.waiting_for  the seats whose move it is, ",0,2," (NULL: nobody's)

Written on branch `pace` after 0006 (table talk); the lead re-chains it at merge.

Revision ID: 0010
Revises: 0009 (passkeys)
Create Date: 2026-11-27
"""

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("game_tables") as t:
        t.add_column(sa.Column("pace", sa.String(8), nullable=True))
        t.add_column(sa.Column("moved_at", sa.Float, nullable=True))
        t.add_column(sa.Column("reminded", sa.Integer, nullable=True))
        t.add_column(sa.Column("waiting_for", sa.String(64), nullable=True))
    op.create_index("ix_game_tables_pace", "game_tables", ["pace", "status"])


def downgrade() -> None:
    op.drop_index("ix_game_tables_pace", table_name="game_tables")
    with op.batch_alter_table("game_tables") as t:
        t.drop_column("waiting_for")
        t.drop_column("reminded")
        t.drop_column("moved_at")
        t.drop_column("pace")
