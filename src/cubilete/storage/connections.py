"""How cubilete connects to its database: which URL, and an engine set up for the games' writes."""

from __future__ import annotations

from math import ceil
from pathlib import Path
from typing import Any

import orjson
import platformdirs
from sqlalchemy import Table, create_engine, event
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.exc import SQLAlchemyError

from ..engine.errors import CubileteError
from ..solvers.cache_dir import service_directory

# The state directory systemd gives a service (a unit's `StateDirectory=`): the data directory there.
SERVICE_STATE_ENV = "STATE_DIRECTORY"


# Any error of the database or of a statement, for a caller above storage that logs it and goes on (a
# push not sent): the apps catch it by this name and never import SQLAlchemy.
DatabaseError = SQLAlchemyError


class DatabaseUnusable(CubileteError):
    """The database cannot be opened or brought to the newest schema (unreachable, missing, not
    writable, made by a newer cubilete): the server does not start."""


def data_dir() -> Path:
    """Where the default SQLite database lives: the service's state directory, else the user's data directory."""
    return Path(service_directory(SERVICE_STATE_ENV) or platformdirs.user_data_dir("cubilete"))


def default_database_url() -> str:
    folder = data_dir()
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise DatabaseUnusable("data_dir_unwritable", path=str(folder), reason=error.strerror) from error
    return f"sqlite:///{folder / 'games.sqlite3'}"


SUPPORTED_BACKENDS = ("sqlite", "postgresql", "postgres")  # the drivers cubilete ships with (postgres: an alias)


def unsupported_database(url: str) -> str | None:
    """Why cubilete cannot keep games at this URL, None if it can: a start-up error in one line, rather
    than a driver's traceback (a mysql:// URL aborted the process)."""
    try:
        backend = make_url(url).get_backend_name()
    except SQLAlchemyError:
        return "not a database URL: sqlite:///PATH or postgresql://user@host/db"
    if backend not in SUPPORTED_BACKENDS:
        return f"{backend}:// is not supported: sqlite:///PATH or postgresql://user@host/db"
    return None


def shown_url(url: str) -> str:
    """A database or broker URL as logs and messages show it: its password hidden."""
    return make_url(url).render_as_string(hide_password=True)


def database_url(url: str | None) -> str:
    """The URL to connect with: PostgreSQL through psycopg 3, the driver cubilete ships with."""
    if url is None:
        return default_database_url()
    parsed = make_url(url)
    if parsed.drivername in ("postgresql", "postgres"):
        return parsed.set(drivername="postgresql+psycopg").render_as_string(hide_password=False)
    return url


# A database server's connections per process: requests beyond them wait for one (each process runs its
# requests on at most 40 threads); keep processes x this under the server's max_connections (100 by default).
SERVER_CONNECTIONS = 20

# How long the database may take: to connect, to run a statement or wait for a lock, and to give back a
# connection a request holds (storage/deadlines.py); longer, the request is refused (503) and its
# transaction rolled back. SQLite: how long a write waits for another process's lock.
DATABASE_TIMEOUT = 5.0


def is_local(url: str) -> bool:
    """A file on this machine (SQLite), no network between."""
    return make_url(url).get_backend_name() == "sqlite"


def connect(url: str, timeout: float = DATABASE_TIMEOUT) -> Engine:
    """An engine for `url` (as database_url answers it) whose waits for the database end after `timeout` seconds."""
    local = is_local(url)
    # A server's connections stay open: beyond a pool's size, SQLAlchemy closes each connection handed
    # back and opens a new one for the next request, which under load costs more than the moves.
    if local:
        options: dict[str, Any] = {"connect_args": {"timeout": timeout}}  # SQLite's busy timeout
    else:
        options = {
            "pool_size": SERVER_CONNECTIONS,
            "max_overflow": 0,
            "pool_timeout": timeout,  # a request waiting for one of the pool's connections
            # (each connection taken from the pool is tried first, within its deadline: deadlines.py)
            "connect_args": _server_timeouts(url, timeout),
        }
    # orjson for the JSON columns: several times faster than the standard library, and every action writes one
    engine = create_engine(url, json_serializer=_json_text, json_deserializer=json_value, **options)
    if local:
        event.listen(engine, "connect", _sqlite_pragmas)
    return engine


def _server_timeouts(url: str, timeout: float) -> dict[str, Any]:
    """PostgreSQL's own timeouts (libpq's connect_timeout counts whole seconds, from 2). A host's
    `?options=` in the URL come after these, so theirs win."""
    milliseconds = round(timeout * 1000)
    ours = f"-c statement_timeout={milliseconds} -c lock_timeout={milliseconds}"
    theirs = make_url(url).query.get("options")
    options = " ".join([ours, *([theirs] if isinstance(theirs, str) else theirs or ())])
    return {"connect_timeout": max(2, ceil(timeout)), "options": options}


def _json_text(value: Any) -> str:
    return orjson.dumps(value).decode()


def json_value(stored: Any) -> Any:
    """A JSON column's value from what the database answers (None for SQL's NULL). SQLite answers a
    stored JSON number as a number (numeric affinity)."""
    if stored is None or isinstance(stored, (int, float)):
        return stored
    return orjson.loads(stored)


def _sqlite_pragmas(connection: Any, _record: Any) -> None:
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")  # ON DELETE CASCADE: a deleted profile takes its rows along
    cursor.execute("PRAGMA secure_delete=ON")  # and their bytes leave the file (zeroed, not just freed)
    cursor.close()


_INSERTS = {"sqlite": sqlite.insert, "postgresql": postgresql.insert}  # the databases cubilete runs on


def conflict_insert(engine: Engine, table: Table) -> Any:
    """An INSERT into `table` with the database's ON CONFLICT clauses (`on_conflict_do_nothing`,
    `on_conflict_do_update`): SQLite's and PostgreSQL's share that API, not a type that declares it."""
    return _INSERTS[engine.dialect.name](table)
