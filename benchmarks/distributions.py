"""Exact score distributions and chances to reach a target, on demand: time and memory.

    .venv/bin/python benchmarks/distributions.py [--games penta,generala] [--full]

For each game, from a sheet with 2 boxes left, with 6 boxes left and from the empty sheet,
each on a new, empty table (nothing remembered), so that the figure is what a first request
costs: the distribution of the points still to come under optimal play, then the chances
to reach a target (the threshold solver; from the empty Penta sheet only with --full, it
takes minutes), then the law of the points under the threshold policy (not from the
empty sheet). Each line gives the wall time, the CPU time of the process (all threads; on a
shared machine the steadier figure), the classes computed and the memory of the table.
Then, tables warm, what one mid-turn situation costs. The peak resident memory of the
process is printed last. The Numba kernels run once on a small state first, so that
compilation is not counted.
"""

from __future__ import annotations

import argparse
import resource
import time

from cubilete.engine.games import rules_for
from cubilete.engine.sheet import SheetState
from cubilete.engine.sheet_scoring import Sheet, sheet_from_json, sheet_total
from cubilete.research.sheet_threshold_policy import threshold_distribution
from cubilete.solvers.sheet.cache import solution
from cubilete.solvers.sheet.distributions import (
    DistributionTable,
    distribution_table,
    option_distributions,
    remaining_distribution,
)
from cubilete.solvers.sheet.threshold import ThresholdTable, rank_for_target, threshold_table
from cubilete.solvers.sheet.windows import MISSING

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
TARGETS = {"penta": (300, 250, 300), "generala": (250, 230, 250)}  # 2 left, 6 left, empty sheet


def cold(rules, sheet: Sheet, target: int | None = None) -> str:
    """A new table's first answer from this sheet: the distribution, or the chance to reach
    `target`; wall s, CPU s, classes, MB."""
    table = DistributionTable(solution(rules)) if target is None else ThresholdTable(solution(rules))
    wall, cpu = time.perf_counter(), time.process_time()
    c = table.class_of(sheet)
    if target is None:
        table.ensure(c)
    else:
        table.ensure(c, target - sheet_total(rules, sheet))
    return figures(wall, cpu, int((table.windows.width != MISSING).sum()), table.windows.nbytes() / 1e6)


def figures(wall: float, cpu: float, classes: int | None = None, megabytes: float = 0.0) -> str:
    """The time since (wall, cpu), and what a table holds."""
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    line = f"{wall:8.3f} s wall, {cpu:8.3f} s CPU"
    if classes is not None:
        line += f", {classes:7d} classes, {megabytes:9.1f} MB"
    return line


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", default="penta,generala")
    parser.add_argument("--full", action="store_true", help="the chances from the empty Penta sheet too")
    args = parser.parse_args()
    for game in args.games.split(","):
        rules = rules_for(game)
        solved = solution(rules)
        six_left, two_left = (sheet_from_json(rules, filled) for filled in SHEETS[game])
        situation = SheetState.situation(rules, two_left, (1, 3, 3, 4, 6), 2)
        option_distributions(situation)  # compiles (or loads) every kernel
        threshold_distribution(situation, TARGETS[game][0])
        rank_for_target(situation, TARGETS[game][0])
        threshold_table.cache_clear()
        print(f"{game} ({rules.name}), {distribution_table(solved).classes.count} classes in all:")
        sheets = (("2 boxes left", two_left), ("6 boxes left", six_left), ("empty sheet", Sheet.empty(rules)))
        for (label, sheet), target in zip(sheets, TARGETS[game], strict=True):
            print(f"  {label:<13} total {sheet_total(rules, sheet):3d}, distribution:    {cold(rules, sheet)}")
            if sheet.filled(rules) or game != "penta" or args.full:
                print(f"  {'':<23} chances for {target}: {cold(rules, sheet, target)}")
            if sheet.filled(rules):
                state = SheetState.situation(rules, sheet)
                threshold_table(solved).ensure(threshold_table(solved).class_of(sheet), target)
                wall, cpu = time.perf_counter(), time.process_time()
                threshold_distribution(state, target)
                print(f"  {'':<23} its policy's law: {figures(wall, cpu)}")
        situation = SheetState.situation(rules, six_left, (1, 3, 3, 4, 6), 2)
        print("  tables warm, 6 boxes left, dice 1 3 3 4 6 with 2 rolls left:")
        remaining_distribution(situation)
        option_distributions(situation)  # the classes its worse actions lead to
        for label, ask, arguments in (
            ("its distribution", remaining_distribution, (situation,)),
            ("the distributions after each of its 29 actions", option_distributions, (situation,)),
            (f"the chance of each action to reach {TARGETS[game][1]}", rank_for_target, (situation, TARGETS[game][1])),
        ):
            started = time.perf_counter()
            ask(*arguments)
            print(f"    {label}: {1000 * (time.perf_counter() - started):.2f} ms")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak resident memory {peak:.0f} MB")


if __name__ == "__main__":
    main()
