"""Ratings and performance (issue 33, docs/ratings.md): each profile's openskill rating per game and its
history, each profile seat's performance in a finished game, the games already taken into them (a row
inserted once, in the transaction that updates the ratings: a second process's attempt changes nothing),
and whether a profile is left out of the boards.

Revision ID: 0012
Revises: 0010
"""

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # a column with a constant default: SQLite adds it in place (no copy of the table its keys point to)
    op.add_column("profiles", sa.Column("hidden_from_boards", sa.Boolean, nullable=False, server_default=sa.false()))
    op.create_table(
        "rated_games",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "ratings",
        sa.Column("profile_id", sa.String(32), sa.ForeignKey("profiles.id", ondelete="CASCADE"), nullable=False),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("updated", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("profile_id", "game", name="pk_ratings"),
    )
    op.create_index("ix_ratings_game", "ratings", ["game"])
    op.create_table(
        "rating_history",
        sa.Column("profile_id", sa.String(32), sa.ForeignKey("profiles.id", ondelete="CASCADE"), nullable=False),
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("profile_id", "game_id", name="pk_rating_history"),
    )
    op.create_table(
        "game_performances",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("profile_id", sa.String(32), sa.ForeignKey("profiles.id", ondelete="CASCADE"), nullable=False),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("mean_loss", sa.Float, nullable=False),
        sa.Column("decisions", sa.Integer, nullable=False),
        sa.Column("score", sa.Integer, nullable=False),
        sa.Column("performance", sa.Float, nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("game_id", "seat", name="pk_game_performances"),
    )
    op.create_index("ix_game_performances_profile", "game_performances", ["profile_id", "game"])
    op.create_index("ix_game_performances_game", "game_performances", ["game", "profile_id"])


def downgrade() -> None:
    op.drop_index("ix_game_performances_game", "game_performances")
    op.drop_index("ix_game_performances_profile", "game_performances")
    op.drop_table("game_performances")
    op.drop_table("rating_history")
    op.drop_index("ix_ratings_game", "ratings")
    op.drop_table("ratings")
    op.drop_table("rated_games")
    with op.batch_alter_table("profiles") as batch:
        batch.drop_column("hidden_from_boards")
