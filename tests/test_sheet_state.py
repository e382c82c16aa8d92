"""Turn flow of Penta and Generala, typed errors that change nothing, and random whole games."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cubilete.engine.actions import Keep, Roll, Score
from cubilete.engine.errors import IllegalAction, InvalidDice, InvalidRecord, NotYourTurn
from cubilete.engine.sheet import SheetState
from cubilete.engine.sheet_rules import GENERALA_SEED, PENTA_FORCED, PENTA_FREE, PENTA_SEED
from cubilete.engine.sheet_scoring import sheet_from_json, sheet_total


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
    (Score("chance"), 1, NotYourTurn, "seat 0's turn"),
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


# -- random legal games to the end -----------------------------------------------

BAD_ACTIONS = [Score("nope"), Keep((7,)), Keep((0, 1, 2, 3, 4)), Roll()]


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    rules=st.sampled_from([PENTA_SEED, PENTA_FORCED, PENTA_FREE, GENERALA_SEED]),
    players=st.integers(1, 3),
)
def test_random_legal_games_keep_every_invariant(seed, rules, players):
    rng = random.Random(seed)
    state = SheetState.new(rules, players)
    turns = 0
    while not state.is_over:
        assert SheetState.from_json(state.to_json()) == state
        if state.is_chance:
            state = state.apply_roll([rng.randint(1, 6) for _ in range(state.dice_to_roll)])
            continue
        before = state
        with pytest.raises((IllegalAction, InvalidDice)):
            state.apply(rng.choice(BAD_ACTIONS))
        assert state == before
        action = rng.choice(state.legal_actions())
        state = state.apply(action)
        if isinstance(action, Score):
            turns += 1
            sheet = state.sheets[before.current]
            filled = [pts for pts in sheet.boxes if pts is not None]
            assert len(filled) == sum(p is not None for p in before.sheet.boxes) + 1
    assert turns == 13 * players
    for sheet, total in zip(state.sheets, state.scores(), strict=True):
        assert sheet.is_full and total == sheet_total(rules, sheet)
        upper = sum(sheet.boxes[:6])
        assert total == sum(sheet.boxes) + (35 if rules.upper_bonus_threshold and upper >= 63 else 0) + sheet.bonus
    assert SheetState.from_json(state.to_json()) == state
