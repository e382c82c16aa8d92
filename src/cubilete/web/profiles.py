"""Profiles (optional): a name claimed on this server, held by device secrets, to which seats belong
(tables of Alembic migration 0007).

A profile is made with one device secret, shown once as the recovery code; entering it on another
device, or signing in with a passkey (passkeys.py), gives that device a secret of its own. Only the
secrets' SHA-256 digests are stored, and a request's secret (`Authorization: Bearer …`) is looked up by
its digest, so a stolen database signs no one in. A seat that belongs to a profile has a token derived
from the profile's seat key (seats.SeatHolder), so every device of the profile can be given it: "my
games" and the record then follow the player with the ordinary seat tokens. Deleting a profile
deletes its secrets, passkeys and seat links; its seats stay in their games, named, held by whoever
holds their tokens.
"""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime

from sqlalchemy import (
    BigInteger,
    Column,
    ForeignKey,
    Integer,
    LargeBinary,
    PrimaryKeyConstraint,
    String,
    Table,
    delete,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError
from starlette.requests import HTTPConnection

from ..engine.errors import CubileteError, InvalidRecord
from ..storage import Storage
from ..storage.tables import UtcDateTime, games_table, metadata
from .seats import HUMAN, SeatHolder, SeatRequest, digest_token

profiles_table = Table(
    "profiles",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("name", String(24), nullable=False),
    Column("name_key", String(96), nullable=False, unique=True),  # the name without case: unique
    Column("seat_key", String(64), nullable=False),  # hex: the key its seats' tokens are derived from
    Column("created", UtcDateTime, nullable=False),
)
profile_keys_table = Table(
    "profile_keys",
    metadata,
    Column("secret_sha256", String(64), primary_key=True),
    Column("profile_id", String(32), ForeignKey("profiles.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("created", UtcDateTime, nullable=False),
)
passkeys_table = Table(
    "passkeys",
    metadata,
    Column("credential_id", String(1400), primary_key=True),  # base64url
    Column("profile_id", String(32), ForeignKey("profiles.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("public_key", LargeBinary, nullable=False),
    Column("sign_count", BigInteger, nullable=False),
    Column("created", UtcDateTime, nullable=False),
)
profile_seats_table = Table(
    "profile_seats",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("profile_id", String(32), ForeignKey("profiles.id", ondelete="CASCADE"), nullable=False, index=True),
    # the game the seat's token was derived for: a rematch keeps the seats' tokens, so its first game's
    Column("token_game", String(32), nullable=False),
    PrimaryKeyConstraint("game_id", "seat", name="pk_profile_seats"),
)
BEARER = "bearer "
MAX_SECRET = 128  # a longer Authorization header is no secret of ours: not even hashed
RESERVED_NAMES = {"me"}  # /api/profiles/me is the signed-in device's own profile


class ProfileRefused(CubileteError):
    """The request needs a profile, and its device secret is missing or belongs to none (HTTP 401)."""


class ProfileNotFound(CubileteError):
    """No profile has this name."""


class ProfileNameTaken(CubileteError):
    """Another profile has this name (without case)."""


@dataclass(frozen=True)
class Profile:
    id: str
    name: str


@dataclass(frozen=True)
class ProfileSeat:
    game: str
    seat: int
    token: str  # derived from the profile's seat key


def name_key(name: str) -> str:
    """The name as profiles compare it (without case); a reserved name is refused as taken."""
    key = name.strip().casefold()
    if key in RESERVED_NAMES:
        raise ProfileNameTaken("name_taken", name=name.strip())
    return key


def _now() -> datetime:
    return datetime.now(UTC)


class Profiles:
    """The profiles of a server, in its database (sync methods: routes call them from worker threads)."""

    def __init__(self, storage: Storage) -> None:
        self.engine = storage.engine

    def create(self, name: str) -> tuple[Profile, str]:
        """A new profile and its first device secret (refused if the name is taken)."""
        profile = Profile(secrets.token_urlsafe(12), name.strip())
        row = {
            "id": profile.id,
            "name": profile.name,
            "name_key": name_key(name),
            "seat_key": secrets.token_hex(32),
            "created": _now(),
        }
        try:
            with self.engine.begin() as connection:
                connection.execute(insert(profiles_table).values(row))
                secret = self._add_secret(connection, profile.id)
        except IntegrityError:
            raise ProfileNameTaken("name_taken", name=profile.name) from None
        return profile, secret

    def add_device(self, profile_id: str) -> str:
        """A new device secret for the profile (a passkey's sign-in)."""
        with self.engine.begin() as connection:
            return self._add_secret(connection, profile_id)

    @staticmethod
    def _add_secret(connection: Connection, profile_id: str) -> str:
        secret = secrets.token_urlsafe(32)
        row = {"secret_sha256": digest_token(secret), "profile_id": profile_id, "created": _now()}
        connection.execute(insert(profile_keys_table).values(row))
        return secret

    def signed_in(self, connection: HTTPConnection) -> Profile | None:
        """The profile whose device secret the request carries (`Authorization: Bearer …`), if any."""
        header = connection.headers.get("authorization", "")
        if not header[: len(BEARER)].lower() == BEARER:
            return None
        return self.by_secret(header[len(BEARER) :].strip())

    def required(self, connection: HTTPConnection) -> Profile:
        """The request's profile; refused (401) without a device secret of one."""
        profile = self.signed_in(connection)
        if profile is None:
            raise ProfileRefused("profile_needed")
        return profile

    def by_secret(self, secret: str) -> Profile | None:
        if not secret or len(secret) > MAX_SECRET:
            return None
        digest = digest_token(secret)
        query = (
            select(profiles_table.c.id, profiles_table.c.name, profile_keys_table.c.secret_sha256)
            .join(profile_keys_table, profile_keys_table.c.profile_id == profiles_table.c.id)
            .where(profile_keys_table.c.secret_sha256 == digest)
        )
        with self.engine.connect() as connection:
            row = connection.execute(query).first()
        # the digest found by the index is compared again in constant time, as seat tokens are
        if row is None or not hmac.compare_digest(row.secret_sha256, digest):
            return None
        return Profile(row.id, row.name)

    def named(self, name: str) -> Profile:
        """The profile of this name (without case); ProfileNotFound if none."""
        key = name.strip().casefold()
        query = select(profiles_table.c.id, profiles_table.c.name).where(profiles_table.c.name_key == key)
        with self.engine.connect() as connection:
            row = connection.execute(query).first()
        if row is None:
            raise ProfileNotFound("profile_not_found", name=name.strip())
        return Profile(row.id, row.name)

    def rename(self, profile: Profile, name: str) -> Profile:
        """The profile under its new name (refused if another profile has it); its seats keep their names."""
        renamed = Profile(profile.id, name.strip())
        change = update(profiles_table).where(profiles_table.c.id == profile.id)
        try:
            with self.engine.begin() as connection:
                connection.execute(change.values(name=renamed.name, name_key=name_key(name)))
        except IntegrityError:
            raise ProfileNameTaken("name_taken", name=renamed.name) from None
        return renamed

    def delete(self, profile: Profile) -> None:
        """The profile, its secrets, passkeys and seat links; its seats stay in their games."""
        with self.engine.begin() as connection:
            for table in (profile_seats_table, passkeys_table, profile_keys_table):
                connection.execute(delete(table).where(table.c.profile_id == profile.id))
            connection.execute(delete(profiles_table).where(profiles_table.c.id == profile.id))

    def device_holder(self, connection: HTTPConnection) -> SeatHolder | None:
        """What a seat the request takes needs to belong to its profile, if it is signed in to one."""
        profile = self.signed_in(connection)
        return None if profile is None else self.holder(profile)

    def seat_requests(
        self, connection: HTTPConnection, requests: Sequence[tuple[SeatRequest, str | None]]
    ) -> list[SeatRequest]:
        """A new game's seats (each with the name of the profile it is reserved for, if any), with their
        holders: the first human seat played on a signed-in device belongs to its profile; a seat reserved
        for a friend's profile ("play with Beto again") is held by that profile from the start. Only a
        signed-in device may reserve seats."""
        mine = self.device_holder(connection)
        if mine is None and any(reserved is not None for _, reserved in requests):
            raise ProfileRefused("profile_needed")
        made = []
        for request, reserved in requests:
            if reserved is not None:
                if request.kind != HUMAN:
                    raise InvalidRecord("profile_seat_kind")
                request = replace(request, invited=True, holder=self.holder(self.named(reserved), here=False))
            elif mine is not None and request.kind == HUMAN and not request.invited:
                request, mine = replace(request, holder=mine), None
            made.append(request)
        return made

    def holder(self, profile: Profile, here: bool = True) -> SeatHolder:
        """What a seat taken for the profile needs: its derived token (`here`: on the requesting device)."""
        query = select(profiles_table.c.seat_key).where(profiles_table.c.id == profile.id)
        with self.engine.connect() as connection:
            seat_key = connection.execute(query).scalar_one()
        return SeatHolder(profile.id, bytes.fromhex(seat_key), here)

    def link_holders(self, game_id: str, holders: Iterable[tuple[int, SeatHolder | None]]) -> None:
        """The game's seats taken with holders (seat, holder) belong to their profiles from now on."""
        rows = [
            {"game_id": game_id, "seat": seat, "profile_id": holder.profile_id, "token_game": game_id}
            for seat, holder in holders
            if holder is not None
        ]
        if rows:
            with self.engine.begin() as connection:
                connection.execute(insert(profile_seats_table).values(rows))

    def link_rematch(self, game_id: str, rematch_id: str) -> None:
        """A rematch's seats belong to the profiles of the game's seats, with the same tokens (asking again,
        or in two processes at once, links them once)."""
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

    def seats(self, profile: Profile, most: int | None = None) -> list[ProfileSeat]:
        """The profile's seats (the `most` of the latest changed games), with their derived tokens (its
        devices keep them as any seat's token)."""
        holder = self.holder(profile)
        columns = profile_seats_table.c
        query = (
            select(columns.game_id, columns.seat, columns.token_game)
            .join(games_table, games_table.c.id == columns.game_id)
            .where(columns.profile_id == profile.id)
            .order_by(games_table.c.updated.desc(), columns.game_id, columns.seat)
            .limit(most)
        )
        with self.engine.connect() as connection:
            rows = connection.execute(query).all()
        return [ProfileSeat(game_id, seat, holder.token(token_game, seat)) for game_id, seat, token_game in rows]
