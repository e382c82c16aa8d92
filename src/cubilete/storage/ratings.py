"""The stored side of ratings and performance (migration 0012; docs/ratings.md): each profile's rating
per game and its history, each profile seat's performance in a finished game, the games already taken
into them, and the boards read from them.

A finished game is taken in once, whichever process tries: `take_game` inserts its `rated_games` row
first, in the transaction that stores its performances and updates its ratings, so a second attempt
(another process, a replay) fails on that key and changes nothing. The ratings are computed by the
caller's `rate` (analysis/ratings.py: storage imports no analysis) from the ratings read in that same
transaction, so two games of one profile finishing at once in two processes update one after the other.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from typing import NamedTuple

from sqlalchemy import func, insert, select, update
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError

from .tables import (
    game_performances_table,
    profile_seats_table,
    profiles_table,
    rated_games_table,
    rating_history_table,
    ratings_table,
)


class StoredRating(NamedTuple):
    mu: float
    sigma: float
    games: int


@dataclass(frozen=True)
class SeatPerformance:
    """A profile seat's game, from its review: the decisions' mean loss, their number, the final score."""

    seat: int
    profile_id: str
    mean_loss: float
    decisions: int
    score: int
    performance: float


class HistoryPoint(NamedTuple):
    at: datetime
    game_id: str
    mu: float
    sigma: float


class RatingRow(NamedTuple):
    name: str
    mu: float
    sigma: float
    games: int


class AccuracyRow(NamedTuple):
    name: str
    mean_loss: float  # over all the profile's decisions in the game (a long game weighs more)
    decisions: int
    games: int
    performance: float  # the mean of its games' performances


# Attempts at taking a game in: a first rating inserted by another process at once fails one on its key.
TAKE_ATTEMPTS = 2
# The ratings after a game, given each rated profile's rating before it (None: none yet), in order.
Rate = Callable[[Sequence[StoredRating | None]], Sequence[StoredRating]]


def _now() -> datetime:
    return datetime.now(UTC)


class RatingStore:
    """Sync methods: the web app calls them from worker threads."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def take_game(
        self, game_id: str, game: str, performances: Sequence[SeatPerformance], rated: Sequence[str], rate: Rate | None
    ) -> bool:
        """Take a finished game in: its seats' performances, and with `rate` the ratings of the `rated`
        profiles updated. False, and nothing changed, if it was taken in already (by any process)."""
        attempts = TAKE_ATTEMPTS
        while True:
            try:
                with self.engine.begin() as connection:
                    _take(connection, game_id, game, performances, rated, rate)
                return True
            except IntegrityError:
                if self.taken(game_id):
                    return False
                attempts -= 1
                if not attempts:
                    raise

    def taken(self, game_id: str) -> bool:
        """Whether the game was taken into ratings and performance already."""
        query = select(rated_games_table.c.game_id).where(rated_games_table.c.game_id == game_id)
        with self.engine.connect() as connection:
            return connection.execute(query).first() is not None

    def seat_owners(self, game_id: str) -> dict[int, str]:
        """The game's seats that belong to a profile, each with the profile's id."""
        columns = profile_seats_table.c
        query = select(columns.seat, columns.profile_id).where(columns.game_id == game_id)
        with self.engine.connect() as connection:
            return {row.seat: row.profile_id for row in connection.execute(query)}

    def ratings_of(self, profile_id: str) -> dict[str, StoredRating]:
        columns = ratings_table.c
        query = select(columns.game, columns.mu, columns.sigma, columns.games).where(columns.profile_id == profile_id)
        with self.engine.connect() as connection:
            return {row.game: StoredRating(row.mu, row.sigma, row.games) for row in connection.execute(query)}

    def history_of(self, profile_id: str) -> dict[str, list[HistoryPoint]]:
        """The profile's rating after each of its rated games, per game, oldest first."""
        columns = rating_history_table.c
        query = (
            select(columns.game, columns.created, columns.game_id, columns.mu, columns.sigma)
            .where(columns.profile_id == profile_id)
            .order_by(columns.created, columns.game_id)
        )
        history: dict[str, list[HistoryPoint]] = {}
        with self.engine.connect() as connection:
            for row in connection.execute(query):
                history.setdefault(row.game, []).append(HistoryPoint(row.created, row.game_id, row.mu, row.sigma))
        return history

    def performance_of(self, profile_id: str) -> dict[str, tuple[float, int]]:
        """Per game: the mean performance of the profile's games, and their number."""
        columns = game_performances_table.c
        query = (
            select(columns.game, func.avg(columns.performance), func.count())
            .where(columns.profile_id == profile_id)
            .group_by(columns.game)
        )
        with self.engine.connect() as connection:
            return {game: (float(mean), int(count)) for game, mean, count in connection.execute(query)}

    def hidden(self, profile_id: str) -> bool:
        query = select(profiles_table.c.hidden_from_boards).where(profiles_table.c.id == profile_id)
        with self.engine.connect() as connection:
            return bool(connection.scalar(query))

    def hide(self, profile_id: str, hidden: bool) -> None:
        """Leave the profile out of every board (or put it back)."""
        change = update(profiles_table).where(profiles_table.c.id == profile_id).values(hidden_from_boards=hidden)
        with self.engine.begin() as connection:
            connection.execute(change)

    def rating_board(self, game: str, most: int) -> list[RatingRow]:
        """The `most` best ratings of the game by ordinal (mu - 3 sigma), hidden profiles left out."""
        columns = ratings_table.c
        query = (
            select(profiles_table.c.name, columns.mu, columns.sigma, columns.games)
            .join(profiles_table, profiles_table.c.id == columns.profile_id)
            .where(columns.game == game, profiles_table.c.hidden_from_boards.is_(False))
            .order_by((columns.mu - 3 * columns.sigma).desc(), profiles_table.c.name)
            .limit(most)
        )
        with self.engine.connect() as connection:
            return [RatingRow(*row) for row in connection.execute(query)]

    def accuracy_board(self, game: str, min_games: int, most: int) -> list[AccuracyRow]:
        """The `most` profiles of least mean loss per decision in the game, of those with `min_games`
        games reviewed or more, hidden profiles left out."""
        columns = game_performances_table.c
        decisions = func.sum(columns.decisions)
        mean_loss = func.sum(columns.mean_loss * columns.decisions) / func.nullif(decisions, 0)
        query = (
            select(profiles_table.c.name, mean_loss, decisions, func.count(), func.avg(columns.performance))
            .join(profiles_table, profiles_table.c.id == columns.profile_id)
            .where(columns.game == game, profiles_table.c.hidden_from_boards.is_(False))
            .group_by(profiles_table.c.id, profiles_table.c.name)
            .having(func.count() >= min_games, decisions > 0)
            .order_by(mean_loss, profiles_table.c.name)
            .limit(most)
        )
        with self.engine.connect() as connection:
            return [
                AccuracyRow(name, float(loss), int(count_decisions), int(games), float(performance))
                for name, loss, count_decisions, games, performance in connection.execute(query)
            ]


