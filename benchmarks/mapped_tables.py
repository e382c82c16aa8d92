"""Solver tables on disk, mapped by every process (issue 36): what a Penta duel costs a process before
(its laws built in the process, float64) and after (built once per install, mapped read-only, uint32).

    PYTHONPATH=src .venv/bin/python benchmarks/mapped_tables.py [--rules penta/seed] [--games 4]

Each figure comes from fresh child processes sharing a new cache directory (the kernels' cache is the
install's): the build of the rule set's tables (solution and duel laws) and its peak RSS; the first duel
decision of a fresh process once the tables exist; the memory each of 1, 2 and 4 processes adds for the
tables once each has played a duel game (USS: pages only it holds; PSS: its share of the shared ones;
RSS), measured from outside while all of them are alive; the files by table and dtype; and, before, the
laws built in a process as every process did (time and RSS added), with the duel's decisions on
`--games` seeded games compared between those float64 laws and the mapped uint32 ones.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psutil

MB = 2**20


def _rules(name: str):  # type: ignore[no-untyped-def]
    from cubilete.engine.games import rules_for

    game, variant = name.split("/")
    return rules_for(game, variant)


def _two_seat_state(rules):  # type: ignore[no-untyped-def]
    from cubilete.engine.sheet import SheetState

    return SheetState.new(rules, 2).apply_roll((6, 6, 2, 3, 6))


def child_build(rules_name: str) -> dict[str, float]:
    import resource

    from cubilete.players import prepare

    rules = _rules(rules_name)
    started = time.perf_counter()
    prepare("duel", rules)
    return {"seconds": time.perf_counter() - started, "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}


def child_decide(rules_name: str, games: int, hold: bool) -> dict[str, float]:
    """A fresh process's first duel decision (and then `games` duel games, for the memory they touch)."""
    from cubilete.players import make_player
    from cubilete.solvers.sheet.warmup import compile_sheet_kernels

    rules = _rules(rules_name)
    compile_sheet_kernels()  # what a server has done before any table (benchmarks/table_memory.py)
    before = psutil.Process().memory_full_info()
    started = time.perf_counter()
    make_player("duel", rules).choose(_two_seat_state(rules))
    first = time.perf_counter() - started
    _play(rules, games)
    figures = {"first_decision": first, "uss_before": before.uss / MB, "pss_before": before.pss / MB,
               "rss_before": before.rss / MB}
    print(json.dumps(figures), flush=True)
    if hold:  # alive until the parent has measured every process
        sys.stdin.readline()
    return figures


def _play(rules, games: int) -> list:  # type: ignore[no-untyped-def]
    """The decision states of `games` seeded games of the duel against the optimal player."""
    from cubilete.engine.events import replay
    from cubilete.engine.runner import Match
    from cubilete.players import make_player

    states = []
    for seed in range(games):
        match = Match(rules, ["duel", "optimal"], seed)
        match.advance([make_player("duel", rules), make_player("optimal", rules)])
        states += [s for s in replay(match.initial, match.events) if not s.is_chance and not s.is_over]
    return states


def child_before(rules_name: str, games: int) -> dict[str, float]:
    """The laws built in this process as before (float64), and the duel's decisions on them and on the mapped ones."""
    from cubilete.solvers.sheet import duel
    from cubilete.solvers.sheet.cache import solution
    from cubilete.solvers.sheet.distributions import DistributionTable, complete_table

    rules = _rules(rules_name)
    solved = solution(rules)
    states = _play(rules, games)
    on_mapped = [duel.rank_for_duel(state) for state in states]
    complete_table(solved).windows.layers.clear()  # its mapped pages left out of the RSS below
    duel.duel_turn.cache_clear()
    rss = psutil.Process().memory_info().rss
    started = time.perf_counter()
    computed = DistributionTable(solved)
    computed.ensure(*range(computed.classes.count))
    seconds = time.perf_counter() - started
    added = (psutil.Process().memory_info().rss - rss) / MB
    duel.complete_table = lambda solved, *_, **__: computed  # type: ignore[assignment]
    duel.distribution_table = lambda solved, *_, **__: computed  # type: ignore[assignment]
    on_computed = [duel.rank_for_duel(state) for state in states]
    same = sum(a[0].option.action == b[0].option.action for a, b in zip(on_mapped, on_computed, strict=True))
    gap = max(abs(x.chance - y.chance) for a, b in zip(on_mapped, on_computed, strict=True) for x, y in zip(a, b, strict=True))
    return {"seconds": seconds, "rss_added": added, "decisions": len(states), "same": same, "largest_gap": gap}


