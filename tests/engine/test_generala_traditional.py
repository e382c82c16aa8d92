"""Traditional Generala (docs/rules.md#generala-traditional): golden scores servida and not, the
escaleras, Doble Generala, and the Generala servida that wins a game of two seats or more."""

import json

import pytest
from played_games import serving_seed

from cubilete.engine.actions import Keep, Score
from cubilete.engine.errors import IllegalAction, InvalidRecord
from cubilete.engine.events import RollEvent, replay
from cubilete.engine.games import rules_for, state_from_json
from cubilete.engine.runner import Match
from cubilete.engine.sheet import SheetState
from cubilete.engine.sheet_rules import GENERALA_SEED, GENERALA_TRADITIONAL, GENERALA_TRADITIONAL_DOUBLE, SheetRules
from cubilete.engine.sheet_scoring import score_options, sheet_from_json

TRADITIONAL = (GENERALA_TRADITIONAL, GENERALA_TRADITIONAL_DOUBLE)


def points(rules, dice, first_roll, filled=None):
    sheet = sheet_from_json(rules, filled or {})
    return {o.box: o.points for o in score_options(rules, sheet, dice, first_roll)}


# dice, then the 10 boxes in sheet order (ones ... sixes, straight, full, poker, generala): first roll, later roll
GOLDEN = [
    ([1, 2, 3, 4, 5], [1, 2, 3, 4, 5, 0, 25, 0, 0, 0], [1, 2, 3, 4, 5, 0, 20, 0, 0, 0]),
    ([6, 5, 4, 3, 2], [0, 2, 3, 4, 5, 6, 25, 0, 0, 0], [0, 2, 3, 4, 5, 6, 20, 0, 0, 0]),
    ([3, 4, 5, 6, 1], [1, 0, 3, 4, 5, 6, 25, 0, 0, 0], [1, 0, 3, 4, 5, 6, 20, 0, 0, 0]),
    ([1, 1, 3, 4, 5], [2, 0, 3, 4, 5, 0, 0, 0, 0, 0], [2, 0, 3, 4, 5, 0, 0, 0, 0, 0]),
    ([1, 2, 4, 5, 6], [1, 2, 0, 4, 5, 6, 0, 0, 0, 0], [1, 2, 0, 4, 5, 6, 0, 0, 0, 0]),
    ([2, 2, 2, 5, 5], [0, 6, 0, 0, 10, 0, 0, 35, 0, 0], [0, 6, 0, 0, 10, 0, 0, 30, 0, 0]),
    ([4, 4, 4, 4, 2], [0, 2, 0, 16, 0, 0, 0, 0, 45, 0], [0, 2, 0, 16, 0, 0, 0, 0, 40, 0]),
    ([6, 6, 6, 6, 6], [0, 0, 0, 0, 0, 30, 0, 0, 45, 50], [0, 0, 0, 0, 0, 30, 0, 0, 40, 50]),
]


@pytest.mark.parametrize("rules", TRADITIONAL, ids=lambda rules: rules.name)
@pytest.mark.parametrize("dice, servida, later", GOLDEN)
def test_every_box_servida_and_not(rules, dice, servida, later):
    assert list(points(rules, dice, True).values())[:10] == servida
    assert list(points(rules, dice, False).values())[:10] == later


def test_the_seed_rules_have_no_servida():
    assert points(GENERALA_SEED, [2, 2, 2, 5, 5], True) == points(GENERALA_SEED, [2, 2, 2, 5, 5], False)


@pytest.mark.parametrize("first_roll", [True, False])
def test_doble_generala_scores_100_only_while_generala_holds_50(first_roll):
    rules = GENERALA_TRADITIONAL_DOUBLE
    assert points(rules, [5] * 5, first_roll, {"generala": 50})["double_generala"] == 100
    assert points(rules, [5] * 5, first_roll, {"generala": 0})["double_generala"] == 0
    assert points(rules, [5] * 5, first_roll)["double_generala"] == 0
    assert points(rules, [5, 5, 5, 5, 4], first_roll, {"generala": 50})["double_generala"] == 0
    assert "double_generala" not in GENERALA_TRADITIONAL.box_ids


def test_a_sheet_holding_a_servida_loads_and_an_impossible_one_does_not():
    sheet_from_json(GENERALA_TRADITIONAL, {"straight": 25, "full": 35, "poker": 45})
    with pytest.raises(InvalidRecord):
        sheet_from_json(GENERALA_TRADITIONAL, {"straight": 30})


def rolled(rules, seats, *rolls):
    """A new game after these rolls, the seat to move holding nothing in between."""
    state = SheetState.new(rules, seats)
    for dice in rolls:
        if not state.awaiting_roll:
            state = state.apply(Keep(()))
        state = state.apply_roll(dice)
    return state


