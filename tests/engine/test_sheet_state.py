"""Turn flow of Penta and Generala, and typed errors that change nothing (whole games: test_conformance.py)."""

from itertools import combinations, product

import pytest

from cubilete.engine.actions import Keep, Roll, Score
from cubilete.engine.errors import IllegalAction, InvalidDice, InvalidRecord, NotYourTurn
from cubilete.engine.sheet import SheetState, distinct_keeps
from cubilete.engine.sheet_rules import GENERALA_SEED, PENTA_SEED
from cubilete.engine.sheet_scoring import sheet_from_json


def rolled(state, dice):
    return state.apply_roll(dice)


def test_a_turn_has_three_rolls_and_held_dice_keep_their_place():
    state = rolled(SheetState.new(PENTA_SEED, 2), [6, 2, 6, 3, 1])
    assert state.rolls_left == 2 and state.current_player == 0
    state = state.apply(Keep((0, 2)))
    assert state.is_chance and state.dice_to_roll == 3
    state = rolled(state, [6, 5, 4])
    assert state.dice == (6, 6, 6, 5, 4)
    state = rolled(state.apply(state.keep_values([6, 6, 6])), [6, 1])
    assert state.dice == (6, 6, 6, 6, 1) and state.rolls_left == 0
    assert not any(isinstance(a, Keep) for a in state.legal_actions())
    state = state.apply(Score("sixes"))
    assert state.current_player == 1 and state.is_chance and state.scores() == (24, 0)


def test_legal_keeps_are_each_distinct_multiset_once():
    state = rolled(SheetState.new(PENTA_SEED), [3, 3, 3, 3, 3])
    keeps = [a for a in state.legal_actions() if isinstance(a, Keep)]
    assert len(keeps) == 5  # hold 0..4 threes; holding all five rolls nothing
    state = rolled(SheetState.new(PENTA_SEED), [1, 2, 3, 4, 5])
    assert len([a for a in state.legal_actions() if isinstance(a, Keep)]) == 31



def test_every_table_keeps_each_multiset_of_values_once_at_its_first_positions():
    for dice in product(range(1, 7), repeat=5):
        first = {}  # combinations come in lexicographic order: the first for its values is the lowest
        for size in range(5):
            for held in combinations(range(5), size):
                first.setdefault(tuple(sorted(dice[i] for i in held)), held)
        assert [keep.held for keep in distinct_keeps(dice)] == [first[values] for values in sorted(first)]

def test_game_ends_after_13_turns_each_with_shared_places():
    state = SheetState.new(GENERALA_SEED, 2)
    for box in GENERALA_SEED.box_ids:
        for _ in range(2):
            state = rolled(state, [2, 3, 4, 5, 6]).apply(Score(box))
    assert state.is_over and state.current_player is None
    assert state.scores()[0] == state.scores()[1] and state.ranking() == (1, 1)


def test_score_is_turn_flow_not_chance():
    state = SheetState.new(PENTA_SEED)
    with pytest.raises(IllegalAction, match="roll the dice first"):
        state.apply(Score("chance"))


ILLEGAL = [
    (Score("chance"), 1, NotYourTurn, "seat 1's turn"),
    (Keep((0, 5)), None, InvalidDice, "positions are 0 to 4"),
    (Keep((0, 1, 2, 3, 4)), None, IllegalAction, "rolls nothing"),
    (Score("yahtzee"), None, IllegalAction, "no box 'yahtzee'"),
    (Roll(), None, IllegalAction, "not an action of penta"),
]


@pytest.mark.parametrize("action, seat, error, message", ILLEGAL)
def test_illegal_actions_raise_and_change_nothing(action, seat, error, message):
    state = rolled(SheetState.new(PENTA_SEED, 2), [1, 2, 3, 4, 4])
    before = state.to_json()
    with pytest.raises(error, match=message):
        state.apply(action, seat)
    assert state.to_json() == before


def test_a_used_box_is_refused():
    state = rolled(SheetState.new(PENTA_SEED), [1, 2, 3, 4, 4]).apply(Score("fours"))
    state = rolled(state, [4, 4, 1, 2, 3])
    with pytest.raises(IllegalAction, match="the box fours is already used"):
        state.apply(Score("fours"))


def test_the_joker_refusal_names_the_forced_box():
    sheet = sheet_from_json(PENTA_SEED, {"penta": 50})
    state = SheetState.situation(PENTA_SEED, sheet, [4, 4, 4, 4, 4], 0)
    with pytest.raises(IllegalAction, match="forces this roll into: fours"):
        state.apply(Score("chance"))
    assert state.apply(Score("fours")).sheets[0].bonus == 100


def test_keeping_dice_you_do_not_have_is_refused():
    state = rolled(SheetState.new(PENTA_SEED), [1, 2, 3, 4, 4])
    with pytest.raises(IllegalAction, match="cannot keep"):
        state.keep_values([4, 4, 4])


def test_rolls_are_validated():
    state = SheetState.new(PENTA_SEED)
    with pytest.raises(InvalidDice):
        state.apply_roll([1, 2, 3])
    with pytest.raises(InvalidDice):
        state.apply_roll([1, 2, 3, 4, 7])
    with pytest.raises(IllegalAction, match="no roll is pending"):
        rolled(state, [1, 2, 3, 4, 5]).apply_roll([1, 2, 3, 4, 5])


def test_player_count_limits():
    with pytest.raises(InvalidRecord, match="1 to 4 players"):
        SheetState.new(GENERALA_SEED, 5)
    with pytest.raises(InvalidRecord, match="1 to 6 players"):
        SheetState.new(PENTA_SEED, 7)


def test_malformed_state_json_is_refused():
    with pytest.raises(InvalidRecord):
        SheetState.from_json({"format": 1, "game": "penta"})
    with pytest.raises(InvalidRecord):
        SheetState.from_json([])
