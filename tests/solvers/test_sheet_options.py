"""The array path of advice (solvers.sheet.options) against the engine: every option, value and tie.

`reference_advice` ranks a situation the plain way, from the engine's own
`legal_actions` and `score_options` and the turn's expected values, one Python
float at a time (what `advise` did before it read the arrays). The compiled path
must give exactly the same options, values (to the last bit) and order, one
situation at a time and many at once.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cubilete.engine.actions import Keep, Score
from cubilete.engine.errors import IllegalAction
from cubilete.engine.sheet import SheetState
from cubilete.engine.sheet_rules import (
    GENERALA_LIBRE_WITHOUT_COMBINATION,
    GENERALA_SEED,
    PENTA_FORCED,
    PENTA_FREE,
    PENTA_SEED,
    SheetRules,
)
from cubilete.engine.sheet_scoring import Sheet, possible_points, sheet_total
from cubilete.solvers.dice_lattice import keep_indices
from cubilete.solvers.sheet import cache as sheet_cache
from cubilete.solvers.sheet.advice import advise, best_action, expected_value, turn_arrays
from cubilete.solvers.sheet.options import KEEP_SLOTS, option_values, position

RULES = (PENTA_FORCED, PENTA_FREE, PENTA_SEED, GENERALA_SEED, GENERALA_LIBRE_WITHOUT_COMBINATION)


def reference_advice(state: SheetState) -> list[tuple[object, ...]]:
    """(action, keep, box, points, bonus, value) of every legal action, best first, ties in
    legal_actions order."""
    solved = sheet_cache.solution(state.rules)
    (mask, joker, upper), now = position(solved, state.sheet)
    futures, expect = turn_arrays(solved, mask, joker, upper)
    options: list[tuple[object, ...]] = []
    for action in state.legal_actions():
        if isinstance(action, Keep):
            kept = tuple(sorted(state.dice[i] for i in action.held))
            value = now + float(expect[state.rolls_left, keep_indices()[kept]])
            options.append((action, kept, None, None, None, value))
    for option in state.score_options():
        future = futures[state.rules.box_index(option.box), option.points]
        value = now + option.points + option.bonus + float(future)
        options.append((Score(option.box), None, option.box, option.points, option.bonus, value))
    return sorted(options, key=lambda option: -option[-1])  # type: ignore[operator]


@st.composite
def situations(draw: st.DrawFn, rule_sets: tuple[SheetRules, ...] = RULES) -> SheetState:
    """A sheet with some boxes filled with points they can hold, dice on the table, rolls left."""
    rules = draw(st.sampled_from(rule_sets))
    boxes = len(rules.boxes)
    filled = draw(st.sets(st.integers(0, boxes - 1), max_size=boxes - 1))
    sheet = Sheet(
        tuple(draw(st.sampled_from(sorted(possible_points(rules, i)))) if i in filled else None for i in range(boxes)),
        draw(st.integers(0, 2)) * rules.five_equal_bonus,
    )
    dice = draw(st.lists(st.integers(1, 6), min_size=5, max_size=5))
    # five equal dice often: they are where the joker and the bonuses play
    dice = draw(st.sampled_from([dice, [dice[0]] * 5]))
    return SheetState.situation(rules, sheet, dice, draw(st.integers(0, rules.rolls_per_turn - 1)))


@settings(max_examples=300, deadline=None)
@given(situations())
def test_advise_ranks_exactly_like_the_engine_driven_reference(state):
    expected = reference_advice(state)
    options = advise(state)
    assert [(o.action, o.keep, o.box, o.points, o.bonus, o.value) for o in options] == expected
    assert [o.regret for o in options] == [expected[0][-1] - option[-1] for option in expected]
    assert best_action(state) == expected[0][0]
    assert expected_value(state) == expected[0][-1]


@settings(max_examples=60, deadline=None)
@given(st.lists(situations((PENTA_FORCED,)), min_size=1, max_size=12))
def test_many_situations_at_once_are_each_one_alone(states):
    states.append(states[0])  # the same turn twice in one call
    together = option_values(PENTA_FORCED, states)
    for i, state in enumerate(states):
        alone = option_values(PENTA_FORCED, [state])
        for field, array in zip(together._fields, together, strict=True):
            assert np.array_equal(array[i], getattr(alone, field)[0]), field
        count = int(together.counts[i])
        ranked = together.ranking[i, :count]
        assert [together.values[i, slot] for slot in ranked] == [o.value for o in advise(state)]
        assert (together.ranking[i, count:] == -1).all()


def test_slots_are_the_engines_keeps_then_the_boxes():
    state = SheetState.situation(PENTA_SEED, Sheet.empty(PENTA_SEED), (6, 1, 6, 3, 1), 2)
    options = option_values(PENTA_SEED, [state])
    legal = state.legal_actions()
    keeps = [action for action in legal if isinstance(action, Keep)]
    assert np.isfinite(options.values[0, : len(keeps)]).all()
    assert np.isneginf(options.values[0, len(keeps) : KEEP_SLOTS]).all()
    assert len(legal) == options.counts[0] == len(keeps) + len(PENTA_SEED.boxes)
    assert options.points[0].tolist() == [o.points for o in state.score_options()]


def test_values_are_final_totals():
    sheet = Sheet((3, None, 9, 12, None, 24) + (None,) * 7)
    state = SheetState.situation(PENTA_FORCED, sheet, (2, 2, 2, 5, 5), 0)
    options = option_values(PENTA_FORCED, [state])
    now = sheet_total(PENTA_FORCED, sheet)
    assert options.values[0].max() > now + 100  # a full house now, and seven boxes to come


def test_turn_starts_finished_games_and_other_rule_sets_are_refused():
    with pytest.raises(IllegalAction, match="rolled"):
        option_values(PENTA_SEED, [SheetState.new(PENTA_SEED)])
    with pytest.raises(ValueError, match="seed"):
        option_values(PENTA_FORCED, [SheetState.new(PENTA_SEED).apply_roll((1, 2, 3, 4, 5))])
    assert option_values(PENTA_SEED, []).values.shape == (0, KEEP_SLOTS + len(PENTA_SEED.boxes))
