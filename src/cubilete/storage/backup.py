"""`cubilete backup` and `cubilete restore`: a SQLite database copied to a new file through SQLite's online
backup API, whole and consistent while a server goes on writing to it, and copied back the same way. A
plain copy of the file is not: the newest moves may still be in its write-ahead log (games.sqlite3-wal)
beside it; and a copy back by `cp` as root leaves a file the server's user cannot write. The backup is
written readable by its owner only (it holds the push signing key and the device secrets' digests); a
restore writes into the database's own file, which keeps its owner and mode. PostgreSQL has pg_dump."""

from __future__ import annotations

import os
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
        os.close(os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))  # SQLite keeps an existing file's mode
        _copy(source, str(partial))
        partial.rename(destination)
    except (sqlite3.Error, OSError) as error:
        partial.unlink(missing_ok=True)
        raise BackupRefused("backup_failed", url=shown, path=str(destination), reason=str(error)) from error
    return shown


def restore(url: str | None, backup: Path) -> str:
    """Copy the backup file `backup` into the SQLite database at `url` (cubilete's own if None), replacing
    its games; answers the database's URL as messages show it. The database's file keeps its owner and
    mode (written into, not replaced); its write-ahead log is SQLite's to settle."""
    target_url = database_url(url)
    shown = shown_url(target_url)
    if not is_local(target_url):
        raise BackupRefused("restore_needs_sqlite")
    try:
        with closing(sqlite3.connect(f"file:{quote(str(backup))}?mode=ro", uri=True)) as reader:
            if reader.execute("SELECT name FROM sqlite_master WHERE name = 'alembic_version'").fetchone() is None:
                raise BackupRefused("restore_not_a_backup", path=str(backup))
        _copy(str(backup), make_url(target_url).database or "")
    except (sqlite3.Error, OSError) as error:
        raise BackupRefused("restore_failed", url=shown, path=str(backup), reason=str(error)) from error
    return shown


def _copy(source: str, destination: str) -> None:
    """SQLite's online backup of the file `source` (opened read-only: a wrong path is refused rather than
    created empty) into the database file `destination`."""
    with closing(sqlite3.connect(f"file:{quote(source)}?mode=ro", uri=True)) as reader:
        with closing(sqlite3.connect(destination)) as writer:
            reader.backup(writer)
