"""Whether one server can hold the live bar of every rule set it offers under its unit's memory limit
(issue 36): every table mapped read-only from the cache directory, against the same tables held in the
process's own memory, as every process held the tables it built before issue 36 (the peer).

    sudo PYTHONPATH=src .venv/bin/python benchmarks/mapped_under_limit.py [--limit-mb 3072] [--cache DIR]
        [--rules GAME/RULES ...]

Needs root and a memory cgroup in which it may make groups of its own (v1's files, or v2's where the
machine has cgroup v2: only v1 has been run here); each step runs one
child process in a new group limited to `--limit-mb` (default: 3072, `MemoryMax=3G` of
deploy/systemd/cubilete.service), the page cache dropped first, so that the group is charged for every
page its child reads:

1. `build`: the live bar's tables of every named rule set (default: every rule set of every game),
   prepared one after another as a server's table gate prepares them (`players.prepare`), each built and
   saved unless the cache directory (`--cache`, else a new one) has it already;
2. `mapped`: every table file of the cache directory mapped read-only (as `solvers/mapped_tables.py` maps
   them) and every page read, twice: what a server that has served games of every rule set for long
   holds at worst;
3. `copied` (the peer): the same files read into the process's own memory, and every page read twice.

Each line: the step, how its child ended (`ok`, or the signal that stopped it: the kernel's OOM killer
sends SIGKILL), its seconds, the group's peak (the kernel's high-water mark of what it charged, page
cache included), how often the group reached its limit (v1's failcnt; v2's `max` events), and the
child's resident memory at its end.
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

MB = 2**20
PAGE = 4096
READS = 2  # passes over every page: the second reads again what the kernel took back


class MemoryGroup:
    """A memory cgroup of its own (v1 or v2), under the one this process is in, with a limit."""

    def __init__(self, name: str, limit: int) -> None:
        self.v2 = Path("/sys/fs/cgroup/cgroup.controllers").exists()
        own = next(
            line.split(":", 2)[2]
            for line in Path("/proc/self/cgroup").read_text().splitlines()
            if (line.startswith("0::") if self.v2 else ":memory:" in line)
        )
        root = Path("/sys/fs/cgroup") if self.v2 else Path("/sys/fs/cgroup/memory")
        self.path = root / own.lstrip("/") / name
        self.path.mkdir()
        self._write("memory.max" if self.v2 else "memory.limit_in_bytes", str(limit))

    def _write(self, name: str, text: str) -> None:
        (self.path / name).write_text(text)

    def _read(self, name: str) -> str:
        return (self.path / name).read_text()

    def join(self) -> None:
        """Move the calling process into the group (a child calls it before it runs the step)."""
        self._write("cgroup.procs", str(os.getpid()))

    def peak(self) -> int:
        return int(self._read("memory.peak" if self.v2 else "memory.max_usage_in_bytes"))

    def limit_hits(self) -> int:
        if self.v2:
            events = dict(line.split() for line in self._read("memory.events").splitlines())
            return int(events["max"])
        return int(self._read("memory.failcnt"))

    def remove(self) -> None:
        self.path.rmdir()


def _rule_sets(names: list[str] | None) -> list[str]:
    from cubilete.engine.games import GAMES

    if names:
        return names
    return [f"{game}/{variant}" for game, info in GAMES.items() for variant in info.variants]


def _resident() -> int:
    status = Path("/proc/self/status").read_text()
    return int(next(line.split()[1] for line in status.splitlines() if line.startswith("VmRSS:"))) * 1024


def _table_files(cache: Path) -> list[Path]:
    return sorted(cache.glob("*.table"))


def _read_every_page(tables: list[np.ndarray]) -> int:
    return sum(int(table[::PAGE].sum()) for _ in range(READS) for table in tables)


def child(step: str, cache: Path, names: list[str]) -> None:
    """One step, run in its group: print the bytes it holds or maps, and its resident memory at the end."""
    if step == "build":
        import rule_set_tables  # prepares a rule set's live bar as that benchmark does (its directory is on the path)

        for name in names:
            rule_set_tables.child(name, "live")
        tables = [np.memmap(path, dtype=np.uint8, mode="r") for path in _table_files(cache)]
    elif step == "mapped":
        tables = [np.memmap(path, dtype=np.uint8, mode="r") for path in _table_files(cache)]
        _read_every_page(tables)
    else:
        tables = [np.fromfile(path, dtype=np.uint8) for path in _table_files(cache)]
        _read_every_page(tables)
    print(sum(table.nbytes for table in tables), _resident())


def run_step(step: str, cache: Path, names: list[str], limit: int) -> str:
    Path("/proc/sys/vm/drop_caches").write_text("1")  # the group is charged for every page its child reads
    group = MemoryGroup(f"cubilete-{step}-{os.getpid()}", limit)
    command = [sys.executable, __file__, "--child", step, "--cache", str(cache), *(arg for name in names for arg in ("--rules", name))]
    environment = {**os.environ, "CUBILETE_CACHE_DIR": str(cache)}
    started = time.monotonic()
    try:
        done = subprocess.run(command, env=environment, preexec_fn=group.join, capture_output=True, text=True)
        seconds = time.monotonic() - started
        if done.returncode == 0:
            held, resident = (int(field) for field in done.stdout.split())
            ended, figures = "ok", f"{held / MB:>9.0f}{resident / MB:>9.0f}"
        else:
            signal_name = signal.Signals(-done.returncode).name if done.returncode < 0 else f"exit {done.returncode}"
            ended, figures = signal_name, f"{'-':>9}{'-':>9}"
        return f"{step:<8}{ended:>9}{seconds:>8.1f}{group.peak() / MB:>10.0f}{group.limit_hits():>11}{figures}"
    finally:
        group.remove()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--limit-mb", type=int, default=3072, help="each step's memory limit (default: 3072)")
    parser.add_argument("--cache", help="the cache directory (default: a new one, removed after)")
    parser.add_argument("--rules", action="append", help="GAME/RULES (default: every rule set of every game)")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child, Path(args.cache), args.rules or [])
        return
    names = _rule_sets(args.rules)
    with tempfile.TemporaryDirectory(prefix="mapped-under-limit-") as new:
        cache = Path(args.cache or new)
        print(f"{len(names)} rule sets' live bars, each step in a group limited to {args.limit_mb} MB; cache {cache}")
        print(f"{'step':<8}{'ended':>9}{'s':>8}{'peak MB':>10}{'limit hit':>11}{'files MB':>9}{'RSS MB':>9}", flush=True)
        for step in ("build", "mapped", "copied"):
            print(run_step(step, cache, names, args.limit_mb * MB), flush=True)


if __name__ == "__main__":
    main()
