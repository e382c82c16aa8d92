"""Player actions, shared by every game, and their stable JSON form."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .errors import InvalidRecord
from .validation import Record, describe


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


Action = Keep | Score | Roll | Bank | SetAside


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


ACTION = Record("action")
HELD_ACTIONS: dict[str, type[Keep] | type[SetAside]] = {"keep": Keep, "set_aside": SetAside}
PLAIN_ACTIONS: dict[str, type[Roll] | type[Bank]] = {"roll": Roll, "bank": Bank}


def action_from_json(data: Any) -> Action:
    """Parse an action; raises InvalidRecord with a clear message on malformed input."""
    kind = ACTION.text(ACTION.fields(data, ("type",), ("held", "box"))["type"], "type")
    if kind in HELD_ACTIONS:
        ACTION.fields(data, ("type", "held"))
        return HELD_ACTIONS[kind](ACTION.positions(data["held"], "held"))
    if kind == "score":
        return Score(ACTION.text(ACTION.fields(data, ("type", "box"))["box"], "the box"))
    if kind in PLAIN_ACTIONS:
        ACTION.fields(data, ("type",))
        return PLAIN_ACTIONS[kind]()
    raise ACTION.refuse(f"type must be keep, score, roll, bank or set_aside, not {describe(kind)}")
