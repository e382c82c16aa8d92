"""The table's rules of human play (players/table.py), which the web and the terminal apps share."""

from __future__ import annotations

import pytest

from cubilete.engine.actions import Roll, Score
from cubilete.engine.errors import IllegalAction
from cubilete.engine.events import RollEvent
from cubilete.engine.games import rules_for
from cubilete.engine.runner import Match
from cubilete.players.table import auto_score, must_score, play_human


def test_a_keep_rolls_the_dice_at_once():
    match = Match(rules_for("penta"), ["Ana"], seed=3)
    match.roll()
    states = list(play_human(match, 0, match.state.keep_values([match.state.dice[0]])))
    assert len(states) == 2 and len(match.events) == 3 and isinstance(match.events[-1], RollEvent)
    assert states[-1] == match.state and not match.state.is_chance


def test_a_roll_at_a_turns_start_is_that_roll():
    match = Match(rules_for("5000"), ["Ana", "Luis"], seed=3)
    assert list(play_human(match, 0, Roll())) == [match.state] and len(match.events) == 1
    assert isinstance(match.events[0], RollEvent) and not match.state.is_chance


def test_the_auto_score_comes_only_after_the_last_roll():
    match = Match(rules_for("penta"), ["Ana"], seed=3)
    match.roll()
    assert not must_score(match.state)
    with pytest.raises(IllegalAction) as refused:
        auto_score(match.state, match.rules)
    assert refused.value.code == "auto_score_last_roll"
    while not must_score(match.state):
        list(play_human(match, 0, match.state.keep_values([])))
    assert isinstance(auto_score(match.state, match.rules), Score)


def test_a_refused_action_changes_nothing():
    match = Match(rules_for("penta"), ["Ana"], seed=3)
    with pytest.raises(IllegalAction):
        list(play_human(match, 0, Score("chance")))
    assert match.events == [] and match.state.is_chance
