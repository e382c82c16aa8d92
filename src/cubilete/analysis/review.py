"""Review a game move by move: each decision beside the optimal one, its loss, and luck against skill.

Values. A seat's value at any moment is what the optimal player expects from there: in the
score-sheet games its expected final total, in 5000 its chance to win. Each family's module
(sheet.py, five_thousand.py) walks its games, valuing their states and ranking their options.

A decision is a moment where the seat to move had more than one legal action (a forced move
costs nothing and would only dilute the mean) and chose itself: a step the computer played
for the seat when its turn clock ran out (an event `by_clock`), or after its player handed the
seat to the computer (`computer_from`), is not its decision. Its
loss is the best option's value minus the chosen one's, never negative, and 0 when below
walk.LOSS_EPSILON (the same action, or one as good).

Luck against skill. Follow one seat's value from the start of the game (`start`) to now
(`final`: the final total, or 1 for the winner and 0 for the others, once the game is over):
- luck: the sum over every roll of the seat's value after the roll minus before it. Values
  are expectations over the dice, so the luck of each roll averages 0: it is what the dice
  gave or took.
- skill: minus the sum of the seat's losses (at most 0): what its own decisions cost.
- others: the sum of the changes the other seats' decisions made to this seat's value. In
  the sheet games it is always 0; in two-player 5000 it is the opponent's losses (a mistake
  of theirs raises this seat's chance).
Then start + luck + skill + others = final, up to rounding (about 1e-9 per decision). When the
values give nothing to a seat that is not moving (5000 with more than two players), `others` is
None and luck is the rest: final - start - skill (dice and opponents together).

Classes: a decision is best, inaccuracy, mistake or blunder by its loss (walk.CLASS_LIMITS).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ..engine.events import RollEvent, replay
from ..engine.runner import Match
from .families import family_analysis
from .findings import Review


def review_record(record: Any, seats: Iterable[int] | None = None) -> Review:
    """Review a match record (Match.to_json); InvalidRecord if it does not replay."""
    return review(Match.from_json(record), seats)


def review(match: Match, seats: Iterable[int] | None = None, computer_from: Mapping[int, int] | None = None) -> Review:
    """Review the decisions of these seats (all seats by default) of a match, finished or not;
    `computer_from`: for a seat handed to the computer, the index of the first event it played."""
    handed = computer_from or {}
    reviewed = sorted(set(range(match.initial.num_players) if seats is None else seats))
    walk = family_analysis(match.rules.game).walk(match.initial, reviewed)
    state = match.initial
    for index, (event, after) in enumerate(zip(match.events, replay(match.initial, match.events))):
        if isinstance(event, RollEvent):
            walk.rolled(state, after)
        else:
            by_computer = event.by_clock or index >= handed.get(event.seat, index + 1)
            walk.acted(index, state, event.action, after, chosen_by_seat=not by_computer)
        state = after
    return walk.result(match, state)
