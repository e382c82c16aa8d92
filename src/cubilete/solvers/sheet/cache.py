"""The score-sheet solver's tables through the table cache: one file per rule set and solver version."""

from __future__ import annotations

from pathlib import Path
from typing import BinaryIO

import numpy as np

from ...engine.sheet_rules import SheetRules
from ..dice_lattice import dice_lattice
from ..table_cache import Progress, load_or_build, table_path
from .solver import SOLVER_VERSION, SheetSolution, solve
from .tables import computed_states, sheet_tables, state_count


def cache_path(rules: SheetRules) -> Path:
    key = {"rules": rules.to_json(), "solver": SOLVER_VERSION}
    return table_path(f"sheet-{rules.game}-{rules.name}", key, ".npy")


def solution(rules: SheetRules, progress: Progress | None = None) -> SheetSolution:
    """The solved tables of a rule set: from memory, else from disk, else solved and saved."""
    return load_or_build(
        ("sheet", rules),
        lambda: cache_path(rules),
        lambda path: load(rules, path),
        lambda report: build(rules, report),
        save,
        progress,
    )


def load(rules: SheetRules, path: Path) -> SheetSolution | None:
    """The saved tables, or None when there are none (or they are unreadable or stale)."""
    tables = sheet_tables(rules)
    try:
        values = np.load(path, allow_pickle=False)
    except (OSError, ValueError):
        return None
    if values.shape != (state_count(tables),) or values.dtype != np.float64:
        return None
    return SheetSolution(rules, tables, dice_lattice(), values)


def build(rules: SheetRules, progress: Progress | None = None) -> SheetSolution:
    """Solve every state, reporting the states solved so far."""
    if progress is None:
        return solve(rules)
    total = int(computed_states(sheet_tables(rules)).sum())
    label = f"solving {rules.game} ({rules.name})"
    done = 0

    def advance(states: int) -> None:
        nonlocal done
        done += states
        progress(done, total, label)

    return solve(rules, advance)


def save(solved: SheetSolution, stream: BinaryIO) -> None:
    np.save(stream, solved.values)
