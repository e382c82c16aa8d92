"""`cubilete solve`, `advise`, `stats` and `simulate` for the score-sheet games, bad input included."""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import subprocess
import sys

import pytest

from cubilete.cli.main import main
from cubilete.engine.games import rules_for
from cubilete.solvers.cache_dir import CACHE_DIR_ENV
from cubilete.solvers.sheet import cache as sheet_cache

VERHOEFF = {
    "game": "penta",
    "rules": "free",
    "sheet": {"ones": 3, "threes": 9, "fours": 12, "sixes": 24, "full_house": 25, "small_straight": 30},
    "dice": [1, 2, 3, 4, 4],
    "rolls_left": 2,
}


def run(capsys, *argv, stdin=None, monkeypatch=None):
    if stdin is not None:
        monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_solve_prints_the_optimal_expected_score(capsys):
    code, out, _ = run(capsys, "solve", "penta", "--rules", "free", "--json")
    data = json.loads(out)
    assert code == 0 and set(data) == {"game", "rules", "expected_score", "seconds"}
    assert (data["game"], data["rules"]) == ("penta", "free")
    assert data["expected_score"] == pytest.approx(254.5896094820, abs=1e-6)
    code, out, _ = run(capsys, "solve", "generala")
    assert code == 0 and out.startswith("generala (seed): optimal expected score 215.")
    code, out, _ = run(capsys, "solve", "generala", "--rules", "traditional")
    assert code == 0 and out.startswith("generala (traditional): optimal expected score 151.8989551830 ")


@pytest.mark.slow  # three 13- to 15-box tables no quick test needs
@pytest.mark.parametrize(
    "game, rules, optimum",
    [("yahtzee", "hasbro", 254.5896094820), ("yatzy", "scandinavian", 248.4399893778553),
     ("kniffel", "schmidt", 248.3213844126)],
)  # fmt: skip
def test_solve_prints_the_optima_of_yahtzee_yatzy_and_kniffel(capsys, game, rules, optimum):
    """docs/rules.md#yahtzee-optimal-value, #yatzy-optimal-value and #kniffel-optimal-value."""
    code, out, _ = run(capsys, "solve", game, "--json")
    data = json.loads(out)
    assert code == 0 and (data["game"], data["rules"]) == (game, rules)
    assert data["expected_score"] == pytest.approx(optimum, abs=1e-9)


def test_score_lists_yatzys_fifteen_boxes_by_their_ids(capsys):
    code, out, _ = run(capsys, "score", "yatzy", "--dice", "2,2,5,5,6", "--json")
    data = json.loads(out)
    assert code == 0
    scored = {option["box"]: option["points"] for option in data["boxes"]}
    assert len(scored) == 15 and (scored["one_pair"], scored["two_pairs"], scored["chance"]) == (10, 14, 20)


def test_advise_reads_standard_input_and_ranks_every_option(capsys, monkeypatch):
    code, out, _ = run(capsys, "advise", "--json", stdin=json.dumps(VERHOEFF), monkeypatch=monkeypatch)
    data = json.loads(out)
    assert code == 0
    best, *others = data["options"]
    assert best == {"action": "keep", "keep": [2, 3, 4], "value": data["value"], "regret": 0.0}
    assert round(data["value"], 2) == 243.41
    scores = [o for o in others if o["action"] == "score"]
    assert {"action", "box", "points", "bonus", "value", "regret"} == set(scores[0])
    assert len(data["options"]) == 23 + 7  # every distinct keep of 1 2 3 4 4, every open box
    code, out, _ = run(capsys, "advise", stdin=json.dumps(VERHOEFF), monkeypatch=monkeypatch)
    assert code == 0 and "keep 2 3 4" in out.splitlines()[1] and "best" in out.splitlines()[1]


def test_advise_reads_a_file_and_knows_turn_starts_and_the_penta_bonus(capsys, tmp_path):
    situation = tmp_path / "situation.json"
    situation.write_text(json.dumps({"game": "penta", "sheet": {"ones": 3, "penta": 50}, "penta_bonus": 100}))
    code, out, _ = run(capsys, "advise", "--situation", str(situation), "--json")
    data = json.loads(out)
    assert code == 0 and data["options"] == [] and data["value"] > 153 + 200
    joker = {"game": "penta", "sheet": {"penta": 50}, "dice": [4, 4, 4, 4, 4], "rolls_left": 0}
    situation.write_text(json.dumps(joker))
    code, out, _ = run(capsys, "advise", "--situation", str(situation), "--json")
    (only,) = json.loads(out)["options"]  # the seed joker forces the fours box
    assert code == 0 and (only["box"], only["points"], only["bonus"]) == ("fours", 20, 100)


