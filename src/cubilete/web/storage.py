"""Where games live between requests and across restarts: one SQL table, one row per game.

A row keeps the game's seats (names, kinds, bot levels and the hashes of the human
seats' tokens) and the runner's record (`Match.to_json`), from which the game is
rebuilt exactly. SQLite under the user's data directory unless another URL is given.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import platformdirs
from sqlalchemy import JSON, Boolean, DateTime, String, create_engine, event, select
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column


def default_database_url() -> str:
    folder = Path(platformdirs.user_data_dir("cubilete"))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'games.sqlite3'}"


class _Base(DeclarativeBase):
    pass


class GameRow(_Base):
    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    lang: Mapped[str] = mapped_column(String(8))
    seats: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    record: Mapped[dict[str, Any]] = mapped_column(JSON)
    finished: Mapped[bool] = mapped_column(Boolean, default=False, index=True)
    rematch: Mapped[str | None] = mapped_column(String(32), nullable=True)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated: Mapped[datetime] = mapped_column(DateTime(timezone=True))


@dataclass(frozen=True)
class StoredGame:
    id: str
    lang: str
    seats: list[dict[str, Any]]
    record: dict[str, Any]
    finished: bool
    rematch: str | None
    updated: datetime


def _stored(row: GameRow) -> StoredGame:
    return StoredGame(row.id, row.lang, row.seats, row.record, row.finished, row.rematch, row.updated)


def _now() -> datetime:
    return datetime.now(timezone.utc)


class Storage:
    """Games by id in a SQL database (SQLite by default)."""

    def __init__(self, url: str | None = None) -> None:
        self.url = url or default_database_url()
        self.engine = create_engine(self.url)
        if self.engine.dialect.name == "sqlite":
            event.listen(self.engine, "connect", _sqlite_pragmas)
        _Base.metadata.create_all(self.engine)

    def insert(self, game_id: str, lang: str, seats: list[dict[str, Any]], record: dict[str, Any]) -> None:
        with Session(self.engine) as session, session.begin():
            now = _now()
            session.add(
                GameRow(id=game_id, lang=lang, seats=seats, record=record, created=now, updated=now)
            )

    def load(self, game_id: str) -> StoredGame | None:
        with Session(self.engine) as session:
            row = session.get(GameRow, game_id)
            return None if row is None else _stored(row)

    def save_record(self, game_id: str, record: dict[str, Any], finished: bool) -> None:
        with Session(self.engine) as session, session.begin():
            row = session.get(GameRow, game_id)
            row.record, row.finished, row.updated = record, finished, _now()

    def set_rematch(self, game_id: str, rematch_id: str) -> None:
        with Session(self.engine) as session, session.begin():
            session.get(GameRow, game_id).rematch = rematch_id

    def unfinished(self, limit: int = 50) -> list[StoredGame]:
        """The most recently played unfinished games first."""
        query = select(GameRow).where(GameRow.finished.is_(False)).order_by(GameRow.updated.desc())
        with Session(self.engine) as session:
            return [_stored(row) for row in session.scalars(query.limit(limit))]

    def close(self) -> None:
        self.engine.dispose()


def _sqlite_pragmas(connection: Any, _record: Any) -> None:
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()
