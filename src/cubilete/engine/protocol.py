"""The one state API that every game implements and every player, solver and app uses.

A state is a frozen value. At each point either chance acts (`is_chance`: the
next step is a roll of `dice_to_roll` dice) or `current_player` acts with one
of `legal_actions()`. Nothing mutates: `apply` and `apply_roll` return new
states and raise a typed error, leaving the old state as it was, when the
request is not allowed.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any, Protocol

from .actions import Action
from .dice import Dice


class GameState(Protocol):
    @property
    def game(self) -> str: ...
    @property
    def num_players(self) -> int: ...
    @property
    def current_player(self) -> int | None:
        """The seat to act or to roll, None once the game is over."""
    @property
    def is_over(self) -> bool: ...
    @property
    def is_chance(self) -> bool:
        """True when the next step is a roll of `dice_to_roll` dice."""
    @property
    def dice_to_roll(self) -> int: ...

    def chance_outcomes(self) -> tuple[tuple[Dice, Fraction], ...]:
        """Every possible roll (sorted values) with its exact probability."""

    def apply_roll(self, dice: Sequence[int]) -> GameState:
        """The state after the pending roll shows these dice (in the order rolled)."""

    def legal_actions(self) -> tuple[Action, ...]:
        """Every legal action of the current player, each distinct choice once."""

    def apply(self, action: Action, seat: int | None = None) -> GameState:
        """The state after the action; with `seat`, refuse if that seat is not to move."""

    def scores(self) -> tuple[int, ...]:
        """Each seat's score now (the final scores once the game is over)."""

    def ranking(self) -> tuple[int, ...]:
        """Each seat's place, 1 = first, equal scores sharing a place."""

    def to_json(self) -> dict[str, Any]: ...
