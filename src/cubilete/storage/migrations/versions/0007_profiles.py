"""Profiles: a name claimed on this server, the device secrets (digests) and passkeys that sign in to
it, the seats that belong to it, and the passkey challenges waiting for their answer (web/profiles.py).

Revision ID: 0007
Revises: 0006
"""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "profiles",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(24), nullable=False),
        sa.Column("name_key", sa.String(96), nullable=False, unique=True),
        sa.Column("seat_key", sa.String(64), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "profile_keys",
        sa.Column("secret_sha256", sa.String(64), primary_key=True),
        sa.Column(
            "profile_id", sa.String(32), sa.ForeignKey("profiles.id", ondelete="CASCADE"), nullable=False, index=True
        ),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "passkeys",
        sa.Column("credential_id", sa.String(1400), primary_key=True),
        sa.Column(
            "profile_id", sa.String(32), sa.ForeignKey("profiles.id", ondelete="CASCADE"), nullable=False, index=True
        ),
        sa.Column("public_key", sa.LargeBinary, nullable=False),
        sa.Column("sign_count", sa.BigInteger, nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "profile_seats",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column(
            "profile_id", sa.String(32), sa.ForeignKey("profiles.id", ondelete="CASCADE"), nullable=False, index=True
        ),
        sa.Column("token_game", sa.String(32), nullable=False),
        sa.PrimaryKeyConstraint("game_id", "seat", name="pk_profile_seats"),
    )
    op.create_table(
        "passkey_challenges",
        sa.Column("challenge", sa.String(64), primary_key=True),
        sa.Column("profile_id", sa.String(32), sa.ForeignKey("profiles.id", ondelete="CASCADE"), nullable=True),
        sa.Column("expires", sa.DateTime(timezone=True), nullable=False, index=True),
    )


def downgrade() -> None:
    for table in ("passkey_challenges", "profile_seats", "passkeys", "profile_keys", "profiles"):
        op.drop_table(table)
