"""Checks for JSON records: every loader refuses what the engine could not have written.

A `Record` names one kind of record ("score-sheet state", "game record"...) and each of
its checks either returns the value in its engine form or raises
`InvalidRecord("invalid_record", what=<the kind>, detail=<what is wrong>)`. JSON has no
separate bool and int in Python (`True` is an int), so integers here never accept bools.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from enum import Enum
from typing import Any, TypeVar

from .dice import DICE_COUNT, FACES, Dice
from .errors import InvalidRecord

E = TypeVar("E", bound=Enum)


@dataclass(frozen=True)
class Record:
    """The checks of one kind of record; refusals name it."""

    what: str

    def refuse(self, detail: str) -> InvalidRecord:
        return InvalidRecord("invalid_record", what=self.what, detail=detail)

    def fields(self, data: Any, required: Collection[str], optional: Collection[str] = ()) -> dict[str, Any]:
        """An object with every required key, perhaps some optional ones, and nothing else."""
        if not isinstance(data, dict):
            raise self.refuse(f"expected a JSON object, not {describe(data)}")
        missing = [key for key in required if key not in data]
        unknown = sorted(str(key) for key in data if key not in required and key not in optional)
        if missing or unknown:
            parts = [f"missing {', '.join(missing)}"] if missing else []
            parts += [f"unknown {', '.join(unknown)}"] if unknown else []
            raise self.refuse(f"fields: {'; '.join(parts)}")
        return data

    def mapping(self, value: Any, name: str) -> dict[str, Any]:
        """A JSON object, whatever its keys."""
        if not isinstance(value, dict):
            raise self.refuse(f"{name} must be a JSON object, not {describe(value)}")
        return value

    def integer(self, value: Any, name: str, low: int | None = None, high: int | None = None) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.refuse(f"{name} must be a whole number, not {describe(value)}")
        if (low is not None and value < low) or (high is not None and value > high):
            bounds = f"{low} to {high}" if low is not None and high is not None else (
                f"at least {low}" if high is None else f"at most {high}"
            )
            raise self.refuse(f"{name} must be {bounds}, not {describe(value)}")
        return value

    def optional_integer(
        self, value: Any, name: str, low: int | None = None, high: int | None = None
    ) -> int | None:
        return None if value is None else self.integer(value, name, low, high)

    def boolean(self, value: Any, name: str) -> bool:
        if not isinstance(value, bool):
            raise self.refuse(f"{name} must be true or false, not {describe(value)}")
        return value

    def text(self, value: Any, name: str) -> str:
        """A non-empty string."""
        if not isinstance(value, str) or not value:
            raise self.refuse(f"{name} must be a non-empty string, not {describe(value)}")
        return value

    def array(self, value: Any, name: str, low: int = 0, high: int | None = None) -> list[Any]:
        """A list with `low` to `high` items."""
        if not isinstance(value, list):
            raise self.refuse(f"{name} must be a list, not {describe(value)}")
        if len(value) < low or (high is not None and len(value) > high):
            count = f"{low} to {high}" if high is not None else f"at least {low}"
            raise self.refuse(f"{name} must have {count} items, not {len(value)}")
        return value

    def choice(self, value: Any, name: str, enum: type[E]) -> E:
        """A member of `enum`, written as its value."""
        for member in enum:
            if type(value) is type(member.value) and value == member.value:
                return member
        allowed = ", ".join(repr(member.value) for member in enum)
        raise self.refuse(f"{name} must be one of {allowed}, not {describe(value)}")

    def dice(self, value: Any, name: str, low: int = 0, high: int = DICE_COUNT) -> Dice:
        """A list of `low` to `high` die faces, in order."""
        items = self.array(value, name, low, high)
        return tuple(self.integer(face, f"a die of {name}", FACES[0], FACES[-1]) for face in items)

    def positions(self, value: Any, name: str, size: int = DICE_COUNT) -> tuple[int, ...]:
        """Distinct die positions 0 to size - 1, sorted."""
        items = self.array(value, name, 0, size)
        held = tuple(sorted(self.integer(i, f"a die position in {name}", 0, size - 1) for i in items))
        if len(set(held)) != len(held):
            raise self.refuse(f"{name} names a die more than once: {list(held)}")
        return held


def describe(value: Any) -> str:
    """A bad value for a refusal: its repr, shortened so that a huge value is not echoed."""
    text = repr(value)
    return text if len(text) <= 40 else f"{type(value).__name__} {text[:37]}..."