def _take(
    connection: Connection, game_id: str, game: str, performances: Sequence[SeatPerformance], rated: Sequence[str],
    rate: Rate | None,
) -> None:
    now = _now()
    # first: the key that refuses a second attempt (and on SQLite the write lock, taken before any read)
    connection.execute(insert(rated_games_table).values(game_id=game_id, created=now))
    if performances:
        rows = [asdict(row) | {"game_id": game_id, "game": game, "created": now} for row in performances]
        connection.execute(insert(game_performances_table).values(rows))
    if rate is not None:
        _update_ratings(connection, game_id, game, rated, rate, now)


def _update_ratings(
    connection: Connection, game_id: str, game: str, rated: Sequence[str], rate: Rate, now: datetime
) -> None:
    """The rated profiles' ratings read (locked on PostgreSQL until the commit), updated and kept, with a
    history row each."""
    columns = ratings_table.c
    query = (
        select(columns.profile_id, columns.mu, columns.sigma, columns.games)
        .where(columns.game == game, columns.profile_id.in_(rated))
        .with_for_update()
    )
    before = {row.profile_id: StoredRating(row.mu, row.sigma, row.games) for row in connection.execute(query)}
    after = rate([before.get(profile_id) for profile_id in rated])
    for profile_id, rating in zip(rated, after):
        values = {"mu": rating.mu, "sigma": rating.sigma, "games": rating.games, "updated": now}
        if profile_id in before:
            connection.execute(update(ratings_table).where(columns.profile_id == profile_id, columns.game == game).values(values))
        else:  # a first rating: of two processes inserting it at once, one fails on the key and tries again
            connection.execute(insert(ratings_table).values(values | {"profile_id": profile_id, "game": game}))
        history = {"profile_id": profile_id, "game_id": game_id, "game": game, "mu": rating.mu, "sigma": rating.sigma}
        connection.execute(insert(rating_history_table).values(history | {"created": now}))
