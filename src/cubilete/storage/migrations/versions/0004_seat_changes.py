"""Seats that change during a game (a seat handed to a bot, left, or joined from the open tables).

`seats_version` counts the changes of a game's seats: a change is stored only if the version is
still the one it was made from, so two processes cannot both claim one seat. `open_seats` counts
the seats of a public game nobody has claimed yet, for the open-tables list.

Revision ID: 0004
Revises: 0003
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("seats_version", sa.Integer, nullable=False, server_default="0"))
        batch.add_column(sa.Column("open_seats", sa.Integer, nullable=False, server_default="0"))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("open_seats")
        batch.drop_column("seats_version")
