"""The stored side of the daily challenge (migration 0011): the server's daily secret, each profile's
ranked try of a day's challenge, and each ranked decision's position and choice.

Several server processes share these rows, and every rule that must hold across them is the database's:
the secret is made by whichever process asks first (an insert that does nothing if another process's is
there, then a read); a profile's second ranked try of a game on a day is refused by the unique key
(date, game, profile); a try is ranked once (an update of the row still unranked, with its choices in the
same transaction). What the days mean: web/daily.py and docs/daily.md."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import delete, func, or_, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from .connections import conflict_insert
from .name_keys import name_key
from .tables import daily_choices_table, daily_keys_table, daily_tries_table, games_table, profiles_table

KEY_ROW = 1  # the one row of daily_keys


@dataclass(frozen=True)
class DailyTry:
    """A ranked try as stored: its game, day and profile, and whether it is ranked yet."""

    game_id: str
    date: str
    game: str
    profile_id: str
    computer_from: int | None
    ranked: bool


@dataclass(frozen=True)
class BoardRow:
    name: str
    mean_loss: float
    score: int
    decisions: int
    finished_at: datetime


@dataclass(frozen=True)
class Ranking:
    """What ranks a finished try: its review's decisions and mean loss, its final score, and each decision's
    (event index, position digest, chosen action's canonical JSON) for how the day's players chose."""

    decisions: int
    mean_loss: float
    score: int
    choices: Sequence[tuple[int, str, str]]


class DailyStore:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def secret(self, make: Callable[[], str]) -> str:
        """The stored secret (hex); `make()`'s is stored first if there is none yet (of two processes
        storing theirs at once, the first one's is kept and both read it)."""
        stored = self._secret()
        if stored is None:
            row = {"id": KEY_ROW, "secret": make(), "created": datetime.now(UTC)}
            with self.engine.begin() as connection:
                connection.execute(conflict_insert(self.engine, daily_keys_table).values(row).on_conflict_do_nothing())
            stored = self._secret()
        assert stored is not None, "stored just now"
        return stored

    def _secret(self) -> str | None:
        with self.engine.connect() as connection:
            found = connection.scalar(select(daily_keys_table.c.secret).where(daily_keys_table.c.id == KEY_ROW))
        return None if found is None else str(found)

    def start(self, game_id: str, date: str, game: str, profile_id: str) -> bool:
        """Store the profile's ranked try of the day's game; False (and nothing stored) if it has one."""
        row = {"game_id": game_id, "date": date, "game": game, "profile_id": profile_id, "started": datetime.now(UTC)}
        try:
            with self.engine.begin() as connection:
                connection.execute(daily_tries_table.insert().values(row))
        except IntegrityError:
            return False
        return True

    def try_of(self, date: str, game: str, profile_id: str) -> DailyTry | None:
        columns = daily_tries_table.c
        return self._one(columns.date == date, columns.game == game, columns.profile_id == profile_id)

    def try_in(self, game_id: str) -> DailyTry | None:
        return self._one(daily_tries_table.c.game_id == game_id)

    def _one(self, *where: object) -> DailyTry | None:
        with self.engine.connect() as connection:
            row = connection.execute(select(daily_tries_table).where(*where)).first()  # type: ignore[arg-type]
        if row is None:
            return None
        return DailyTry(row.game_id, row.date, row.game, row.profile_id, row.computer_from, row.finished_at is not None)

    def started(self, date: str, game: str, *, ranked_only: bool = False) -> int:
        """How many ranked tries of the day's game were started (`ranked_only`: and are ranked now)."""
        columns = daily_tries_table.c
        where = [columns.date == date, columns.game == game]
        if ranked_only:
            where.append(columns.finished_at.is_not(None))
        with self.engine.connect() as connection:
            return int(connection.scalar(select(func.count()).where(*where)) or 0)

    def days_played(self, profile_id: str, most: int) -> list[str]:
        """The latest `most` days on which the profile started a ranked try of any game, newest first."""
        columns = daily_tries_table.c
        query = (
            select(columns.date).where(columns.profile_id == profile_id).group_by(columns.date)
            .order_by(columns.date.desc()).limit(most)
        )
        with self.engine.connect() as connection:
            return [str(date) for date in connection.scalars(query)]

    def board(self, date: str, game: str, hidden: Collection[str] = ()) -> list[BoardRow]:
        """The day's ranked tries of the game, by mean loss, then score (highest first), then who finished
        first; the profiles in `hidden` left out."""
        tries, profiles = daily_tries_table.c, profiles_table.c
        query = (
            select(profiles.name, tries.mean_loss, tries.score, tries.decisions, tries.finished_at)
            .join(profiles_table, profiles.id == tries.profile_id)
            .where(tries.date == date, tries.game == game, tries.finished_at.is_not(None))
            .order_by(tries.mean_loss, tries.score.desc(), tries.finished_at, profiles.name)
        )
        if hidden:
            query = query.where(tries.profile_id.not_in(list(hidden)))
        with self.engine.connect() as connection:
            return [BoardRow(*row) for row in connection.execute(query)]

    def to_rank(self, today: str, most: int) -> list[DailyTry]:
        """Up to `most` tries not ranked yet whose game is over, or whose day is over (the computer finishes it)."""
        tries = daily_tries_table.c
        query = (
            select(daily_tries_table)
            .join(games_table, games_table.c.id == tries.game_id)
            .where(tries.finished_at.is_(None), or_(games_table.c.finished.is_(True), tries.date < today))
            .order_by(tries.date, tries.game_id)
            .limit(most)
        )
        with self.engine.connect() as connection:
            return [
                DailyTry(row.game_id, row.date, row.game, row.profile_id, row.computer_from, False)
                for row in connection.execute(query)
            ]

    def computer_plays_from(self, game_id: str, events: int) -> int:
        """The computer plays the try's game from event `events` on, unless a process said so first: answers
        the index stored."""
        columns = daily_tries_table.c
        with self.engine.begin() as connection:
            connection.execute(
                update(daily_tries_table).where(columns.game_id == game_id, columns.computer_from.is_(None))
                .values(computer_from=events)
            )
            stored = connection.scalar(select(columns.computer_from).where(columns.game_id == game_id))
        return events if stored is None else int(stored)

    def rank(self, game_id: str, ranking: Ranking, finished_at: datetime) -> bool:
        """Rank the try with its choices, unless it is ranked already (by another process): answers whether
        this call did."""
        try_row = daily_tries_table.c
        with self.engine.begin() as connection:
            ranked = connection.execute(
                update(daily_tries_table)
                .where(try_row.game_id == game_id, try_row.finished_at.is_(None))
                .values(
                    finished_at=finished_at, decisions=ranking.decisions, mean_loss=ranking.mean_loss,
                    score=ranking.score,
                )
            ).rowcount
            if not ranked:
                return False
            day = connection.execute(select(try_row.date, try_row.game).where(try_row.game_id == game_id)).one()
            if ranking.choices:
                connection.execute(daily_choices_table.insert(), [
                    {"game_id": game_id, "index": index, "date": day.date, "game": day.game, "position": position,
                     "action": action}
                    for index, position, action in ranking.choices
                ])
        return True

    def choices(self, date: str, game: str, positions: Collection[str]) -> dict[str, Counter[str]]:
        """For each of these positions of the day's game, how many ranked tries chose each action there."""
        if not positions:
            return {}
        columns = daily_choices_table.c
        query = (
            select(columns.position, columns.action, func.count())
            .where(columns.date == date, columns.game == game, columns.position.in_(list(positions)))
            .group_by(columns.position, columns.action)
        )
        found: dict[str, Counter[str]] = {}
        with self.engine.connect() as connection:
            for position, action, count in connection.execute(query):
                found.setdefault(position, Counter())[action] = int(count)
        return found

    def remove(self, date: str, game: str, profile_name: str) -> bool:
        """Take the profile's try of the day's game off the board (its choices too; the game stays):
        answers whether there was one."""
        tries = daily_tries_table.c
        profile = select(profiles_table.c.id).where(profiles_table.c.name_key == name_key(profile_name))
        with self.engine.begin() as connection:
            return bool(connection.execute(
                delete(daily_tries_table).where(
                    tries.date == date, tries.game == game, tries.profile_id == profile.scalar_subquery()
                )
            ).rowcount)
