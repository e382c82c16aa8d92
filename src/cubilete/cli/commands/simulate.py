"""`cubilete simulate GAME --players LEVELS --games N --seed S [--rules VARIANT]`."""

from __future__ import annotations

import argparse

from ...engine.games import GAMES, rules_for
from ..families import cli_family
from ..output import CommandError, emit


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "simulate",
        help="play many games between computer players",
        description="Play seeded games between computer players with the engine's runner."
        " Seats rotate from game to game. Penta and Generala: each player's mean and SD (one"
        " optimal player is solitaire play). 5000: win rates. A progress bar shows on standard error.",
    )
    parser.add_argument("game", choices=tuple(GAMES), help="the game")
    parser.add_argument(
        "--players", required=True, help="comma-separated player levels, one per seat, e.g. optimal,casual or duel,optimal"
    )
    parser.add_argument("--games", type=int, required=True, help="how many games")
    parser.add_argument("--seed", type=int, required=True, help="seed of the games' dice")
    parser.add_argument("--rules", help="rule set (default: the game's seed rules)")
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ...players.matches import simulate
    from ..progress import ProgressBar

    rules = rules_for(args.game, args.rules)
    if args.games < 1:
        raise CommandError(f"--games must be at least 1, not {args.games}")
    levels = [level.strip() for level in args.players.split(",")]
    with ProgressBar() as progress:
        simulation = simulate(rules, levels, args.games, args.seed, progress)
    emit(cli_family(args.game).simulation_report(simulation), args.json)
    return 0
