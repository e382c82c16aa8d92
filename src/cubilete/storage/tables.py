"""The tables as the newest migration leaves them (migrations/versions/), to query: the migrations
(schema.py) make them."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Column,
    DateTime,
    ForeignKey,
    Integer,
    MetaData,
    PrimaryKeyConstraint,
    String,
    Table,
    TypeDecorator,
)


class UtcDateTime(TypeDecorator[datetime]):
    """Times stored and read as timezone-aware UTC (SQLite keeps no zone: read back as UTC)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Any) -> datetime | None:
        if value is not None and value.tzinfo is None:
            raise ValueError("a stored time must carry its zone")
        return None if value is None else value.astimezone(UTC)

    def process_result_value(self, value: datetime | None, dialect: Any) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


metadata = MetaData()
games_table = Table(
    "games",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("lang", String(8), nullable=False),
    Column("seats", JSON, nullable=False),
    Column("game", String(16)),
    Column("rules", JSON),
    Column("players", JSON),
    Column("seed", BigInteger),  # format-1 records: the integer seed of the legacy dice
    Column("dice", JSON),  # format-2 records: the dice key, a client's seed or the server's secret
    Column("format", Integer),
    Column("table_options", JSON),
    Column("finished", Boolean, nullable=False, index=True),
    Column("rematch", String(32)),
    Column("seats_version", Integer, nullable=False),
    Column("open_seats", Integer, nullable=False),
    Column("created", UtcDateTime, nullable=False),
    Column("updated", UtcDateTime, nullable=False),
)
events_table = Table(
    "events",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
    Column("index", Integer, nullable=False),
    Column("event", JSON, nullable=False),
    Column("created", UtcDateTime, nullable=False),
    PrimaryKeyConstraint("game_id", "index", name="pk_events"),
)
# A record's fields besides its events: "seed" (format 1) or "dice" (format 2), never both.
HEADER = ("format", "game", "rules", "players", "seed", "dice")
