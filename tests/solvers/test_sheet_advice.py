"""Advice: every legal action ranked by its expected final total, consistent with the engine."""

from __future__ import annotations

import pytest

from cubilete.engine.actions import Keep, Score
from cubilete.engine.errors import IllegalAction
from cubilete.engine.sheet import SheetState
from cubilete.engine.sheet_rules import GENERALA_SEED, PENTA_FREE, PENTA_SEED
from cubilete.engine.sheet_scoring import sheet_from_json, sheet_total
from cubilete.solvers.sheet import cache as sheet_cache
from cubilete.solvers.sheet.advice import RankedOption, advise, expected_value

# Verhoeff's proficiency-test example (free joker): turn 7, open twos, fives,
# three_of_a_kind, four_of_a_kind, large_straight, penta, chance; upper total 48,
# score so far 103. The six filled boxes are consistent with those totals.
VERHOEFF_SHEET = {"ones": 3, "threes": 9, "fours": 12, "sixes": 24, "full_house": 25, "small_straight": 30}


def verhoeff(dice=(1, 2, 3, 4, 4), rolls_left=2) -> SheetState:
    return SheetState.situation(PENTA_FREE, sheet_from_json(PENTA_FREE, VERHOEFF_SHEET), dice, rolls_left)


def test_verhoeffs_example_keep_234_is_best_and_keep_1234_is_worth_less():
    state = verhoeff()
    assert len(state.sheet.filled(PENTA_FREE)) == 6  # turn 7
    assert sheet_total(PENTA_FREE, state.sheet) == 103
    options = advise(state)
    by_keep = {option.keep: option for option in options if option.keep is not None}
    assert options[0].keep == (2, 3, 4) and round(options[0].value, 2) == 243.41
    assert round(by_keep[(1, 2, 3, 4)].value, 2) == 243.10


@pytest.mark.parametrize("rules", [PENTA_SEED, GENERALA_SEED], ids=lambda rules: rules.game)
def test_every_legal_action_once_best_first_with_regrets(rules):
    state = SheetState.situation(rules, sheet_from_json(rules, {"ones": 2}), (3, 3, 5, 6, 3), 1)
    options = advise(state)
    assert sorted(map(repr, (o.action for o in options))) == sorted(map(repr, state.legal_actions()))
    values = [o.value for o in options]
    assert values == sorted(values, reverse=True)
    assert all(o.regret == pytest.approx(values[0] - o.value, abs=1e-12) for o in options)
    assert options[0].regret == 0
    for option in options:
        if isinstance(option.action, Keep):
            assert option.keep == tuple(sorted(state.dice[i] for i in option.action.held))
            assert option.box is option.points is option.bonus is None
        else:
            assert option.keep is None and isinstance(option.action, Score)
            assert (option.box, option.points) in {(s.box, s.points) for s in state.score_options()}


def test_values_are_final_totals_consistent_with_the_engine():
    state = verhoeff((4, 4, 4, 4, 4), 1)  # a joker: penta is open, so ordinary scoring
    options = advise(state)
    for option in options:
        after = state.apply(option.action)
        if isinstance(option.action, Score):
            # scoring ends the turn: the value is the next turn start's expected final total
            assert option.value == pytest.approx(expected_value(after), abs=1e-9)
        else:
            # a keep is worth the mean over the reroll of the best option then
            mean = sum(
                float(p) * advise(after.apply_roll(outcome))[0].value
                for outcome, p in after.chance_outcomes()
            )
            assert option.value == pytest.approx(mean, abs=1e-9)
            assert expected_value(after) == pytest.approx(option.value, abs=1e-12)
    assert expected_value(state) == options[0].value


def test_turn_start_value_is_the_solved_value_plus_the_sheet():
    rules = PENTA_SEED
    assert expected_value(SheetState.new(rules)) == pytest.approx(sheet_cache.solution(rules).start_value)
    sheet = sheet_from_json(rules, {"sixes": 30, "fives": 25, "fours": 8, "penta": 50}, 100)
    state = SheetState.situation(rules, sheet)
    assert expected_value(state) > sheet_total(rules, sheet) + 35  # the upper bonus is as good as won


def test_the_seat_to_move_is_advised_with_its_own_sheet():
    two = SheetState.new(PENTA_SEED, 2).apply_roll((6, 6, 6, 1, 2)).apply(Score("sixes"))
    two = two.apply_roll((1, 1, 2, 5, 5))
    assert two.current_player == 1
    alone = SheetState.situation(PENTA_SEED, two.sheets[1], (1, 1, 2, 5, 5), 2)
    assert [(o.action, o.value) for o in advise(two)] == [(o.action, o.value) for o in advise(alone)]


def test_chance_nodes_and_finished_games_get_no_advice():
    with pytest.raises(IllegalAction, match="rolled"):
        advise(SheetState.new(PENTA_SEED))
    state = SheetState.new(GENERALA_SEED)
    for box in GENERALA_SEED.box_ids:
        state = state.apply_roll((2, 3, 4, 5, 6)).apply(Score(box))
    assert state.is_over
    with pytest.raises(IllegalAction, match="over"):
        advise(state)
    with pytest.raises(IllegalAction, match="over"):
        expected_value(state)


def test_ranked_options_are_frozen():
    option = advise(verhoeff())[0]
    assert isinstance(option, RankedOption)
    with pytest.raises(AttributeError):
        option.value = 0.0
