"""The exact two-player 5000 solver against a plain brute force, its tables, and its disk cache.

The brute force is written independently of the solver: value iteration over
the engine's own states (every roll outcome, every legal action), valuing
P(seat 0 wins) with max for seat 0 and min for seat 1, on reduced games.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from cubilete.engine.actions import Bank
from cubilete.engine.dice import DICE_COUNT
from cubilete.engine.five_thousand import (
    FIVE_THOUSAND_FREE_SET_ASIDE,
    FIVE_THOUSAND_SEED,
    FIVE_THOUSAND_THREE_ONES_1000,
    FiveThousandState,
    Phase,
)
from cubilete.solvers import table_cache
from cubilete.solvers.five_thousand import cache
from cubilete.solvers.five_thousand.exact import TOLERANCE, solve
from cubilete.solvers.five_thousand.tables import UnsupportedRules, roll_table

SMALL = replace(FIVE_THOUSAND_SEED, name="small", target=400, entry=200)
SMALL_FREE = replace(FIVE_THOUSAND_FREE_SET_ASIDE, name="small-free", target=200, entry=100)


def brute_force(rules, beyond_target=300):
    """P(seat 0 wins) at every state reachable from a new two-player game, by plain iteration.

    Turn points are unbounded, so a pending roll holding more than target + beyond_target is
    replaced by the bust it is equivalent to: from there no bank can change a score.
    """
    index, states, chance, choice = {}, [], [], []

    def node(state):
        if state.phase is Phase.ROLL and state.turn_points > rules.target + beyond_target:
            state = next(after for dice, _ in state.chance_outcomes()
                         if (after := state.apply_roll(dice)).phase is Phase.ROLL)
        held = state.last_roll if state.phase is Phase.SET_ASIDE else ()
        key = (state.totals, state.current, state.turn_points, state.dice_left, state.phase, held)
        if key not in index:
            index[key] = len(states)
            states.append(state)
        return index[key]

    node(FiveThousandState.new(rules, 2))
    for number, state in enumerate(states):  # grows while it is walked
        if state.is_chance:
            chance += [(number, node(state.apply_roll(d)), float(p)) for d, p in state.chance_outcomes()]
        elif not state.is_over:
            choice += [(number, node(state.apply(action))) for action in state.legal_actions()]
    values = np.array([float(state.winner == 0) for state in states])
    sign = np.array([1.0 if state.current == 0 else -1.0 for state in states])
    is_chance = np.array([state.is_chance for state in states])
    c_from, c_to, c_p = (np.array(column) for column in zip(*chance, strict=True))
    choice.sort()
    k_from, k_to = (np.array(column) for column in zip(*choice, strict=True))
    first = np.flatnonzero(np.r_[True, k_from[1:] != k_from[:-1]])
    owner = k_from[first]
    for _ in range(100_000):
        new = values.copy()
        new[is_chance] = np.bincount(c_from, c_p * values[c_to], minlength=len(states))[is_chance]
        new[owner] = sign[owner] * np.maximum.reduceat(sign[k_from] * values[k_to], first)
        change = np.abs(new - values).max()
        values = new
        if change < 1e-14:
            break
    return states, values


@pytest.mark.parametrize("rules", [SMALL, SMALL_FREE], ids=lambda rules: rules.name)
def test_solver_matches_brute_force_at_every_reachable_decision(rules):
    solution = solve(rules)
    assert solution.residual < TOLERANCE
    states, values = brute_force(rules)
    checked = 0
    for state, value in zip(states, values, strict=True):
        if state.is_over or state.phase is Phase.SET_ASIDE:
            continue
        mover_wins = value if state.current == 0 else 1 - value
        table = solution.turn_table(state.totals, state.current)
        if state.phase is Phase.DECIDE:
            ours = table.decide_value(state.turn_points, state.dice_left)
        elif state.turn_points == 0:
            ours = solution.start[state.totals[state.current] // 100, state.totals[1 - state.current] // 100]
        else:
            ours = table.roll_value(state.turn_points, state.dice_left)
        assert ours == pytest.approx(mover_wins, abs=1e-9), state
        checked += 1
    assert checked > 500


def test_banking_is_valued_exactly_where_the_engine_allows_it():
    solution = solve(SMALL)
    for scores in [(0, 0), (0, 300), (100, 0), (300, 300), (200, 100)]:
        table = solution.turn_table(scores, 0)
        for points in range(50, SMALL.target + 400, 50):
            point = FiveThousandState.decision_point(SMALL, scores, 0, points, DICE_COUNT)
            allowed = Bank() in point.legal_actions()
            if points <= SMALL.target:
                assert np.isnan(table.bank_value(points)) != allowed, (scores, points)
            elif allowed:  # banking above the target only passes the turn, as does rolling on
                assert table.bank_value(points) == table.roll_value(points, DICE_COUNT)


def test_roll_table_probabilities_sum_to_one_for_every_dice_count():
    for rules in (FIVE_THOUSAND_SEED, FIVE_THOUSAND_THREE_ONES_1000, FIVE_THOUSAND_FREE_SET_ASIDE):
        table = roll_table(rules)
        for dice in range(1, DICE_COUNT + 1):
            groups = slice(table.group_start[dice], table.group_start[dice + 1])
            assert table.bust[dice] + table.group_prob[groups].sum() == pytest.approx(1, abs=1e-12)
    # Five dice bust on 2,2,3,4,6-like rolls only: 600 of 7776 ordered outcomes.
    assert roll_table(FIVE_THOUSAND_SEED).bust[5] == pytest.approx(600 / 7776)


def test_rules_that_leave_the_grid_of_fifties_are_refused():
    with pytest.raises(UnsupportedRules, match="multiple of 50"):
        roll_table(replace(FIVE_THOUSAND_SEED, name="fives-25", single_five=25))


def test_the_full_game_solves_and_mirrors_sensibly(solver_cache_dir):
    solution = cache.two_player_solution(FIVE_THOUSAND_SEED)
    assert solution.residual < TOLERANCE
    assert 0.5 < solution.first_player_wins < 0.55
    start = solution.start
    assert np.all((0 < start) & (start < 1))
    # Being ahead is better: from 4000 against 0 the mover is a clear favourite.
    assert start[40, 0] > 0.8 > 0.2 > start[0, 40]


def test_cache_is_written_once_then_loaded(solver_cache_dir, monkeypatch):
    rules = replace(SMALL, name="cached")
    first = cache.two_player_solution(rules)
    path = cache.cache_path(rules)
    assert path.parent == solver_cache_dir and path.exists()
    table_cache.forget_loaded()
    monkeypatch.setattr(cache, "solve", lambda *args: pytest.fail("solved again instead of loading"))
    loaded = cache.two_player_solution(rules)
    assert loaded.first_player_wins == first.first_player_wins
    np.testing.assert_array_equal(loaded.roll, first.roll)


def test_a_damaged_or_foreign_cache_file_is_not_used(solver_cache_dir):
    rules = replace(SMALL, name="damaged")
    path = cache.cache_path(rules)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"not a table")
    assert cache.load(rules, path) is None
    with open(path, "wb") as stream:
        cache.save(solve(rules), stream)
    assert cache.load(rules, path) is not None
    assert cache.load(replace(rules, entry=100), path) is None  # another rule set's table
