"""`cubilete simulate` without a seed (one drawn, printed, and repeating the run), and each player's
win rate with its 95% interval in every game, a tie counting half."""

from __future__ import annotations

import json
import re

import pytest

from cubilete.analysis.confidence import wilson_interval
from cubilete.cli.main import main


def simulate(capsys, *argv):
    assert main(["simulate", *argv]) == 0
    return capsys.readouterr().out


def test_a_run_without_seed_prints_the_seed_that_repeats_it(capsys):
    out = simulate(capsys, "penta", "--players", "beginner,Casual", "--games", "6")
    seed = re.search(r"seed drawn at random: --seed (\d+) repeats this run", out).group(1)
    again = simulate(capsys, "penta", "--players", "beginner,casual", "--games", "6", "--seed", seed)
    # the same games: every line but the speed and the drawn seed's note
    assert [line for line in out.splitlines() if "per second" not in line and "drawn" not in line] == [
        line for line in again.splitlines() if "per second" not in line
    ]


@pytest.mark.parametrize("game", ["penta", "generala", "5000"])
def test_every_game_reports_each_players_win_rate_with_a_tie_counting_half(capsys, game):
    data = json.loads(
        simulate(capsys, game, "--players", "beginner,beginner,beginner", "--games", "9", "--seed", "5", "--json")
    )
    rates = data["results"]
    assert [rate["player"] for rate in rates] == ["beginner"] * 3
    assert sum(rate["win_rate"] for rate in rates) == pytest.approx(1.0)  # shares of first place: ties split
    for rate in rates:
        assert rate["win_rate"] >= rate["wins"] / 9 - rate["ties"] / 9
        assert rate["ci95"] == pytest.approx(list(wilson_interval(rate["win_rate"] * 9, 9)))
        assert rate["ci95"][0] <= rate["win_rate"] <= rate["ci95"][1]


def test_the_text_report_names_the_interval(capsys):
    out = simulate(capsys, "generala", "--players", "beginner,casual", "--games", "4", "--seed", "1")
    assert re.search(r"beginner +wins +\d+\.\d% +\(95% CI \d+\.\d% - \d+\.\d%\) +\d+ wins?, \d+ ties?", out)
    assert "(a tie counts half; 95% intervals: Wilson)" in out


@pytest.mark.parametrize(("lang", "words"), [
    ("es", ["5000 (Estándar), 4 partidas, semilla 1, con los puestos rotando:", "gana el", "intervalos del 95 %: Wilson",
            "partidas por segundo"]),
    ("id", ["5000 (Standar), 4 permainan, benih 1, kursi bergiliran:", "menang", "interval 95%: Wilson",
            "permainan per detik"]),
])
def test_11_the_report_is_in_the_chosen_language(capsys, lang, words):
    out = simulate(capsys, "5000", "--players", "beginner,beginner", "--games", "4", "--seed", "1", "--lang", lang)
    assert all(word in out for word in words), out
    assert not re.search(r"\b(wins|games|seed|seats)\b", out), out


def test_one_player_has_no_win_rate(capsys):
    data = json.loads(simulate(capsys, "penta", "--players", "beginner", "--games", "2", "--seed", "1", "--json"))
    assert data["results"] == []


def test_13_the_help_shows_95_percent(capsys):
    with pytest.raises(SystemExit):
        main(["simulate", "--help"])
    out = capsys.readouterr().out
    assert "95% Wilson interval" in out and "%%" not in out
