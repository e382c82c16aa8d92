"""Penta solver speed against the PyPI package yatzy-solver, in one run on one machine.

    .venv/bin/pip install -e '.[bench]'
    .venv/bin/python benchmarks/solver.py [--rounds 3] [--games 20000] [--before OTHER/src]

Both solve the same rules: Penta `forced` is yatzy-solver's `american+forced-joker`
(the values agree to 1e-9, checked below). Figures:

- solve: a full solve without any table cache, the Numba kernels already compiled
  (median of --rounds, cubilete and the peer alternating so that both see the same
  machine load); Numba's compilation is timed separately in a fresh process with an
  empty Numba cache (a first install);
- solve, whole process: the same solve as a fresh `python -c` that imports, solves and exits
  (process start, imports, Numba kernels loaded from their cache, no table cache), against
  the same for the peer (median of --rounds, alternating), as a user's second run waits;
  `--before OTHER/src` times another tree's the same way, in turn with both (before and after
  a change, side by side);
- load: reading cubilete's solved table back from its cache file;
- advice: in-process latency of a turn-start value and of the value of every option of a
  mid-turn situation: cubilete's arrays (`option_values`), its best action and `advise`
  (engine actions and RankedOption objects for every option) against the peer's
  `option_values` (which parses and formats its text notation); for a turn already
  advised (cubilete remembers it), for new turns (200 sheets of beginners' games, every
  remembered turn forgotten first), and per situation of one batch of those 200
  (`option_values` of them all, the peer's `option_values_batch` on its arrays). Each
  figure is the best of 5 rounds, 20 for new turns, those one at a time by slices of 10,
  cubilete's and the peer's slices taking turns (the machine is shared: the best round is the
  least disturbed one, and both solvers see the machine alike);
- simulation: games per second of optimal solitaire play, cubilete's compiled
  simulator and the peer's `simulate`, both on all cores, plus cubilete's engine runner
  (what `cubilete simulate` uses, one Python decision at a time);
- Yatzy: cubilete's `yatzy` (`scandinavian`) against the peer's `yatzy-scandinavian`: the
  optimum, the solve time (median of --rounds, alternating) and every option's value of
  one mid-turn situation, both sides (`--yatzy-only` runs just this part).
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
from pathlib import Path
from typing import Any

import yatzy_solver

from cubilete.engine.games import new_state
from cubilete.engine.runner import Match, play
from cubilete.engine.sheet import SheetState
from cubilete.engine.sheet_rules import PENTA_FORCED, YATZY_SCANDINAVIAN
from cubilete.engine.sheet_scoring import sheet_from_json, sheet_total, upper_total
from cubilete.players import make_player
from cubilete.solvers.cache_dir import CACHE_DIR_ENV
from cubilete.solvers.sheet import cache as sheet_cache
from cubilete.solvers.sheet import options as sheet_options
from cubilete.solvers.sheet.advice import advise, best_action, expected_value
from cubilete.solvers.sheet.options import option_values
from cubilete.solvers.sheet.simulation import simulate_optimal
from cubilete.solvers.sheet.solver import solve

PEER_VARIANT = "american+forced-joker"
MID_TURN_SHEET = {"ones": 3, "threes": 9, "fours": 12, "sixes": 24, "full_house": 25}
PEER_MID_TURN = "dice 1 2 3 4 4 | rolls 2 | upper 48 | filled ones,threes,fours,sixes,full_house"
PEER_BOXES = {"penta": "five_of_a_kind"}
YATZY_PEER_VARIANT = "yatzy-scandinavian"  # the same box ids as ours

WHOLE_PROCESS_RUNS = {
    "ours": "from cubilete.engine.sheet_rules import PENTA_FORCED\n"
    "from cubilete.solvers.sheet.solver import solve\n"
    "solve(PENTA_FORCED)",
    "peer": f"import yatzy_solver\nyatzy_solver.Solver.build(yatzy_solver.Variant({PEER_VARIANT!r}))",
}

COMPILE_RUN = """
import json, time
from cubilete.engine.sheet_rules import PENTA_FORCED
from cubilete.solvers.sheet.solver import solve
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
    parser.add_argument("--yatzy-only", action="store_true", help="only the Yatzy comparison")
    parser.add_argument("--before", type=Path, help="another tree's src, timed as a whole process too, in turn")
    args = parser.parse_args()
    yatzy = yatzy_comparison(args.rounds)
    if args.yatzy_only:
        report_yatzy(yatzy)
        return
    figures = {"compile": compile_seconds()}
    figures.update(solve_seconds(args.rounds))
    figures.update(whole_process_seconds(args.rounds, args.before))
    figures.update(load_seconds())
    figures.update(advice_microseconds())
    figures.update(games_per_second(args.games))
    report(figures)
    report_yatzy(yatzy)


