"""What the analysis says about a game, with its JSON for the apps: a review (each decision graded,
each seat's luck against skill; review.py) and an outlook (each seat's chances at one moment;
outlook.py)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..engine.actions import Action, action_to_json


@dataclass(frozen=True)
class ReviewedDecision:
    index: int  # the event's index in the record
    seat: int
    dice: tuple[int, ...]  # the dice on the table when deciding (5000: the last roll)
    chosen: Action
    best: Action
    chosen_value: float
    best_value: float
    loss: float
    loss_class: str

    def to_json(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "seat": self.seat,
            "dice": list(self.dice),
            "chosen": action_to_json(self.chosen),
            "best": action_to_json(self.best),
            "loss": self.loss,
            "class": self.loss_class,
            "chosen_value": self.chosen_value,
            "best_value": self.best_value,
        }


@dataclass(frozen=True)
class SeatReview:
    seat: int
    name: str
    decisions: int
    total_loss: float
    start: float
    final: float
    luck: float
    skill: float
    others: float | None

    @property
    def mean_loss(self) -> float:
        return self.total_loss / self.decisions if self.decisions else 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "name": self.name,
            "decisions": self.decisions,
            "mean_loss": self.mean_loss,
            "total_loss": self.total_loss,
            "luck": self.luck,
            "skill": self.skill,
            "others": self.others,
            "start": self.start,
            "final": self.final,
        }


@dataclass(frozen=True)
class Review:
    game: str
    rules: str
    unit: str  # "points" (expected final total) or "win_probability"
    estimate: bool  # True when the values are the strong player's estimates
    finished: bool
    players: tuple[SeatReview, ...]
    decisions: tuple[ReviewedDecision, ...]

    def costliest(self, seat: int, count: int = 3) -> tuple[ReviewedDecision, ...]:
        """The seat's decisions that cost most, costliest first (only those that cost anything)."""
        mine = [d for d in self.decisions if d.seat == seat and d.loss > 0]
        return tuple(sorted(mine, key=lambda d: -d.loss)[:count])

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "rules": self.rules,
            "unit": self.unit,
            "estimate": self.estimate,
            "finished": self.finished,
            "players": [player.to_json() for player in self.players],
            "decisions": [decision.to_json() for decision in self.decisions],
        }


@dataclass(frozen=True)
class Outlook:
    unit: str  # "points": expected final totals; "win_probability": chances to win (finish first)
    estimate: bool  # True when the values are the strong player's estimates
    scores: tuple[int, ...]  # each seat's total now
    values: tuple[float, ...]  # each seat's expected final total, or chance to win
    expected: tuple[float, ...] | None = None  # beside chances: each seat's expected final total

    def to_json(self) -> dict[str, Any]:
        seats = [
            {"seat": seat, "score": score, "value": value}
            for seat, (score, value) in enumerate(zip(self.scores, self.values))
        ]
        if self.expected is not None:
            for seat, expected in zip(seats, self.expected):
                seat["expected"] = expected
        return {"unit": self.unit, "estimate": self.estimate, "seats": seats}
