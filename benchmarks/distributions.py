"""Exact score distributions on demand: time and memory from a cold table, for typical states.

    .venv/bin/python benchmarks/distributions.py [--games penta,generala]

For each game: the distribution of the points still to come under optimal play from a sheet
with 2 boxes left, with 6 boxes left and from the empty sheet, each computed on a new, empty
table (nothing remembered), so that the figure is what a first request costs: wall time,
the CPU time of the process (all threads; on a shared machine the steadier figure), the
classes computed and the memory of the windows. Then, the table warm, what one mid-turn
situation costs (its distribution, and the distributions after each of its legal actions).
The peak resident memory of the process is printed last. The Numba kernels are run once
on a small state first, so that compilation is not counted.
"""

from __future__ import annotations

import argparse
import resource
import time

from cubilete.engine.games import rules_for
from cubilete.engine.sheet import SheetState
from cubilete.engine.sheet_scoring import Sheet, sheet_from_json
from cubilete.solvers.sheet_cache import solution
from cubilete.solvers.sheet_distributions import (
    DistributionTable,
    distribution_table,
    option_distributions,
    remaining_distribution,
)
from cubilete.solvers.sheet_windows import MISSING

SHEETS = {  # boxes filled with typical values: 6 boxes left, then 2 boxes left
    "penta": (
        {"ones": 3, "twos": 6, "threes": 9, "three_of_a_kind": 22, "full_house": 25,
         "small_straight": 30, "chance": 23},
        {"ones": 3, "twos": 6, "threes": 9, "fours": 12, "fives": 15, "three_of_a_kind": 22,
         "full_house": 25, "small_straight": 30, "large_straight": 40, "chance": 23, "penta": 50},
    ),
    "generala": (
        {"ones": 3, "twos": 6, "threes": 9, "trio": 20, "full": 25, "long_straight": 30, "libre": 23},
        {"ones": 3, "twos": 6, "threes": 9, "fours": 12, "fives": 15, "trio": 20, "poker": 30,
         "full": 25, "long_straight": 30, "short_straight": 40, "libre": 23},
    ),
}


def cold(rules, sheet: Sheet) -> tuple[float, float, int, float]:
    """A new table's first distribution from this sheet: wall s, CPU s, classes, MB."""
    table = DistributionTable(solution(rules))
    wall, cpu = time.perf_counter(), time.process_time()
    c = table.class_of(sheet)
    table.ensure(c)
    table.distribution(c)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    computed = int((table.windows.width != MISSING).sum())
    return wall, cpu, computed, table.windows.nbytes() / 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", default="penta,generala")
    args = parser.parse_args()
    for game in args.games.split(","):
        rules = rules_for(game)
        solved = solution(rules)
        six_left, two_left = (sheet_from_json(rules, filled) for filled in SHEETS[game])
        situation = SheetState.situation(rules, two_left, (1, 3, 3, 4, 6), 2)
        option_distributions(situation)  # compiles (or loads) every kernel
        print(f"{game} ({rules.name}), {distribution_table(solved).classes.count} classes in all:")
        for label, sheet in (("2 boxes left", two_left), ("6 boxes left", six_left), ("empty sheet", Sheet.empty(rules))):
            wall, cpu, computed, megabytes = cold(rules, sheet)
            print(f"  {label:<13} {wall:8.3f} s wall, {cpu:8.3f} s CPU, {computed:7d} classes, {megabytes:9.1f} MB")
        situation = SheetState.situation(rules, six_left, (1, 3, 3, 4, 6), 2)
        remaining_distribution(situation)  # the table warm for this sheet
        started = time.perf_counter()
        remaining_distribution(situation)
        one = time.perf_counter() - started
        started = time.perf_counter()
        count = len(option_distributions(situation))
        every = time.perf_counter() - started
        print(f"  warm, 6 boxes left, dice 1 3 3 4 6 with 2 rolls left: {1000 * one:.2f} ms for its"
              f" distribution, {1000 * every:.1f} ms for its {count} actions'")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak resident memory {peak:.0f} MB")


if __name__ == "__main__":
    main()
