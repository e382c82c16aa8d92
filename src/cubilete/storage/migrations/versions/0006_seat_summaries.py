"""Each finished game's result per seat, stored once for the players' records: score, place, and
its review's number of decisions and total loss (in the review's unit).

Revision ID: 0006
Revises: 0005
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "seat_summaries",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("score", sa.Integer, nullable=False),
        sa.Column("place", sa.Integer, nullable=False),
        sa.Column("decisions", sa.Integer, nullable=False),
        sa.Column("total_loss", sa.Float, nullable=False),
        sa.Column("unit", sa.String(16), nullable=False),
        sa.PrimaryKeyConstraint("game_id", "seat", name="pk_seat_summaries"),
    )


def downgrade() -> None:
    op.drop_table("seat_summaries")
