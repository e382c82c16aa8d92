"""A profile's push subscriptions go with the profile: a foreign key with ON DELETE CASCADE from
push_subscriptions.profile_id to profiles.id (its device secrets, passkeys, seat links and passkey
challenges had one since 0007). The subscriptions of profiles deleted before this one are deleted
first: a key cannot be added over them.

Revision ID: 0009
Revises: 0008
"""

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None

PUSH_PROFILE_KEY = "fk_push_subscriptions_profile"  # storage/tables.py names it so too


def upgrade() -> None:
    subscriptions = sa.table("push_subscriptions", sa.column("profile_id"))
    profiles = sa.table("profiles", sa.column("id"))
    op.execute(
        subscriptions.delete().where(
            subscriptions.c.profile_id.is_not(None), subscriptions.c.profile_id.not_in(sa.select(profiles.c.id))
        )
    )
    with op.batch_alter_table("push_subscriptions") as batch:  # SQLite alters a constraint by copying the table
        batch.create_foreign_key(PUSH_PROFILE_KEY, "profiles", ["profile_id"], ["id"], ondelete="CASCADE")


def downgrade() -> None:
    with op.batch_alter_table("push_subscriptions") as batch:
        batch.drop_constraint(PUSH_PROFILE_KEY, type_="foreignkey")
