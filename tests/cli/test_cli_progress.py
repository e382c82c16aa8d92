"""The CLI's progress bar: an adapter for the (done, total, label) callbacks of solvers and simulations."""

from __future__ import annotations

from cubilete.analysis.matches import simulate
from cubilete.cli.progress import ProgressBar
from cubilete.engine.games import rules_for


def test_the_bar_appears_only_when_the_work_takes_over_its_delay():
    with ProgressBar() as quick:
        quick(10, 10, "quick work")
    assert quick.bar is None
    slow = ProgressBar(after_seconds=0.0)
    slow.timer.join()
    slow(4, 10, "solving")
    slow(2, 5, "another phase")
    assert slow.bar is not None
    assert [(task.description, task.completed, task.total) for task in slow.bar.tasks] == [
        ("solving", 4, 10),
        ("another phase", 2, 5),
    ]
    slow.close()


def test_work_reported_before_the_bar_appears_is_shown_when_it_does():
    bar = ProgressBar(after_seconds=0.0)
    bar(3, 8, "early")  # may arrive before or after the timer fires
    bar.timer.join()
    assert [(task.description, task.completed) for task in bar.bar.tasks] == [("early", 3)]
    bar.close()


def test_a_simulation_reports_each_game_to_its_callback():
    calls = []
    simulate(rules_for("5000"), ["bank300", "bank500"], 3, 1, lambda *call: calls.append(call))
    assert calls == [(1, 3, "5000: simulating"), (2, 3, "5000: simulating"), (3, 3, "5000: simulating")]
