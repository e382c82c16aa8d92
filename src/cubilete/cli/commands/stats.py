"""`cubilete stats GAME [--rules VARIANT]`: exact statistics of optimal play."""

from __future__ import annotations

import argparse

from ...engine.games import GAMES
from ..families import cli_family
from ..output import emit


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "stats",
        help="exact statistics of optimal play",
        description="Penta and Generala: the exact law of the optimal player's final total"
        " (solitaire), computed over all states rather than simulated: mean, standard"
        " deviation, percentiles, the upper bonus, the five-equal box and the mean per box.",
    )
    parser.add_argument("game", choices=tuple(GAMES), help="the game")
    parser.add_argument("--rules", help="rule set (default: the game's seed rules)")
    parser.add_argument("--json", action="store_true", help="print JSON (with the whole distribution)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    emit(cli_family(args.game).stats(args), args.json)
    return 0
