"""The house rule on size: no module over 500 lines, no function over 80 (Numba kernels, nested
functions and methods included), for every Python file under src/."""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"
MODULE_LINES = 500
FUNCTION_LINES = 80


def modules() -> list[Path]:
    return sorted(SRC.rglob("*.py"))


def test_the_source_tree_is_found():
    assert len(modules()) > 50  # a wrong SRC would pass every check below


def test_no_module_is_over_500_lines():
    too_long = {
        str(path.relative_to(SRC)): lines
        for path in modules()
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > MODULE_LINES
    }
    assert too_long == {}


def test_no_function_is_over_80_lines():
    too_long = {}
    for path in modules():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                lines = node.end_lineno - node.lineno + 1  # from `def` to its last line, decorators aside
                if lines > FUNCTION_LINES:
                    too_long[f"{path.relative_to(SRC)}:{node.lineno} {node.name}"] = lines
    assert too_long == {}
