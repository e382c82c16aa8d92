"""analysis/ratings.py: openskill's Plackett-Luce update of a game's players by their places (golden
values: openskill's own answers, the two-player one as its documentation gives it), the provisional
rule, and the performance formula of docs/ratings.md."""

from __future__ import annotations

import math

import pytest

from cubilete.analysis.ratings import (
    PERFORMANCE_SCALES,
    PERFORMANCE_STEP,
    PERFORMANCE_TOP,
    PRIOR_DECISIONS,
    Rating,
    new_rating,
    performance,
    rate_game,
)


def test_two_new_players_move_apart_by_openskills_documented_step():
    loser, winner = rate_game([new_rating(), new_rating()], [2, 1])
    assert winner.mu == pytest.approx(27.635389493140497) and loser.mu == pytest.approx(22.364610506859503)
    assert winner.sigma == loser.sigma == pytest.approx(8.06590141354368)
    assert winner.games == loser.games == 1


def test_three_players_two_tied_first_share_one_update():
    leader, newcomer, third = rate_game([Rating(30, 5, 7), new_rating(), Rating(20, 4, 12)], [1, 1, 3])
    assert leader.mu == pytest.approx(30.060721034059288) and leader.sigma == pytest.approx(4.96297808958608)
    assert newcomer.mu == pytest.approx(25.99753494233283) and newcomer.sigma == pytest.approx(8.077911559629491)
    assert third.mu == pytest.approx(19.731223654458493) and third.sigma == pytest.approx(3.990453647196272)
    assert (leader.games, newcomer.games, third.games) == (8, 1, 13)
    assert rate_game([new_rating(), new_rating()], [1, 1])[0].mu == pytest.approx(25.0)  # a tie of equals moves no mu


def test_a_rated_game_needs_two_players_with_a_place_each():
    with pytest.raises(ValueError):
        rate_game([new_rating()], [1])
    with pytest.raises(ValueError):
        rate_game([new_rating(), new_rating()], [1])


def test_a_rating_is_provisional_until_it_has_games_and_a_settled_sigma():
    assert new_rating().provisional and Rating(25, 5.9, 4).provisional and Rating(25, 6.1, 30).provisional
    assert not Rating(25, 5.9, 5).provisional
    assert Rating(30, 4, 9).ordinal == pytest.approx(18)


def test_the_performance_formula():
    # no loss over 36 decisions: the prior's two decisions at the scale keep it just under the top
    assert performance("penta", 0.0, 36) == pytest.approx(PERFORMANCE_TOP - PERFORMANCE_STEP * math.log2(1 + PRIOR_DECISIONS / 38))
    # losing the scale at every decision pools to the scale: one step down
    assert performance("generala", PERFORMANCE_SCALES["generala"], 38) == pytest.approx(PERFORMANCE_TOP - PERFORMANCE_STEP)
    # 5000 (scale 0.0012, a chance to win): 18 decisions losing 0.006 each pool with the prior's 2 at the
    # scale into (0.108 + 0.0024) / 20 = 0.00552, 4.6 scales: 2500 - 400 log2(5.6)
    assert PERFORMANCE_SCALES["5000"] == 0.0012
    assert performance("5000", 0.006, 18) == pytest.approx(2500 - 400 * math.log2(5.6))
    assert performance("penta", 1000.0, 1) == 0.0  # never negative
    assert performance("penta", 0.0, 0) == pytest.approx(PERFORMANCE_TOP - PERFORMANCE_STEP)  # no evidence: the prior
    with pytest.raises(ValueError):
        performance("penta", -0.1, 10)
