"""`cubilete advise --target X`: the chance to reach X after each option, and bad targets refused."""

from __future__ import annotations

import json

import pytest
from test_cli_sheet_solver import run

from cubilete.cli.main import main
from cubilete.engine.sheet import SheetState
from cubilete.engine.sheet_rules import GENERALA_SEED
from cubilete.engine.sheet_scoring import sheet_from_json
from cubilete.solvers.sheet.threshold import reach_chance

SHEET = {"ones": 3, "twos": 6, "threes": 9, "fours": 12, "fives": 15, "trio": 20, "poker": 30, "full": 25,
         "long_straight": 30}  # 150 points, 4 boxes open: sixes, short_straight, generala, libre
SITUATION = {"game": "generala", "sheet": SHEET, "dice": [6, 6, 2, 3, 6], "rolls_left": 2}


def test_every_option_gets_its_chance_to_reach_the_target_best_first(capsys, monkeypatch):
    code, out, _ = run(capsys, "advise", "--target", "250", "--json", stdin=json.dumps(SITUATION), monkeypatch=monkeypatch)
    data = json.loads(out)
    assert code == 0 and (data["game"], data["target"]) == ("generala", 250)
    options = data["options"]
    state = SheetState.situation(GENERALA_SEED, sheet_from_json(GENERALA_SEED, SHEET), (6, 6, 2, 3, 6), 2)
    assert len(options) == len(state.legal_actions())
    assert options[0]["chance"] == data["chance"] == reach_chance(state, 250)
    assert [o["chance"] for o in options] == sorted((o["chance"] for o in options), reverse=True)
    assert all(o["regret"] == pytest.approx(data["chance"] - o["chance"], abs=1e-15) for o in options)
    assert {"action", "keep", "value", "chance", "regret"} == set(options[0])
    for option in options:
        if option["action"] == "keep":
            after = state.apply(state.keep_values(option["keep"]))
            assert reach_chance(after, 250) == pytest.approx(option["chance"], abs=1e-15)
    code, out, _ = run(capsys, "advise", "--target", "250", stdin=json.dumps(SITUATION), monkeypatch=monkeypatch)
    lines = out.splitlines()
    assert code == 0 and lines[0] == "dice 6 6 2 3 6, 2 rolls left; chance to end with 250 or more, playing for it:"
    assert lines[1].startswith("  keep 6 6 6") and lines[1].endswith("best")


def test_a_turn_start_gets_its_chance(capsys, monkeypatch):
    situation = {"game": "generala", "sheet": SHEET}
    code, out, _ = run(capsys, "advise", "--target", "200", "--json", stdin=json.dumps(situation), monkeypatch=monkeypatch)
    data = json.loads(out)
    state = SheetState.situation(GENERALA_SEED, sheet_from_json(GENERALA_SEED, SHEET))
    assert code == 0 and data["options"] == [] and data["chance"] == reach_chance(state, 200)
    code, out, _ = run(capsys, "advise", "--target", "200", stdin=json.dumps(situation), monkeypatch=monkeypatch)
    assert out.startswith("start of a turn: chance to end with 200 or more, playing for it: 0.")


@pytest.mark.parametrize("target", ["150", "301", "-5"])
def test_a_target_already_reached_or_out_of_reach_exits_2(capsys, monkeypatch, target):
    code, out, err = run(capsys, "advise", "--target", target, stdin=json.dumps(SITUATION), monkeypatch=monkeypatch)
    assert code == 2 and out == ""
    assert f"the target must be between 151 and 300, not {target}" in err  # 150 now, 150 more at most


def test_a_target_that_is_no_whole_number_exits_2(capsys):
    with pytest.raises(SystemExit) as exit:
        main(["advise", "--target", "2.5"])
    assert exit.value.code == 2 and "argument --target: invalid int value: '2.5'" in capsys.readouterr().err


def test_5000_has_no_target(capsys, monkeypatch):
    situation = {"game": "5000", "scores": [4500, 3000], "to_move": 0, "turn_points": 300, "dice_left": 2}
    code, out, err = run(capsys, "advise", "--target", "5000", stdin=json.dumps(situation), monkeypatch=monkeypatch)
    assert code == 2 and out == "" and "--target is for Penta and Generala" in err
