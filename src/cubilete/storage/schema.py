"""The database schema is the Alembic migrations shipped in migrations/, applied at start.

No alembic.ini is needed: the migrations run on a connection made here. A new migration
is a new file in migrations/versions/ whose `down_revision` is the newest one. Databases
made before the migrations (one row per game holding its whole record) are recognised
and carried forward with their games.
"""

from __future__ import annotations

from importlib.resources import files
from typing import Any

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import create_engine, event, inspect, text
from sqlalchemy.engine import Connection
from sqlalchemy.pool import NullPool

MIGRATIONS = files(__package__).joinpath("migrations")
BEFORE_MIGRATIONS = "0001"  # the revision that describes a database made before the migrations
_LOCK = 0x637562696C657465  # PostgreSQL advisory lock: one process migrates at a time ("cubilete")


def upgrade_to_newest(url: str) -> None:
    """Bring the database at `url` to the newest schema, in one transaction."""
    engine = create_engine(url, poolclass=NullPool)
    if engine.dialect.name == "sqlite":
        # pysqlite would commit around DDL by itself; let SQLAlchemy's transaction hold it all.
        event.listen(engine, "connect", _no_implicit_transactions)
        event.listen(engine, "begin", lambda connection: connection.exec_driver_sql("BEGIN"))
    try:
        with engine.begin() as connection:
            if engine.dialect.name == "postgresql":
                connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _LOCK})
            config = Config()
            config.set_main_option("script_location", str(MIGRATIONS))
            config.attributes["connection"] = connection
            if _made_before_migrations(connection):
                command.stamp(config, BEFORE_MIGRATIONS)
            command.upgrade(config, "head")
    finally:
        engine.dispose()


def migration_behind(url: str) -> tuple[str, str] | None:
    """(the database's migration, the newest this release knows) when the database at `url` holds games
    of an older schema, None when it is at the newest or holds nothing yet: a command that only reads
    or tidies refuses such a database rather than migrating it under the older release's processes."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    newest = ScriptDirectory.from_config(config).get_current_head()
    engine = create_engine(url, poolclass=NullPool)
    try:
        with engine.connect() as connection:
            current = MigrationContext.configure(connection).get_current_revision()
            if current is None:
                return (BEFORE_MIGRATIONS, str(newest)) if _made_before_migrations(connection) else None
    finally:
        engine.dispose()
    return None if current == newest or newest is None else (current, newest)


def _made_before_migrations(connection: Connection) -> bool:
    tables = inspect(connection).get_table_names()
    return "games" in tables and "alembic_version" not in tables


def _no_implicit_transactions(dbapi_connection: Any, _record: Any) -> None:
    dbapi_connection.isolation_level = None
    # what a migration deletes or copies away (0009: the push subscriptions of deleted profiles) is zeroed in the file
    dbapi_connection.execute("PRAGMA secure_delete=ON")
