"""The games' writes on the database driver's own connection and cursor, with their statements
compiled once, rather than through SQLAlchemy Core (Connection.execute on a pooled connection).

A framework bypass, kept because it is measured worth it: SQLAlchemy Core's work per execution
(compiling from its cache, its result objects, the pool's checkout and return) cost more than the
writes themselves, and every action of every game is written here. benchmarks/bypasses.py (bypass
b, the plain way written there) measured it saving 16.0% of a move's server CPU on a quiet machine
(plain 665.9 us, this way 575.5 us, the median of 15 rounds' savings); under load, 9.1% over 105
rounds on this tree (docs/benchmarks.md has every run).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy.engine import Engine
from sqlalchemy.exc import SQLAlchemyError

from .errors import EventConflict, save_failed


class DriverStatement:
    """A statement compiled once for the database's dialect, run on the driver's own cursor with
    the column types' bind conversions (JSON, UTC times) applied as SQLAlchemy would apply them."""

    def __init__(self, statement: Any, engine: Engine) -> None:
        dialect = engine.dialect
        compiled = statement.compile(dialect=dialect)
        self.sql: Any = compiled.string
        self._positional = compiled.positional
        self._names = tuple(compiled.positiontup or ()) if compiled.positional else tuple(compiled.binds)
        processors = {
            name: bind.type.dialect_impl(dialect).bind_processor(dialect) for name, bind in compiled.binds.items()
        }
        self._processors = tuple(processors[name] for name in self._names)

    def parameters(self, values: dict[str, Any]) -> Any:
        """The driver's parameters for `values`, by bind name (SQLAlchemy's bindparam or column names)."""
        converted = [
            value if process is None else process(value)
            for process, value in zip(self._processors, map(values.__getitem__, self._names), strict=True)
        ]
        return tuple(converted) if self._positional else dict(zip(self._names, converted, strict=True))


class DriverWrites:
    """Write transactions on the driver's own connection.

    With `keep_connection` (a local database), the event loop's thread, which makes the moves
    (web/app.py), keeps its connection open: taking one from SQLAlchemy's pool and handing it back
    cost about a sixth of a move's storing. Worker threads, which come and go, take the pool's."""

    def __init__(self, engine: Engine, keep_connection: bool) -> None:
        self.engine = engine
        driver = engine.dialect.loaded_dbapi
        self.conflict, self.failure = driver.IntegrityError, driver.Error
        self._keep_connection = keep_connection
        self._kept: Any = None  # the event loop's connection

    @contextmanager
    def transaction(self) -> Iterator[Any]:
        """A cursor whose writes are committed on leaving. A taken key (another process acted first)
        raises EventConflict, any other database error SaveFailed; either way nothing is stored."""
        kept = self._keep_connection and _on_event_loop()
        connection = self._connection(kept)
        driver = connection.dbapi_connection  # the pool's wrapper costs more per call than the commit itself
        try:
            cursor = driver.cursor()
            yield cursor
            cursor.close()
            driver.commit()
        except self.conflict as error:
            _roll_back_quietly(driver)
            raise EventConflict() from error
        except self.failure as error:
            _roll_back_quietly(driver)
            if kept:  # the next write starts from a new connection, not this one handed back to the pool
                self._kept = None
                connection.invalidate()
            raise save_failed(error) from error
        except BaseException:  # e.g. a value its column cannot take: the kept connection holds no half write
            _roll_back_quietly(driver)
            raise
        finally:
            if not kept:
                connection.close()

    def close(self) -> None:
        if self._kept is not None:
            with contextlib.suppress(Exception):
                self._kept.close()
            self._kept = None

    def _connection(self, kept: bool) -> Any:
        if kept and self._kept is not None:
            return self._kept
        try:
            connection = self.engine.raw_connection()
        except SQLAlchemyError as error:  # e.g. no connection in time
            raise save_failed(error) from error
        if kept:
            self._kept = connection
        return connection


def _on_event_loop() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


def _roll_back_quietly(connection: Any) -> None:
    """A connection whose write failed (disk full, server gone) may fail its rollback too."""
    with contextlib.suppress(Exception):
        connection.rollback()
