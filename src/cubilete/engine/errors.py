"""Typed errors of the rules engine.

Every error carries a stable code and its parameters (`IllegalAction("box_used", box="chance")`);
its English text is built from them (refusals.py) and apps translate the same code. The state
that refused the request is never changed (states are frozen).
"""

from __future__ import annotations

from typing import Any

from .refusals import english


class CubileteError(Exception):
    """Base class of every error cubilete raises on purpose."""

    def __init__(self, code: str, /, **params: Any) -> None:
        self.code = code
        self.params = params
        super().__init__(english(code, params))


class IllegalAction(CubileteError):
    """The action is not allowed in this state (a used box, banking when a roll is forced...)."""


class NotYourTurn(IllegalAction):
    """A seat tried to act while another seat is to move."""


class InvalidDice(CubileteError):
    """Dice values or counts that cannot occur (a 7, six dice, a die index out of range)."""


class UnknownGame(CubileteError):
    """A game id that cubilete does not know."""


class UnknownVariant(CubileteError):
    """A rule-set name that the game does not have."""


class InvalidRecord(CubileteError):
    """JSON that does not describe a state, an action, a sheet or a game record."""


class UnknownBox(IllegalAction, InvalidRecord):
    """A box name that the rule set does not have (as an action or in a sheet)."""
