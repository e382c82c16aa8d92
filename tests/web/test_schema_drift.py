"""Storage owns every table: the tables the code queries (storage/tables.py) are exactly what the
migrations build, on SQLite and on PostgreSQL, and a database of migration 0008 with rows in it
migrates to the newest schema (0009: a profile's push subscriptions go with it)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.migration import MigrationContext
from sqlalchemy import create_engine, insert, select
from sqlalchemy.pool import NullPool

from cubilete.storage import Storage
from cubilete.storage.schema import MIGRATIONS
from cubilete.storage.tables import games_table, metadata, profiles_table, push_subscriptions_table

NOW = datetime(2025, 1, 1, tzinfo=UTC)
ORPHAN_ENDPOINT = "https://push.example/of-a-profile-deleted-before-0009"


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request, tmp_path):
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'games.sqlite3'}"
    return request.getfixturevalue("postgres_url")


def differences(url: str) -> list:
    engine = create_engine(url, poolclass=NullPool)
    try:
        with engine.connect() as connection:
            context = MigrationContext.configure(connection, opts={"compare_type": True})
            return [
                difference for difference in compare_metadata(context, metadata)
                if not _is_alembics_own(difference)
            ]
    finally:
        engine.dispose()


def _is_alembics_own(difference) -> bool:
    return difference[0] == "remove_table" and difference[1].name == "alembic_version"


def migrate(url: str, revision: str) -> None:
    engine = create_engine(url, poolclass=NullPool)
    try:
        with engine.begin() as connection:
            config = Config()
            config.set_main_option("script_location", str(MIGRATIONS))
            config.attributes["connection"] = connection
            command.upgrade(config, revision)
    finally:
        engine.dispose()


def test_the_tables_of_the_code_are_what_the_migrations_build(url):
    Storage(url).close()

    assert differences(url) == []


def test_a_database_of_0008_with_rows_migrates_and_drops_the_push_rows_of_deleted_profiles(url):
    migrate(url, "0008")
    game = {"id": "g1", "lang": "es", "seats": [], "finished": False, "seats_version": 0, "open_seats": 0,
            "created": NOW, "updated": NOW}
    profile = {"id": "p1", "name": "Ana", "name_key": "ana", "seat_key": "00" * 32, "created": NOW}
    subscription = {"game_id": None, "seat": None, "profile_id": None, "endpoint": "https://push.example/1",
                    "p256dh": "k", "auth": "a", "lang": "es", "created": NOW}
    engine = create_engine(url, poolclass=NullPool)
    try:
        with engine.begin() as connection:
            connection.execute(insert(games_table).values(game))
            connection.execute(insert(profiles_table).values(profile))
            connection.execute(insert(push_subscriptions_table).values([
                subscription | {"game_id": "g1", "seat": 0},
                subscription | {"profile_id": "p1"},
                # what deleting a profile left before 0009
                subscription | {"profile_id": "deleted-before-0009", "endpoint": ORPHAN_ENDPOINT},
            ]))
    finally:
        engine.dispose()

    storage = Storage(url)  # migrates to the newest
    try:
        columns = push_subscriptions_table.c
        with storage.engine.connect() as connection:
            kept = connection.execute(select(columns.game_id, columns.profile_id).order_by(columns.id)).all()
        assert [tuple(row) for row in kept] == [("g1", None), (None, "p1")]
        assert storage.profiles.name_of("p1") == "Ana"
    finally:
        storage.close()
    assert differences(url) == []
    if url.startswith("sqlite:///"):  # and its bytes left the file
        assert ORPHAN_ENDPOINT.encode() not in Path(url.removeprefix("sqlite:///")).read_bytes()
