"""`cubilete play GAME`: play in the terminal, against bots or hot-seat.

In a terminal the game is a Textual app (dice, the sheet, the hint, the auto-score); when standard
input or output is not a terminal (a pipe), or with --plain, it is played line by line.
"""

from __future__ import annotations

import argparse
import secrets
import sys

from ...engine.errors import CubileteError
from ...engine.games import GAMES
from ..language import add_language_option, default_language
from ..levels import typed_rules
from ..output import Parser, fail

AUTO_SCORE_SECONDS = 3.0  # as the web app's default


def register(subparsers: argparse._SubParsersAction[Parser]) -> None:
    parser = subparsers.add_parser("play", help="play in the terminal", description=__doc__)
    parser.add_argument("game", choices=tuple(GAMES), help="the game")
    parser.add_argument("--rules", help="rule set (default: the game's own: seed, hasbro, scandinavian or schmidt)")
    parser.add_argument(
        "--players",
        default="you,bot:optimal",
        help="comma-separated seats: a name for a human, bot:LEVEL for a computer player, e.g. bot:duel"
        " (default: you,bot:optimal)",
    )
    parser.add_argument("--seed", type=int, help="seed of the dice, to replay a game")
    add_language_option(parser)
    parser.add_argument(
        "--auto-score",
        type=_seconds,
        default=AUTO_SCORE_SECONDS,
        metavar="SECONDS",
        help="after the last roll of a turn, the computer scores for you in the box it would choose when you"
        f" choose none for this long (default: {AUTO_SCORE_SECONDS:g}; 0: never)",
    )
    parser.add_argument("--plain", action="store_true", help="play line by line, as in a pipe")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..play_session import PlaySession, parse_seats
    from ..progress import ProgressBar
    from ..texts import Texts

    texts = Texts(args.lang or default_language())
    # every seat is at this terminal, so a seed anyone can replay is fine (and is shown)
    seed = secrets.randbits(63) if args.seed is None else args.seed
    try:
        rules = typed_rules(args.game, args.rules)
        session = PlaySession(rules, parse_seats(args.players, rules, texts), seed, texts)
    except CubileteError as error:  # in the player's language (main() would say it in English)
        return fail(texts.refusal(error))
    in_terminal = sys.stdin.isatty() and sys.stdout.isatty() and not args.plain
    with ProgressBar() as progress:
        # the app's hint and auto-score answer at once; the line mode loads their tables at the first hint
        session.prepare(progress, advice=in_terminal)
    if not in_terminal:
        from ..line_play import play_lines

        play_lines(session)
        return 0
    from ..tui.app import PlayApp

    PlayApp(session, auto_score_seconds=args.auto_score).run()
    if session.state.is_over:
        for line in session.standings():
            print(line)
    return 0


def _seconds(text: str) -> float:
    try:
        seconds = float(text)
    except ValueError:
        seconds = -1.0
    if not 0 <= seconds <= 3600:
        raise argparse.ArgumentTypeError(f"a number of seconds from 0 to 3600, not {text!r}")
    return seconds
