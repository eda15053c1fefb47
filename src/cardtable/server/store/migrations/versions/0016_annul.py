"""Annulled rated games (people/ratings.py `annul`): a moderator annuls a finished rated game
(collusion); it stays in the records and the replay but no longer counts.

- game_tables.annulled_at: when the game was annulled (NULL: it counts).
- rating_history.early: the seat left before its player's first own move (rated alone,
  ratings.rated_seats), kept so that a recompute rates the game as it was rated.

Revision ID: 0016
Revises: 0015 (chat moderation)
Create Date: 2026-11-29
"""

import sqlalchemy as sa
from alembic import op

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("game_tables") as t:
        t.add_column(sa.Column("annulled_at", sa.Float, nullable=True))
    with op.batch_alter_table("rating_history") as t:
        t.add_column(sa.Column("early", sa.Boolean, nullable=False,
                               server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table("rating_history") as t:
        t.drop_column("early")
    with op.batch_alter_table("game_tables") as t:
        t.drop_column("annulled_at")
