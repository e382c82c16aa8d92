"""The score-sheet solver's tables through the table cache: one file per rule set and solver version,
mapped read-only by every process (solvers/mapped_tables.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from ...engine.sheet_rules import SheetRules
from .. import mapped_tables
from ..dice_lattice import dice_lattice
from ..table_cache import Progress, in_memory, load_or_build, table_path
from .solver import SOLVER_VERSION, SheetSolution, solve
from .tables import computed_states, sheet_tables, state_count


def table_key(rules: SheetRules) -> dict[str, Any]:
    return {"rules": rules.to_json(), "solver": SOLVER_VERSION}


def cache_path(rules: SheetRules) -> Path:
    return table_path(f"sheet-{rules.game}-{rules.name}", table_key(rules), ".table")


def solution(rules: SheetRules, progress: Progress | None = None) -> SheetSolution:
    """The solved tables of a rule set: from memory, else from disk, else solved and saved."""
    held = in_memory(("sheet", rules))
    if held is not None:
        return held
    return load_or_build(
        ("sheet", rules),
        lambda: cache_path(rules),
        lambda path: load(rules, path),
        lambda report: build(rules, report),
        lambda solved, stream: mapped_tables.write(stream, table_key(solved.rules), {"values": solved.values}),
        progress,
        mapped=True,
    )


def load(rules: SheetRules, path: Path) -> SheetSolution | None:
    """The saved tables, mapped, or None when there are none (or they are damaged or stale)."""
    tables = sheet_tables(rules)
    arrays = mapped_tables.read(path, table_key(rules))
    if arrays is None or "values" not in arrays:
        return None
    values = arrays["values"]
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

