"""Where games live between requests, across restarts and across server processes.

A game is stored as a `games` row (its seats, language and the head of the runner's
record: game, rules, players, seed) and its events, one `events` row each under a
unique (game_id, index) key. Accepting an action appends its events in one
transaction: the key refuses a second process that acts for the same moment, and an
action is acknowledged only after the commit. The schema is Alembic's (schema.py).
SQLite under the user's data directory unless another URL is given.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, NamedTuple

import orjson
import platformdirs
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
    bindparam,
    create_engine,
    event,
    func,
    insert,
    select,
    true,
    update,
)
from sqlalchemy.engine import Connection, Engine, make_url
from sqlalchemy.exc import SQLAlchemyError

from ..engine.errors import CubileteError
from .schema import upgrade_to_newest

log = logging.getLogger(__name__)


def default_database_url() -> str:
    folder = Path(platformdirs.user_data_dir("cubilete"))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'games.sqlite3'}"


def database_url(url: str | None) -> str:
    """The URL to connect with: PostgreSQL through psycopg 3, the driver cubilete ships with."""
    if url is None:
        return default_database_url()
    parsed = make_url(url)
    if parsed.drivername in ("postgresql", "postgres"):
        return parsed.set(drivername="postgresql+psycopg").render_as_string(hide_password=False)
    return url


# A database server's connections per process: requests beyond them wait for one (each process runs its
# requests on at most 40 threads); keep processes x this under the server's max_connections (100 by default).
SERVER_CONNECTIONS = 20


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


# The schema as the newest migration leaves it (migrations/versions/); used to query, not to create.
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

# The statements of every action, built once (building them per call cost more than running them).
_EVENTS_FROM = (
    select(events_table.c.event)
    .where(events_table.c.game_id == bindparam("game_id"), events_table.c["index"] >= bindparam("first"))
    .order_by(events_table.c["index"])
)
_INSERT_GAME = insert(games_table).values(
    {column.name: bindparam(column.name) for column in games_table.c if column.name != "rematch"}
)
_INSERT_EVENTS = insert(events_table).values({column.name: bindparam(column.name) for column in events_table.c})
_CHANGE_SEATS = (  # unless another process changed them since `version`
    update(games_table)
    .where(games_table.c.id == bindparam("game_id"), games_table.c.seats_version == bindparam("version"))
    .values(
        seats=bindparam("seats"), seats_version=bindparam("new_version"), open_seats=bindparam("open_seats"),
        updated=bindparam("updated"),
    )
)
_CLAIM_REMATCH = (  # by one process only: the game's rematch is the first one stored
    update(games_table)
    .where(games_table.c.id == bindparam("game_id"), games_table.c.rematch.is_(None))
    .values(rematch=bindparam("rematch"))
)
_FINISH_GAME = (
    update(games_table)
    .where(games_table.c.id == bindparam("game_id"))
    .values(finished=true(), updated=bindparam("updated"))
)


class SaveFailed(CubileteError):
    """The database did not store the change (disk full, read-only, unreachable): nothing changed."""


class EventConflict(Exception):
    """Another process stored an event at this index first."""


class Append(NamedTuple):
    """Events `first`, `first + 1`... of a game, and whether they end it."""

    game_id: str
    first: int
    events: Sequence[dict[str, Any]]
    finished: bool


@dataclass(frozen=True)
class StoredGame:
    id: str
    lang: str
    seats: list[dict[str, Any]]
    record: dict[str, Any]  # the runner's record (`Match.to_json`), rebuilt from the header and the events
    table_options: dict[str, Any]  # how the table was set up on the new-game form
    finished: bool
    rematch: str | None
    created: datetime
    updated: datetime  # when the game was created, its seats last changed, or it ended (not each move)
    seats_version: int = 0  # how many times the seats changed since the game was created


@dataclass(frozen=True)
class OpenTable:
    """A public game with seats nobody has claimed yet, as the open-tables list shows it."""

    id: str
    game: str
    rules: str
    seats: list[dict[str, Any]]
    turn_clock: int
    hints: str  # table_options.TableOptions.hints


def _now() -> datetime:
    return datetime.now(UTC)


class Storage:
    """Games and their events in a SQL database (SQLite by default, PostgreSQL for several processes)."""

    def __init__(self, url: str | None = None) -> None:
        self.url = database_url(url)
        upgrade_to_newest(self.url)
        self.is_local = make_url(self.url).get_backend_name() == "sqlite"  # a file on this machine, no network between
        # A server's connections stay open: beyond a pool's size, SQLAlchemy closes each connection handed
        # back and opens a new one for the next request, which under load costs more than the moves.
        pool = {} if self.is_local else {"pool_size": SERVER_CONNECTIONS, "max_overflow": 0}
        # orjson for the JSON columns: several times faster than the standard library, and every action writes one
        self.engine = create_engine(self.url, json_serializer=_json_text, json_deserializer=_json_value, **pool)
        if self.is_local:
            event.listen(self.engine, "connect", _sqlite_pragmas)
        self._writes = _DriverWrites(self.engine, keep_connection=self.is_local)
        self._insert_game, self._insert_events, self._claim_rematch, self._change_seats, self._finish_game = (
            _DriverStatement(statement, self.engine)
            for statement in (_INSERT_GAME, _INSERT_EVENTS, _CLAIM_REMATCH, _CHANGE_SEATS, _FINISH_GAME)
        )

    def insert(
        self,
        game_id: str,
        lang: str,
        seats: list[dict[str, Any]],
        record: dict[str, Any],
        table_options: dict[str, Any] | None = None,
    ) -> None:
        """A new game with the events its record already has."""
        with self._writes.transaction() as cursor:
            self._insert(cursor, game_id, lang, seats, record, table_options)

    def insert_rematch(
        self,
        game_id: str,
        new_id: str,
        lang: str,
        seats: list[dict[str, Any]],
        record: dict[str, Any],
        table_options: dict[str, Any] | None = None,
    ) -> str | None:
        """Store the rematch of a game unless another process did first; answers the rematch's id
        (None if the game is gone)."""
        with self._writes.transaction() as cursor:
            claim = {"game_id": game_id, "rematch": new_id}
            cursor.execute(self._claim_rematch.sql, self._claim_rematch.parameters(claim))
            if cursor.rowcount:
                self._insert(cursor, new_id, lang, seats, record, table_options)
                return new_id
        return self.rematch_of(game_id)

    def append(self, game_id: str, first: int, events: Sequence[dict[str, Any]], finished: bool) -> datetime:
        """Store events `first`, `first + 1`... of a game in one transaction; answers the time stored.

        Raises EventConflict when one of these indexes is taken (another process acted
        first), SaveFailed when the database fails; either way nothing is stored.
        """
        now = _now()
        with self._writes.transaction() as cursor:
            self._write(cursor, Append(game_id, first, events, finished), now)
        return now

    def append_together(self, appends: Sequence[Append]) -> list[datetime | EventConflict | SaveFailed]:
        """Store appends of different games in one transaction, one commit for all. Answers for each
        the time stored, or the error that refused it: EventConflict if its index was taken (the others
        are stored all the same), SaveFailed if the database failed (then none is stored)."""
        now = _now()
        try:
            with self._writes.transaction() as cursor:
                for append in appends:
                    self._write(cursor, append, now)
        except SaveFailed as failed:
            return [failed] * len(appends)
        except EventConflict as conflict:
            if len(appends) == 1:
                return [conflict]
            # Rare (another process stored first): each again in a transaction of its own, to refuse that one alone.
            return [self._append_alone(append) for append in appends]
        return [now] * len(appends)

    def load(self, game_id: str) -> StoredGame | None:
        with self.engine.connect() as connection:
            row = connection.execute(select(games_table).where(games_table.c.id == game_id)).one_or_none()
            if row is None:
                return None
            events = self._events(connection, game_id, 0)
        header = {field: getattr(row, field) for field in HEADER}
        record = {field: value for field, value in header.items() if value is not None} | {"events": events}
        return StoredGame(
            row.id, row.lang, row.seats, record, row.table_options or {}, row.finished, row.rematch, row.created,
            row.updated, row.seats_version,
        )

    def events_since(self, game_id: str, first: int) -> list[dict[str, Any]]:
        """The game's events from index `first` on."""
        with self.engine.connect() as connection:
            return self._events(connection, game_id, first)

    def turn_time(self, game_id: str, events: int) -> datetime | None:
        """When the game had its first `events` events: the time event `events - 1` was stored
        (the game's creation for 0)."""
        if events == 0:
            query = select(games_table.c.created).where(games_table.c.id == game_id)
        else:
            query = select(events_table.c.created).where(
                events_table.c.game_id == game_id, events_table.c["index"] == events - 1
            )
        with self.engine.connect() as connection:
            return connection.scalar(query)

    def seats(self, game_id: str) -> tuple[list[dict[str, Any]], int] | None:
        """The game's seats as stored now, and their version."""
        query = select(games_table.c.seats, games_table.c.seats_version).where(games_table.c.id == game_id)
        with self.engine.connect() as connection:
            row = connection.execute(query).one_or_none()
        return None if row is None else (row.seats, row.seats_version)

    def change_seats(self, game_id: str, version: int, seats: list[dict[str, Any]]) -> bool:
        """Store the game's new seats unless they changed since `version` (another process changed
        them first: answers False and stores nothing)."""
        row = {"game_id": game_id, "version": version, "seats": seats, "new_version": version + 1,
               "open_seats": _open_seats(seats), "updated": _now()}
        with self._writes.transaction() as cursor:
            cursor.execute(self._change_seats.sql, self._change_seats.parameters(row))
            return bool(cursor.rowcount)

    def open_tables(self, limit: int = 50) -> list[OpenTable]:
        """Unfinished games with open seats, the most recently played first (only public games have any)."""
        columns = games_table.c
        last_played = (  # the time of the game's newest event (its row changes only with its seats)
            select(events_table.c.created)
            .where(events_table.c.game_id == columns.id)
            .order_by(events_table.c["index"].desc())
            .limit(1)
            .scalar_subquery()
        )
        query = (
            select(columns.id, columns.game, columns.rules, columns.seats, columns.table_options)
            .where(columns.finished.is_(False), columns.open_seats > 0)
            .order_by(func.coalesce(last_played, columns.updated).desc(), columns.updated.desc())
            .limit(limit)
        )
        with self.engine.connect() as connection:
            rows = connection.execute(query).all()
        tables = []
        for row in rows:  # a row that cannot be read is logged and left out, never a 500 for everyone
            try:
                options = row.table_options or {}  # games stored before the hints option had them on
                tables.append(OpenTable(row.id, row.game, row.rules["name"], list(row.seats),
                                        int(options.get("turn_clock", 0)), str(options.get("hints", "always"))))
            except (TypeError, KeyError, ValueError) as error:
                log.warning("game %s cannot be listed: %s", row.id, error)
        return tables

    def rematch_of(self, game_id: str) -> str | None:
        with self.engine.connect() as connection:
            return connection.scalar(select(games_table.c.rematch).where(games_table.c.id == game_id))

    def close(self) -> None:
        self._writes.close()
        self.engine.dispose()

    def _insert(
        self,
        cursor: Any,
        game_id: str,
        lang: str,
        seats: list[dict[str, Any]],
        record: dict[str, Any],
        table_options: dict[str, Any] | None,
    ) -> None:
        now = _now()
        row = {
            "id": game_id, "lang": lang, "seats": seats, "table_options": table_options or {}, "finished": False,
            "created": now, "updated": now, "seats_version": 0, "open_seats": _open_seats(seats),
        }
        header = {field: record.get(field) for field in HEADER}
        cursor.execute(self._insert_game.sql, self._insert_game.parameters(row | header))
        if record["events"]:
            self._insert_events_at(cursor, game_id, 0, record["events"], now)

    def _append_alone(self, append: Append) -> datetime | EventConflict | SaveFailed:
        try:
            return self.append(*append)
        except (EventConflict, SaveFailed) as refused:
            return refused

    def _write(self, cursor: Any, append: Append, now: datetime) -> None:
        if append.events:
            self._insert_events_at(cursor, append.game_id, append.first, append.events, now)
        if append.finished:  # the game's row changes only when it ends: its `updated` is then when it ended
            ended = {"game_id": append.game_id, "updated": now}
            cursor.execute(self._finish_game.sql, self._finish_game.parameters(ended))

    def _insert_events_at(
        self, cursor: Any, game_id: str, first: int, events: Sequence[dict[str, Any]], now: datetime
    ) -> None:
        parameters = self._insert_events.parameters
        cursor.executemany(
            self._insert_events.sql,
            [
                parameters({"game_id": game_id, "index": first + offset, "event": event_, "created": now})
                for offset, event_ in enumerate(events)
            ],
        )

    @staticmethod
    def _events(connection: Connection, game_id: str, first: int) -> list[dict[str, Any]]:
        return list(connection.scalars(_EVENTS_FROM, {"game_id": game_id, "first": first}))


