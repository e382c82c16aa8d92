"""Penta solver speed against the PyPI package yatzy-solver, in one run on one machine.

    .venv/bin/pip install -e '.[bench]'
    .venv/bin/python benchmarks/solver.py [--rounds 3] [--games 20000]

Both solve the same rules: Penta `forced` is yatzy-solver's `american+forced-joker`
(the values agree to 1e-9, checked below). Figures:

- solve: a full solve without any table cache, the Numba kernels already compiled
  (median of --rounds, cubilete and the peer alternating so that both see the same
  machine load); Numba's compilation is timed separately in a fresh process with an
  empty Numba cache (a first install);
- load: reading cubilete's solved table back from its cache file;
- advice: in-process latency of a turn-start value and of a mid-turn ranking of every
  option (cubilete's `advise` builds engine actions and RankedOption objects; the peer
  parses and formats its text notation);
- simulation: games per second of optimal solitaire play, cubilete's compiled
  simulator and the peer's `simulate`, both on all cores, plus cubilete's engine runner
  (what `cubilete simulate` uses, one Python decision at a time).
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
from collections.abc import Callable

import yatzy_solver

from cubilete.engine.games import new_state
from cubilete.engine.runner import Match, play
from cubilete.engine.sheet import SheetState
from cubilete.engine.sheet_rules import PENTA_FORCED
from cubilete.engine.sheet_scoring import sheet_from_json
from cubilete.players import make_player
from cubilete.solvers import sheet_cache
from cubilete.solvers.cache_dir import CACHE_DIR_ENV
from cubilete.solvers.sheet_advice import advise, expected_value
from cubilete.solvers.sheet_simulation import simulate_optimal
from cubilete.solvers.sheet_solver import solve

PEER_VARIANT = "american+forced-joker"
MID_TURN_SHEET = {"ones": 3, "threes": 9, "fours": 12, "sixes": 24, "full_house": 25}
PEER_MID_TURN = "dice 1 2 3 4 4 | rolls 2 | upper 48 | filled ones,threes,fours,sixes,full_house"

COMPILE_RUN = """
import json, time
from cubilete.engine.sheet_rules import PENTA_FORCED
from cubilete.solvers.sheet_solver import solve
started = time.perf_counter()
solve(PENTA_FORCED)
first = time.perf_counter() - started
started = time.perf_counter()
solve(PENTA_FORCED)
print(json.dumps({"first": first, "second": time.perf_counter() - started}))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3, help="timed solves of each solver")
    parser.add_argument("--games", type=int, default=20000, help="games for the simulation speed")
    args = parser.parse_args()
    figures = {"compile": compile_seconds()}
    figures.update(solve_seconds(args.rounds))
    figures.update(load_seconds())
    figures.update(advice_microseconds())
    figures.update(games_per_second(args.games))
    report(figures)


def compile_seconds() -> float:
    """Numba compilation of the solver's kernels, in a fresh process with an empty Numba cache."""
    with tempfile.TemporaryDirectory() as numba_cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": numba_cache}
        output = subprocess.run(
            [sys.executable, "-c", COMPILE_RUN], env=env, capture_output=True, text=True, check=True
        ).stdout
    run = json.loads(output)
    return run["first"] - run["second"]


def solve_seconds(rounds: int) -> dict[str, float]:
    solve(PENTA_FORCED)  # compiled (or loaded from Numba's cache) before any timing
    ours, peers = [], []
    for _ in range(rounds):
        started = time.perf_counter()
        ours_value = solve(PENTA_FORCED).start_value
        ours.append(time.perf_counter() - started)
        started = time.perf_counter()
        peer = yatzy_solver.Solver.build(yatzy_solver.Variant(PEER_VARIANT))
        peers.append(time.perf_counter() - started)
    peer_value = peer.state_value("upper 0 | filled -")
    assert abs(ours_value - peer_value) < 1e-9, (ours_value, peer_value)
    return {"solve": statistics.median(ours), "peer_solve": statistics.median(peers), "value": ours_value}


def load_seconds() -> dict[str, float]:
    with tempfile.TemporaryDirectory() as cache:
        os.environ[CACHE_DIR_ENV] = cache
        sheet_cache.solution(PENTA_FORCED)  # solved and saved
        started = time.perf_counter()
        sheet_cache.load(PENTA_FORCED, sheet_cache.cache_path(PENTA_FORCED))
        return {"load": time.perf_counter() - started}


