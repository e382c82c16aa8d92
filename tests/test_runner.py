"""The runner owns the dice: same seed, same game; records replay exactly and refuse tampering."""

import json

import pytest

from cubilete.engine.actions import Score
from cubilete.engine.errors import IllegalAction, InvalidRecord, NotYourTurn, UnknownGame, UnknownVariant
from cubilete.engine.games import GAMES, new_state, rules_for, state_from_json
from cubilete.engine.runner import Match, play, roll_dice


class FirstLegal:
    def choose(self, state):
        return state.legal_actions()[0]


class LastLegal:
    def choose(self, state):
        return state.legal_actions()[-1]


@pytest.mark.parametrize("game, seats", [("penta", 2), ("generala", 3), ("5000", 2)])
def test_same_seed_same_game_and_records_replay(game, seats):
    bots = [LastLegal()] * seats
    first = play(rules_for(game), bots, seed=42)
    second = play(rules_for(game), bots, seed=42)
    assert first.state.is_over and first.events == second.events
    assert play(rules_for(game), bots, seed=43).events != first.events
    record = json.loads(json.dumps(first.to_json()))
    replayed = Match.from_json(record)
    assert replayed.state == first.state and replayed.to_json() == record


def test_roll_dice_is_a_pure_function_of_seed_and_roll_number():
    assert roll_dice(7, 3, 5) == roll_dice(7, 3, 5)
    assert {roll_dice(7, k, 5) for k in range(20)} != {roll_dice(7, 0, 5)}
    assert all(1 <= d <= 6 for d in roll_dice(1, 0, 5))


def test_a_resumed_match_rolls_what_the_original_would_have():
    match = Match(rules_for("penta"), ["Ana", "Bo"], seed=5)
    match.roll()
    match.act(Score("chance"), seat=0)
    resumed = Match.from_json(match.to_json())
    assert resumed.roll() == match.roll()


def test_humans_roll_themselves_and_bots_stop_at_human_seats():
    match = Match(rules_for("penta"), ["bot", "Ana"], seed=1)
    state = match.advance([FirstLegal(), None])
    assert state.current_player == 1 and state.is_chance
    match.roll()
    with pytest.raises(NotYourTurn):
        match.act(Score("chance"), seat=0)
    before = match.to_json()
    with pytest.raises(IllegalAction):
        match.act(Score("no-such-box"), seat=1)
    assert match.to_json() == before


@pytest.mark.parametrize(
    "tamper, message",
    [
        (lambda r: r["events"][0].update(roll=[6, 6, 6, 6, 6]), "does not match the record's seed"),
        (lambda r: r.update(format=99), "format"),
        (lambda r: r.pop("seed"), "missing or bad"),
        (lambda r: r["events"].insert(1, {"seat": 1, "action": {"type": "score", "box": "ones"}}), "turn"),
    ],
)
def test_tampered_records_are_refused(tamper, message):
    record = play(rules_for("penta"), [FirstLegal()] * 2, seed=3).to_json()
    tamper(record)
    with pytest.raises((InvalidRecord, IllegalAction), match=message):
        Match.from_json(record)


def test_registry_errors_name_the_choices():
    with pytest.raises(UnknownGame, match="penta, generala, 5000"):
        rules_for("yatzy")
    with pytest.raises(UnknownVariant, match="seed, forced, free, no-joker, no-bonus"):
        rules_for("penta", "american")
    assert set(GAMES) == {"penta", "generala", "5000"}


@pytest.mark.parametrize("game", ["penta", "generala", "5000"])
def test_states_round_trip_through_the_registry(game):
    state = new_state(rules_for(game), 2)
    assert state_from_json(json.loads(json.dumps(state.to_json()))) == state
    with pytest.raises(InvalidRecord):
        state_from_json({"game": game})
