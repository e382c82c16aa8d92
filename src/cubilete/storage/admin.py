"""What a server holds, for its host (`cubilete admin`): the games with their progress, deleting games,
expiring those nobody has played for a while, and the totals with the database's size.

A game's moves are its events stored after it was created (those stored with it are its start). A
running server keeps the games it holds in memory until it restarts or needs the room: delete and
expire games nobody is playing (docs/hosting.md)."""

from __future__ import annotations

import os
from collections.abc import Collection, Iterator, Sequence
from dataclasses import asdict, dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import ColumnElement, Select, delete, func, select, text, update
from sqlalchemy.engine import make_url

from .database import Storage
from .tables import events_table, games_table

# Games deleted per statement: a bound on the statement's parameters (SQLite allows 32,766).
DELETE_CHUNK = 500

_counts = (
    select(events_table.c.game_id, func.count().label("events")).group_by(events_table.c.game_id).subquery("counts")
)
_moves = (  # the newest event stored after the game's creation, per game
    select(events_table.c.game_id, func.max(events_table.c.created).label("last_move"))
    .join(games_table, games_table.c.id == events_table.c.game_id)
    .where(events_table.c.created > games_table.c.created)
    .group_by(events_table.c.game_id)
    .subquery("moves")
)
_last_activity = func.coalesce(_moves.c.last_move, games_table.c.updated)


@dataclass(frozen=True)
class GameSummary:
    id: str
    game: str
    rules: str
    created: datetime
    last_move: datetime | None  # None: nobody has moved since the game was created
    events: int
    finished: bool
    players: list[str]  # the seats' names, in seat order

    def as_json(self) -> dict[str, Any]:
        times = {"created": self.created.isoformat(), "last_move": self.last_move and self.last_move.isoformat()}
        return {**asdict(self), **times}


@dataclass(frozen=True)
class Holdings:
    games: int
    finished: int
    events: int
    size: int | None  # bytes: the SQLite file and its write-ahead log, or the whole PostgreSQL database


def _summaries(where: ColumnElement[bool] | None = None) -> Select[Any]:
    columns = games_table.c
    query = (
        select(
            columns.id,
            columns.game,
            columns.rules,
            columns.created,
            _moves.c.last_move,
            func.coalesce(_counts.c.events, 0).label("events"),
            columns.finished,
            columns.seats,
        )
        .outerjoin(_counts, _counts.c.game_id == columns.id)
        .outerjoin(_moves, _moves.c.game_id == columns.id)
        .order_by(columns.created, columns.id)
    )
    return query if where is None else query.where(where)


def list_games(storage: Storage, ids: Collection[str] | None = None) -> list[GameSummary]:
    """Every game (or those of `ids` that exist), the oldest first."""
    where = None if ids is None else games_table.c.id.in_(list(ids))
    with storage.engine.connect() as connection:
        rows = connection.execute(_summaries(where)).all()
    return [
        GameSummary(
            row.id,
            row.game or "",
            (row.rules or {}).get("name", ""),
            row.created,
            row.last_move,
            row.events,
            row.finished,
            [str(seat.get("name", "")) for seat in row.seats],
        )
        for row in rows
    ]


def idle_games(storage: Storage, idle_for: timedelta, unplayed_only: bool = False) -> list[str]:
    """The games with no move, no change of seats and no end for `idle_for` (with `unplayed_only`:
    those nobody has moved in since they were created), the oldest first."""
    since = datetime.now(UTC) - idle_for
    query = (
        select(games_table.c.id)
        .outerjoin(_moves, _moves.c.game_id == games_table.c.id)
        .where(_last_activity < since)
        .order_by(games_table.c.created, games_table.c.id)
    )
    if unplayed_only:
        query = query.where(_moves.c.last_move.is_(None))
    with storage.engine.connect() as connection:
        return list(connection.scalars(query))


def delete_games(storage: Storage, ids: Sequence[str]) -> list[str]:
    """Delete these games and their events in one transaction; answers the ids that were there. A game
    that was a deleted one's rematch forgets it, so it may have another."""
    with storage.engine.begin() as connection:
        found = [
            game_id
            for chunk in _chunks(ids)
            for game_id in connection.scalars(select(games_table.c.id).where(games_table.c.id.in_(chunk)))
        ]
        for chunk in _chunks(found):
            connection.execute(delete(events_table).where(events_table.c.game_id.in_(chunk)))
            connection.execute(delete(games_table).where(games_table.c.id.in_(chunk)))
            connection.execute(update(games_table).where(games_table.c.rematch.in_(chunk)).values(rematch=None))
    return found


def holdings(storage: Storage) -> Holdings:
    with storage.engine.connect() as connection:
        games = connection.scalar(select(func.count()).select_from(games_table)) or 0
        finished = connection.scalar(select(func.count()).where(games_table.c.finished)) or 0
        events = connection.scalar(select(func.count()).select_from(events_table)) or 0
        if storage.engine.dialect.name == "postgresql":
            size: int | None = connection.scalar(text("SELECT pg_database_size(current_database())"))
        else:
            size = _sqlite_size(storage.url) if storage.is_local else None
    return Holdings(games, finished, events, size)


def _sqlite_size(url: str) -> int:
    path = make_url(url).database or ""
    return sum(os.path.getsize(file) for file in (path, f"{path}-wal") if os.path.exists(file))


def _chunks(ids: Sequence[str]) -> Iterator[list[str]]:
    for start in range(0, len(ids), DELETE_CHUNK):
        yield list(ids[start : start + DELETE_CHUNK])
