"""`cubilete simulate GAME --players LEVELS --games N --seed S [--rules VARIANT]`."""

from __future__ import annotations

import argparse

from ...engine.games import GAMES
from ..output import emit
from ..sheet_commands import for_game


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "simulate",
        help="play many games between computer players",
        description="Play seeded games between computer players with the engine's runner."
        " Penta and Generala: each seat's mean and SD (one optimal seat is solitaire play)."
        " 5000: win rates, seats rotating. A progress bar shows on standard error.",
    )
    parser.add_argument("game", choices=tuple(GAMES), help="the game")
    parser.add_argument(
        "--players", required=True, help="comma-separated player levels, one per seat, e.g. optimal,casual"
    )
    parser.add_argument("--games", type=int, required=True, help="how many games")
    parser.add_argument("--seed", type=int, required=True, help="seed of the games' dice")
    parser.add_argument("--rules", help="rule set (default: the game's seed rules)")
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    emit(for_game(args.game, "simulate")(args), args.json)
    return 0
