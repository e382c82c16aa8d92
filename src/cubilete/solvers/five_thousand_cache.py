"""The two-player 5000 tables on disk: solved once per rule set and solver version, then loaded.

Files live in the cache directory shared with the score-sheet tables
(cache_dir.cache_dir). A file is named by a hash
of the rules' JSON and the solver version, and also stores that JSON, which is
checked on load.
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
from pathlib import Path

import numpy as np
from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

from ..engine.five_thousand import FiveThousandRules
from .cache_dir import cache_dir
from .five_thousand_exact import SOLVER_VERSION, TwoPlayerSolution, solve

PHASES = {"rules": "5000: reading the rules from the engine", "solve": "5000: solving score pairs"}


def rules_json(rules: FiveThousandRules) -> str:
    return json.dumps(rules.to_json(), sort_keys=True)


def cache_path(rules: FiveThousandRules) -> Path:
    digest = hashlib.sha256(rules_json(rules).encode()).hexdigest()[:16]
    return cache_dir() / f"5000-two-players-{digest}-v{SOLVER_VERSION}.npz"


# Solutions already loaded by this process, by rules and cache directory (a few per process
# at most; keyed without hashing the rules' JSON, which bots ask for at every move). The lock
# makes concurrent callers (the web app's threads) wait for one solve instead of racing.
_loaded: dict[tuple[FiveThousandRules, Path], TwoPlayerSolution] = {}
_lock = threading.Lock()


def two_player_solution(rules: FiveThousandRules, show_progress: bool = False) -> TwoPlayerSolution:
    """The solution for these rules: from memory, else from disk, else solved and saved.

    With show_progress, a progress bar on stderr follows the solve.
    """
    key = (rules, cache_dir())
    with _lock:
        if key not in _loaded:
            path = cache_path(rules)
            solution = load(rules, path)
            if solution is None:
                solution = _solve_with_progress(rules) if show_progress else solve(rules)
                save(solution, path)
            _loaded[key] = solution
        return _loaded[key]


def load(rules: FiveThousandRules, path: Path) -> TwoPlayerSolution | None:
    """The saved solution, or None when there is none for exactly these rules (or it is damaged)."""
    try:
        with np.load(path) as data:
            if str(data["rules"]) != rules_json(rules):
                return None
            return TwoPlayerSolution(
                rules, data["start"], data["roll"], data["bank"], float(data["residual"])
            )
    except (OSError, KeyError, ValueError):
        return None


def save(solution: TwoPlayerSolution, path: Path) -> None:
    """Write atomically, so that a concurrent reader never sees half a file; a read-only cache
    directory only costs solving again next time."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_name(f"{path.name}.{os.getpid()}.partial")
        with open(partial, "wb") as file:
            np.savez(
                file,
                rules=rules_json(solution.rules),
                start=solution.start,
                roll=solution.roll,
                bank=solution.bank,
                residual=solution.residual,
            )
        os.replace(partial, path)
    except OSError:
        pass


def _solve_with_progress(rules: FiveThousandRules) -> TwoPlayerSolution:
    columns = (TextColumn("{task.description}"), BarColumn(), TextColumn("{task.percentage:>3.0f}%"),
               TimeElapsedColumn())
    with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
        tasks: dict[str, int] = {}

        def progress(phase: str, done: int, total: int) -> None:
            if phase not in tasks:
                tasks[phase] = bar.add_task(PHASES[phase], total=total)
            bar.update(tasks[phase], completed=done)

        return solve(rules, progress)
