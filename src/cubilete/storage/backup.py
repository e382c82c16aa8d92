"""`cubilete backup`: a SQLite database copied to a new file through SQLite's online backup API, whole
and consistent while a server goes on writing to it. A plain copy of the file is not: the newest
moves may still be in its write-ahead log (games.sqlite3-wal) beside it. PostgreSQL has pg_dump."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path
from urllib.parse import quote

from sqlalchemy.engine import make_url

from ..engine.errors import CubileteError
from .connections import database_url, is_local, shown_url


class BackupRefused(CubileteError):
    """No backup was made (not SQLite, the destination exists, or the copy failed): nothing was written."""


def back_up(url: str | None, destination: Path) -> str:
    """Copy the SQLite database at `url` (cubilete's own if None) to the new file `destination`;
    answers the database's URL as messages show it."""
    source_url = database_url(url)
    shown = shown_url(source_url)
    if not is_local(source_url):
        raise BackupRefused("backup_needs_sqlite")
    if destination.exists():
        raise BackupRefused("backup_exists", path=str(destination))
    source = make_url(source_url).database or ""
    # written beside the destination, then renamed: a backup cut short never looks like a whole one
    partial = destination.with_name(f".{destination.name}.partial")
    try:
        # read-only: a wrong path is refused rather than created empty
        with closing(sqlite3.connect(f"file:{quote(source)}?mode=ro", uri=True)) as reader:
            with closing(sqlite3.connect(partial)) as writer:
                reader.backup(writer)
        partial.rename(destination)
    except (sqlite3.Error, OSError) as error:
        partial.unlink(missing_ok=True)
        raise BackupRefused("backup_failed", url=shown, path=str(destination), reason=str(error)) from error
    return shown
