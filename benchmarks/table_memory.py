"""The memory each rule set's solver tables add to a fresh process (issue 35, item 11): the figures behind
docs/hosting.md's sizing and the `MemoryMax=` of the units in deploy/systemd/.

    PYTHONPATH=src .venv/bin/python benchmarks/table_memory.py [--rules penta/seed ...] [--cold]

Each rule set in a fresh process of its own (a child of this script), as a server process would hold it:
its RSS once the web app is imported and the sheet kernels compiled (what every `cubilete serve` holds
before any table), then after each player level's tables are prepared in turn (`players.prepare`, what
the server's table gate runs; the live bar of a game of several seats needs the `duel` level in Penta
and Generala, `optimal` in 5000), and its peak RSS so far (the kernel's high-water mark). The solutions
come from $CUBILETE_CACHE_DIR (else the user cache directory): unless --cold, each rule set is first
prepared once in a process not measured, so that the measured one loads them as a server usually does;
the duel's laws live in memory only and are built in every process.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys

import psutil


def measure(game: str, name: str) -> list[dict[str, object]]:
    """(In the child.) The RSS and peak, in MB, at start and after each level of the rule set."""
    from cubilete import web  # noqa: F401  (what a server process imports)
    from cubilete.engine.games import GAMES
    from cubilete.players import player_levels, prepare
    from cubilete.solvers.sheet.warmup import compile_sheet_kernels

    compile_sheet_kernels()
    rules = GAMES[game].variants[name]
    rows = [_row("started")]
    for level in player_levels(game):
        prepare(level, rules)
        rows.append(_row(level))
    return rows


def _row(moment: str) -> dict[str, object]:
    peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # Linux: kilobytes
    return {"moment": moment, "rss": psutil.Process().memory_info().rss / 2**20, "peak": peak_kb / 2**10}


def child(rules: str, measured: bool = True) -> list[dict[str, object]]:
    answer = subprocess.run(
        [sys.executable, __file__, "--child", rules], check=True, capture_output=True, text=True
    ).stdout
    return json.loads(answer) if measured else []


def main() -> None:
    from cubilete.engine.games import GAMES

    every = [f"{game}/{name}" for game, info in GAMES.items() for name in info.variants]
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", action="append", help=f"GAME/RULES (default: all, {', '.join(every)})")
    parser.add_argument("--cold", action="store_true", help="measure the first preparation (solutions solved if not on disk)")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        game, name = args.child.split("/")
        print(json.dumps(measure(game, name)))
        return
    print(f"{'rule set':<36}{'moment':<10}{'RSS MB':>8}{'+MB':>8}{'peak MB':>9}", flush=True)
    for rules in args.rules or every:
        if not args.cold:
            child(rules, measured=False)
        rows = child(rules)
        start = float(rows[0]["rss"])  # type: ignore[arg-type]
        for row in rows:
            rss, peak = float(row["rss"]), float(row["peak"])  # type: ignore[arg-type]
            print(f"{rules:<36}{row['moment']:<10}{rss:>8.0f}{rss - start:>+8.0f}{peak:>9.0f}", flush=True)


if __name__ == "__main__":
    main()
