"""Storage owns the database: no module outside cubilete/storage/ reaches for a Storage's SQLAlchemy
engine (`.engine`); they call the stores. (That none imports SQLAlchemy or Alembic is an import-linter
contract in pyproject.toml.)"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "cubilete"


def test_no_module_outside_storage_reads_an_engine():
    outside = [path for path in PACKAGE.rglob("*.py") if PACKAGE / "storage" not in path.parents]
    assert len(outside) > 50  # a wrong PACKAGE would pass the check below
    readers = sorted(
        f"{path.relative_to(PACKAGE)}:{node.lineno}"
        for path in outside
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path)))
        if isinstance(node, ast.Attribute) and node.attr == "engine"
    )
    assert readers == []
