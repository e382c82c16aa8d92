"""Ratings between profiles and the performance of one seat's game: pure functions (docs/ratings.md).

A rating is openskill's Plackett-Luce model: a skill mu with its uncertainty sigma, one per profile and
game. A finished game updates the ratings of its profiles by their places (ties share a place). A
performance is our own figure for one seat's game, from its review alone: the mean loss per decision
and how many decisions it made, on a scale where the optimal player sits near PERFORMANCE_TOP.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

# Provisional until it settles: openskill starts at sigma 25/3 and a two-seat game takes about a
# twentieth off it, so six games of two seats (fewer, with more seats) bring it under the limit.
PROVISIONAL_SIGMA = 6.0
PROVISIONAL_GAMES = 5  # and never before this many rated games, whatever sigma says

# The performance scale (docs/ratings.md): PERFORMANCE_TOP for no loss at all; each doubling of
# (1 + mean loss / the game's scale) costs PERFORMANCE_STEP.
PERFORMANCE_TOP = 2500.0
PERFORMANCE_STEP = 400.0
# Each game's scale: the mean loss per decision, in the review's unit (sheet games: expected points;
# 5000: chance to win), that costs one step. Calibrated so that the computer's beginner level averages
# 1500 in every game (benchmarks/performance_levels.py, 1000 games a level: docs/ratings.md), so that a
# figure reads the same on every game's board: beginner 1500, the optimal player near the top.
# Yahtzee, Yatzy and Kniffel are not calibrated yet: Penta's scale, whose sheet they share nearly box for box.
PERFORMANCE_SCALES = {"penta": 0.49, "generala": 0.35, "5000": 0.0012, "yahtzee": 0.49, "yatzy": 0.49, "kniffel": 0.49}
# A game of few decisions proves little: its losses are pooled with this many decisions lost at the
# game's scale (a perfect game of n decisions stays log2(1 + PRIOR / (n + PRIOR)) steps under the top).
PRIOR_DECISIONS = 2.0

_MODEL = PlackettLuce()


@dataclass(frozen=True)
class Rating:
    mu: float
    sigma: float
    games: int = 0

    @property
    def ordinal(self) -> float:
        """What boards rank by: a skill the player is very likely (3 sigma) to have at least."""
        return self.mu - 3 * self.sigma

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES or self.sigma > PROVISIONAL_SIGMA


def new_rating() -> Rating:
    """The rating of a profile that has played no rated game: openskill's default."""
    return Rating(_MODEL.mu, _MODEL.sigma)


def rate_game(ratings: Sequence[Rating], places: Sequence[int]) -> tuple[Rating, ...]:
    """Every player's rating after a finished game, given before it, by places (1 the first; equal
    places tie). Each player is a team of one; at least two players."""
    if len(ratings) < 2 or len(ratings) != len(places):
        raise ValueError("a rated game needs a place for each of two players or more")
    teams = [[_MODEL.create_rating([rating.mu, rating.sigma])] for rating in ratings]
    updated = _MODEL.rate(teams, ranks=[float(place) for place in places])
    return tuple(Rating(team[0].mu, team[0].sigma, rating.games + 1) for team, rating in zip(updated, ratings))


def performance(game: str, mean_loss: float, decisions: int) -> float:
    """The performance of one seat's game from its review: its mean loss per decision over `decisions`."""
    if decisions < 0 or mean_loss < 0:
        raise ValueError("a review has no negative losses or decision counts")
    scale = PERFORMANCE_SCALES[game]
    pooled = (mean_loss * decisions + PRIOR_DECISIONS * scale) / (decisions + PRIOR_DECISIONS)
    return max(0.0, PERFORMANCE_TOP - PERFORMANCE_STEP * math.log2(1 + pooled / scale))
