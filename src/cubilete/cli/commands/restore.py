"""`cubilete restore BACKUP [--database URL]`: copy a backup made by `cubilete backup` into the games'
SQLite database, replacing its games. Stop every `cubilete serve` of the database first: a running
server keeps the games it holds in memory. The database's file keeps its owner and mode (a copy back
by `cp` as root left a file the server's user could not write). PostgreSQL: pg_restore into a new
database (docs/hosting.md)."""

from __future__ import annotations

import argparse
from pathlib import Path

from .. import url_options
from ..output import Parser


def register(subparsers: argparse._SubParsersAction[Parser]) -> None:
    parser = subparsers.add_parser(
        "restore",
        help="copy a backup into the games' database (stop the server first)",
        description=__doc__,
        environment=True,
    )
    parser.add_argument("backup", metavar="BACKUP", type=Path, help="a file `cubilete backup` made")
    url_options.add_database_option(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ...storage.backup import restore  # SQLAlchemy only for this command

    shown = restore(args.database, args.backup)
    print(f"Restored {args.backup} into {shown}")
    return 0
