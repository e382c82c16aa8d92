"""The open tables: public games with seats nobody has claimed yet, as the home page lists them."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Text, cast, func, select
from sqlalchemy.engine import Engine

from .connections import json_value
from .tables import STORED_GAME, events_table, games_table

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class OpenTable:
    """A public game with seats nobody has claimed yet, as the open-tables list shows it."""

    id: str
    game: str
    rules: str
    players: list[str]  # the seated players' names
    open_seats: list[int]
    turn_clock: int
    hints: str  # table_options.TableOptions.hints


class OpenTableStore:
    """The open tables' query, on the games' engine."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def listed(self, limit: int = 50, per_creator: int = 3) -> list[OpenTable]:
        """Unfinished games with open seats (only public games have any), at most `per_creator` of one
        creator (its newest), the most recently played first among the newest 4 × `limit` of those.

        Cheap however many games there are: the open ones (ix_games_open) are numbered per creator and
        sorted by their row's time, and only the few kept have their newest event looked up."""
        columns = games_table.c
        per_creator_rank = func.row_number().over(
            partition_by=func.coalesce(columns.creator, columns.id), order_by=(columns.updated.desc(), columns.id)
        )
        open_games = (
            select(columns.id, columns.updated, per_creator_rank.label("rank"))
            .where(columns.open_seats > 0, columns.finished.is_(False))
            .subquery()
        )
        newest = (
            select(open_games.c.id, open_games.c.updated)
            .where(open_games.c["rank"] <= per_creator)
            .order_by(open_games.c.updated.desc(), open_games.c.id)
            .limit(4 * limit)
            .subquery()
        )
        last_played = (  # the time of the game's newest event (its row changes only with its seats)
            select(events_table.c.created)
            .where(events_table.c.game_id == newest.c.id)
            .order_by(events_table.c["index"].desc())
            .limit(1)
            .scalar_subquery()
        )
        # JSON columns read as text and parsed row by row: one row that does not parse is left out alone
        query = (
            select(columns.id, columns.game, *(cast(column, Text) for column in (
                columns.rules, columns.seats, columns.table_options)))
            .join(newest, newest.c.id == columns.id)
            .order_by(func.coalesce(last_played, newest.c.updated).desc(), newest.c.updated.desc())
            .limit(limit)
        )
        with self.engine.connect() as connection:
            rows = connection.execute(query).all()
        tables = []
        for game_id, game, *columns_text in rows:
            try:
                tables.append(_open_table(game_id, game, *(json_value(text) for text in columns_text)))
            except ValueError as error:  # logged and left out, never a 500 for everyone
                log.warning("game %s cannot be listed: %s", game_id, error)
        return tables


def _open_table(game_id: str, game: Any, rules: Any, seats: Any, options: Any) -> OpenTable:
    """A listed game from its columns, or InvalidRecord (a ValueError) if they are not what the app writes."""
    name = STORED_GAME.text(STORED_GAME.mapping(rules, "rules").get("name"), "the rules' name")
    seats = [STORED_GAME.mapping(seat, "a seat") for seat in STORED_GAME.array(seats, "seats", 1)]
    players = [STORED_GAME.text(seat.get("name"), "a seat's name") for seat in seats if not seat.get("open")]
    options = STORED_GAME.mapping(options or {}, "table options")  # games stored before the options had none
    return OpenTable(
        game_id, STORED_GAME.text(game, "game"), name, players,
        [index for index, seat in enumerate(seats) if seat.get("open")],
        STORED_GAME.integer(options.get("turn_clock", 0), "turn clock", 0),
        STORED_GAME.text(options.get("hints", "always"), "hints"),  # on in games stored before the option
    )
