"""Where games live between requests, across restarts and across server processes.

A game is stored as a `games` row (its seats, language and the head of the runner's
record: game, rules, players, seed) and its events, one `events` row each under a
unique (game_id, index) key. Accepting an action appends its events in one
transaction: the key refuses a second process that acts for the same moment, and an
action is acknowledged only after the commit. The tables: tables.py; the schema is
Alembic's (schema.py); the connection: connections.py. The other subjects' rows have a store each
(profiles.py, passkeys.py, push.py, seat_summaries.py, daily.py, ratings.py), which a Storage hands out on its engine.
"""

from __future__ import annotations

import logging
from collections.abc import Collection, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, NamedTuple

from alembic.util.exc import CommandError
from sqlalchemy import Text, bindparam, cast, delete, func, insert, literal, select, true, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import (
    DBAPIError,
    IntegrityError,
    InterfaceError,
    InternalError,
    OperationalError,
    SQLAlchemyError,
    StatementError,
)
from sqlalchemy.exc import TimeoutError as PoolTimeout

from ..engine.errors import CubileteError
from .connections import DATABASE_TIMEOUT, DatabaseUnusable, connect, database_url, is_local, shown_url
from .daily import DailyStore
from .deadlines import ConnectionDeadlines
from .open_tables import OpenTableStore
from .passkeys import PasskeyStore
from .profiles import ProfileStore
from .push import PushStore
from .ratings import RatingStore
from .schema import upgrade_to_newest
from .seat_summaries import SeatSummaryStore
from .tables import HEADER, STORED_GAME, events_table, games_table

log = logging.getLogger(__name__)
# What a database that is down, frozen, too slow or out of room raises from a read (a write raises
# SaveFailed): answered 503 database_unavailable (web/refusals.py). Not a bug's errors (a query or a
# value the database refuses), which stay 500s.
DATABASE_FAILURES = (OperationalError, InterfaceError, InternalError, PoolTimeout)


