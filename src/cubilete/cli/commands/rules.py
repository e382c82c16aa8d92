"""`cubilete rules GAME [--lang es|id|en]`: print a game's rules page."""

from __future__ import annotations

import argparse

from ...engine.games import GAMES
from ...rules_texts import rules_page
from ..language import add_language_option, default_language
from ..output import Parser, Report, emit


def register(subparsers: argparse._SubParsersAction[Parser]) -> None:
    parser = subparsers.add_parser("rules", help="print the rules of a game", description=__doc__)
    parser.add_argument("game", choices=tuple(GAMES), help="the game")
    add_language_option(parser)
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    lang = args.lang or default_language()
    text = rules_page(args.game, lang)
    emit(Report({"game": args.game, "lang": lang, "text": text}, text), args.json)
    return 0