@pytest.mark.parametrize("rules", TRADITIONAL, ids=lambda rules: rules.name)
def test_state_scores_servida_on_the_first_roll_only(rules):
    first = rolled(rules, 1, [2, 2, 2, 5, 5])
    assert {o.box: o.points for o in first.score_options()}["full"] == 35
    second = rolled(rules, 1, [1, 2, 3, 4, 6], [2, 2, 2, 5, 5])
    assert {o.box: o.points for o in second.score_options()}["full"] == 30
    assert first.apply(Score("full")).sheets[0].boxes[rules.box_index("full")] == 35


@pytest.mark.parametrize("rules", TRADITIONAL, ids=lambda rules: rules.name)
def test_a_generala_servida_with_one_seat_is_an_ordinary_generala(rules):
    state = rolled(rules, 1, [4] * 5)
    assert not state.is_over and state.winner is None
    assert state.apply(Score("generala")).sheets[0].boxes[rules.box_index("generala")] == 50


@pytest.mark.parametrize("rules", TRADITIONAL, ids=lambda rules: rules.name)
def test_a_generala_servida_wins_a_two_seat_game_at_once(rules):
    state = rolled(rules, 3, [1, 2, 3, 4, 6])
    state = state.apply(Score("sixes")).apply_roll([2, 2, 2, 5, 5]).apply(Score("full"))
    assert state.scores() == (6, 35, 0) and state.current == 2
    won = state.apply_roll([3] * 5)
    assert won.is_over and won.winner == 2 and won.current_player is None
    assert won.ranking() == (3, 2, 1)  # the winner first, the others by their totals
    assert won.legal_actions() == () and won.score_options() == ()
    with pytest.raises(IllegalAction):
        won.apply(Score("generala"))
    assert state_from_json(json.loads(json.dumps(won.to_json()))) == won


def test_a_record_won_at_once_replays_to_the_same_win_and_places():
    """The runner's record (stored games, `cubilete review`, exports) and the events' replay (the web's
    older states) both reach the win: Luis's first roll is a Generala servida, Ana ahead on points."""
    match = Match(GENERALA_TRADITIONAL, ["Ana", "Luis"], serving_seed(1))
    match.roll()
    match.act(Score(max(match.state.score_options(), key=lambda option: option.points).box))
    won = match.roll()
    assert won.winner == 1 and won.ranking() == (2, 1) and won.scores()[0] > won.scores()[1] == 0
    record = json.loads(json.dumps(match.to_json()))
    again = Match.from_json(record)
    assert again.state == won and again.state.ranking() == (2, 1)
    *_, replayed = replay(match.initial, match.events)
    assert replayed == won
    with pytest.raises(InvalidRecord):  # nothing follows a win
        Match.from_json({**record, "events": record["events"] + [RollEvent((1, 2, 3, 4, 5)).to_json()]})


def test_a_later_generala_does_not_win():
    state = rolled(GENERALA_TRADITIONAL, 2, [3, 3, 3, 3, 1], [3, 3, 3, 3, 3])
    assert not state.is_over and state.winner is None


def test_the_seed_rules_never_win_at_once():
    assert not rolled(GENERALA_SEED, 2, [3] * 5).is_over


def test_records_of_a_win_are_refused_when_inconsistent():
    won = rolled(GENERALA_TRADITIONAL, 2, [3] * 5).to_json()
    for change in (
        {"winner": None},  # the winning roll without its winner
        {"winner": 1},  # a winner that is not the roller
        {"dice": [3, 3, 3, 3, 2]},  # a winner without a Generala on the table
        {"rolls_left": 1},  # a winner whose Generala is not the first roll
    ):
        with pytest.raises(InvalidRecord):
            state_from_json({**won, **change})
    seed = rolled(GENERALA_SEED, 2, [3] * 5).to_json()
    with pytest.raises(InvalidRecord):
        state_from_json({**seed, "winner": 0})  # a rule set without the instant win


def test_rules_round_trip_and_older_records_keep_their_meaning():
    for rules in TRADITIONAL:
        assert SheetRules.from_json(json.loads(json.dumps(rules.to_json()))) == rules
        assert rules_for("generala", rules.name) is rules
    # the seed's record writes none of the later fields: old records and cached tables keep their keys
    assert set(GENERALA_SEED.to_json()) == set(SheetRules.from_json(GENERALA_SEED.to_json()).to_json())
    assert "first_roll_wins" not in GENERALA_SEED.to_json()
    assert "first_roll_bonus" not in GENERALA_SEED.to_json()["boxes"][0]
    bad = GENERALA_TRADITIONAL.to_json() | {"first_roll_wins": "no-such-box"}
    with pytest.raises(InvalidRecord):
        SheetRules.from_json(bad)
