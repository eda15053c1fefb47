"""Duel tables created before 2026-11-24 name the rule option they were played with.

Since 2026-11-24 the duel's default reading of DU-4 is `shadow_partial` on (any set of shadow
cards may be abluxxed). A table's `base` is its record without the actions; bases written before
then named only the options set differently from the defaults of that time, so a duel base
without `shadow_partial` was played with the whole-stack reading. This revision writes
`"shadow_partial": false` into those bases, so that their actions replay as they were played
(the server rebuilds a table from its base and actions). Nothing in the schema changes.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-24
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

tables = sa.table("game_tables", sa.column("id", sa.Integer), sa.column("game", sa.String),
                  sa.column("base", sa.JSON))


def upgrade() -> None:
    conn = op.get_bind()
    rows = conn.execute(sa.select(tables.c.id, tables.c.base)
                        .where(tables.c.game == "abluxxen")).all()
    for table_id, base in rows:
        if not isinstance(base, dict) or base.get("variant") != "duel":
            continue
        options = base.get("options") or {}
        if "shadow_partial" in options:
            continue
        new = dict(base, options=dict(options, shadow_partial=False))
        conn.execute(tables.update().where(tables.c.id == table_id).values(base=new))


def downgrade() -> None:
    """Nothing to undo: the option named false is what those tables were played with."""