class _DriverStatement:
    """A statement compiled once for the database's dialect, run on the driver's own cursor with
    the column types' bind conversions (JSON, UTC times) applied as SQLAlchemy would apply them."""

    def __init__(self, statement: Any, engine: Engine) -> None:
        dialect = engine.dialect
        compiled = statement.compile(dialect=dialect)
        self.sql = compiled.string
        self._positional = compiled.positional
        self._names = tuple(compiled.positiontup or ()) if compiled.positional else tuple(compiled.binds)
        processors = {
            name: bind.type.dialect_impl(dialect).bind_processor(dialect) for name, bind in compiled.binds.items()
        }
        self._processors = tuple(processors[name] for name in self._names)

    def parameters(self, values: dict[str, Any]) -> Any:
        """The driver's parameters for `values`, by bind name (SQLAlchemy's bindparam or column names)."""
        converted = [
            value if process is None else process(value)
            for process, value in zip(self._processors, map(values.__getitem__, self._names), strict=True)
        ]
        return tuple(converted) if self._positional else dict(zip(self._names, converted, strict=True))


class _DriverWrites:
    """Write transactions on the driver's own connection: SQLAlchemy Core's work per execution cost
    more than the writes themselves, and every action of every game comes through here
    (benchmarks/web_load.py).

    With `keep_connection` (a local database), the event loop's thread, which makes the moves
    (web/app.py), keeps its connection open: taking one from SQLAlchemy's pool and handing it back
    cost about a sixth of a move's storing. Worker threads, which come and go, take the pool's."""

    def __init__(self, engine: Engine, keep_connection: bool) -> None:
        self.engine = engine
        driver = engine.dialect.loaded_dbapi
        self.conflict, self.failure = driver.IntegrityError, driver.Error
        self._keep_connection = keep_connection
        self._kept: Any = None  # the event loop's connection

    @contextmanager
    def transaction(self) -> Iterator[Any]:
        """A cursor whose writes are committed on leaving. A taken key (another process acted first)
        raises EventConflict, any other database error SaveFailed; either way nothing is stored."""
        kept = self._keep_connection and _on_event_loop()
        connection = self._connection(kept)
        driver = connection.dbapi_connection  # the pool's wrapper costs more per call than the commit itself
        try:
            cursor = driver.cursor()
            yield cursor
            cursor.close()
            driver.commit()
        except self.conflict as error:
            _roll_back_quietly(driver)
            raise EventConflict() from error
        except self.failure as error:
            _roll_back_quietly(driver)
            if kept:  # the next write starts from a new connection, not this one handed back to the pool
                self._kept = None
                connection.invalidate()
            raise _save_failed(error) from error
        except BaseException:  # e.g. a value its column cannot take: the kept connection holds no half write
            _roll_back_quietly(driver)
            raise
        finally:
            if not kept:
                connection.close()

    def close(self) -> None:
        if self._kept is not None:
            with contextlib.suppress(Exception):
                self._kept.close()
            self._kept = None

    def _connection(self, kept: bool) -> Any:
        if kept and self._kept is not None:
            return self._kept
        try:
            connection = self.engine.raw_connection()
        except SQLAlchemyError as error:
            raise _save_failed(error) from error
        if kept:
            self._kept = connection
        return connection


def _on_event_loop() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


def _roll_back_quietly(connection: Any) -> None:
    """A connection whose write failed (disk full, server gone) may fail its rollback too."""
    with contextlib.suppress(Exception):
        connection.rollback()


def _json_text(value: Any) -> str:
    return orjson.dumps(value).decode()


def _json_value(stored: Any) -> Any:
    if isinstance(stored, (int, float)):  # SQLite answers a stored JSON number as a number (numeric affinity)
        return stored
    return orjson.loads(stored)


def _open_seats(seats: list[dict[str, Any]]) -> int:
    return sum(1 for seat in seats if seat.get("open"))


def _save_failed(error: Exception) -> SaveFailed:
    log.warning("could not save a change: %s", error)
    return SaveFailed("save_failed")


def _sqlite_pragmas(connection: Any, _record: Any) -> None:
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()
