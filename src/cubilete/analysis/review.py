"""Review a game move by move: each decision beside the optimal one, its loss, and luck against skill.

Values. A seat's value at any moment is what the optimal player expects from there:
- Penta and Generala: the seat's expected final total under solitaire-optimal play
  (solvers.sheet.advice; the seats' sheets do not interact, so each seat has its own).
- 5000: the seat's chance to win, exact with two players (the two-player table); with more,
  the strong player's estimate (the review says `estimate`).

A decision is a moment where the seat to move had more than one legal action (a forced move
costs nothing and would only dilute the mean) and chose itself: a step the computer played
for the seat when its turn clock ran out (an event `by_clock`) is not its decision. Its
loss is the best option's value minus the chosen one's, never negative, and 0 when below
LOSS_EPSILON (the same action, or one as good).

Luck against skill. Follow one seat's value from the start of the game (`start`) to now
(`final`: the final total, or 1 for the winner and 0 for the others, once the game is over):
- luck: the sum over every roll of the seat's value after the roll minus before it. Values
  are expectations over the dice, so the luck of each roll averages 0: it is what the dice
  gave or took.
- skill: minus the sum of the seat's losses (at most 0): what its own decisions cost.
- others: the sum of the changes the other seats' decisions made to this seat's value. In
  the sheet games it is always 0; in two-player 5000 it is the opponent's losses (a mistake
  of theirs raises this seat's chance).
Then start + luck + skill + others = final, up to rounding (about 1e-9 per decision). In 5000
with more than two players the estimate gives no value to a seat that is not moving, so
`others` is None and luck is the rest: final - start - skill (dice and opponents together).

Classes: a decision is best, inaccuracy, mistake or blunder by its loss (CLASS_LIMITS).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..engine.actions import Action, Keep, action_to_json
from ..engine.events import RollEvent, replay
from ..engine.five_thousand import FiveThousandState
from ..engine.games import family_of
from ..engine.runner import Match
from ..engine.sheet import SheetState
from ..solvers.five_thousand.advice import action_value, mover_value, rank_five_thousand
from ..solvers.five_thousand.cache import two_player_solution
from ..solvers.five_thousand.estimate import win_chances
from ..solvers.five_thousand.optimal import OptimalValues
from ..solvers.sheet.advice import RankedOption, advise
from ..solvers.sheet.cache import solution

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


def loss_class(loss: float, unit: str) -> str:
    return next((name for limit, name in CLASS_LIMITS[unit] if loss < limit), BLUNDER)


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


def review_record(record: Any, seats: Iterable[int] | None = None) -> Review:
    """Review a match record (Match.to_json); InvalidRecord if it does not replay."""
    return review(Match.from_json(record), seats)


def review(match: Match, seats: Iterable[int] | None = None) -> Review:
    """Review the decisions of these seats (all seats by default) of a match, finished or not."""
    reviewed = sorted(set(range(match.initial.num_players) if seats is None else seats))
    walk: _Walk = WALKS[family_of(match.rules.game).id](match.initial, reviewed)
    state: Any = match.initial  # a SheetState or a FiveThousandState, as the walk expects
    for index, (event, after) in enumerate(zip(match.events, replay(match.initial, match.events))):
        if isinstance(event, RollEvent):
            walk.rolled(state, after)
        else:
            walk.acted(index, state, event.action, after, chosen_by_seat=not event.by_clock)
        state = after
    return walk.result(match, state)


@dataclass
class _Tally:
    """One seat's running sums while the game is walked."""

    start: float
    value: float
    luck: float = 0.0
    losses: float = 0.0
    others: float = 0.0
    decisions: int = 0


@dataclass
class _Walk:
    """The game walked event by event; the game-specific parts value states and rank options."""

    reviewed: Sequence[int]
    tallies: dict[int, _Tally] = field(default_factory=dict)
    decisions: list[ReviewedDecision] = field(default_factory=list)
    unit = "points"
    estimate = False

    def rolled(self, before: Any, after: Any) -> None:
        """Account for a roll from `before` to `after` (states of the walk's game)."""
        raise NotImplementedError

    def acted(self, index: int, state: Any, action: Action, after: Any, chosen_by_seat: bool) -> None:
        """Account for the action of event `index`, from `state` to `after` (`chosen_by_seat`:
        the seat's own decision, not the computer's when its clock ran out)."""
        raise NotImplementedError

    def result(self, match: Match, state: Any) -> Review:
        raise NotImplementedError

    @staticmethod
    def dice(state: Any) -> tuple[int, ...]:
        """The dice on the table when the decision is made."""
        raise NotImplementedError

    def decide(self, index: int, state: Any, action: Action,
               values: Callable[[], tuple[float, float, Action, int]], chosen_by_seat: bool) -> float:
        """Record the decision of the reviewed mover (if it chose); return the chosen option's value.

        values() gives (chosen value, best value, best action, number of options).
        """
        seat = state.current
        chosen, best, best_action, options = values()
        if options > 1 and chosen_by_seat:
            loss = max(0.0, best - chosen)
            loss = 0.0 if loss < LOSS_EPSILON else loss
            dice = self.dice(state)
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


