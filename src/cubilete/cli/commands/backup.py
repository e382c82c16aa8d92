"""`cubilete backup DEST [--database URL]`: copy the games' SQLite database to the new file DEST, whole
and consistent while `cubilete serve` goes on playing on it (SQLite's online backup).

The backup is readable by its owner only: it holds the push signing key and the device secrets' digests.
To restore: stop the server, `cubilete restore DEST`, start the server (docs/hosting.md). PostgreSQL is
backed up with pg_dump."""

from __future__ import annotations

import argparse
from pathlib import Path

from .. import url_options
from ..output import Parser


def register(subparsers: argparse._SubParsersAction[Parser]) -> None:
    parser = subparsers.add_parser(
        "backup",
        help="copy the games' database to a file, while the server runs",
        description=__doc__,
        environment=True,
    )
    parser.add_argument("destination", metavar="DEST", type=Path, help="the backup's file, which must not exist yet")
    url_options.add_database_option(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ...storage.backup import back_up  # SQLAlchemy only for this command

    shown = back_up(args.database, args.destination)
    print(f"Backed up {shown} to {args.destination}")
    return 0
