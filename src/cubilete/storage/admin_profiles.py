"""The profiles a server holds, for its host (`cubilete admin profiles`): each with its devices, passkeys
and seats, and deleting some (every row of a profile goes with it: storage/profiles.py)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import ColumnElement, Table, func, select

from .database import Storage
from .name_keys import name_key
from .tables import passkeys_table, profile_keys_table, profile_seats_table, profiles_table


@dataclass(frozen=True)
class ProfileSummary:
    name: str
    created: datetime
    devices: int  # device secrets signed in
    passkeys: int
    seats: int  # seats in games, finished or not
    hidden_from_boards: bool

    def as_json(self) -> dict[str, Any]:
        return {**asdict(self), "created": self.created.isoformat()}


def _count(table: Table) -> ColumnElement[int]:
    counted = select(func.count()).where(table.c.profile_id == profiles_table.c.id).scalar_subquery()
    return func.coalesce(counted, 0)


def list_profiles(storage: Storage, names: Sequence[str] | None = None) -> list[ProfileSummary]:
    """Every profile, oldest first (or those of these names, compared as profiles compare them)."""
    columns = profiles_table.c
    query = select(
        columns.name, columns.created, _count(profile_keys_table), _count(passkeys_table),
        _count(profile_seats_table), columns.hidden_from_boards,
    ).order_by(columns.created, columns.name)
    if names is not None:
        query = query.where(columns.name_key.in_([name_key(name) for name in names]))
    with storage.engine.connect() as connection:
        return [ProfileSummary(*row) for row in connection.execute(query)]


def delete_profiles(storage: Storage, names: Sequence[str]) -> list[str]:
    """Delete the profiles of these names (each with every row of it); answers the names deleted."""
    deleted = []
    for name in names:
        profile = storage.profiles.by_name(name)
        if profile is not None:
            storage.profiles.delete(profile.id)
            deleted.append(profile.name)
    return deleted
