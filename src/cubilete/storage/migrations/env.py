"""Alembic runs this for every command: cubilete passes the connection (storage/schema.py)."""

from alembic import context

context.configure(connection=context.config.attributes["connection"], render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
