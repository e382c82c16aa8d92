"""Web Push: the server's VAPID key pair, the push subscriptions of seats and profiles, and the
reminders already sent (one row per game, turn, kind and seat, so that one process sends each).

Revision ID: 0008
Revises: 0007
"""

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "push_keys",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("private_key", sa.String(64), nullable=False),
        sa.Column("public_key", sa.String(100), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "push_subscriptions",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE")),
        sa.Column("seat", sa.Integer),
        sa.Column("profile_id", sa.String(32)),
        sa.Column("endpoint", sa.String(1024), nullable=False),
        sa.Column("p256dh", sa.String(100), nullable=False),
        sa.Column("auth", sa.String(32), nullable=False),
        sa.Column("lang", sa.String(8), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("game_id", "seat", "endpoint", name="uq_push_subscriptions_seat"),
        sa.UniqueConstraint("profile_id", "endpoint", name="uq_push_subscriptions_profile"),
    )
    op.create_index("ix_push_subscriptions_endpoint", "push_subscriptions", ["endpoint"])
    op.create_table(
        "push_sent",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
        sa.Column("turn", sa.Integer, nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("game_id", "turn", "kind", "seat", name="pk_push_sent"),
    )


def downgrade() -> None:
    op.drop_table("push_sent")
    op.drop_index("ix_push_subscriptions_endpoint", "push_subscriptions")
    op.drop_table("push_subscriptions")
    op.drop_table("push_keys")
