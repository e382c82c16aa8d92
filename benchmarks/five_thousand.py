"""5000 speed figures: cold solve, load from cache, advice latency, simulated games per second.

    .venv/bin/python benchmarks/five_thousand.py [--games 500] [--skip-baseline]

Cold figures run in fresh processes with empty cache directories: once with an
empty Numba cache too (a first install: compilation included), once with the
kernels compiled. The issue's peer figure, a plain Gauss-Seidel value iteration
in Numba, is reimplemented below on the same engine-read tables and timed in
the same run, to the same tolerance.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import replace

import numpy as np
from numba import njit

from cubilete.cli.families.five_thousand import advise
from cubilete.engine.games import rules_for
from cubilete.engine.runner import play
from cubilete.players.five_thousand import make_player
from cubilete.solvers.five_thousand.cache import two_player_solution
from cubilete.solvers.five_thousand.exact import (
    FORBIDDEN,
    LOSS,
    PASS,
    TOLERANCE,
    WIN,
    bank_table,
    score_count,
)
from cubilete.solvers.five_thousand.tables import roll_table, slot_count

RULES = rules_for("5000")
TIMED_SOLVE = """
import json, time
from cubilete.engine.games import rules_for
started = time.perf_counter()
from cubilete.solvers.five_thousand.cache import two_player_solution
solution = two_player_solution(rules_for("5000"))
print(json.dumps({"seconds": time.perf_counter() - started, "first": solution.first_player_wins}))
"""


def timed_solve_process(cache: str, numba_cache: str) -> dict:
    """Solve or load in a fresh process (imports included); its own timing."""
    env = {**os.environ, "CUBILETE_CACHE_DIR": cache, "NUMBA_CACHE_DIR": numba_cache}
    out = subprocess.run([sys.executable, "-c", TIMED_SOLVE], env=env, check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out)


def advice_latency(situations: list[dict]) -> list[float]:
    times = []
    for situation in situations:
        started = time.perf_counter()
        advise(situation)
        times.append(time.perf_counter() - started)
    return times


def random_situations(count: int, seats: int, seed: int) -> list[dict]:
    rng = np.random.default_rng(seed)
    situations = []
    while len(situations) < count:
        scores = [int(x) * 100 for x in rng.integers(0, RULES.target // 100, seats)]
        situations.append({"game": "5000", "scores": scores, "to_move": int(rng.integers(seats)),
                           "turn_points": int(rng.integers(1, 40)) * 50, "dice_left": int(rng.integers(1, 6))})
    return situations


def games_per_second(levels: list[str], games: int) -> float:
    players = [make_player(level, RULES) for level in levels]
    started = time.perf_counter()
    for number in range(games):
        play(RULES, players[number % 2:] + players[: number % 2], seed=number)
    return games / (time.perf_counter() - started)


# --- the plain baseline: Gauss-Seidel over every decision point ------------------------


@njit(cache=True)
def _plain_sweep(t, kind, successor, pass_pair, start, decide):
    """One in-place sweep over every (pair, slot, dice), pairs in plain index order; the change."""
    change = 0.0
    last = decide.shape[1] - 1
    for pair in range(start.shape[0]):
        pass_value = 1.0 - start[pass_pair[pair]]
        for k in range(last, -1, -1):
            code = kind[pair, k]
            bank = np.nan
            if code == WIN:
                bank = 1.0
            elif code == LOSS:
                bank = 0.0
            elif code == PASS:
                bank = pass_value
            elif code != FORBIDDEN:
                bank = 1.0 - start[successor[pair, k]]
            for d in range(1, 6):
                value = t.bust[d] * pass_value
                for g in range(t.group_start[d], t.group_start[d + 1]):
                    best = -1.0
                    for c in range(t.choice_start[g], t.choice_start[g + 1]):
                        best = max(best, decide[pair, min(k + t.choice_steps[c], last), t.choice_dice[c]])
                    value += t.group_prob[g] * best
                if k == 0 and d == 5:
                    change = max(change, abs(value - start[pair]))
                    start[pair] = value
                if bank > value:
                    value = bank
                change = max(change, abs(value - decide[pair, k, d]))
                decide[pair, k, d] = value
    return change


def plain_gauss_seidel(rules) -> tuple[float, np.ndarray, int]:
    """Solve by plain sweeps until nothing moves by more than TOLERANCE; (seconds, start, sweeps).
    The engine-reading time is left out, so this times the iteration alone."""
    table = roll_table(rules)
    banks = bank_table(rules, table)
    n = score_count(rules)
    start = np.full(n * n, 0.5)
    decide = np.full((n * n, slot_count(rules), 6), 0.5)
    started = time.perf_counter()
    sweeps = 0
    while _plain_sweep(table, banks.kind, banks.successor, banks.pass_pair, start, decide) > TOLERANCE:
        sweeps += 1
    return time.perf_counter() - started, start.reshape(n, n), sweeps + 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500, help="games per simulated pairing")
    parser.add_argument("--skip-baseline", action="store_true", help="skip the plain baseline")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as numba_cache, tempfile.TemporaryDirectory() as cache:
        first = timed_solve_process(cache, numba_cache)
        print(f"cold solve, first run (Numba compiles): {first['seconds']:6.2f} s")
        for name in os.listdir(cache):
            os.remove(os.path.join(cache, name))
        cold = timed_solve_process(cache, numba_cache)
        print(f"cold solve, kernels compiled:           {cold['seconds']:6.2f} s")
        loaded = timed_solve_process(cache, numba_cache)
        print(f"load from cache (fresh process):        {loaded['seconds']:6.3f} s")
        print(f"first player wins (2 players, optimal): {cold['first']:.10f}")
        os.environ["CUBILETE_CACHE_DIR"] = cache

        started = time.perf_counter()
        solution = two_player_solution(RULES)
        print(f"load from cache (in process):           {time.perf_counter() - started:6.3f} s")
        advise(random_situations(1, 3, 0)[0])  # compile the planner's kernel path
        for seats in (2, 3):
            times = advice_latency(random_situations(300, seats, seats))
            print(f"advice latency, {seats} players:              median {1000 * statistics.median(times):.2f} ms,"
                  f" max {1000 * max(times):.2f} ms")
        for levels in (["optimal", "bank300"], ["optimal", "casual"], ["casual", "bank300"]):
            rate = games_per_second(levels, args.games)
            print(f"games per second, {' vs '.join(levels):<20} {rate:7.1f}")

        if not args.skip_baseline:
            plain_gauss_seidel(replace(RULES, name="warm-up", target=500))  # compile the kernel
            seconds, start, sweeps = plain_gauss_seidel(RULES)
            gap = np.abs(start - solution.start).max()
            print(f"plain Gauss-Seidel baseline:            {seconds:6.2f} s ({sweeps} sweeps,"
                  f" largest difference from the solver {gap:.1e})")


if __name__ == "__main__":
    main()
