"""`cubilete score GAME --dice 1,1,3,4,6 [--sheet JSON]`: what a roll scores."""

from __future__ import annotations

import argparse

from ...engine.dice import validate_dice
from ...engine.errors import InvalidDice
from ...engine.games import GAMES
from ..families import cli_family
from ..levels import typed_rules
from ..output import Parser, emit


def register(subparsers: argparse._SubParsersAction[Parser]) -> None:
    parser = subparsers.add_parser(
        "score",
        help="list what a roll scores",
        description="The score-sheet games: every legal box for these dice on this sheet, with its"
        " points now. 5000: the points of the roll and how many dice scored.",
    )
    parser.add_argument("game", choices=tuple(GAMES), help="the game")
    parser.add_argument("--dice", required=True, help="the dice, e.g. 1,1,3,4,6")
    parser.add_argument(
        "--sheet", default="{}", help='filled boxes as JSON, e.g. \'{"ones": 3, "penta": 50}\''
    )
    parser.add_argument("--rules", help="rule set (default: the game's own: seed, hasbro, scandinavian or schmidt)")
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.set_defaults(run=run)


def parse_dice(text: str) -> tuple[int, ...]:
    try:
        values = [int(part) for part in text.split(",")]
    except ValueError:
        raise InvalidDice("dice_text", text=text) from None
    return validate_dice(values)


def run(args: argparse.Namespace) -> int:
    rules = typed_rules(args.game, args.rules)
    emit(cli_family(args.game).score(rules, parse_dice(args.dice), args), args.json)
    return 0
