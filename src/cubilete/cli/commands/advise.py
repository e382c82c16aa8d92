"""`cubilete advise [--situation FILE] [--target X]`: rank every legal action of a situation (JSON)."""

from __future__ import annotations

import argparse
import sys

from ...engine.games import GAMES
from ..families import cli_family
from ..output import USAGE_ERROR, CommandError, Parser, emit, read_json_input

EXAMPLE = (
    '{"game": "penta", "rules": "seed", "sheet": {"ones": 3, "penta": 50}, "penta_bonus": 100,'
    ' "dice": [1, 3, 3, 5, 6], "rolls_left": 2}'
)

USAGE = (
    "cubilete advise reads a situation as JSON, from a file or from standard input:\n"
    "  cubilete advise --situation situation.json\n"
    f"  echo '{EXAMPLE}' | cubilete advise\n"
    "(cubilete advise --help says what a situation holds)"
)


def register(subparsers: argparse._SubParsersAction[Parser]) -> None:
    parser = subparsers.add_parser(
        "advise",
        help="rank the options of a situation",
        description="Read a situation as JSON (from --situation FILE, else standard input) and"
        " list every legal action, best first, with its value: for Penta and Generala the"
        " expected final total, for 5000 the chance to win. A Penta situation: " + EXAMPLE
        + ' ("rules" defaults to the seed rules, or hasbro, scandinavian, schmidt, no "dice" means the start of a turn,'
        ' "rolls_left" is 0, 1 or 2, by default 2).',
    )
    parser.add_argument("--situation", metavar="FILE", help="the situation's JSON file")
    parser.add_argument(
        "--target",
        metavar="X",
        type=int,
        help="Penta and Generala: rank by the chance to end with X points or more, playing for"
        " it (the threshold policy), instead of the expected final total",
    )
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.situation is None and sys.stdin.isatty():  # nothing piped in: say how, rather than wait for it
        print(USAGE, file=sys.stderr)
        return USAGE_ERROR
    situation = read_json_input(args.situation, "the situation")
    if not isinstance(situation, dict):
        raise CommandError(f"a situation is a JSON object, e.g. {EXAMPLE}")
    if "game" not in situation:
        raise CommandError(f'say which game: "game" is one of {", ".join(GAMES)}')
    emit(cli_family(str(situation["game"])).advise(situation, args.target), args.json)
    return 0