def yatzy_comparison(rounds: int) -> dict[str, object]:
    """Scandinavian Yatzy on both sides: optima, solve times, and every option of a mid-turn situation
    (the values of expected points still to come, as the peer gives them)."""
    solve(YATZY_SCANDINAVIAN)  # compiled (or loaded from Numba's cache) before any timing
    ours, peers = [], []
    for _ in range(rounds):
        started = time.perf_counter()
        value = solve(YATZY_SCANDINAVIAN).start_value
        ours.append(time.perf_counter() - started)
        started = time.perf_counter()
        peer = yatzy_solver.Solver.build(yatzy_solver.Variant(YATZY_PEER_VARIANT))
        peers.append(time.perf_counter() - started)
    sheet = sheet_from_json(YATZY_SCANDINAVIAN, MID_TURN_SHEET)
    now = sheet_total(YATZY_SCANDINAVIAN, sheet)
    options = advise(SheetState.situation(YATZY_SCANDINAVIAN, sheet, (1, 2, 3, 4, 4), 2))
    mine = {
        f"score {o.box}" if o.keep is None else f"keep {' '.join(map(str, o.keep)) or '-'}": o.value - now
        for o in options
    }
    theirs = dict(peer.option_values(PEER_MID_TURN))  # the same situation: upper 48, the same boxes filled
    assert set(mine) == set(theirs), sorted(set(mine) ^ set(theirs))
    return {
        "value": value,
        "peer_value": peer.state_value("upper 0 | filled -"),
        "solve": statistics.median(ours),
        "peer_solve": statistics.median(peers),
        "options": [(name, mine[name], theirs[name]) for name in mine],
    }


def report_yatzy(f: dict[str, Any]) -> None:
    print(f"Yatzy = {YATZY_PEER_VARIANT}: optimal expected score cubilete {f['value']:.10f}"
          f"   yatzy-solver {f['peer_value']:.10f}   difference {abs(f['value'] - f['peer_value']):.1e}")
    print(f"  solve, no table cache cubilete {f['solve']:7.3f} s   yatzy-solver {f['peer_solve']:7.3f} s"
          f"   ratio {f['solve'] / f['peer_solve']:.2f} (in process)")
    print(f"  mid-turn, {PEER_MID_TURN}: points still to come")
    for name, mine, theirs in f["options"]:
        print(f"    {name:<24} cubilete {mine:12.8f}   yatzy-solver {theirs:12.8f}   difference {abs(mine - theirs):.1e}")
    worst = max(abs(mine - theirs) for _, mine, theirs in f["options"])
    print(f"  every one of the {len(f['options'])} options agrees within {worst:.1e}")


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