# The statements of every action, built once (building them per call cost more than running them).
_EVENTS_FROM = (
    select(events_table.c.event)
    .where(events_table.c.game_id == bindparam("game_id"), events_table.c["index"] >= bindparam("first"))
    .order_by(events_table.c["index"])
)
_INSERT_GAME = insert(games_table).values(
    {column.name: bindparam(column.name) for column in games_table.c if column.name not in ("rematch", "clock_due")}
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
_PROGRESS = select(  # the events' count read from their key: the newest index, not a count of rows
    games_table.c.id,
    func.coalesce(
        select(func.max(events_table.c["index"]) + 1).where(events_table.c.game_id == games_table.c.id).scalar_subquery(),
        0,
    ).label("events"),
    games_table.c.seats_version,
    games_table.c.rematch,
).where(games_table.c.id.in_(bindparam("game_ids", expanding=True)))
_CLAIM_REMATCH = (  # by one process only: the game's rematch is the first one stored
    update(games_table)
    .where(games_table.c.id == bindparam("game_id"), games_table.c.rematch.is_(None))
    .values(rematch=bindparam("rematch"))
)
# A new game has no events (its first roll is the first player's action): one with an event got a move.
_MOVED = select(events_table.c.game_id).where(events_table.c.game_id == games_table.c.id).exists()
UNPLAYED_BATCH = 500  # games deleted in one transaction
_FINISH_GAME = (
    update(games_table)
    .where(games_table.c.id == bindparam("game_id"))
    .values(finished=true(), updated=bindparam("updated"))
)
_SET_DUE = (
    update(games_table).where(games_table.c.id == bindparam("game_id")).values(clock_due=bindparam("clock_due"))
)
_POSTPONE = (  # unless a move stored meanwhile set it anew
    update(games_table)
    .where(games_table.c.id == bindparam("game_id"), games_table.c.clock_due == bindparam("seen"))
    .values(clock_due=bindparam("clock_due"))
)
_PING = select(literal(1))


class SaveFailed(CubileteError):
    """The database did not store the change (disk full, read-only, unreachable): nothing changed."""


class EventConflict(Exception):
    """Another process stored an event at this index first."""


class Append(NamedTuple):
    """Events `first`, `first + 1`... of a game, whether they end it, and whether they start a turn the
    correspondence sweeper must look at: `due_after` once they are stored (its reminder's time)."""

    game_id: str
    first: int
    events: Sequence[dict[str, Any]]
    finished: bool
    due_after: timedelta | None = None


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


class Progress(NamedTuple):
    """How far a game is stored: its number of events, its seats' version and its rematch."""

    events: int
    seats_version: int
    rematch: str | None


def _now() -> datetime:
    return datetime.now(UTC)


class Storage:
    """Games and their events in a SQL database (SQLite by default, PostgreSQL for several processes)."""

    def __init__(self, url: str | None = None, timeout: float = DATABASE_TIMEOUT) -> None:
        """`timeout`: the longest wait for the database (connections.py); longer, the call fails."""
        self.url = database_url(url)
        try:
            upgrade_to_newest(self.url)
        except (SQLAlchemyError, CommandError) as error:  # CommandError: a revision this cubilete does not know
            raise DatabaseUnusable("database_unusable", url=shown_url(self.url), reason=_first_line(error)) from error
        self.is_local = is_local(self.url)
        self.engine = connect(self.url, timeout)
        self._deadlines = None if self.is_local else ConnectionDeadlines(self.engine, timeout)
        self.profiles = ProfileStore(self.engine)
        self.passkeys = PasskeyStore(self.engine)
        self.push = PushStore(self.engine)
        self.summaries = SeatSummaryStore(self.engine)
        self.ratings = RatingStore(self.engine)
        self.lobby = OpenTableStore(self.engine)
        self.daily = DailyStore(self.engine)

    def answers(self) -> bool:
        """Whether the database answers a trivial query now (a readiness check)."""
        try:
            with self.engine.connect() as connection:
                connection.execute(_PING)
        except SQLAlchemyError as error:
            log.warning("the database does not answer: %s", _first_line(error))
            return False
        return True

    def insert(
        self,
        game_id: str,
        lang: str,
        seats: list[dict[str, Any]],
        record: dict[str, Any],
        table_options: dict[str, Any] | None = None,
        creator: str | None = None,
    ) -> None:
        """A new game with the events its record already has; `creator`: the creating client's address."""
        with self._transaction() as connection:
            self._insert(connection, game_id, lang, seats, record, table_options, creator)

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
        (None if the game is gone). It has the game's creator: it counts in the same per-address shares."""
        with self._transaction() as connection:
            if connection.execute(_CLAIM_REMATCH, {"game_id": game_id, "rematch": new_id}).rowcount:
                creator = connection.scalar(select(games_table.c.creator).where(games_table.c.id == game_id))
                self._insert(connection, new_id, lang, seats, record, table_options, creator)
                return new_id
        return self.rematch_of(game_id)

    def append(
        self,
        game_id: str,
        first: int,
        events: Sequence[dict[str, Any]],
        finished: bool,
        due_after: timedelta | None = None,
    ) -> datetime:
        """Store events `first`, `first + 1`... of a game in one transaction; answers the time stored.

        Raises EventConflict when one of these indexes is taken (another process acted
        first), SaveFailed when the database fails; either way nothing is stored.
        """
        now = _now()
        with self._transaction() as connection:
            self._write_all(connection, [Append(game_id, first, events, finished, due_after)], now)
        return now

    def append_together(self, appends: Sequence[Append]) -> list[datetime | EventConflict | SaveFailed]:
        """Store appends of different games in one transaction, one commit for all. Answers for each
        the time stored, or the error that refused it: EventConflict if its index was taken (the others
        are stored all the same), SaveFailed if the database failed (then none is stored)."""
        now = _now()
        try:
            with self._transaction() as connection:
                self._write_all(connection, appends, now)
        except SaveFailed as failed:
            return [failed] * len(appends)
        except EventConflict as conflict:
            if len(appends) == 1:
                return [conflict]
            # Rare (another process stored first): each again in a transaction of its own, to refuse that one alone.
            return [self._append_alone(append) for append in appends]
        return [now] * len(appends)

    def load(self, game_id: str) -> StoredGame | None:
        """The game's row and events; InvalidRecord if a column's JSON does not parse (SQLite keeps any text)."""
        with self.engine.connect() as connection, _readable(game_id):
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
        with self.engine.connect() as connection, _readable(game_id):
            return self._events(connection, game_id, first)

    def progress(self, game_ids: Collection[str]) -> dict[str, Progress]:
        """How far each of these games is stored (a game that is not: left out), in one query."""
        if not game_ids:
            return {}
        with self.engine.connect() as connection:
            rows = connection.execute(_PROGRESS, {"game_ids": list(game_ids)}).all()
        return {row.id: Progress(row.events, row.seats_version, row.rematch) for row in rows}

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
        with self._transaction() as connection:
            return bool(connection.execute(_CHANGE_SEATS, row).rowcount)

    def delete_unplayed(self, changed_before: datetime) -> list[str]:
        """Delete up to UNPLAYED_BATCH unfinished games that never got a move (no event stored) and whose
        row last changed (created, or its seats changed) before `changed_before`; answers their ids.

        A game with a move stored is never deleted: its row is locked first (PostgreSQL; SQLite writes one
        transaction at a time), so a first move racing the deletion is either seen by the deletion's
        check, or waits and is then refused (its game is gone), never acknowledged and lost."""
        columns = games_table.c
        unplayed = (columns.finished.is_(False), columns.updated < changed_before, ~_MOVED)
        candidates = select(columns.id).where(*unplayed).limit(UNPLAYED_BATCH).with_for_update()
        with self._transaction() as connection:
            ids = list(connection.scalars(candidates))
            if not ids:
                return []
            deleted = list(connection.scalars(
                delete(games_table).where(columns.id.in_(ids), *unplayed).returning(columns.id)
            ))
            if deleted:  # a rematch that is gone can be made again
                connection.execute(update(games_table).where(columns.rematch.in_(deleted)).values(rematch=None))
        return deleted

    def games_due(self, now: datetime, after: str, limit: int) -> list[tuple[str, datetime]]:
        """The unfinished games (after `after`, by id, at most `limit`) whose correspondence clock is due by
        `now` (ix_games_clock_due: the others are never read), each with its due time as stored."""
        columns = games_table.c
        query = (
            select(columns.id, columns.clock_due)
            .where(columns.clock_due <= now, columns.finished.is_(False), columns.id > after)
            .order_by(columns.id)
            .limit(limit)
        )
        with self.engine.connect() as connection:
            return [(row.id, row.clock_due) for row in connection.execute(query)]

    def postpone(self, game_id: str, seen: datetime, due: datetime | None) -> None:
        """The game is due at `due` (None: never), unless its due time changed since it was `seen`."""
        with self._transaction() as connection:
            connection.execute(_POSTPONE, {"game_id": game_id, "seen": seen, "clock_due": due})

    def unfinished_on_clocks_by(self, creator: str, clocks: Collection[int]) -> int:
        """How many unfinished games whose turn clock is one of `clocks` (seconds) `creator` created."""
        columns = games_table.c
        clock = cast(columns.table_options["turn_clock"], Text)  # as games_on_clocks compares it
        query = select(func.count()).where(
            columns.creator == creator, columns.finished.is_(False), clock.in_([str(seconds) for seconds in clocks])
        )
        with self.engine.connect() as connection:
            return int(connection.scalar(query) or 0)

    def rematch_of(self, game_id: str) -> str | None:
        with self.engine.connect() as connection:
            return connection.scalar(select(games_table.c.rematch).where(games_table.c.id == game_id))

    def close(self) -> None:
        if self._deadlines is not None:
            self._deadlines.close()
        self.engine.dispose()

    @contextmanager
    def _transaction(self) -> Iterator[Connection]:
        """A connection whose writes are committed on leaving. A taken key (another process acted
        first) raises EventConflict, any other database error SaveFailed; either way nothing is stored."""
        try:
            with self.engine.begin() as connection:
                yield connection
        except IntegrityError as error:
            raise EventConflict() from error
        except DBAPIError as error:
            raise _save_failed(error) from error
        except StatementError:  # a value no column takes: a bug, not the database failing
            raise
        except SQLAlchemyError as error:  # e.g. no connection in time
            raise _save_failed(error) from error

    def _insert(
        self,
        connection: Connection,
        game_id: str,
        lang: str,
        seats: list[dict[str, Any]],
        record: dict[str, Any],
        table_options: dict[str, Any] | None,
        creator: str | None = None,
    ) -> None:
        now = _now()
        row = {
            "id": game_id, "lang": lang, "seats": seats, "table_options": table_options or {}, "finished": False,
            "created": now, "updated": now, "seats_version": 0, "open_seats": _open_seats(seats), "creator": creator,
        }
        header = {field: record.get(field) for field in HEADER}
        connection.execute(_INSERT_GAME, row | header)
        self._write_all(connection, [Append(game_id, 0, record["events"], False)], now)

    def _append_alone(self, append: Append) -> datetime | EventConflict | SaveFailed:
        try:
            return self.append(*append)
        except (EventConflict, SaveFailed) as refused:
            return refused

    @staticmethod
    def _write_all(connection: Connection, appends: Sequence[Append], now: datetime) -> None:
        """The events of every append in one statement (an executemany), then the games they end in
        another: a statement per append cost about 3% of a move at 50 games."""
        rows = [
            {"game_id": append.game_id, "index": append.first + offset, "event": event_, "created": now}
            for append in appends
            for offset, event_ in enumerate(append.events)
        ]
        if rows:
            connection.execute(_INSERT_EVENTS, rows)
        # a game's row changes only when it ends (its `updated` is then when it ended), or when a turn by
        # correspondence starts (when the sweeper must look at it)
        ended = [{"game_id": append.game_id, "updated": now} for append in appends if append.finished]
        if ended:
            connection.execute(_FINISH_GAME, ended)
        due = [
            {"game_id": append.game_id, "clock_due": None if append.due_after is None else now + append.due_after}
            for append in appends
            if append.due_after is not None or append.finished
        ]
        if due:
            connection.execute(_SET_DUE, due)

    @staticmethod
    def _events(connection: Connection, game_id: str, first: int) -> list[dict[str, Any]]:
        return list(connection.scalars(_EVENTS_FROM, {"game_id": game_id, "first": first}))


def _open_seats(seats: list[dict[str, Any]]) -> int:
    return sum(1 for seat in seats if seat.get("open"))


def _first_line(error: Exception) -> str:
    """The driver's own message when there is one, without SQLAlchemy's statement and links."""
    cause = error.orig if isinstance(error, DBAPIError) else error
    return (str(cause).strip().splitlines() or [type(cause).__name__])[0]


@contextmanager
def _readable(game_id: str) -> Iterator[None]:
    """A JSON column that does not parse is the game's InvalidRecord, not a 500."""
    try:
        yield
    except ValueError as error:
        log.warning("game %s cannot be read: %s", game_id, error)
        raise STORED_GAME.refuse("a column is not JSON") from error


def _save_failed(error: Exception) -> SaveFailed:
    log.warning("could not save a change: %s", error)
    return SaveFailed("save_failed")


def read_game(game_id: str, url: str | None = None) -> StoredGame | None:
    """One stored game (None if there is none of this id), from the database at `url` (cubilete's
    own if None): for a reader outside the server, such as `cubilete review GAME_ID`."""
    storage = Storage(url)
    try:
        return storage.load(game_id)
    finally:
        storage.close()
