"""Player actions, shared by every game, and their stable JSON form."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Union

from .errors import InvalidRecord


@dataclass(frozen=True)
class Keep:
    """Sheet games: hold the dice at these positions (0-4) and roll the others."""

    held: tuple[int, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "held", tuple(sorted(self.held)))


@dataclass(frozen=True)
class Score:
    """Sheet games: write the current dice into this box, ending the turn."""

    box: str


@dataclass(frozen=True)
class Roll:
    """5000: roll the dice that have not scored yet."""


@dataclass(frozen=True)
class Bank:
    """5000: add the turn's points to the score, ending the turn."""


@dataclass(frozen=True)
class SetAside:
    """5000 with free set-aside: keep these scoring dice (positions in the last roll)."""

    held: tuple[int, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "held", tuple(sorted(self.held)))


Action = Union[Keep, Score, Roll, Bank, SetAside]


def action_to_json(action: Action) -> dict[str, Any]:
    if isinstance(action, Keep):
        return {"type": "keep", "held": list(action.held)}
    if isinstance(action, SetAside):
        return {"type": "set_aside", "held": list(action.held)}
    if isinstance(action, Score):
        return {"type": "score", "box": action.box}
    if isinstance(action, Roll):
        return {"type": "roll"}
    if isinstance(action, Bank):
        return {"type": "bank"}
    raise InvalidRecord("invalid_record", what="action", detail=repr(action))


def _positions(data: dict[str, Any]) -> tuple[int, ...]:
    held = data.get("held")
    if not isinstance(held, list) or not all(
        isinstance(i, int) and not isinstance(i, bool) for i in held
    ):
        raise InvalidRecord("action_held")
    return tuple(held)


def action_from_json(data: Any) -> Action:
    """Parse an action; raises InvalidRecord with a clear message on malformed input."""
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise InvalidRecord("action_object")
    kind = data["type"]
    if kind == "keep":
        return Keep(_positions(data))
    if kind == "set_aside":
        return SetAside(_positions(data))
    if kind == "score":
        if not isinstance(data.get("box"), str):
            raise InvalidRecord("action_box")
        return Score(data["box"])
    if kind == "roll":
        return Roll()
    if kind == "bank":
        return Bank()
    raise InvalidRecord("action_type", type=kind)
