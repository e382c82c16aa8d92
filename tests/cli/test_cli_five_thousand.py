"""`cubilete solve/advise/simulate` for 5000: JSON shapes, legal advice only, clean errors (exit 2)."""

from __future__ import annotations

import json
import math

import pytest

from cubilete.cli.families.five_thousand import advise
from cubilete.cli.main import main
from cubilete.engine.actions import Bank
from cubilete.engine.five_thousand import FIVE_THOUSAND_SEED, FiveThousandState
from cubilete.solvers.five_thousand.cache import two_player_solution

SITUATION = {"game": "5000", "scores": [4500, 3000], "to_move": 0, "turn_points": 300, "dice_left": 2}


def run_json(capsys, *argv):
    assert main([*argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def advise_cli(capsys, tmp_path, situation, *flags):
    path = tmp_path / "situation.json"
    path.write_text(json.dumps(situation))
    return main(["advise", "--situation", str(path), *flags])


def test_solve_reports_the_first_players_chance(capsys):
    data = run_json(capsys, "solve", "5000")
    assert set(data) == {"game", "players", "first_player_wins", "seconds"}
    assert data["game"] == "5000" and data["players"] == 2
    assert data["first_player_wins"] == two_player_solution(FIVE_THOUSAND_SEED).first_player_wins
    assert data["seconds"] >= 0
    assert run_json(capsys, "solve", "5000", "--players", "2")["first_player_wins"] == data["first_player_wins"]


def test_solve_refuses_more_than_two_players(capsys):
    assert main(["solve", "5000", "--players", "3"]) == 2
    assert "2 players" in capsys.readouterr().err


def test_advise_lists_legal_actions_best_first_with_exact_values(capsys, tmp_path):
    assert advise_cli(capsys, tmp_path, SITUATION, "--json") == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data) == {"options"}
    assert [o["action"] for o in data["options"]] == ["bank", "roll"]
    table = two_player_solution(FIVE_THOUSAND_SEED).turn_table([4500, 3000], 0)
    values = {o["action"]: o["win_probability"] for o in data["options"]}
    assert values == {"bank": table.bank_value(300), "roll": table.roll_value(300, 2)}
    assert values["bank"] > values["roll"]


def test_advice_never_offers_a_bank_the_engine_forbids():
    """Every must-continue rule: points ending in 50, entry below 500, for 2 and 3 players."""
    for scores in ([0, 0], [0, 2500], [3000, 0], [4500, 3000], [4900, 4800], [0, 1000, 4000]):
        for turn_points in range(50, 1600, 50):
            for dice_left in (1, 5):
                situation = {"game": "5000", "scores": scores, "to_move": 0,
                             "turn_points": turn_points, "dice_left": dice_left}
                options = advise(situation).data["options"]
                state = FiveThousandState.decision_point(FIVE_THOUSAND_SEED, scores, 0, turn_points, dice_left)
                offered = [o["action"] for o in options]
                assert ("bank" in offered) == (Bank() in state.legal_actions()), situation
                assert "roll" in offered
                probabilities = [o["win_probability"] for o in options]
                assert probabilities == sorted(probabilities, reverse=True)
                assert all(0 <= p <= 1 for p in probabilities)


def test_advice_with_more_players_is_marked_as_estimate():
    situation = {**SITUATION, "scores": [4500, 3000, 1200]}
    data = advise(situation).data
    assert data["estimate"] is True
    assert {o["action"] for o in data["options"]} == {"roll", "bank"}
    assert "estimate" not in advise(SITUATION).data


@pytest.mark.parametrize(
    "change, message",
    [
        ({"scores": "4500,3000"}, "scores must be a list"),
        ({"scores": [4550, 3000]}, "multiples of 100"),
        ({"scores": [5000, 3000]}, "between 0 and 4900"),
        ({"scores": [4500]}, "number of players"),
        ({"scores": [4500, 3000.0]}, "must be an integer"),
        ({"dice_left": 0}, "dice left"),
        ({"dice_left": 6}, "dice left"),
        ({"dice_left": "2"}, "dice left"),
        ({"turn_points": 0}, "turn points"),
        ({"turn_points": -50}, "turn points"),
        ({"turn_points": 75}, "multiple of 50"),
        ({"turn_points": True}, "turn points"),
        ({"to_move": 2}, "the player to move"),
        ({"rules": "no-such-rules"}, "no rule set"),
        ({"extra": 1}, "exactly the keys"),
    ],
)
def test_bad_situations_exit_2_with_a_clear_message(capsys, tmp_path, change, message):
    assert advise_cli(capsys, tmp_path, {**SITUATION, **change}) == 2
    assert message in capsys.readouterr().err


def test_a_situation_missing_a_key_exits_2(capsys, tmp_path):
    situation = {key: value for key, value in SITUATION.items() if key != "dice_left"}
    assert advise_cli(capsys, tmp_path, situation) == 2
    assert "exactly the keys" in capsys.readouterr().err


def test_simulate_reports_win_rates_with_intervals_and_replays(capsys):
    argv = ["simulate", "5000", "--players", "optimal,bank300", "--games", "40", "--seed", "7"]
    data = run_json(capsys, *argv)
    assert data["players"] == ["optimal", "bank300"] and data["games"] == 40 and data["seed"] == 7
    results = data["results"]
    assert sum(r["wins"] for r in results) + data["unfinished"] == 40
    for r in results:
        low, high = r["ci95"]
        assert low <= r["win_rate"] == r["wins"] / 40 <= high
        assert 0 <= low and high <= 1
    assert data["games_per_second"] > 0
    again = run_json(capsys, *argv)
    assert again["results"] == results


def test_simulate_interval_is_the_wilson_interval(capsys):
    data = run_json(capsys, "simulate", "5000", "--players", "bank300,bank300", "--games", "30", "--seed", "1")
    first = data["results"][0]
    p, n, z = first["win_rate"], 30, 1.959963984540054
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    assert first["ci95"] == pytest.approx([centre - half, centre + half])


@pytest.mark.parametrize(
    "players, games, message",
    [
        ("optimal,expert", "10", "no 5000 player level 'expert'"),
        ("optimal", "10", "number of players"),
        ("bank300," * 6 + "bank300", "10", "number of players"),
        ("optimal,bank300", "0", "at least 1"),
    ],
)
def test_simulate_bad_input_exits_2(capsys, players, games, message):
    assert main(["simulate", "5000", "--players", players, "--games", games, "--seed", "1"]) == 2
    assert message in capsys.readouterr().err
