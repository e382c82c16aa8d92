"""Review speed: a whole game of Penta, Generala and 5000 reviewed with the solver tables loaded.

    .venv/bin/python benchmarks/review.py [--games 5]

Each game is played by optimal bots (two seats, seeds 1..N) and every seat is reviewed.
"fresh" is a review with solvers.sheet.options' remembered turns forgotten first (every turn's
tables computed as the review walks it, as for a game played without hints), "again" a second
review of the same game (turns remembered: the bots' own play had computed them). The median over the games is
printed, with the number of decisions reviewed.
"""

from __future__ import annotations

import argparse
import statistics
import time

from cubilete.analysis.review import review
from cubilete.engine.games import rules_for
from cubilete.engine.runner import play
from cubilete.players import make_player
from cubilete.solvers.five_thousand.cache import two_player_solution
from cubilete.solvers.sheet import options as sheet_options
from cubilete.solvers.sheet.cache import solution


def timed_review(match) -> tuple[float, int]:
    started = time.perf_counter()
    result = review(match)
    return time.perf_counter() - started, len(result.decisions)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=5)
    args = parser.parse_args()
    for game in ("penta", "generala", "5000"):
        rules = rules_for(game)
        players = [make_player("optimal", rules) for _ in range(2)]
        two_player_solution(rules) if game == "5000" else solution(rules)  # load the tables
        review(play(rules, players, 0))  # and run every code path once (Numba's compiled kernels load)
        fresh, again, decisions = [], [], []
        for seed in range(1, args.games + 1):
            match = play(rules, players, seed)
            sheet_options.forget_turns()
            sheet_options.position.cache_clear()
            seconds, count = timed_review(match)
            fresh.append(seconds)
            again.append(timed_review(match)[0])
            decisions.append(count)
        print(f"{game:<9} 2 seats, {statistics.median(decisions):.0f} decisions:"
              f" fresh {1000 * statistics.median(fresh):6.1f} ms,"
              f" again {1000 * statistics.median(again):6.1f} ms (median of {args.games} games)")


if __name__ == "__main__":
    main()
