"""`cubilete solve GAME [--rules VARIANT] [--players N]`: build or load a game's solver table."""

from __future__ import annotations

import argparse

from ...engine.games import GAMES
from ..families import cli_family
from ..output import Parser, emit


def register(subparsers: argparse._SubParsersAction[Parser]) -> None:
    parser = subparsers.add_parser(
        "solve",
        help="solve a game exactly",
        description="Build (or load from the cache) the exact solver's table of a rule set."
        " The score-sheet games: the optimal expected score of a new game. 5000: the first"
        " player's winning chance under optimal play by both.",
    )
    parser.add_argument("game", choices=tuple(GAMES), help="the game")
    parser.add_argument("--rules", help="rule set (default: the game's own: seed, hasbro, scandinavian or schmidt)")
    parser.add_argument("--players", type=int, help="5000 only: the number of players (default 2)")
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    emit(cli_family(args.game).solve(args), args.json)
    return 0
