"""A hint in the terminal: the best choices for the dice on the table, in words, as a family's module gives them."""

from __future__ import annotations

from dataclasses import dataclass

from ...engine.actions import Action

HINT_OPTIONS = 3  # the best choices a sheet game's hint lists, as the web app's


@dataclass(frozen=True)
class HintOption:
    """A choice in words with its value, and the action it stands for. `preselect`: taking the hint
    picks its dice or box for the player to confirm (a roll or a bank is only shown)."""

    text: str
    action: Action
    preselect: bool


@dataclass(frozen=True)
class Hint:
    title: str
    options: tuple[HintOption, ...]  # best first