def whole_process_seconds(rounds: int, before: Path | None = None) -> dict[str, float]:
    """Fresh processes that import, solve and exit, the kernels already in Numba's cache (solve_seconds
    compiled them), without any table cache; with `before` (another tree's src), that tree's too, all
    three in turn (its first run compiles its kernels, and is not counted)."""
    runs = {name: (code, None) for name, code in WHOLE_PROCESS_RUNS.items()}
    if before is not None:
        runs["before"] = (WHOLE_PROCESS_RUNS["ours"], before)
    seconds: dict[str, list[float]] = {name: [] for name in runs}
    with tempfile.TemporaryDirectory() as cache:
        for round_ in range(rounds + (before is not None)):
            for name, (code, src) in runs.items():
                path = os.pathsep.join(filter(None, (str(src or ""), os.environ.get("PYTHONPATH"))))
                env = {**os.environ, CACHE_DIR_ENV: cache, "PYTHONPATH": path}
                started = time.perf_counter()
                subprocess.run([sys.executable, "-c", code], env=env, check=True)
                if round_ < rounds:
                    seconds[name].append(time.perf_counter() - started)
    return {f"{name}_process_solve": statistics.median(times) for name, times in seconds.items()}


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
    peer_fresh = [_peer_situation(state) for state in fresh]
    _check_against_peer(peer, fresh, peer_fresh)
    batch = yatzy_solver.Variant(PEER_VARIANT).situation_arrays(peer_fresh)
    advise(mid_turn)  # its turn's keep values are now remembered

    def forget() -> None:
        sheet_options.forget_turns()
        sheet_options.position.cache_clear()

    each = len(fresh)
    return {
        "turn_start": _microseconds(lambda: expected_value(start)),
        "mid_turn": _microseconds(lambda: advise(mid_turn)),
        "mid_turn_arrays": _microseconds(lambda: option_values(PENTA_FORCED, (mid_turn,))),
        "mid_turn_best": _microseconds(lambda: best_action(mid_turn)),
        **_each_microseconds(
            {
                "fresh_turn": (advise, fresh),
                "fresh_turn_arrays": (lambda state: option_values(PENTA_FORCED, (state,)), fresh),
                "peer_fresh_turn": (peer.option_values, peer_fresh),
            },
            forget,
        ),
        "batch": _microseconds(lambda: option_values(PENTA_FORCED, fresh), 20) / each,
        "fresh_batch": _microseconds(lambda: option_values(PENTA_FORCED, fresh), 1, forget, rounds=20) / each,
        "peer_turn_start": _microseconds(lambda: peer.state_value("upper 0 | filled -")),
        "peer_mid_turn": _microseconds(lambda: peer.option_values(PEER_MID_TURN)),
        "peer_batch": _microseconds(lambda: peer.option_values_batch(**batch), 20) / each,
    }


def _fresh_turns(count: int) -> list[SheetState]:
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
    return states[:count]


def _peer_situation(state: SheetState) -> str:
    """The state in the peer's notation (its five-equal box is our penta)."""
    boxes = {PEER_BOXES.get(box, box): points for box, points in zip(PENTA_FORCED.box_ids, state.sheet.boxes)}
    filled = [box for box in yatzy_solver.Variant(PEER_VARIANT).categories if boxes[box] is not None]
    upper = min(upper_total(PENTA_FORCED, state.sheet), PENTA_FORCED.upper_bonus_threshold or 0)
    armed = " | five_of_a_kind 50" if boxes["five_of_a_kind"] else ""
    dice = " ".join(map(str, sorted(state.dice)))
    return f"dice {dice} | rolls {state.rolls_left} | upper {upper} | filled {','.join(filled) or '-'}{armed}"


def _check_against_peer(peer: yatzy_solver.Solver, states: list[SheetState], situations: list[str]) -> None:
    """Both rank the same options with the same values (the peer's exclude the points so far)."""
    for state, situation in zip(states, situations, strict=True):
        now = sheet_total(PENTA_FORCED, state.sheet)
        ours = sorted(option.value - now for option in advise(state))
        theirs = sorted(value for _, value in peer.option_values(situation))
        assert len(ours) == len(theirs) and max(abs(a - b) for a, b in zip(ours, theirs)) < 1e-9, situation


