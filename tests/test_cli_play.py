"""`cubilete play` in the terminal: a whole solo Penta game and a 5000 turn typed at the prompt."""

import io

from cubilete.cli.main import main
from cubilete.engine.games import rules_for

BOXES = rules_for("penta").box_ids


def play(monkeypatch, capsys, lines, *argv):
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(f"{line}\n" for line in lines)))
    code = main(["play", *argv])
    return code, capsys.readouterr().out


def test_a_solo_penta_game_typed_to_the_end(monkeypatch, capsys):
    lines = ["keep 1 2", "keep 9", "fly", *(f"score {box}" for box in BOXES)]
    code, out = play(monkeypatch, capsys, lines, "penta", "--players", "Ana", "--seed", "3")
    assert code == 0
    assert "the dice are numbered 1 to 5" in out and "unknown command 'fly'" in out
    assert out.count("Ana scores") == 13
    assert out.strip().splitlines()[-1].startswith("1. Ana: ")


def test_5000_refuses_a_forced_bank_and_quits_cleanly(monkeypatch, capsys):
    code, out = play(monkeypatch, capsys, ["bank", "quit"], "5000", "--players", "Ana,Bo", "--seed", "0")
    assert code == 0
    assert "you are not in the game yet: you need 500 points in one turn to bank" in out
