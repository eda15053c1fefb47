"""Human ratings: rated tables, a rating per player and game, its history.

- game_tables.rated: the host chose "rated" before the start (every human seat an account's);
  existing tables are unrated.
- game_tables.result: a finished game's scores and winners (JSON), written when it ends
  (the profiles' games won); NULL for games that ended before this revision.
- ratings: one row per (game, player): `player` is "a:<account id>" for an account, "b:<bot
  name>" for a bot level; OpenSkill's mu and sigma, games rated, games won. An account's rows
  go with the account.
- rating_history: one row per rated seat and finished rated game: the rating before and after,
  the seat's rank and whether it left. Deleted with its table or its account.

Revision ID: 0007
Revises: 0006 (table talk)
Create Date: 2026-11-27
"""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("game_tables") as t:
        t.add_column(sa.Column("rated", sa.Boolean, nullable=False,
                               server_default=sa.false()))
        t.add_column(sa.Column("result", sa.JSON, nullable=True))
    op.create_table(
        "ratings",
        sa.Column("game", sa.String(16), primary_key=True),
        sa.Column("player", sa.String(48), primary_key=True),
        sa.Column("account_id", sa.Integer,
                  sa.ForeignKey("accounts.id", name="fk_ratings_account", ondelete="CASCADE"),
                  nullable=True),
        sa.Column("bot", sa.String(32), nullable=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("wins", sa.Integer, nullable=False),
        sa.Column("updated_at", sa.Float, nullable=False),
    )
    op.create_index("ix_ratings_account", "ratings", ["account_id"])
    op.create_table(
        "rating_history",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.Integer,
                  sa.ForeignKey("game_tables.id", name="fk_rating_history_table",
                                ondelete="CASCADE"), nullable=False),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("player", sa.String(48), nullable=False),
        sa.Column("account_id", sa.Integer,
                  sa.ForeignKey("accounts.id", name="fk_rating_history_account",
                                ondelete="CASCADE"), nullable=True),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("rank", sa.Integer, nullable=False),
        sa.Column("left_game", sa.Boolean, nullable=False),
        sa.Column("mu_before", sa.Float, nullable=False),
        sa.Column("sigma_before", sa.Float, nullable=False),
        sa.Column("mu_after", sa.Float, nullable=False),
        sa.Column("sigma_after", sa.Float, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("ix_rating_history_player", "rating_history", ["player", "game", "id"])
    op.create_index("ix_rating_history_table", "rating_history", ["table_id"])


def downgrade() -> None:
    op.drop_index("ix_rating_history_table", table_name="rating_history")
    op.drop_index("ix_rating_history_player", table_name="rating_history")
    op.drop_table("rating_history")
    op.drop_index("ix_ratings_account", table_name="ratings")
    op.drop_table("ratings")
    with op.batch_alter_table("game_tables") as t:
        t.drop_column("result")
        t.drop_column("rated")
