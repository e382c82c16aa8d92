"""`cubilete export GAME_ID [--database URL] [-o FILE]`: a finished game of the app's database as the
JSON file `cubilete review FILE` reads (storage/export.py: what it holds, and why only once over)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from .. import url_options
from ..output import CommandError, Parser


def register(subparsers: argparse._SubParsersAction[Parser]) -> None:
    parser = subparsers.add_parser(
        "export",
        help="write a finished game's record to a file",
        description="Write a finished game of the app's database as a JSON file: its record (every roll"
        " and decision) and each seat's name, kind and level, as the game page's download gives it."
        " `cubilete review FILE` reviews it. A game still on is refused: its record holds the secret"
        " its dice come from.",
    )
    parser.add_argument("game_id", metavar="GAME_ID", help="the game's id (the last part of its address)")
    url_options.add_database_option(parser, "the app's database (default: its own)")
    parser.add_argument(
        "-o", "--output", metavar="FILE", help="the file to write, - for standard output (default: cubilete-GAME-GAME_ID.json)"
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ...storage import export_file_name, exported_game, read_game

    stored = read_game(args.game_id, args.database)
    if stored is None:
        raise CommandError(f"the database has no game '{args.game_id}'")
    document = exported_game(stored.id, stored.record, stored.seats, stored.finished)
    text = json.dumps(document, ensure_ascii=False, indent=1) + "\n"
    if args.output == "-":
        print(text, end="")
        return 0
    path = Path(args.output or export_file_name(stored.id, str(stored.record["game"])))
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as error:
        raise CommandError(f"cannot write {path}: {error.strerror}") from None
    print(f"wrote {path.resolve()}: cubilete review {path} reviews it")
    return 0
