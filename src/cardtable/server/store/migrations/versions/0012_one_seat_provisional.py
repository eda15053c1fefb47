"""One seat per account and table; provisional ratings (their opponents counted).

- seats: an account holds at most one seat of a table (unique index on (table_id,
  account_id); NULLs, seats without an account, do not collide). An account that held several
  seats of one table before keeps the first; the others keep their games without an account,
  as a deleted account's seats do.
- ratings.opponents: how many different players the rating was rated against; a rating is
  provisional until it has enough games against enough of them (ratings.established).
- rating_opponents: those players, one row per (game, player, opponent); an account's rows go
  with the account. Filled here from the rating history (the players rated at one table).

Revision ID: 0012
Revises: 0011 (tables nobody connected to)
Create Date: 2026-11-29
"""

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # the lowest seat of an account at a table stays its own (that row is never changed, so
    # the statement reads the same on SQLite, row by row, and on PostgreSQL, one snapshot)
    op.execute("UPDATE seats SET account_id = NULL WHERE account_id IS NOT NULL AND EXISTS "
               "(SELECT 1 FROM seats s2 WHERE s2.table_id = seats.table_id AND "
               "s2.account_id = seats.account_id AND s2.seat < seats.seat)")
    op.create_index("ux_seats_table_account", "seats", ["table_id", "account_id"], unique=True)
    with op.batch_alter_table("ratings") as t:
        t.add_column(sa.Column("opponents", sa.Integer, nullable=False, server_default="0"))
    op.create_table(
        "rating_opponents",
        sa.Column("game", sa.String(16), primary_key=True),
        sa.Column("player", sa.String(48), primary_key=True),
        sa.Column("opponent", sa.String(48), primary_key=True),
        sa.Column("account_id", sa.Integer,
                  sa.ForeignKey("accounts.id", name="fk_rating_opponents_account",
                                ondelete="CASCADE"), nullable=True),
    )
    op.create_index("ix_rating_opponents_account", "rating_opponents", ["account_id"])
    op.execute("INSERT INTO rating_opponents (game, player, opponent, account_id) "
               "SELECT DISTINCT h.game, h.player, o.player, h.account_id FROM rating_history h "
               "JOIN rating_history o ON o.table_id = h.table_id AND o.player <> h.player")
    op.execute("UPDATE ratings SET opponents = (SELECT count(*) FROM rating_opponents o "
               "WHERE o.game = ratings.game AND o.player = ratings.player)")


def downgrade() -> None:
    op.drop_index("ix_rating_opponents_account", table_name="rating_opponents")
    op.drop_table("rating_opponents")
    with op.batch_alter_table("ratings") as t:
        t.drop_column("opponents")
    op.drop_index("ux_seats_table_account", table_name="seats")
