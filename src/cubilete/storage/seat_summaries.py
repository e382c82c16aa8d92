"""The stored side of the players' records: what a record needs of each game row, and each finished
game's result per seat (`seat_summaries`, migration 0006), kept once computed. The summaries are a
cache: a failed write is logged and the record answers all the same. What a record makes of them:
web/records.py and web/seat_summaries.py."""

from __future__ import annotations

import logging
from collections.abc import Collection, Iterable
from dataclasses import asdict, dataclass
from datetime import datetime
from typing import Any, NamedTuple

from sqlalchemy import Text, cast, select
from sqlalchemy.engine import Engine
from sqlalchemy.exc import SQLAlchemyError

from .connections import conflict_insert, json_value
from .tables import games_table, seat_summaries_table

log = logging.getLogger(__name__)


class GameRow(NamedTuple):
    """A game's row as a record reads it: its rules and seats as their JSON values."""

    id: str
    game: str
    rules: Any
    seats: Any
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


class SeatSummaryStore:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def game_rows(self, game_ids: Collection[str]) -> list[GameRow]:
        """The rows of these games that exist (one whose JSON does not parse is logged and left out)."""
        if not game_ids:
            return []
        columns = games_table.c
        # JSON columns read as text and parsed row by row: one row that does not parse is left out alone
        rules, seats = cast(columns.rules, Text), cast(columns.seats, Text)
        query = select(columns.id, columns.game, rules, seats, columns.finished, columns.updated)
        with self.engine.connect() as connection:
            rows = connection.execute(query.where(columns.id.in_(game_ids))).all()
        read = []
        for game_id, game, rules_text, seats_text, finished, updated in rows:
            try:
                read.append(GameRow(game_id, str(game), json_value(rules_text), json_value(seats_text), finished, updated))
            except ValueError as error:
                log.warning("game %s cannot be read for a record: %s", game_id, error)
        return read

    def summaries(self, game_ids: Collection[str], version: int) -> dict[tuple[str, int], SeatSummary]:
        """The summaries of these games' seats made by this `version` of the review, by (game id, seat)."""
        if not game_ids:
            return {}
        columns = seat_summaries_table.c
        query = select(*(columns[name] for name in _FIELDS)).where(
            columns.game_id.in_(game_ids), columns.version == version
        )
        with self.engine.connect() as connection:
            rows = connection.execute(query).all()
        return {(row.game_id, row.seat): SeatSummary(*row) for row in rows}

    def store(self, summaries: Iterable[SeatSummary], version: int) -> None:
        """Keep these summaries, replacing older ones (two processes may store the same game at once)."""
        rows = [asdict(summary) | {"version": version} for summary in summaries]
        if not rows:
            return
        upsert = conflict_insert(self.engine, seat_summaries_table).values(rows)
        replaced = {name: upsert.excluded[name] for name in ("version", *_FIELDS[2:])}
        try:
            with self.engine.begin() as connection:
                connection.execute(upsert.on_conflict_do_update(index_elements=["game_id", "seat"], set_=replaced))
        except SQLAlchemyError as error:
            log.warning("could not store the summaries of game %s: %s", rows[0]["game_id"], error)


_FIELDS = tuple(SeatSummary.__dataclass_fields__)  # the key (game_id, seat), then what is summed up
