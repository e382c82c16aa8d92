"""Solved tables on disk, one file per rule set and solver version, loaded once per process."""

from __future__ import annotations

import hashlib
import json
import os
import re
import threading
from pathlib import Path

import numpy as np
from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

from ..engine.sheet_rules import SheetRules
from .cache_dir import cache_dir
from .dice_lattice import dice_lattice
from .sheet_solver import SOLVER_VERSION, SheetSolution, solve
from .sheet_tables import computed_states, sheet_tables, state_count

PROGRESS_AFTER_SECONDS = 1.0


def cache_path(rules: SheetRules) -> Path:
    """The file of a rule set: any change to the rules or to the solver gives a new name."""
    key = json.dumps({"rules": rules.to_json(), "solver": SOLVER_VERSION}, sort_keys=True)
    digest = hashlib.sha256(key.encode()).hexdigest()[:16]
    name = re.sub(r"[^a-z0-9-]+", "_", f"{rules.game}-{rules.name}".lower())
    return cache_dir() / f"sheet-{name}-{digest}.npy"


_solutions: dict[SheetRules, SheetSolution] = {}
# Hashing a rule set walks all its boxes; callers pass the same few objects again and again,
# so they are first looked up by identity (the entry keeps the object, so its id stays its own).
_by_identity: dict[int, tuple[SheetRules, SheetSolution]] = {}
_solving = threading.Lock()  # one load or build at a time: concurrent callers wait for it


def solution(rules: SheetRules) -> SheetSolution:
    """The solved tables of a rule set: from memory, else from disk, else solved and saved."""
    known = _by_identity.get(id(rules))
    if known is not None:
        return known[1]
    with _solving:
        if rules not in _solutions:
            _solutions[rules] = load(rules) or build(rules)
        _by_identity[id(rules)] = (rules, _solutions[rules])
    return _solutions[rules]


def load(rules: SheetRules) -> SheetSolution | None:
    """The cached tables, or None when there are none (or they are unreadable or stale)."""
    tables = sheet_tables(rules)
    try:
        values = np.load(cache_path(rules), allow_pickle=False)
    except (OSError, ValueError):
        return None
    if values.shape != (state_count(tables),) or values.dtype != np.float64:
        return None
    return SheetSolution(rules, tables, dice_lattice(), values)


def build(rules: SheetRules) -> SheetSolution:
    """Solve and save; a progress bar appears on standard error if this takes over a second."""
    progress = _LateProgress(int(computed_states(sheet_tables(rules)).sum()), rules)
    try:
        solved = solve(rules, progress)
    finally:
        progress.close()
    _save(cache_path(rules), solved.values)
    return solved


def _save(path: Path, values: np.ndarray) -> None:
    """Write atomically, so that a concurrent reader never sees half a file; a read-only
    cache directory only costs solving again next time."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(f".{os.getpid()}.partial")
        with open(partial, "wb") as file:
            np.save(file, values)
        os.replace(partial, path)
    except OSError:
        pass


class _LateProgress:
    """A rich progress bar that only appears once the work has taken longer than a second
    (Numba's first compilation included, hence a timer rather than a check per layer)."""

    def __init__(self, total: int, rules: SheetRules) -> None:
        self.total = total
        self.label = f"solving {rules.game} ({rules.name})"
        self.done = 0
        self.bar: Progress | None = None
        self.lock = threading.Lock()
        self.timer = threading.Timer(PROGRESS_AFTER_SECONDS, self._show)
        self.timer.daemon = True
        self.timer.start()

    def _show(self) -> None:
        with self.lock:
            self.bar = Progress(
                TextColumn("{task.description}"),
                BarColumn(),
                TextColumn("{task.percentage:>3.0f}%"),
                TimeRemainingColumn(),
                console=Console(stderr=True),
                transient=True,
            )
            self.task = self.bar.add_task(self.label, total=self.total, completed=self.done)
            self.bar.start()

    def __call__(self, advance: int) -> None:
        with self.lock:
            self.done += advance
            if self.bar is not None:
                self.bar.update(self.task, completed=self.done)

    def close(self) -> None:
        self.timer.cancel()
        with self.lock:
            if self.bar is not None:
                self.bar.stop()
