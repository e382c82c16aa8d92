"""Rule sets named by their switches: the single rules a game lets players set one by one.

Each choice of a switch has a word ("entry-750", "three-ones-1000"); a rule set's name is the words of
its choices that differ from the seed rules, joined with "+" ("entry-750+free-set-aside"), and "seed"
when none does. So a name is an id that the command line, the API and saved games share, and the
named rule sets that change one switch (5000's `three-ones-1000`, `free-set-aside`) are such names.
docs/rules.md#5000-switches
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, TypeVar

from .errors import UnknownVariant

SEPARATOR = "+"
SEED = "seed"

R = TypeVar("R")


@dataclass(frozen=True)
class Switch:
    """One rule set field players may set: its id (the form's), the field, and its choices (word, value)."""

    id: str
    field: str
    choices: tuple[tuple[str, Any], ...]

    @property
    def words(self) -> tuple[str, ...]:
        return tuple(word for word, _ in self.choices)

    def word_of(self, rules: Any) -> str:
        """The word of the choice these rules make (a rule set off the choices names none: KeyError)."""
        value = getattr(rules, self.field)
        return next(word for word, choice in self.choices if choice == value)


def switched_rules(game: str, seed: R, switches: Sequence[Switch], name: str) -> R:
    """The rule set a name of switch words names (in any order, the seed's own choices allowed), named
    canonically; refused when a word is no switch's or two words set the same switch."""
    chosen: dict[str, tuple[str, Any]] = {}
    for word in name.split(SEPARATOR):
        switch, value = _choice(game, switches, word, name)
        if switch.id in chosen:
            raise UnknownVariant("rules_switch_twice", game=game, rule_sets=[chosen[switch.id][0], word])
        chosen[switch.id] = (word, (switch.field, value))
    rules = replace(seed, **dict(field_value for _, field_value in chosen.values()))  # type: ignore[type-var]
    return replace(rules, name=switches_name(seed, switches, rules))  # type: ignore[type-var]


def switches_name(seed: Any, switches: Sequence[Switch], rules: Any) -> str:
    """The canonical name of a rule set made by switches: its choices off the seed's, in the switches' order."""
    words = [switch.word_of(rules) for switch in switches if switch.word_of(rules) != switch.word_of(seed)]
    return SEPARATOR.join(words) or SEED


def _choice(game: str, switches: Sequence[Switch], word: str, name: str) -> tuple[Switch, Any]:
    for switch in switches:
        for choice_word, value in switch.choices:
            if word == choice_word:
                return switch, value
    words = [choice for switch in switches for choice in switch.words]
    raise UnknownVariant("unknown_rules", game=game, rules=name, rule_sets=words)