def advice_microseconds() -> dict[str, float]:
    sheet_cache.solution(PENTA_FORCED)
    peer = yatzy_solver.Solver.build(yatzy_solver.Variant(PEER_VARIANT))
    start = new_state(PENTA_FORCED, 1)
    mid_turn = SheetState.situation(PENTA_FORCED, sheet_from_json(PENTA_FORCED, MID_TURN_SHEET), (1, 2, 3, 4, 4), 2)
    fresh = _fresh_turns(200)
    advise(mid_turn)  # its turn's keep values are now remembered
    return {
        "turn_start": _microseconds(lambda: expected_value(start)),
        "mid_turn": _microseconds(lambda: advise(mid_turn)),
        "fresh_turn": _microseconds(lambda: advise(next(fresh)), repeat=200),
        "peer_turn_start": _microseconds(lambda: peer.state_value("upper 0 | filled -")),
        "peer_mid_turn": _microseconds(lambda: peer.option_values(PEER_MID_TURN)),
    }


def _fresh_turns(count: int):
    """Mid-turn states of turns never advised before: the sheets of a beginner's games."""
    beginner = make_player("beginner", PENTA_FORCED)
    states: list[SheetState] = []
    seed = 0
    while len(states) < count:
        match = Match(PENTA_FORCED, ["beginner"], seed)
        while not match.state.is_over:
            if match.state.is_chance and match.state.rolls_left == PENTA_FORCED.rolls_per_turn:
                states.append(SheetState.situation(PENTA_FORCED, match.state.sheet, (6, 6, 5, 2, 1), 2))
            match.advance([beginner], max_steps=1)
        seed += 1
    return iter(states[:count])


def _microseconds(call: Callable[[], object], repeat: int = 2000) -> float:
    started = time.perf_counter()
    for _ in range(repeat):
        call()
    return (time.perf_counter() - started) / repeat * 1e6


def games_per_second(games: int) -> dict[str, float]:
    peer = yatzy_solver.Solver.build(yatzy_solver.Variant(PEER_VARIANT))
    simulate_optimal(PENTA_FORCED, 10, 0)  # compiled before timing
    started = time.perf_counter()
    ours = simulate_optimal(PENTA_FORCED, games, 1)
    ours_seconds = time.perf_counter() - started
    started = time.perf_counter()
    theirs = peer.simulate(games, seed=1)
    peer_seconds = time.perf_counter() - started
    runner_games = max(games // 100, 20)
    player = make_player("optimal", PENTA_FORCED)
    started = time.perf_counter()
    for seed in range(runner_games):
        play(PENTA_FORCED, [player], seed)
    runner_seconds = time.perf_counter() - started
    return {
        "simulate": games / ours_seconds,
        "simulate_mean": float(ours.mean()),
        "peer_simulate": games / peer_seconds,
        "peer_simulate_mean": float(theirs["mean"]),
        "runner": runner_games / runner_seconds,
    }


def report(f: dict[str, float]) -> None:
    cores = os.cpu_count()
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"{cores} cores, load average {load} (other work on the machine slows both solvers)")
    print(f"Penta forced = {PEER_VARIANT}: optimal expected score {f['value']:.10f} (both solvers)")
    print(f"solve, no table cache   cubilete {f['solve']:7.3f} s   yatzy-solver {f['peer_solve']:7.3f} s"
          f"   ratio {f['solve'] / f['peer_solve']:.2f} (goal <= 0.5)")
    print(f"Numba compilation       {f['compile']:7.3f} s (first install, once)")
    print(f"load from cache         {f['load'] * 1e3:7.1f} ms")
    print(f"turn-start value        cubilete {f['turn_start']:7.2f} us   yatzy-solver {f['peer_turn_start']:7.2f} us"
          " (goal < 50 us)")
    print(f"mid-turn advice         cubilete {f['mid_turn']:7.2f} us (turn remembered),"
          f" {f['fresh_turn']:.2f} us (new turn)   yatzy-solver {f['peer_mid_turn']:7.2f} us")
    print(f"simulated games/s       cubilete {f['simulate']:7.0f} (mean {f['simulate_mean']:.2f})"
          f"   yatzy-solver {f['peer_simulate']:7.0f} (mean {f['peer_simulate_mean']:.2f})"
          f"   ratio {f['simulate'] / f['peer_simulate']:.2f} (goal >= 2)")
    print(f"engine runner games/s   cubilete {f['runner']:7.1f} (cubilete simulate, Python decisions)")


if __name__ == "__main__":
    main()
