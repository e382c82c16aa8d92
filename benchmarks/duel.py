"""The duel player against the optimal one, two seats, at compiled speed.

    .venv/bin/python benchmarks/duel.py [--pairs 50000] [--seed 0] [--games penta,generala] [--dice common|independent|both]

For each game (its seed rule set), `--pairs` pairs of games with common dice (both seats draw
the same dice, the duel player first in one game of a pair and second in the other), the
games `cubilete simulate GAME --players duel,optimal --common-dice --games 2N --seed S` plays
(solvers.sheet.duel_simulation, checked against the engine's runner by the tests). Prints
the duel player's win rate (a tie counts half) with its 95% interval (normal approximation
over the pairs, each pair one observation), the ties, both players' mean totals and games
per second (the kernels compiled and the laws computed beforehand). --dice independent plays
the same pairs with independent dice instead (seat 1 on a stream of its own), both: both.
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np

from cubilete.analysis.confidence import mean_interval
from cubilete.engine.games import rules_for
from cubilete.solvers.sheet.duel import prepare_duel
from cubilete.solvers.sheet.duel_simulation import DUEL, OPTIMAL, simulate_duel


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=50_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--games", default="penta,generala")
    parser.add_argument("--dice", choices=("common", "independent", "both"), default="common")
    args = parser.parse_args()
    for game in args.games.split(","):
        rules = rules_for(game)
        started = time.perf_counter()
        prepare_duel(rules)
        simulate_duel(rules, np.arange(2))  # compiles the kernels (or loads them from Numba's cache)
        print(f"{game} ({rules.name}): laws and kernels ready in {time.perf_counter() - started:.1f} s", flush=True)
        seeds = np.array(random.Random(args.seed).sample(range(2**62), args.pairs), dtype=np.uint64)
        for common in {"common": (True,), "independent": (False,), "both": (True, False)}[args.dice]:
            started = time.perf_counter()
            totals = simulate_duel(rules, seeds, common)
            report(game, totals, common, time.perf_counter() - started)


def report(game: str, totals: np.ndarray, common: bool, seconds: float) -> None:
    duel, optimal = totals[..., DUEL], totals[..., OPTIMAL]
    shares = (duel > optimal) + 0.5 * (duel == optimal)  # [pair, order]
    rate, low, high = mean_interval(shares.mean(axis=1).tolist())
    games = duel.size
    dice = "common dice" if common else "independent dice"
    print(
        f"  {game}, {games} games ({games // 2} pairs), {dice}: duel wins {100 * rate:.2f}%"
        f" (95% CI {100 * low:.2f}% - {100 * high:.2f}%, normal approximation over pairs),"
        f" ties {int((duel == optimal).sum())}, mean totals duel {duel.mean():.2f} optimal {optimal.mean():.2f},"
        f" {games / seconds:.0f} games/s ({seconds:.0f} s)",
        flush=True,
    )


if __name__ == "__main__":
    main()
