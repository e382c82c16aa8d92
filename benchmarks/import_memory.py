"""What importing the web app costs in memory: the RSS a fresh process gains by `import cubilete.web.app`,
then by importing the app and the libraries it loads on first use only (pywebpush for the first push,
webauthn for the first passkey), as every process paid before they were deferred.

    PYTHONPATH=src .venv/bin/python benchmarks/import_memory.py [--runs 3]

Each figure is the median over fresh interpreters of the peak RSS after the imports minus the peak
RSS before them (`resource.getrusage`; importing only grows a process, so its peak is its size).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys

IMPORTS = {
    "cubilete.web.app": ["cubilete.web.app"],
    "cubilete.web.app, then pywebpush, webauthn": ["cubilete.web.app", "pywebpush", "webauthn"],
}
PROBE = """
import resource, sys
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
for name in sys.argv[1:]:
    __import__(name)
after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print((after - before) * (1 if sys.platform == "darwin" else 1024))  # macOS counts bytes, Linux KiB
"""


def rss_gain_mb(modules: list[str]) -> float:
    """The RSS (MB) a fresh interpreter gains by importing these modules in order."""
    done = subprocess.run([sys.executable, "-c", PROBE, *modules], capture_output=True, text=True, check=True)
    return int(done.stdout) / 2**20


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="fresh processes per figure (default 3)")
    runs = parser.parse_args().runs
    gains = {}
    for label, modules in IMPORTS.items():
        gains[label] = statistics.median(rss_gain_mb(modules) for _ in range(runs))
        print(f"import {label:<45} {gains[label]:6.1f} MB  (median of {runs})")
    lazy, eager = gains.values()
    print(f"{'saved until the first push and passkey':<52} {eager - lazy:6.1f} MB")


if __name__ == "__main__":
    main()
