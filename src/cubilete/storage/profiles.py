"""The stored side of profiles (migration 0007): a profile's row, its device secrets (as digests), and
the seats that belong to it. Deleting a profile deletes every row of it: its secrets, passkeys, seat
links, passkey challenges and push subscriptions go with it by their foreign keys (ON DELETE CASCADE,
migration 0009), and SQLite overwrites their bytes (secure_delete, connections.py). Its seats stay in
their games, under their names, no longer saying they are its; a rename renames the seats' profile.
What a profile is and how its secrets are made: web/profiles.py."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any, NamedTuple

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.sql.expression import Executable

from .name_keys import name_key, name_skeleton
from .tables import games_table, profile_keys_table, profile_seats_table, profiles_table

NAME_LOCKS = 3  # PostgreSQL's advisory locks of a name's skeleton (push.py has spaces 1 and 2)


class NameTaken(Exception):
    """Another profile has this name key."""


class NameLooksAlike(NameTaken):
    """Another profile's name looks like this one (the same skeleton)."""


class StoredProfile(NamedTuple):
    id: str
    name: str


class PlayedWith(NamedTuple):
    """A profile one played with, and the last game together: its game, rules' name and table options."""

    name: str
    game: str
    rules: str
    table_options: dict[str, Any]


class SeatLink(NamedTuple):
    """A seat that belongs to a profile, and the game its token was derived for (a rematch keeps its
    first game's tokens)."""

    game_id: str
    seat: int
    profile_id: str
    token_game: str


def _now() -> datetime:
    return datetime.now(UTC)


