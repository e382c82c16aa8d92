"""Each rule set's tables on disk and their first build (issue 37), and whether the server's default table
budget (web/tables.py) holds the live bar of every rule set it offers at once.

    PYTHONPATH=src .venv/bin/python benchmarks/rule_set_tables.py [--rules yatzy/scandinavian ...] [--cache DIR]

Each rule set is built in fresh child processes run under `/usr/bin/time -v`, one at a time, sharing one
cache directory (a new one unless --cache; tables already in it are only mapped): first its solution
(`players.prepare("optimal")`), then the live bar's tables of a 2-seat game (the `duel` level of a sheet
game: its laws, and the duel's laws too where a first roll wins at once; 5000's bar needs only the
solution). Each line gives the wall time and peak RSS of each step and the bytes of each table file the
server maps (`players.table_memory`). Before and after those builds, a table gate of the default budget, whose jobs
prepare nothing, is asked for the live bar of every named rule set of every game, the default ones first
(what the gate keeps room for): the tables it refuses could not be served beside the others. Before a
file is saved the gate counts an estimate (`players.sheet.DUEL_BYTES_PER_STATE` per state), after it the
file's size.
"""

from __future__ import annotations

import argparse
import logging
import os
import re
import subprocess
import sys
import tempfile

MB = 2**20
DEFAULT_RULES = (
    "penta/seed",
    "yahtzee/hasbro",
    "yatzy/scandinavian",
    "kniffel/schmidt",
    "generala/traditional",
    "generala/traditional-double",
    "5000/entry-750+free-set-aside",
)
LIVE_BAR_SEATS = 2


def _rules(name: str):  # type: ignore[no-untyped-def]
    from cubilete.engine.games import rules_for

    game, variant = name.split("/", 1)
    return rules_for(game, variant)


def _live_bar_level(rules) -> str:  # type: ignore[no-untyped-def]
    from cubilete.analysis.outlook import outlook_level

    return outlook_level(rules.game, LIVE_BAR_SEATS)


def child(rules_name: str, level: str) -> None:
    from cubilete.players import prepare

    rules = _rules(rules_name)
    prepare(_live_bar_level(rules) if level == "live" else level, rules)


def _timed_child(rules_name: str, level: str, environment: dict[str, str]) -> tuple[float, float]:
    """(wall seconds, peak RSS MB) of a child preparing a level's tables, as /usr/bin/time -v gives them."""
    run = subprocess.run(
        ["/usr/bin/time", "-v", sys.executable, __file__, "--child", rules_name, "--level", level],
        env=environment,
        check=True,
        capture_output=True,
        text=True,
    )
    clock = re.search(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (\S+)", run.stderr)
    peak = re.search(r"Maximum resident set size \(kbytes\): (\d+)", run.stderr)
    assert clock and peak, run.stderr
    seconds = sum(float(part) * 60**power for power, part in enumerate(reversed(clock[1].split(":"))))
    return seconds, int(peak[1]) / 1024


def _files(rules) -> dict[str, int]:  # type: ignore[no-untyped-def]
    """Each table the live bar maps, with its bytes (the files', now that they are saved)."""
    from cubilete.players import table_memory

    tables = table_memory(_live_bar_level(rules), rules)
    return {" ".join(str(part) for part in key if part is not rules): size for key, size in tables.items()}


def budget_check() -> list[tuple[str, int, bool]]:
    """Each offered rule set's live-bar tables (MB, by the gate's count) and whether a gate of the default
    budget serves them beside those asked before it (the default rule sets first)."""
    from cubilete.engine.games import GAMES
    from cubilete.players import table_memory
    from cubilete.web.tables import DEFAULT_RULE_SETS, TableGate, TablesOverBudget

    offered = [
        *DEFAULT_RULE_SETS,
        *(r for info in GAMES.values() for r in info.variants.values() if r not in DEFAULT_RULE_SETS),
    ]
    logging.disable(logging.WARNING)  # the gate's log of each refusal: the table printed says it
    gate = TableGate(prepare=lambda level, rules: None)
    rows = []
    for rules in offered:
        level = _live_bar_level(rules)
        try:
            gate.prepared(rules, (level,))
            served = True
        except TablesOverBudget:
            served = False
        rows.append((f"{rules.game}/{rules.name}", sum(table_memory(level, rules).values()) // MB, served))
    gate.close()
    return rows


def main() -> None:
    from cubilete.web.tables import TABLE_MEMORY_MB

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", action="append", help=f"GAME/RULES (default: {', '.join(DEFAULT_RULES)})")
    parser.add_argument("--cache", help="the cache directory to build in (default: a new one, removed after)")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--level", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child, args.level)
        return
    with tempfile.TemporaryDirectory(prefix="rule-set-tables-") as new:
        os.environ["CUBILETE_CACHE_DIR"] = args.cache or new  # for this process's table_memory and gate too
        before = budget_check()
        print(f"{'rule set':<30}{'solution s':>11}{'peak MB':>9}{'live bar s':>11}{'peak MB':>9}  files MB", flush=True)
        for name in args.rules or DEFAULT_RULES:
            solution = _timed_child(name, "optimal", dict(os.environ))
            live = _timed_child(name, "live", dict(os.environ))
            files = ", ".join(f"{table} {size / MB:.1f}" for table, size in _files(_rules(name)).items())
            print(
                f"{name:<30}{solution[0]:>11.1f}{solution[1]:>9.0f}{live[0]:>11.1f}{live[1]:>9.0f}  {files}", flush=True
            )
        after = budget_check()
    print(
        f"\nthe live bar of every named rule set, asked in this order of one server of the default budget "
        f"({TABLE_MEMORY_MB} MB), before those builds (the gate's estimates where no file is saved) and after:"
    )
    for (name, estimated, served_before), (_, saved, served_after) in zip(before, after, strict=True):
        print(f"  {name:<36}{estimated:>7} MB {_served(served_before):<10}{saved:>7} MB {_served(served_after)}")
    print(
        f"  {'all of them':<36}{sum(row[1] for row in before):>7} MB {'':<10}{sum(row[1] for row in after):>7} MB"
        "  (the budget that serves them all at once)"
    )


def _served(served: bool) -> str:
    return "served" if served else "REFUSED"


if __name__ == "__main__":
    main()