@pytest.mark.slow  # a whole 13-box table's laws (about 20 s); tests/solvers/test_sheet_stats.py checks them on small rule sets
def test_stats_reports_the_exact_statistics(capsys):
    code, out, _ = run(capsys, "stats", "generala", "--json")
    data = json.loads(out)
    assert code == 0 and data["mean"] == pytest.approx(215.2221348166, abs=1e-6)
    assert data["five_equal_box"] == "generala" and 0 < data["five_equal_probability"] < 1
    assert sum(p for _, p in data["distribution"]) == pytest.approx(1.0)
    assert list(data["percentiles"]) == ["1", "5", "10", "25", "50", "75", "90", "95", "99"]
    code, out, _ = run(capsys, "stats", "generala")
    assert code == 0 and "mean 215.2221" in out and "percentiles" in out
    assert "upper bonus" not in out  # issue 34, item 13: a game without one has no line for it


def test_simulate_reports_each_seat_reproducibly(capsys):
    argv = ("simulate", "penta", "--players", "optimal,beginner", "--games", "5", "--seed", "3", "--json")
    code, out, err = run(capsys, *argv)
    data = json.loads(out)
    assert code == 0 and data["games"] == 5 and data["games_per_second"] > 0
    assert [seat["player"] for seat in data["seats"]] == ["optimal", "beginner"]
    assert {"mean", "sd", "standard_error"} <= set(data["seats"][0])
    _, again, _ = run(capsys, *argv)
    assert json.loads(again)["seats"] == data["seats"]
    code, out, _ = run(capsys, "simulate", "generala", "--players", "casual", "--games", "2", "--seed", "1")
    assert code == 0 and "seat 1 casual" in out and "games per second" in out


def test_simulate_with_common_dice_pairs_the_games_on_the_same_dice(capsys):
    argv = ("simulate", "generala", "--players", "optimal,optimal", "--games", "4", "--seed", "2", "--common-dice")
    code, out, _ = run(capsys, *argv, "--json")
    data = json.loads(out)
    assert code == 0 and data["common_dice"] is True
    # the same player on the same dice plays the same game: every game a tie, half a win each
    assert [(p["win_rate"], p["ci95"], p["ties"]) for p in data["results"]] == [(0.5, [0.5, 0.5], 4)] * 2


def test_11_simulate_with_common_dice_says_one_report_with_one_interval_in_the_chosen_language(capsys):
    code, out, _ = run(capsys, "simulate", "generala", "--players", "duel,optimal", "--games", "2", "--seed", "2",
                       "--common-dice", "--lang", "es")
    assert code == 0 and out.startswith("Generala (Estándar), 2 partidas con los mismos dados, semilla 2")
    assert out.count("duel ") == 2 and out.count("optimal ") == 2  # its seat's line and its win rate, once each
    assert "gana el" in out and "aproximación normal" in out and "Wilson" not in out
    assert not re.search(r"\b(seat|mean|wins|games)\b", out), out


BAD = [
    (("solve", "penta", "--rules", "american"), "penta has no rule set 'american'"),
    (("solve", "penta", "--players", "3"), "--players is for 5000"),
    (("stats", "5000"), "stats is for the score-sheet games"),
    (("simulate", "penta", "--players", "optimal,grandmaster", "--games", "3", "--seed", "1"), "no penta player level"),
    (("simulate", "penta", "--players", "optimal", "--games", "0", "--seed", "1"), "--games must be at least 1"),
    (("simulate", "generala", "--players", "optimal,optimal,optimal,optimal,optimal", "--games", "1", "--seed", "1"),
     "1 to 4 players"),
    (("simulate", "penta", "--players", "optimal,duel", "--games", "3", "--seed", "1", "--common-dice"),
     "--common-dice plays pairs of games"),
]


