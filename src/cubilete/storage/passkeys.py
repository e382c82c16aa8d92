"""The stored side of passkeys (migration 0007): each profile's credentials, and the challenges of the
ceremonies waiting for their answer (in the database, so that the answer may reach any server process).
The ceremonies themselves: web/passkeys.py."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import NamedTuple

from sqlalchemy import delete, insert, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from .tables import passkey_challenges_table, passkeys_table, profiles_table


class CredentialKnown(Exception):
    """A credential already kept (by this profile or another)."""


class StoredPasskey(NamedTuple):
    """A credential, with its profile's id and name."""

    credential_id: str
    profile_id: str
    profile_name: str
    public_key: bytes
    sign_count: int


class PasskeyStore:
    """Sync methods: the routes call them from worker threads."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def credential_ids(self, profile_id: str) -> list[str]:
        held = select(passkeys_table.c.credential_id).where(passkeys_table.c.profile_id == profile_id)
        with self.engine.connect() as connection:
            return list(connection.scalars(held))

    def add(self, profile_id: str, credential_id: str, public_key: bytes, sign_count: int) -> None:
        row = {
            "credential_id": credential_id, "profile_id": profile_id, "public_key": public_key,
            "sign_count": sign_count, "created": datetime.now(UTC),
        }
        try:
            with self.engine.begin() as connection:
                connection.execute(insert(passkeys_table).values(row))
        except IntegrityError:
            raise CredentialKnown() from None

    def find(self, credential_id: str) -> StoredPasskey | None:
        columns = passkeys_table.c
        query = (
            select(columns.credential_id, columns.profile_id, profiles_table.c.name, columns.public_key, columns.sign_count)
            .join(profiles_table, profiles_table.c.id == columns.profile_id)
            .where(columns.credential_id == credential_id)
        )
        with self.engine.connect() as connection:
            row = connection.execute(query).first()
        return None if row is None else StoredPasskey(*row)

    def count_signature(self, credential_id: str, sign_count: int) -> None:
        """The authenticator's signature counter after a sign-in."""
        bump = update(passkeys_table).where(passkeys_table.c.credential_id == credential_id)
        with self.engine.begin() as connection:
            connection.execute(bump.values(sign_count=sign_count))

    def keep_challenge(self, challenge: str, profile_id: str | None, now: datetime, expires: datetime) -> None:
        """A new challenge until `expires` (None: a sign-in's); the challenges expired by `now` are cleared."""
        columns = passkey_challenges_table.c
        row = {"challenge": challenge, "profile_id": profile_id, "expires": expires}
        with self.engine.begin() as connection:
            connection.execute(delete(passkey_challenges_table).where(columns.expires < now))
            connection.execute(insert(passkey_challenges_table).values(row))

    def take_challenge(self, challenge: str, profile_id: str | None, now: datetime) -> bool:
        """Whether this challenge was kept for this profile (or a sign-in) and has not expired by `now`;
        it is used up."""
        columns = passkey_challenges_table.c
        owner = columns.profile_id.is_(None) if profile_id is None else columns.profile_id == profile_id
        used = delete(passkey_challenges_table).where(columns.challenge == challenge, owner, columns.expires >= now)
        with self.engine.begin() as connection:
            return bool(connection.execute(used).rowcount == 1)
