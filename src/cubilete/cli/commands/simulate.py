"""`cubilete simulate GAME --players LEVELS --games N [--seed S] [--rules VARIANT] [--common-dice]`."""

from __future__ import annotations

import argparse
import secrets

from ...engine.games import GAMES
from ..families import cli_family
from ..language import add_language_option, default_language
from ..levels import typed_level, typed_rules
from ..output import CommandError, Parser, Report, emit
from ..texts import Texts

SEED_BITS = 63  # a seed any client keeps (the engine's MAX_CHOSEN_SEED)


def register(subparsers: argparse._SubParsersAction[Parser]) -> None:
    parser = subparsers.add_parser(
        "simulate",
        help="play many games between computer players",
        description="Play seeded games between computer players with the engine's runner."
        " Seats rotate from game to game. Penta and Generala: each player's mean and SD (one"
        " optimal player is solitaire play). Two players or more, in every game: each player's win rate"
        " (a tie counts half) with its 95% Wilson interval. A progress bar shows on standard error.",
    )
    parser.add_argument("game", choices=tuple(GAMES), help="the game")
    parser.add_argument(
        "--players", required=True, help="comma-separated player levels, one per seat, e.g. optimal,casual or duel,optimal"
    )
    parser.add_argument("--games", type=int, required=True, help="how many games")
    parser.add_argument(
        "--seed", type=int, help="seed of the games' dice (default: a random one, printed so that the run can be repeated)"
    )
    parser.add_argument("--rules", help="rule set (default: the game's own: seed, hasbro, scandinavian or schmidt)")
    parser.add_argument(
        "--common-dice",
        action="store_true",
        help="two players: games in pairs on the same dice, seats swapped; each player's win rate"
        " (a tie counts half) with a 95%% interval over the pairs. Duel against optimal (Penta, Generala)"
        " from 1000 games: the same games at compiled speed (its first run compiles the kernels, under a minute)",
    )
    parser.add_argument("--json", action="store_true", help="print JSON")
    add_language_option(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ...analysis.matches import simulate
    from ..progress import ProgressBar

    rules = typed_rules(args.game, args.rules)
    if args.games < 1:
        raise CommandError(f"--games must be at least 1, not {args.games}")
    levels = [typed_level(rules, word) for word in args.players.split(",")]
    seed = secrets.randbits(SEED_BITS) if args.seed is None else args.seed
    if args.common_dice and (len(levels) != 2 or args.games % 2):
        raise CommandError("--common-dice plays pairs of games: two players and an even --games")
    with ProgressBar() as progress:
        simulation = simulate(rules, levels, args.games, seed, progress, args.common_dice)
    texts = Texts(args.lang or default_language())
    report = cli_family(args.game).simulation_report(simulation, texts)
    if args.seed is None:
        drawn = texts.t("seed drawn at random: --seed {seed} repeats this run", seed=seed)
        report = Report(report.data, f"{report.text}\n  {drawn}")
    emit(report, args.json)
    return 0
