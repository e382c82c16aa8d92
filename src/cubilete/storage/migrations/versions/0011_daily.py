"""The daily challenge (issue 33): the server's daily secret (one row), each profile's ranked try of a
day's challenge (one per profile, day and game: a unique key every process shares), and each ranked
decision's position and choice, for how the day's players chose on the same dice.

Revision ID: 0011
Revises: 0010
"""

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "daily_keys",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("secret", sa.String(64), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "daily_tries",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("date", sa.String(10), nullable=False),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("profile_id", sa.String(32), sa.ForeignKey("profiles.id", ondelete="CASCADE"), nullable=False),
        sa.Column("started", sa.DateTime(timezone=True), nullable=False),
        sa.Column("computer_from", sa.Integer),
        sa.Column("finished_at", sa.DateTime(timezone=True)),
        sa.Column("decisions", sa.Integer),
        sa.Column("mean_loss", sa.Float),
        sa.Column("score", sa.Integer),
        sa.UniqueConstraint("date", "game", "profile_id", name="uq_daily_tries_profile"),
    )
    op.create_index("ix_daily_tries_board", "daily_tries", ["date", "game", "finished_at"])
    op.create_index("ix_daily_tries_profile", "daily_tries", ["profile_id", "date"])
    op.create_table(
        "daily_choices",
        sa.Column(
            "game_id", sa.String(32), sa.ForeignKey("daily_tries.game_id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("index", sa.Integer, nullable=False),
        sa.Column("date", sa.String(10), nullable=False),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("position", sa.String(64), nullable=False),
        sa.Column("action", sa.String(200), nullable=False),
        sa.PrimaryKeyConstraint("game_id", "index", name="pk_daily_choices"),
    )
    op.create_index("ix_daily_choices_position", "daily_choices", ["date", "game", "position"])


def downgrade() -> None:
    op.drop_index("ix_daily_choices_position", "daily_choices")
    op.drop_table("daily_choices")
    op.drop_index("ix_daily_tries_profile", "daily_tries")
    op.drop_index("ix_daily_tries_board", "daily_tries")
    op.drop_table("daily_tries")
    op.drop_table("daily_keys")
