"""`cubilete rules GAME [--lang es|id|en]`: print a game's rules page."""

from __future__ import annotations

import argparse
import locale
import os

from ...engine.games import GAMES
from ...rules_texts import LANGUAGES, rules_page
from ..output import Report, emit


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("rules", help="print the rules of a game", description=__doc__)
    parser.add_argument("game", choices=tuple(GAMES), help="the game")
    parser.add_argument("--lang", choices=LANGUAGES, help="language (default: from your locale, else en)")
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.set_defaults(run=run)


def default_language() -> str:
    """The user's locale language if cubilete speaks it, else English."""
    for name in (os.environ.get("LC_ALL"), os.environ.get("LANG"), locale.getlocale()[0]):
        if name and name[:2] in LANGUAGES:
            return name[:2]
    return "en"


def run(args: argparse.Namespace) -> int:
    lang = args.lang or default_language()
    text = rules_page(args.game, lang)
    emit(Report({"game": args.game, "lang": lang, "text": text}, text), args.json)
    return 0
