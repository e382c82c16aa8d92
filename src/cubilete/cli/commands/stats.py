"""`cubilete stats GAME [--rules VARIANT] [--plot FILE]`: exact statistics of optimal play."""

from __future__ import annotations

import argparse
from pathlib import Path

from ...engine.games import GAMES
from ..families import cli_family
from ..output import Parser, Report, emit


def register(subparsers: argparse._SubParsersAction[Parser]) -> None:
    parser = subparsers.add_parser(
        "stats",
        help="exact statistics of optimal play",
        description="The score-sheet games: the exact law of the optimal player's final total"
        " (solitaire), computed over all states rather than simulated: mean, standard"
        " deviation, percentiles, the upper bonus, the five-equal box and the mean per box.",
    )
    parser.add_argument("game", choices=tuple(GAMES), help="the game")
    parser.add_argument("--rules", help="rule set (default: the game's own: seed, hasbro, scandinavian or schmidt)")
    parser.add_argument("--json", action="store_true", help="print JSON (with the whole distribution)")
    parser.add_argument(
        "--plot", metavar="FILE", help="also draw the distribution into FILE, a .png or .svg (needs the extra 'plots'); the report"
        " ends with where (JSON: \"plot\")"
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.plot is None:
        emit(cli_family(args.game).stats(args), args.json)
        return 0
    from ..plots import matplotlib_figure, plot_format, write_distribution_plot

    plot_format(args.plot)  # a wrong extension or a missing extra is said before the computation
    matplotlib_figure()
    report = cli_family(args.game).stats(args)
    write_distribution_plot(args.plot, report.data)
    written = str(Path(args.plot).resolve())
    emit(Report({**report.data, "plot": written}, f"{report.text}\nThe distribution is drawn in {written}"), args.json)
    return 0
