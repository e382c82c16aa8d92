"""The review's walk through a game, the part every family shares: it grades each decision by its
loss and keeps each reviewed seat's running sums (review.py says what they mean). A family's walk
(its analysis module) values the states and ranks the options."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from ..engine.actions import Action
from ..engine.runner import Match
from .findings import Review, ReviewedDecision, SeatReview

LOSS_EPSILON = 1e-9

# Upper limits of best, inaccuracy and mistake (a larger loss is a blunder), in the game's unit.
# Sheet games, expected points: under 0.01 is rounding-level, nobody can tell it from the best;
# under 1 point is a slip a good player makes now and then (Verhoeff's good players lose under
# 0.2 per choice on average); under 5 points is a real mistake; 5 or more costs as much as a
# good player's whole game and is a blunder.
# 5000, win probability: under 0.1 percentage point is invisible over a game; under 1 point
# an inaccuracy; under 5 points a mistake; 5 points or more of the chance to win a blunder.
CLASS_LIMITS = {
    "points": ((0.01, "best"), (1.0, "inaccuracy"), (5.0, "mistake")),
    "win_probability": ((0.001, "best"), (0.01, "inaccuracy"), (0.05, "mistake")),
}
BLUNDER = "blunder"

State = TypeVar("State")  # the family's state type


def loss_class(loss: float, unit: str) -> str:
    return next((name for limit, name in CLASS_LIMITS[unit] if loss < limit), BLUNDER)


@dataclass
class Tally:
    """One seat's running sums while the game is walked."""

    start: float
    value: float
    luck: float = 0.0
    losses: float = 0.0
    others: float = 0.0
    decisions: int = 0


@dataclass
class Walk(ABC, Generic[State]):
    """The game walked event by event; a family's walk values its states and ranks its options."""

    reviewed: Sequence[int]
    tallies: dict[int, Tally] = field(default_factory=dict)
    decisions: list[ReviewedDecision] = field(default_factory=list)
    unit = "points"
    estimate = False

    @abstractmethod
    def rolled(self, before: State, after: State) -> None:
        """Account for a roll from `before` to `after`."""

    @abstractmethod
    def acted(self, index: int, state: State, action: Action, after: State, chosen_by_seat: bool) -> None:
        """Account for the action of event `index`, from `state` to `after` (`chosen_by_seat`:
        the seat's own decision, not the computer's when its clock ran out)."""

    @abstractmethod
    def result(self, match: Match, state: State) -> Review:
        """The review, once the walk has reached `state` (the last state of `match`)."""

    def decide(self, index: int, seat: int, dice: tuple[int, ...], action: Action,
               values: Callable[[], tuple[float, float, Action, int]], chosen_by_seat: bool) -> float:
        """Record the decision of the reviewed mover `seat` (if it chose), with the dice on the table
        when deciding; return the chosen option's value.

        values() gives (chosen value, best value, best action, number of options).
        """
        chosen, best, best_action, options = values()
        if options > 1 and chosen_by_seat:
            loss = max(0.0, best - chosen)
            loss = 0.0 if loss < LOSS_EPSILON else loss
            self.decisions.append(ReviewedDecision(
                index, seat, dice, action, best_action, chosen, best, loss, loss_class(loss, self.unit)))
            tally = self.tallies[seat]
            tally.losses += loss
            tally.decisions += 1
        return chosen

    def seat_reviews(self, match: Match, final: Callable[[int], float], others: bool) -> tuple[SeatReview, ...]:
        reviews = []
        for seat in self.reviewed:
            tally = self.tallies[seat]
            end = final(seat)
            luck = tally.luck if others else end - tally.start + tally.losses
            reviews.append(SeatReview(
                seat, match.names[seat], tally.decisions, tally.losses, tally.start, end,
                luck, 0.0 - tally.losses, tally.others if others else None))
        return tuple(reviews)
