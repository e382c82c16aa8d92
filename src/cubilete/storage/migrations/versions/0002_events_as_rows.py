"""A game's events as rows, one per event under a unique (game_id, index) key.

The head of each record (format, game, rules, players, seed) moves to columns of `games`,
its events to `events`; the `record` column goes. A record that cannot be read keeps its
game row with an empty head (the game then refuses to load, as it did before).

Revision ID: 0002
Revises: 0001
"""

import json
import logging

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

HEADER = ("format", "game", "rules", "players", "seed")
log = logging.getLogger(__name__)


def upgrade() -> None:
    op.create_table(
        "events",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
        sa.Column("index", sa.Integer, nullable=False),
        sa.Column("event", sa.JSON, nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("game_id", "index", name="pk_events"),
    )
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("game", sa.String(16), nullable=True))
        batch.add_column(sa.Column("rules", sa.JSON, nullable=True))
        batch.add_column(sa.Column("players", sa.JSON, nullable=True))
        batch.add_column(sa.Column("seed", sa.BigInteger, nullable=True))
        batch.add_column(sa.Column("format", sa.Integer, nullable=True))
    _move_records_to_rows(op.get_bind())
    with op.batch_alter_table("games") as batch:
        batch.drop_column("record")


def _move_records_to_rows(connection: sa.Connection) -> None:
    games = sa.table(
        "games",
        sa.column("id", sa.String),
        sa.column("record", sa.JSON),
        sa.column("updated", sa.DateTime(timezone=True)),
        sa.column("format", sa.Integer),
        sa.column("game", sa.String),
        sa.column("rules", sa.JSON),
        sa.column("players", sa.JSON),
        sa.column("seed", sa.BigInteger),
    )
    events = sa.table(
        "events",
        sa.column("game_id", sa.String),
        sa.column("index", sa.Integer),
        sa.column("event", sa.JSON),
        sa.column("created", sa.DateTime(timezone=True)),
    )
    rows = connection.execute(sa.select(games.c.id, sa.cast(games.c.record, sa.Text), games.c.updated)).all()
    for game_id, text, updated in rows:
        try:
            record = json.loads(text)
            header = {field: record[field] for field in HEADER}
            moves = list(record["events"])
        except (TypeError, ValueError, KeyError) as error:
            log.warning("game %s has no readable record (%s): kept without its events", game_id, error)
            continue
        connection.execute(sa.update(games).where(games.c.id == game_id).values(**header))
        if moves:
            connection.execute(
                sa.insert(events),
                [{"game_id": game_id, "index": i, "event": move, "created": updated} for i, move in enumerate(moves)],
            )


def downgrade() -> None:
    raise NotImplementedError("events are not folded back into records: restore a backup instead")