def _microseconds(
    call: Callable[[], object], repeat: int = 2000, before: Callable[[], None] | None = None, rounds: int = 5
) -> float:
    """The best of `rounds` rounds of the mean time of one call (`before` runs, untimed, before each round)."""
    times = []
    for _ in range(rounds):
        if before is not None:
            before()
        started = time.perf_counter()
        for _ in range(repeat):
            call()
        times.append((time.perf_counter() - started) / repeat * 1e6)
    return min(times)


def _each_microseconds(
    runs: dict[str, tuple[Callable[[Any], object], list[Any]]], before: Callable[[], None] | None = None, rounds: int = 20
) -> dict[str, float]:
    """The mean time of one call on each item, for each of the runs (name: (call, items)): each slice of
    10 items timed in every round (`before` runs, untimed, before each slice), its best round kept. On a
    shared machine a round of all 200 items is seldom left alone; a slice of 10 often is. The runs take
    turns slice by slice, so that all of them see the machine as it is at that moment."""
    best = {name: [float("inf")] * -(-len(items) // 10) for name, (_, items) in runs.items()}
    for _ in range(rounds):
        for i in range(max(map(len, best.values()))):
            for name, (call, items) in runs.items():
                part = items[i * 10 : i * 10 + 10]
                if before is not None:
                    before()
                started = time.perf_counter()
                for item in part:
                    call(item)
                best[name][i] = min(best[name][i], time.perf_counter() - started)
    return {name: sum(best[name]) / len(items) * 1e6 for name, (_, items) in runs.items()}


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
          f"   ratio {f['solve'] / f['peer_solve']:.2f} (goal <= 0.5; in process)")
    print(f"  whole process         cubilete {f['ours_process_solve']:7.3f} s   yatzy-solver {f['peer_process_solve']:7.3f} s"
          f"   ratio {f['ours_process_solve'] / f['peer_process_solve']:.2f} (goal <= 0.3; fresh python -c, kernels cached)")
    if "before_process_solve" in f:
        print(f"  whole process, --before tree {f['before_process_solve']:7.3f} s"
              f"   ratio {f['before_process_solve'] / f['peer_process_solve']:.2f} (timed in turn with the two above)")
    print(f"Numba compilation       {f['compile']:7.3f} s (first install, once)")
    print(f"load from cache         {f['load'] * 1e3:7.1f} ms")
    print(f"turn-start value        cubilete {f['turn_start']:7.2f} us   yatzy-solver {f['peer_turn_start']:7.2f} us"
          " (goal < 50 us)")
    print(f"mid-turn, every option  cubilete {f['mid_turn_arrays']:7.2f} us arrays, {f['mid_turn_best']:.2f} us"
          f" best action, {f['mid_turn']:.2f} us advise (turn remembered)"
          f"   yatzy-solver {f['peer_mid_turn']:7.2f} us (goal: arrays <= peer)")
    print(f"  new turns             cubilete {f['fresh_turn_arrays']:7.2f} us arrays, {f['fresh_turn']:.2f} us advise"
          f"   yatzy-solver {f['peer_fresh_turn']:7.2f} us (200 sheets, per situation; goal: arrays <= peer)")
    print(f"  batch of 200          cubilete {f['batch']:7.2f} us (turns remembered), {f['fresh_batch']:.2f} us"
          f" (new turns)   yatzy-solver {f['peer_batch']:7.2f} us (option_values_batch), per situation"
          " (goal: new turns <= peer)")
    print(f"simulated games/s       cubilete {f['simulate']:7.0f} (mean {f['simulate_mean']:.2f})"
          f"   yatzy-solver {f['peer_simulate']:7.0f} (mean {f['peer_simulate_mean']:.2f})"
          f"   ratio {f['simulate'] / f['peer_simulate']:.2f} (goal >= 2)")
    print(f"engine runner games/s   cubilete {f['runner']:7.1f} (cubilete simulate, Python decisions)")


if __name__ == "__main__":
    main()
