"""How fast `cubilete` starts: the median of 10 fresh processes per command, beside a bare Python.

    PYTHONPATH=src .venv/bin/python benchmarks/cli_startup.py [--runs 10]

Each command runs as the installed script does (`cubilete.cli.main:main`) in a new
interpreter, so imports are counted; the goal is `score` under 0.3 s. The package's bytecode
is compiled first, as `pip install` does: with PYTHONDONTWRITEBYTECODE set (some shells and
CI set it) an editable checkout would otherwise compile every module on every start.
"""

from __future__ import annotations

import argparse
import compileall
import statistics
import subprocess
import sys
import time

CLI = [sys.executable, "-m", "cubilete.cli.main"]
COMMANDS = {
    "python -c pass": [sys.executable, "-c", "pass"],
    "cubilete score penta --dice 1,2,3,4,5": [*CLI, "score", "penta", "--dice", "1,2,3,4,5"],
    "cubilete --help": [*CLI, "--help"],
}


def median_seconds(command: list[str], runs: int) -> float:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10, help="fresh processes per command (default 10)")
    runs = parser.parse_args().runs
    import cubilete

    compileall.compile_dir(cubilete.__path__[0], quiet=1)
    for label, command in COMMANDS.items():
        print(f"{label:<40} {median_seconds(command, runs):6.3f} s  (median of {runs})")


if __name__ == "__main__":
    main()
