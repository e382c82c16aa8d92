"""What a new user waits for the first hint: a fresh process's first `advise`, in three cases.

    PYTHONPATH=src .venv/bin/python benchmarks/first_hint.py [--runs 3] [--baseline REV]

- new install, table on disk: an empty Numba cache (the kernels compile) and the rule
  set's solved table already in the table cache (another rule set played before, or a
  Numba cache lost to an upgrade);
- new install, nothing: both caches empty (the kernels compile, the table is solved);
- every day: both caches filled by an earlier run.

Each figure is the median of --runs fresh processes from the interpreter's start to the
advice (imports included), Penta `forced` after a first roll: the seconds waited and, in
brackets, the process's CPU seconds (all its threads), which other work on a shared machine
inflates less. With --baseline, the same
cases also run on the `src` of that git revision (say `main`), in the same run, the two
trees taking turns. Last, the background work `cubilete serve` starts (this tree's
`compile_sheet_kernels`, empty Numba cache) and the first hint asked once it is done.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
from io import BytesIO
from pathlib import Path
from typing import Any

FIRST_HINT = """
import json, time
started, cpu = time.perf_counter(), time.process_time()
from cubilete.engine.sheet import SheetState
from cubilete.engine.sheet_rules import PENTA_FORCED
from cubilete.solvers.sheet.advice import advise
advise(SheetState.new(PENTA_FORCED).apply_roll((1, 2, 3, 4, 4)))
print(json.dumps([time.perf_counter() - started, time.process_time() - cpu]))
"""
WARM_UP = """
import json, time
started = time.perf_counter()
from cubilete.solvers.sheet.warmup import compile_sheet_kernels
compile_sheet_kernels()
warmed = time.perf_counter()
""" + FIRST_HINT.replace("started, cpu = time.perf_counter(), time.process_time()", "").replace(
    "print(json.dumps([time.perf_counter() - started, time.process_time() - cpu]))",
    "print(json.dumps([warmed - started, time.perf_counter() - warmed]))",
)
CASES = ("new install, table on disk", "new install, nothing", "every day")


def fresh_process(code: str, source: Path, numba_cache: Path, table_cache: Path) -> Any:
    """What the code prints (JSON), run by a new interpreter on this source tree and these caches."""
    env = {**os.environ, "PYTHONPATH": str(source), "NUMBA_CACHE_DIR": str(numba_cache),
           "CUBILETE_CACHE_DIR": str(table_cache)}
    output = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    return json.loads(output.stdout)


def case_seconds(trees: dict[str, Path], runs: int, folder: Path) -> dict[str, dict[str, tuple[float, float]]]:
    """The median wall and CPU seconds of each case over `runs` fresh processes, for each source tree."""
    times: dict[str, dict[str, list[list[float]]]] = {name: {case: [] for case in CASES} for name in trees}
    solved = folder / "solved"
    fresh_process(FIRST_HINT, trees["this tree"], folder / "numba-setup", solved)  # the table, solved once
    for run in range(runs):
        for t, (name, source) in enumerate(trees.items()):
            numba, nothing = folder / f"numba-{t}-{run}", folder / f"tables-{t}-{run}"
            times[name][CASES[0]].append(fresh_process(FIRST_HINT, source, numba, solved))
            times[name][CASES[1]].append(fresh_process(FIRST_HINT, source, folder / f"numba-0-{t}-{run}", nothing))
            times[name][CASES[2]].append(fresh_process(FIRST_HINT, source, numba, solved))
    return {
        name: {case: (statistics.median(s[0] for s in samples), statistics.median(s[1] for s in samples))
               for case, samples in cases.items()}
        for name, cases in times.items()
    }


def warm_up_seconds(source: Path, runs: int, folder: Path) -> tuple[float, float]:
    """The median background warm-up from an empty Numba cache, and of the first hint after it."""
    times = [fresh_process(WARM_UP, source, folder / f"numba-warm-{run}", folder / "solved") for run in range(runs)]
    return statistics.median(t[0] for t in times), statistics.median(t[1] for t in times)


def revision_source(revision: str, folder: Path) -> Path:
    """The src tree of a git revision, extracted into folder."""
    archive = subprocess.run(["git", "archive", revision, "src"], capture_output=True, check=True).stdout
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(folder, filter="data")
    return folder / "src"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="fresh processes per case (default 3)")
    parser.add_argument("--baseline", metavar="REV", help="also time the src of this git revision")
    args = parser.parse_args()
    trees = {"this tree": Path(__file__).resolve().parent.parent / "src"}
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        if args.baseline:
            trees[args.baseline] = revision_source(args.baseline, folder / "baseline")
        figures = case_seconds(trees, args.runs, folder)
        warm_up, after = warm_up_seconds(trees["this tree"], args.runs, folder)
    print(f"first hint, seconds from a fresh interpreter (median of {args.runs})")
    print(f"{'':<28}" + "".join(f"{name:>20}" for name in figures))
    for case in CASES:
        cells = (figures[name][case] for name in figures)
        print(f"{case:<28}" + "".join(f"{wall:10.2f} ({cpu:5.2f} cpu)" for wall, cpu in cells))
    print(f"cubilete serve's warm-up    {warm_up:6.2f} s in the background from its start (empty Numba cache);"
          f" a first hint after it {after:.2f} s")


if __name__ == "__main__":
    main()
