"""Typed events: what a match records, their stored JSON, and the one replay every layer uses."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cubilete.engine.actions import Keep, Score
from cubilete.engine.errors import InvalidRecord
from cubilete.engine.events import ActionEvent, RollEvent, event_from_json, events_from_json, replay
from cubilete.engine.games import GAMES, rules_for
from cubilete.engine.runner import Match


def random_game(game: str, players: int, seed: int, choice_seed: int) -> tuple[Match, list]:
    """A game of random legal steps to its end, some of them marked as played by a turn clock; with
    the state after each step as the match had it."""
    choices = random.Random(choice_seed)
    match = Match(rules_for(game), [f"seat {seat}" for seat in range(players)], seed)
    states = []
    while not match.state.is_over:
        by_clock = choices.random() < 0.2
        if match.state.is_chance:
            states.append(match.roll(by_clock=by_clock))
        else:
            states.append(match.act(choices.choice(match.state.legal_actions()), by_clock=by_clock))
    return match, states


games = st.sampled_from(sorted(GAMES)).flatmap(
    lambda game: st.tuples(
        st.just(game),
        st.integers(GAMES[game].default.min_players, min(GAMES[game].default.max_players, 3)),
        st.integers(0, 2**32),
        st.integers(0, 2**32),
    )
)


@settings(max_examples=15, deadline=None)
@given(games)
def test_a_random_game_round_trips_through_its_json_record(drawn):
    match, _states = random_game(*drawn)
    record = json.loads(json.dumps(match.to_json()))
    loaded = Match.from_json(record)
    assert loaded.events == match.events and loaded.state == match.state and loaded.to_json() == record
    assert [event_from_json(event) for event in record["events"]] == match.events


@settings(max_examples=15, deadline=None)
@given(games)
def test_the_replay_agrees_with_the_match_step_by_step(drawn):
    match, states = random_game(*drawn)
    assert list(replay(match.initial, match.events)) == states


def test_the_stored_json_is_what_it_always_was():
    keep = ActionEvent(1, Keep((3, 0)))
    assert RollEvent((6, 1, 6)).to_json() == {"roll": [6, 1, 6]}
    assert keep.to_json() == {"seat": 1, "action": {"type": "keep", "held": [0, 3]}}
    assert RollEvent((2,), by_clock=True).to_json() == {"roll": [2], "clock": True}
    assert ActionEvent(0, Score("chance"), by_clock=True).to_json() == {
        "seat": 0, "action": {"type": "score", "box": "chance"}, "clock": True
    }
    assert event_from_json({"roll": [6, 1, 6], "clock": False}) == RollEvent((6, 1, 6))


def test_a_record_keeps_the_clock_marks_it_was_stored_with():
    match = Match(rules_for("penta"), ["Ana", "Luis"], seed=7)
    match.roll()
    match.act(Score("chance"))
    record = json.loads(json.dumps(match.to_json()))
    record["events"][1]["clock"] = True  # as the web app stored a step its turn clock played
    record["events"].append({"roll": list(Match.from_json(record).roll().dice), "clock": True})
    loaded = Match.from_json(record)
    assert [event.by_clock for event in loaded.events] == [False, True, True]
    assert loaded.to_json() == record


@pytest.mark.parametrize(
    "data, words",
    [
        ([], "expected a JSON object"),
        ({}, "missing seat, action"),
        ({"roll": [1], "seat": 0}, "unknown seat"),
        ({"roll": [1, 2, 3, 4, 5, 6]}, "the dice must have 0 to 5 items"),
        ({"roll": [7]}, "a die of the dice must be 1 to 6"),
        ({"roll": [1], "clock": "yes"}, "clock must be true or false"),
        ({"seat": -1, "action": {"type": "roll"}}, "seat must be at least 0"),
        ({"seat": True, "action": {"type": "roll"}}, "seat must be a whole number"),
        ({"seat": 0, "action": {"type": "fly"}}, "type must be keep"),
        ({"seat": 0, "action": {"type": "roll"}, "mark": True}, "unknown mark"),
    ],
)
def test_an_event_that_was_not_written_by_a_match_is_refused(data, words):
    with pytest.raises(InvalidRecord, match=words):
        event_from_json(data)


def test_a_refused_event_of_a_record_is_named_by_its_number():
    with pytest.raises(InvalidRecord, match="not a valid game record: event 1: not a valid event: seat must be"):
        events_from_json([{"roll": [1]}, {"seat": "Ana", "action": {"type": "roll"}}])


def test_a_roll_the_seed_does_not_give_is_refused_and_changes_nothing():
    match = Match(rules_for("penta"), ["Ana"], seed=7)
    dice = Match(rules_for("penta"), ["Ana"], seed=7).roll().dice
    wrong = tuple(face % 6 + 1 for face in dice)
    with pytest.raises(InvalidRecord, match="roll 1 does not match the record's seed"):
        match.follow(RollEvent(wrong))
    assert match.events == [] and match.rolls == 0 and match.state == match.initial
    with pytest.raises(InvalidRecord, match="event 0: roll the dice first"):
        Match(rules_for("penta"), ["Ana"], seed=7).follow(ActionEvent(0, Keep(())))
    assert match.follow(RollEvent(dice)).dice == dice and match.events == [RollEvent(dice)]