@pytest.mark.parametrize("argv, message", BAD, ids=[message for _, message in BAD])
def test_bad_arguments_exit_2_with_a_clear_message(capsys, argv, message):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "" and message in err


@pytest.mark.parametrize("argv", [("solve", "yacht"), ("simulate", "penta", "--games", "3"), ("stats",)])
def test_malformed_command_lines_exit_2(capsys, argv):
    with pytest.raises(SystemExit) as exit:
        main(list(argv))
    assert exit.value.code == 2 and "cubilete: error:" in capsys.readouterr().err


BAD_SITUATIONS = [
    ('{"game": "penta", "dice": [1, 2, 3', "not valid JSON"),
    ('[1, 2]', "a situation is a JSON object"),
    ('{"dice": [1, 2, 3, 4, 5]}', 'say which game'),
    ('{"game": "yacht"}', "unknown game 'yacht'"),
    ('{"game": "penta", "rules": "american"}', "no rule set 'american'"),
    ('{"game": "penta", "sheet": {"yahtzee": 50}}', "no box 'yahtzee'"),
    ('{"game": "penta", "sheet": {"full_house": 24}}', "cannot hold 24 points"),
    ('{"game": "penta", "sheet": {"penta": 50}, "penta_bonus": 150}', "multiple of 100"),
    ('{"game": "penta", "dice": [1, 2, 3, 4, 7], "rolls_left": 1}', "not 7"),
    ('{"game": "penta", "dice": [1, 2, 3, 4], "rolls_left": 1}', "expected 5 dice"),
    ('{"game": "penta", "dice": "12345"}', '"dice" is a list'),
    ('{"game": "penta", "dice": [1, 2, 3, 4, 5], "rolls_left": 3}', "rolls_left is 0 to 2"),
    ('{"game": "penta", "dice": [1, 2, 3, 4, 5], "rolls_left": "2"}', '"rolls_left" is a whole number'),
    ('{"game": "penta", "dice": [1, 2, 3, 4, 5], "throws": 2}', "unknown key 'throws'"),
    ('{"game": "generala", "generala_bonus": 100}', "unknown key 'generala_bonus'"),
    ('{"game": "5000", "scores": [0, 0]}', "a 5000 situation has exactly the keys"),
]


@pytest.mark.parametrize("text, message", BAD_SITUATIONS)
def test_bad_situations_exit_2_with_a_clear_message(capsys, monkeypatch, text, message):
    code, out, err = run(capsys, "advise", stdin=text, monkeypatch=monkeypatch)
    assert code == 2 and out == "" and message in err


def test_a_full_sheet_has_nothing_to_advise(capsys, monkeypatch):
    full = {box: 0 for box in ("ones", "twos", "threes", "fours", "fives", "sixes", "trio", "poker", "full",
                               "long_straight", "short_straight", "generala", "libre")}
    code, _, err = run(capsys, "advise", stdin=json.dumps({"game": "generala", "sheet": full}), monkeypatch=monkeypatch)
    assert code == 2 and "the game is over" in err


@pytest.mark.parametrize("command", ["solve", "advise", "stats", "simulate"])
def test_every_command_has_help_and_json(capsys, command):
    with pytest.raises(SystemExit) as exit:
        main([command, "--help"])
    assert exit.value.code == 0 and "--json" in capsys.readouterr().out


def test_the_installed_entry_point_loads_the_cached_table(tmp_path):
    rules = rules_for("penta")
    expected = sheet_cache.solution(rules).start_value  # solved (and saved) by now
    # A copy in a folder of its own, which no other test (or xdist worker) writes to.
    cached = tmp_path / sheet_cache.cache_path(rules).name
    shutil.copyfile(sheet_cache.cache_path(rules), cached)
    before = cached.stat()
    command = [sys.executable, "-m", "cubilete.cli.main", "solve", "penta", "--json"]
    env = {**os.environ, CACHE_DIR_ENV: str(tmp_path)}
    result = subprocess.run(command, capture_output=True, text=True, env=env, check=True)
    data = json.loads(result.stdout)
    assert data["expected_score"] == pytest.approx(expected, abs=1e-12)
    assert result.stderr == "" and list(tmp_path.iterdir()) == [cached]
    after = cached.stat()  # loaded, not solved again: a solve would have replaced the file
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)
