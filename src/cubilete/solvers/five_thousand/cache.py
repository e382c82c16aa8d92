"""The two-player 5000 tables through the table cache: solved once per rule set and solver version.

A file also stores the rules' JSON, which is checked on load.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import BinaryIO

import numpy as np

from ...engine.five_thousand import FiveThousandRules
from ..table_cache import Progress, load_or_build, table_path
from .exact import SOLVER_VERSION, TwoPlayerSolution, solve

PHASES = {"rules": "5000: reading the rules from the engine", "solve": "5000: solving score pairs"}


def rules_json(rules: FiveThousandRules) -> str:
    return json.dumps(rules.to_json(), sort_keys=True)


def cache_path(rules: FiveThousandRules) -> Path:
    return table_path("5000-two-players", {"rules": rules.to_json(), "solver": SOLVER_VERSION}, ".npz")


def two_player_solution(rules: FiveThousandRules, progress: Progress | None = None) -> TwoPlayerSolution:
    """The solution for these rules: from memory, else from disk, else solved and saved."""
    return load_or_build(
        ("5000-two-players", rules),
        lambda: cache_path(rules),
        lambda path: load(rules, path),
        lambda report: build(rules, report),
        save,
        progress,
    )


def build(rules: FiveThousandRules, progress: Progress | None = None) -> TwoPlayerSolution:
    if progress is None:
        return solve(rules)
    return solve(rules, lambda phase, done, total: progress(done, total, PHASES[phase]))


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


def save(solution: TwoPlayerSolution, stream: BinaryIO) -> None:
    np.savez(
        stream,
        rules=rules_json(solution.rules),
        start=solution.start,
        roll=solution.roll,
        bank=solution.bank,
        residual=solution.residual,
    )
