"""The two-player 5000 tables through the table cache: solved once per rule set and solver version, and
mapped read-only by every process (solvers/mapped_tables.py, whose header holds the rules, checked on load).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, BinaryIO

import numpy as np

from ...engine.five_thousand import FiveThousandRules
from .. import mapped_tables
from ..table_cache import Progress, load_or_build, table_path
from .exact import SOLVER_VERSION, TwoPlayerSolution, solve

PHASES = {"rules": "5000: reading the rules from the engine", "solve": "5000: solving score pairs"}


def table_key(rules: FiveThousandRules) -> dict[str, Any]:
    return {"rules": rules.to_json(), "solver": SOLVER_VERSION}


def cache_path(rules: FiveThousandRules) -> Path:
    return table_path("5000-two-players", table_key(rules), ".table")


def two_player_solution(rules: FiveThousandRules, progress: Progress | None = None) -> TwoPlayerSolution:
    """The solution for these rules: from memory, else from disk, else solved and saved."""
    return load_or_build(
        ("5000-two-players", rules),
        lambda: cache_path(rules),
        lambda path: load(rules, path),
        lambda report: build(rules, report),
        save,
        progress,
        mapped=True,
    )


def build(rules: FiveThousandRules, progress: Progress | None = None) -> TwoPlayerSolution:
    if progress is None:
        return solve(rules)
    return solve(rules, lambda phase, done, total: progress(done, total, PHASES[phase]))


def load(rules: FiveThousandRules, path: Path) -> TwoPlayerSolution | None:
    """The saved solution, mapped, or None when there is none for exactly these rules (or it is damaged)."""
    data = mapped_tables.read(path, table_key(rules))
    try:
        return None if data is None else TwoPlayerSolution(
            rules, data["start"], data["roll"], data["bank"], float(data["residual"])
        )
    except (KeyError, TypeError):
        return None


def save(solution: TwoPlayerSolution, stream: BinaryIO) -> None:
    mapped_tables.write(
        stream,
        table_key(solution.rules),
        {"start": solution.start, "roll": solution.roll, "bank": solution.bank, "residual": np.array(solution.residual)},
    )
