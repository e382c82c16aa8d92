"""The install's name (migration 0013): random, made by the first process to ask, then read by every
process of the install. The broker's channels carry it (web/redis_broker.py): installs sharing one Redis
server (each on its own database number, or not) never hear each other's news."""

from __future__ import annotations

import secrets
from datetime import UTC, datetime

from sqlalchemy import select
from sqlalchemy.engine import Engine

from .connections import conflict_insert
from .tables import install_table

NAME_ROW = 1
NAME_BYTES = 8  # 16 hex digits: two installs on one Redis server never draw the same


class InstallStore:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def name(self) -> str:
        """The install's name, stored first if there is none yet (of two processes storing theirs at once,
        the first one's is kept and both read it)."""
        stored = self._name()
        if stored is None:
            row = {"id": NAME_ROW, "name": secrets.token_hex(NAME_BYTES), "created": datetime.now(UTC)}
            with self.engine.begin() as connection:
                connection.execute(conflict_insert(self.engine, install_table).values(row).on_conflict_do_nothing())
            stored = self._name()
        assert stored is not None, "stored just now"
        return stored

    def _name(self) -> str | None:
        with self.engine.connect() as connection:
            found = connection.scalar(select(install_table.c.name).where(install_table.c.id == NAME_ROW))
        return None if found is None else str(found)
