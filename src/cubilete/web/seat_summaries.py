"""The stored side of the players' records: what a record needs of each game row, and each finished
game's result per seat (`seat_summaries`, Alembic migration 0006).

A finished game never changes, so its seats' summaries (score, place, and the review's decisions
and total loss) are computed once and kept: a record then reads two queries, however many games
it covers. A summary made by an older way of reviewing (`version` below SUMMARY_VERSION) is made
again. The summaries are a cache: a failed write is logged and the record answers all the same.
"""

from __future__ import annotations

import logging
from collections.abc import Collection, Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Column, Float, ForeignKey, Integer, PrimaryKeyConstraint, String, Table, Text, cast, select
from sqlalchemy.exc import SQLAlchemyError

from ..storage import Storage
from ..storage.connections import conflict_insert, json_value
from ..storage.tables import games_table, metadata
from .seats import Seat

log = logging.getLogger(__name__)

# Raise it when the review's losses change meaning: the stored summaries are then made again.
SUMMARY_VERSION = 1

seat_summaries_table = Table(
    "seat_summaries",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("version", Integer, nullable=False),
    Column("score", Integer, nullable=False),
    Column("place", Integer, nullable=False),
    Column("decisions", Integer, nullable=False),
    Column("total_loss", Float, nullable=False),
    Column("unit", String(16), nullable=False),
    PrimaryKeyConstraint("game_id", "seat", name="pk_seat_summaries"),
)
_SUMMARY_FIELDS = ("score", "place", "decisions", "total_loss", "unit")


@dataclass(frozen=True)
class GameHead:
    """What a record needs of a game's row: its seats (to check tokens and names), and what it was."""

    id: str
    game: str
    rules: str
    seats: tuple[Seat, ...]
    finished: bool
    updated: datetime  # a finished game's last change: when it ended


@dataclass(frozen=True)
class SeatSummary:
    """A seat's result in a finished game, and its review's decisions and total loss (in `unit`)."""

    game_id: str
    seat: int
    score: int
    place: int
    decisions: int
    total_loss: float
    unit: str


class SummaryStore:
    def __init__(self, storage: Storage) -> None:
        self.engine = storage.engine

    def heads(self, game_ids: Collection[str]) -> dict[str, GameHead]:
        """The games of these ids that exist (a row that cannot be read is logged and left out)."""
        if not game_ids:
            return {}
        columns = games_table.c
        # JSON columns read as text and parsed row by row: one row that does not parse is left out alone
        rules, seats = cast(columns.rules, Text), cast(columns.seats, Text)
        query = select(columns.id, columns.game, rules, seats, columns.finished, columns.updated)
        with self.engine.connect() as connection:
            rows = connection.execute(query.where(columns.id.in_(game_ids))).all()
        heads = {}
        for game_id, game, rules_text, seats_text, finished, updated in rows:
            try:
                seats_read = tuple(Seat.from_json(seat) for seat in json_value(seats_text))
                heads[game_id] = GameHead(game_id, str(game), str(json_value(rules_text)["name"]), seats_read, finished, updated)
            except (TypeError, KeyError, ValueError) as error:
                log.warning("game %s cannot be read for a record: %s", game_id, error)
        return heads

    def summaries(self, game_ids: Collection[str]) -> dict[tuple[str, int], SeatSummary]:
        """The current summaries of these games' seats, by (game id, seat)."""
        if not game_ids:
            return {}
        columns = seat_summaries_table.c
        query = select(seat_summaries_table).where(
            columns.game_id.in_(game_ids), columns.version == SUMMARY_VERSION
        )
        with self.engine.connect() as connection:
            rows = connection.execute(query).all()
        return {
            (row.game_id, row.seat): SeatSummary(row.game_id, row.seat, *(getattr(row, f) for f in _SUMMARY_FIELDS))
            for row in rows
        }

    def store(self, summaries: Iterable[SeatSummary]) -> None:
        """Keep these summaries, replacing older ones (two processes may store the same game at once)."""
        rows: list[dict[str, Any]] = [
            {"game_id": s.game_id, "seat": s.seat, "version": SUMMARY_VERSION}
            | {name: getattr(s, name) for name in _SUMMARY_FIELDS}
            for s in summaries
        ]
        if not rows:
            return
        upsert = conflict_insert(self.engine, seat_summaries_table).values(rows)
        replaced = {name: upsert.excluded[name] for name in ("version", *_SUMMARY_FIELDS)}
        try:
            with self.engine.begin() as connection:
                connection.execute(upsert.on_conflict_do_update(index_elements=["game_id", "seat"], set_=replaced))
        except SQLAlchemyError as error:
            log.warning("could not store the summaries of game %s: %s", rows[0]["game_id"], error)