def _run(arguments: list[str], environment: dict[str, str]) -> dict[str, float]:
    answer = subprocess.run([sys.executable, __file__, *arguments], env=environment, check=True,
                            capture_output=True, text=True).stdout
    return json.loads(answer.splitlines()[-1])


def _memory(processes: int, arguments: list[str], environment: dict[str, str]) -> list[dict[str, float]]:
    children = [subprocess.Popen([sys.executable, __file__, *arguments, "--hold"], env=environment,
                                 stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True) for _ in range(processes)]
    rows = []
    for child in children:
        assert child.stdout is not None
        rows.append(json.loads(child.stdout.readline()))
    for child, row in zip(children, rows, strict=True):  # every child alive: the shared pages are shared
        info = psutil.Process(child.pid).memory_full_info()
        row.update(uss=info.uss / MB - row["uss_before"], pss=info.pss / MB - row["pss_before"],
                   rss=info.rss / MB - row["rss_before"])
    for child in children:
        assert child.stdin is not None
        child.stdin.write("\n")
        child.stdin.close()
        child.wait()
    return rows


def _files(directory: Path) -> list[tuple[str, str, int]]:
    """(file, its arrays' dtypes, bytes) of each table in the cache directory."""
    rows = []
    for path in sorted(directory.glob("*.table")):
        with path.open("rb") as stream:
            stream.read(len(b"cubilete-table\n"))
            header = json.loads(stream.read(int.from_bytes(stream.read(8), "little")))
        dtypes = sorted({entry["dtype"] for entry in header["arrays"]})
        rows.append((path.name.rsplit("-", 1)[0], ",".join(dtypes), path.stat().st_size))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default="penta/seed")
    parser.add_argument("--games", type=int, default=4, help="duel games each process plays (and compared)")
    parser.add_argument("--child", choices=("build", "decide", "before"), help=argparse.SUPPRESS)
    parser.add_argument("--hold", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        work = {"build": lambda: child_build(args.rules), "before": lambda: child_before(args.rules, args.games),
                "decide": lambda: child_decide(args.rules, args.games, args.hold)}[args.child]
        figures = work()
        if args.child != "decide":
            print(json.dumps(figures))
        return
    with tempfile.TemporaryDirectory(prefix="mapped-tables-") as directory:
        environment = {**os.environ, "CUBILETE_CACHE_DIR": directory}
        rules = ["--rules", args.rules, "--games", str(args.games)]
        build = _run(["--child", "build", *rules], environment)
        print(f"{args.rules}: tables built once per install in {build['seconds']:.1f} s, "
              f"the builder peaking at {build['peak_mb']:.0f} MB")
        first = _run(["--child", "decide", *rules[:2], "--games", "0"], environment)
        print(f"first duel decision of a fresh process, tables on disk: {first['first_decision']:.3f} s")
        print(f"{'processes':>9} {'USS +MB':>9} {'PSS +MB':>9} {'RSS +MB':>9}  (each process, for the tables, "
              f"after {args.games} duel games)")
        for count in (1, 2, 4):
            for row in _memory(count, ["--child", "decide", *rules], environment):
                print(f"{count:>9} {row['uss']:>9.0f} {row['pss']:>9.0f} {row['rss']:>9.0f}")
        print(f"{'table':<28} {'dtypes':<22} {'MB':>8}")
        for name, dtypes, size in _files(Path(directory)):
            print(f"{name:<28} {dtypes:<22} {size / MB:>8.1f}")
        before = _run(["--child", "before", *rules], environment)
        print(f"before: the laws built in every process, float64: {before['seconds']:.1f} s, "
              f"+{before['rss_added']:.0f} MB RSS")
        print(f"the duel's decisions, uint32 laws against float64: {before['same']} of {before['decisions']:.0f} "
              f"the same, chances at most {before['largest_gap']:.1e} apart")


if __name__ == "__main__":
    main()