class ProfileStore:
    """Sync methods: the routes call them from worker threads."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def create(self, profile: StoredProfile, seat_key: str, secret_digest: str) -> None:
        """A new profile with its first device secret; NameTaken if another profile has the name, or one
        that looks alike (`_claim_name`: even one claimed at the same moment)."""
        names = _name_columns(profile.name)
        row = {"id": profile.id, "seat_key": seat_key, "created": _now(), **names}
        try:
            with self.engine.begin() as connection:
                _claim_name(connection, profile.id, names, insert(profiles_table).values(row))
                self._add_secret(connection, profile.id, secret_digest)
        except IntegrityError:
            raise NameTaken() from None

    def add_secret(self, profile_id: str, secret_digest: str) -> None:
        with self.engine.begin() as connection:
            self._add_secret(connection, profile_id, secret_digest)

    @staticmethod
    def _add_secret(connection: Connection, profile_id: str, secret_digest: str) -> None:
        row = {"secret_sha256": secret_digest, "profile_id": profile_id, "created": _now()}
        connection.execute(insert(profile_keys_table).values(row))

    def devices(self, profile_id: str) -> list[tuple[str, datetime]]:
        """The profile's device secrets: each digest and when it was given, oldest first."""
        columns = profile_keys_table.c
        query = select(columns.secret_sha256, columns.created).where(columns.profile_id == profile_id)
        with self.engine.connect() as connection:
            return [(row.secret_sha256, row.created) for row in connection.execute(query.order_by(columns.created))]

    def revoke(self, profile_id: str, digest_start: str) -> bool:
        """Delete the profile's device secret whose digest starts so; whether there was one."""
        columns = profile_keys_table.c
        gone = delete(profile_keys_table).where(
            columns.profile_id == profile_id, columns.secret_sha256.startswith(digest_start, autoescape=True)
        )
        with self.engine.begin() as connection:
            return bool(connection.execute(gone).rowcount)

    def by_secret(self, secret_digest: str) -> tuple[StoredProfile, str] | None:
        """The profile holding this secret's digest, and the digest as stored (to compare in constant time)."""
        query = (
            select(profiles_table.c.id, profiles_table.c.name, profile_keys_table.c.secret_sha256)
            .join(profile_keys_table, profile_keys_table.c.profile_id == profiles_table.c.id)
            .where(profile_keys_table.c.secret_sha256 == secret_digest)
        )
        with self.engine.connect() as connection:
            row = connection.execute(query).first()
        return None if row is None else (StoredProfile(row.id, row.name), row.secret_sha256)

    def by_name(self, name: str) -> StoredProfile | None:
        """The profile of this name (its key: NFKC, without case)."""
        query = select(profiles_table.c.id, profiles_table.c.name).where(profiles_table.c.name_key == name_key(name))
        with self.engine.connect() as connection:
            row = connection.execute(query).first()
        return None if row is None else StoredProfile(row.id, row.name)

    def name_of(self, profile_id: str) -> str | None:
        with self.engine.connect() as connection:
            return connection.scalar(select(profiles_table.c.name).where(profiles_table.c.id == profile_id))

    def rename(self, profile_id: str, name: str) -> list[str]:
        """NameTaken if another profile has the name, or one that looks alike. Its seats' games say the new
        name as their seats' profile; answers those games."""
        columns = _name_columns(name)
        change = update(profiles_table).where(profiles_table.c.id == profile_id).values(columns)
        try:
            with self.engine.begin() as connection:
                _claim_name(connection, profile_id, columns, change)
                return _relabel_seats(connection, profile_id, columns["name"])
        except IntegrityError:
            raise NameTaken() from None

    def delete(self, profile_id: str) -> list[str]:
        """The profile and, by their foreign keys, every row of it (the module's docstring); its seats' games
        no longer say the seats are its (the name could be claimed by another). Answers those games."""
        with self.engine.begin() as connection:
            relabeled = _relabel_seats(connection, profile_id, None)
            connection.execute(delete(profiles_table).where(profiles_table.c.id == profile_id))
            return relabeled

    def seat_key(self, profile_id: str) -> str:
        """The profile's seat key (hex)."""
        with self.engine.connect() as connection:
            return str(
                connection.execute(select(profiles_table.c.seat_key).where(profiles_table.c.id == profile_id)).scalar_one()
            )

    def link_seats(self, links: Sequence[SeatLink]) -> None:
        if links:
            with self.engine.begin() as connection:
                connection.execute(insert(profile_seats_table).values([link._asdict() for link in links]))

    def link_rematch(self, game_id: str, rematch_id: str) -> None:
        """The rematch's seats linked as the game's are, with the same tokens (asking again, or in two
        processes at once, links them once)."""
        columns = profile_seats_table.c
        with self.engine.connect() as connection:
            rows = connection.execute(select(profile_seats_table).where(columns.game_id == game_id)).mappings().all()
        try:
            with self.engine.begin() as connection:
                linked = connection.execute(select(columns.seat).where(columns.game_id == rematch_id)).first()
                if rows and linked is None:
                    connection.execute(
                        insert(profile_seats_table).values([{**row, "game_id": rematch_id} for row in rows])
                    )
        except IntegrityError:
            pass  # another request linked them first

    def owner(self, game_id: str, seat: int) -> str | None:
        """The id of the profile the seat belongs to, if any."""
        columns = profile_seats_table.c
        query = select(columns.profile_id).where(columns.game_id == game_id, columns.seat == seat)
        with self.engine.connect() as connection:
            found: str | None = connection.execute(query).scalar()
        return found

    def played_together(self, profile_id: str, other_id: str) -> bool:
        """Whether the two profiles have seats in one game (each took it: a claim, a join, or a reservation
        between profiles that had)."""
        mine, theirs = profile_seats_table.alias("mine"), profile_seats_table.alias("theirs")
        query = (
            select(mine.c.game_id)
            .join(theirs, theirs.c.game_id == mine.c.game_id)
            .where(mine.c.profile_id == profile_id, theirs.c.profile_id == other_id)
            .limit(1)
        )
        with self.engine.connect() as connection:
            return connection.execute(query).first() is not None

    def played_with(self, profile_id: str, most: int) -> list[PlayedWith]:
        """The `most` profiles that last had seats in a game of this profile's, the latest first, each with
        that game (one row per profile: the window ranks each one's games by their last change)."""
        mine, theirs = profile_seats_table.alias("mine"), profile_seats_table.alias("theirs")
        games = games_table.c
        latest_first = (games.updated.desc(), games.id)
        together = (
            select(
                theirs.c.profile_id, games.updated, games.game, games.rules, games.table_options,
                func.row_number().over(partition_by=theirs.c.profile_id, order_by=latest_first).label("rank"),
            )
            .select_from(mine)
            .join(theirs, theirs.c.game_id == mine.c.game_id)
            .join(games_table, games.id == mine.c.game_id)
            .where(mine.c.profile_id == profile_id, theirs.c.profile_id != profile_id)
            .subquery()
        )
        query = (
            select(profiles_table.c.name, together.c.game, together.c.rules, together.c.table_options)
            .join(profiles_table, profiles_table.c.id == together.c.profile_id)
            .where(together.c["rank"] == 1)
            .order_by(together.c.updated.desc(), profiles_table.c.name)
            .limit(most)
        )
        with self.engine.connect() as connection:
            rows = connection.execute(query).all()
        return [PlayedWith(name, game, (rules or {}).get("name", ""), options or {}) for name, game, rules, options in rows]

    def seat_links(self, profile_id: str, most: int | None = None) -> list[SeatLink]:
        """The profile's seats, those of the latest changed games first (the `most` of them)."""
        columns = profile_seats_table.c
        query = (
            select(columns.game_id, columns.seat, columns.profile_id, columns.token_game)
            .join(games_table, games_table.c.id == columns.game_id)
            .where(columns.profile_id == profile_id)
            .order_by(games_table.c.updated.desc(), columns.game_id, columns.seat)
            .limit(most)
        )
        with self.engine.connect() as connection:
            return [SeatLink(*row) for row in connection.execute(query).all()]


