"""Fair shares of a server (issue 32): a game's creator (its client address: bounds per address, and the
open tables listed per address, found by an index on (finished, open_seats)), the
next moment a correspondence game needs the sweeper (`clock_due`, indexed: the sweeper asks for the games
due, never lists them all), and a profile's name skeleton (look-alike names are refused: storage/name_keys.py).
Unfinished correspondence games are due at once, so the first sweep sets their moment; the profiles' keys
are made again (NFKC, without case) where no other profile has the new one.

Revision ID: 0010
Revises: 0009
"""

import sqlalchemy as sa
from alembic import op

from cubilete.storage.name_keys import name_key, name_skeleton

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None

CORRESPONDENCE_CLOCKS = ("86400", "259200", "604800")  # web/table_options.py's, as JSON text


def upgrade() -> None:
    op.add_column("games", sa.Column("creator", sa.String(64)))
    op.add_column("games", sa.Column("clock_due", sa.DateTime(timezone=True)))
    op.create_index("ix_games_creator", "games", ["creator"])
    op.create_index("ix_games_clock_due", "games", ["clock_due"])
    op.create_index("ix_games_open", "games", ["finished", "open_seats", "creator", "updated", "id"])
    games = sa.table(
        "games", sa.column("finished"), sa.column("updated"), sa.column("clock_due"), sa.column("table_options", sa.JSON)
    )
    clock = sa.cast(games.c.table_options["turn_clock"], sa.Text)
    op.execute(
        games.update()
        .where(games.c.finished.is_(False), clock.in_(CORRESPONDENCE_CLOCKS))
        .values(clock_due=games.c.updated)
    )
    op.add_column("profiles", sa.Column("name_skeleton", sa.String(96)))
    profiles = sa.table("profiles", sa.column("id"), sa.column("name"), sa.column("name_key"), sa.column("name_skeleton"))
    connection = op.get_bind()
    rows = connection.execute(sa.select(profiles.c.id, profiles.c.name, profiles.c.name_key)).all()
    keys = {row.name_key for row in rows}
    for row in rows:
        key = name_key(row.name)
        values = {"name_skeleton": name_skeleton(row.name)}
        if key not in keys:
            keys.add(key)
            values["name_key"] = key
        connection.execute(profiles.update().where(profiles.c.id == row.id).values(values))
    with op.batch_alter_table("profiles") as batch:  # SQLite alters a column by copying the table
        batch.alter_column("name_skeleton", existing_type=sa.String(96), nullable=False)
        batch.create_index("ix_profiles_name_skeleton", ["name_skeleton"])


def downgrade() -> None:
    with op.batch_alter_table("profiles") as batch:
        batch.drop_index("ix_profiles_name_skeleton")
        batch.drop_column("name_skeleton")
    op.drop_index("ix_games_open", "games")
    op.drop_index("ix_games_clock_due", "games")
    op.drop_index("ix_games_creator", "games")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("clock_due")
        batch.drop_column("creator")
