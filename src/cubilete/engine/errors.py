"""Typed errors of the rules engine.

Every error carries a stable code and its parameters (`IllegalAction("box_used", box="chance")`);
its English text is built from them (refusals.py) and apps translate the same code. The state
that refused the request is never changed (states are frozen).

Every error of the engine is also a `ValueError`: each refuses a value it was given (an action
this state does not allow, or a seat that is not to move; dice that cannot occur; a game, rule
set or player level that does not exist; JSON that is not a record), so a caller may catch
`ValueError` as for any Python function. The base class is not one: the apps' refusals that
are not about a value (a wrong token, a stale request, a game that is not there, a save that
failed) derive from `CubileteError` alone.
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


class IllegalAction(CubileteError, ValueError):
    """The action is not allowed in this state (a used box, banking when a roll is forced...)."""


class NotYourTurn(IllegalAction):
    """A seat tried to act while another seat is to move."""


class InvalidDice(CubileteError, ValueError):
    """Dice values or counts that cannot occur (a 7, six dice, a die index out of range)."""


class UnknownGame(CubileteError, ValueError):
    """A game id that cubilete does not know."""


class UnknownVariant(CubileteError, ValueError):
    """A rule-set name that the game does not have."""


class InvalidRecord(CubileteError, ValueError):
    """JSON that does not describe a state, an action, a sheet or a game record."""


class UnknownBox(IllegalAction, InvalidRecord):
    """A box name that the rule set does not have (as an action or in a sheet)."""