def _name_columns(name: str) -> dict[str, str]:
    return {"name": name, "name_key": name_key(name), "name_skeleton": name_skeleton(name)}


def _relabel_seats(connection: Connection, profile_id: str, name: str | None) -> list[str]:
    """The profile's seats, in their stored games, say `name` as their profile (None: none any more);
    answers the games changed. A game's seats are read and written in this transaction."""
    links = select(profile_seats_table.c.game_id, profile_seats_table.c.seat).where(
        profile_seats_table.c.profile_id == profile_id
    )
    seats_of: dict[str, list[int]] = {}
    for game_id, seat in connection.execute(links):
        seats_of.setdefault(game_id, []).append(seat)
    changed = []
    for game_id, numbers in seats_of.items():
        stored = connection.scalar(select(games_table.c.seats).where(games_table.c.id == game_id))
        if stored is None:
            continue
        seats = [dict(seat) for seat in stored]
        for number in (number for number in numbers if number < len(seats) and "profile" in seats[number]):
            if name is None:
                del seats[number]["profile"]
            else:
                seats[number]["profile"] = name
        if seats != stored:  # a new seats' version: every process's copy reads them again
            bumped = update(games_table).where(games_table.c.id == game_id)
            connection.execute(bumped.values(seats=seats, seats_version=games_table.c.seats_version + 1))
            changed.append(game_id)
    return changed


def _claim_name(connection: Connection, profile_id: str, name: dict[str, str], write: Executable) -> None:
    """Write the profile's name (`write`), then refuse it if another profile's looks alike: the skeleton is
    not unique in the database (installs before migration 0010 may hold look-alikes), so two names claimed
    at once are kept apart by writing first (SQLite: the write holds the database's lock until the
    transaction ends) and, on PostgreSQL, by a lock on the skeleton taken before the write."""
    if connection.dialect.name == "postgresql":
        connection.execute(select(func.pg_advisory_xact_lock(NAME_LOCKS, func.hashtext(name["name_skeleton"]))))
    connection.execute(write)
    _check_look_alike(connection, profile_id, name)


def _check_look_alike(connection: Connection, profile_id: str, name: dict[str, str]) -> None:
    """NameLooksAlike if another profile's name has this skeleton (the same key is the unique key's NameTaken);
    the transaction is then rolled back."""
    columns = profiles_table.c
    other = select(columns.id).where(
        columns.name_skeleton == name["name_skeleton"], columns.name_key != name["name_key"], columns.id != profile_id
    )
    if connection.execute(other).first():
        raise NameLooksAlike()
