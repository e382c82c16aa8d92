"""What a command says when a player is left guessing: `advise` run in a terminal with nothing piped
in, where `stats --plot` drew its picture, and `serve --open` on a machine without a browser."""

from __future__ import annotations

import json
import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest

from cubilete.cli.commands.serve import open_in_browser
from cubilete.cli.main import main

SOURCE = str(Path(__file__).resolve().parents[2] / "src")


def test_advise_in_a_terminal_with_nothing_piped_in_says_how_to_give_a_situation():
    controller, terminal = pty.openpty()
    try:
        done = subprocess.run(
            [sys.executable, "-m", "cubilete.cli.main", "advise"],
            stdin=terminal,
            capture_output=True,
            text=True,
            timeout=60,
            env={**os.environ, "PYTHONPATH": SOURCE},
        )
    finally:
        os.close(controller)
        os.close(terminal)
    assert done.returncode == 2 and done.stdout == ""
    assert "cubilete advise --situation situation.json" in done.stderr
    assert 'echo \'{"game": "penta"' in done.stderr and "| cubilete advise" in done.stderr
    assert "not valid JSON" not in done.stderr


def test_stats_plot_says_where_it_drew(capsys, tmp_path, monkeypatch):
    pytest.importorskip("matplotlib")
    monkeypatch.chdir(tmp_path)
    assert main(["stats", "generala", "--plot", "law.svg"]) == 0
    assert capsys.readouterr().out.rstrip().endswith(f"The distribution is drawn in {tmp_path / 'law.svg'}")
    assert main(["stats", "generala", "--plot", "law.png", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["plot"] == str(tmp_path / "law.png")


def test_open_without_a_browser_says_so(tmp_path):
    # no DISPLAY, no BROWSER and nothing on PATH: Python's webbrowser finds no browser at all
    environment = {"PATH": str(tmp_path), "PYTHONPATH": SOURCE, "HOME": str(tmp_path)}
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            f"from {open_in_browser.__module__} import open_in_browser; open_in_browser('http://127.0.0.1:8000/')",
        ],
        capture_output=True,
        text=True,
        timeout=60,
        env=environment,
    )
    assert done.returncode == 0
    assert (
        done.stdout
        == "--open: no web browser found on this machine; open http://127.0.0.1:8000/ in a browser yourself\n"
    )