class _SheetWalk(_Walk):
    """Penta and Generala: each reviewed seat's expected final total, one `advise` per decision."""

    def __init__(self, initial: SheetState, reviewed: Sequence[int]) -> None:
        super().__init__(reviewed)
        start = solution(initial.rules).start_value
        self.tallies = {seat: _Tally(start, start) for seat in reviewed}
        self.options: tuple[RankedOption, ...] = ()  # the advice of the decision about to be made

    @staticmethod
    def dice(state: SheetState) -> tuple[int, ...]:
        return state.dice

    def rolled(self, before: SheetState, after: SheetState) -> None:
        tally = self.tallies.get(before.current)
        if tally is None or after.is_chance or after.is_over:
            return
        self.options = advise(after)
        tally.luck += self.options[0].value - tally.value
        tally.value = self.options[0].value

    def acted(self, index: int, state: SheetState, action: Action, after: SheetState, chosen_by_seat: bool) -> None:
        tally = self.tallies.get(state.current)
        if tally is None:
            return

        def values() -> tuple[float, float, Action, int]:
            options = self.options or advise(state)
            chosen = next(option for option in options if same_choice(state, option, action))
            return chosen.value, options[0].value, options[0].action, len(options)

        tally.value = self.decide(index, state, action, values, chosen_by_seat)
        self.options = ()

    def result(self, match: Match, state: SheetState) -> Review:
        rules = match.rules
        players = self.seat_reviews(match, lambda seat: self.tallies[seat].value, others=True)
        return Review(rules.game, rules.name, self.unit, False, state.is_over, players, tuple(self.decisions))


def same_choice(state: SheetState, option: RankedOption, action: Action) -> bool:
    """Whether the option is the action: keeps by the values held, whatever their positions."""
    if isinstance(action, Keep):
        return option.keep == tuple(sorted(state.dice[i] for i in action.held))
    return option.action == action


class _FiveThousandWalk(_Walk):
    """5000: each seat's chance to win, exact with two players, estimated with more."""

    unit = "win_probability"

    @staticmethod
    def dice(state: FiveThousandState) -> tuple[int, ...]:
        return state.last_roll

    def __init__(self, initial: FiveThousandState, reviewed: Sequence[int]) -> None:
        super().__init__(reviewed)
        self.values = OptimalValues()
        self.solution = two_player_solution(initial.rules)
        self.exact = initial.num_players == 2
        self.estimate = not self.exact
        self.seats = initial.num_players
        start = self.chances(initial)
        self.tallies = {seat: _Tally(start[seat], start[seat]) for seat in reviewed}

    def chances(self, state: FiveThousandState) -> tuple[float, ...]:
        """Every seat's chance to win. With more than two players, exact only at the end: the
        mover's is its plan's value, the other seats' the estimate at their scores."""
        if state.is_over:
            return tuple(float(seat == state.winner) for seat in range(self.seats))
        table, _ = self.values.turn_table(state)
        mover = mover_value(state, table)
        if self.exact:
            return tuple(mover if seat == state.current else 1.0 - mover for seat in range(2))
        estimate = win_chances(self.solution, state)
        return tuple(mover if seat == state.current else estimate[seat] for seat in range(self.seats))

    def rolled(self, before: FiveThousandState, after: FiveThousandState) -> None:
        if not self.exact:
            return  # luck is the rest (module docstring)
        now = self.chances(after)
        for seat, tally in self.tallies.items():
            tally.luck += now[seat] - tally.value
            tally.value = now[seat]

    def acted(
        self, index: int, state: FiveThousandState, action: Action, after: FiveThousandState, chosen_by_seat: bool
    ) -> None:
        mover = state.current
        if mover in self.tallies:

            def values() -> tuple[float, float, Action, int]:
                advice = rank_five_thousand(state, self.values)
                # valued by its effect: a set-aside may name other positions of the same dice
                chosen = action_value(state, self.values.turn_table(state)[0], action)
                return chosen, advice.value, advice.options[0].action, len(advice.options)

            self.decide(index, state, action, values, chosen_by_seat)
        if not self.exact:
            return
        now = self.chances(after)
        for seat, tally in self.tallies.items():
            if seat != mover:
                tally.others += now[seat] - tally.value
            tally.value = now[seat]

    def result(self, match: Match, state: FiveThousandState) -> Review:
        rules = match.rules
        final = self.chances(state)
        players = self.seat_reviews(match, lambda seat: final[seat], others=self.exact)
        return Review(rules.game, rules.name, self.unit, self.estimate, state.is_over, players,
                      tuple(self.decisions))


# The walk of each game family (engine/games.py family ids).
WALKS: dict[str, Callable[[Any, Sequence[int]], _Walk]] = {"sheet": _SheetWalk, "five_thousand": _FiveThousandWalk}
