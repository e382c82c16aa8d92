"""`cubilete simulate GAME --players LEVELS --games N [--seed S] [--rules VARIANT] [--common-dice]`."""

from __future__ import annotations

import argparse
import secrets
from typing import TYPE_CHECKING

from ...engine.games import GAMES
from ..families import cli_family
from ..language import add_language_option, default_language
from ..levels import typed_level, typed_rules
from ..output import CommandError, Parser, Report, emit
from ..texts import Texts

if TYPE_CHECKING:
    from ...analysis.matches import Simulation

SEED_BITS = 63  # a seed any client keeps (the engine's MAX_CHOSEN_SEED)


def register(subparsers: argparse._SubParsersAction[Parser]) -> None:
    parser = subparsers.add_parser(
        "simulate",
        help="play many games between computer players",
        description="Play seeded games between computer players with the engine's runner."
        " Seats rotate from game to game. Penta and Generala: each player's mean and SD (one"
        " optimal player is solitaire play). Two players or more, in every game: each player's win rate"
        " (a tie counts half) with its 95%% Wilson interval. A progress bar shows on standard error.",
    )
    parser.add_argument("game", choices=tuple(GAMES), help="the game")
    parser.add_argument(
        "--players", required=True, help="comma-separated player levels, one per seat, e.g. optimal,casual or duel,optimal"
    )
    parser.add_argument("--games", type=int, required=True, help="how many games")
    parser.add_argument(
        "--seed", type=int, help="seed of the games' dice (default: a random one, printed so that the run can be repeated)"
    )
    parser.add_argument("--rules", help="rule set (default: the game's seed rules)")
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
    report = cli_family(args.game).simulation_report(simulation)
    if args.common_dice:
        report = common_dice_report(report, simulation, Texts(args.lang or default_language()))
    if args.seed is None:
        report = Report(report.data, f"{report.text}\n  seed drawn at random: --seed {seed} repeats this run")
    emit(report, args.json)
    return 0


def common_dice_report(report: Report, simulation: Simulation, texts: Texts) -> Report:
    """The family's report, then each player's win rate over the pairs of games."""
    rates = []
    lines = [
        texts.t(
            "{game} ({rules}), {n} games with common dice, seed {seed}, in pairs with the seats swapped:",
            game=texts.game(simulation.rules.game), rules=texts.rules(simulation.rules.game, simulation.rules.name),
            n=simulation.games, seed=simulation.seed,
        )
    ]
    for player in simulation.players:
        rate, low, high = player.paired_rate()
        rates.append({"player": player.level, "win_rate": rate, "ci95": [low, high], "ties": player.ties})
        line = texts.t(
            "{player}: wins {rate} (a tie counts half), 95% interval {low} to {high}",
            player=player.level, rate=texts.percent(rate), low=texts.percent(low), high=texts.percent(high),
        )
        ties = texts.tn("{n} tie", "{n} ties", player.ties)
        lines.append(f"  {line}, {ties}")
    lines.append("  " + texts.t("95% intervals: normal approximation, each pair of games one observation"))
    data = {**report.data, "common_dice": {"pairs": simulation.games // 2, "players": rates}}
    return Report(data, "\n".join([report.text, *lines]))
