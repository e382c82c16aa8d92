"""Each game family's part of the commands: its reports, and its table and hints in `cubilete play`.

The commands (cli/commands/*.py) parse their arguments and hand the game's family
module its work; FAMILY_MODULES names that module by the engine's family id. A module
is imported when a command needs it and imports solvers and players inside the
functions that use them, so that `score` starts without NumPy, Numba or Rich.
"""

from __future__ import annotations

import argparse
import importlib
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, cast

from ...engine.actions import Action
from ...engine.dice import Dice
from ...engine.games import family_of
from ...engine.protocol import GameState
from ...engine.runner import Match
from ..output import Report

if TYPE_CHECKING:
    from ..texts import Texts

FAMILY_MODULES = {"sheet": "sheet", "five_thousand": "five_thousand"}
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


class CliFamily(Protocol):
    """What a family's module defines."""

    def solve(self, args: argparse.Namespace) -> Report:
        """Build or load the family's exact table of `args.rules`; its headline value."""

    def advise(self, situation: dict[str, Any], target: int | None = None) -> Report:
        """Every legal action of a situation (the JSON of `cubilete advise`) with its value, or
        its chance to end with `target` points or more (families with a total to reach)."""

    def stats(self, args: argparse.Namespace) -> Report: ...

    def simulation_report(self, simulation: Any) -> Report:
        """The report of a players.matches.Simulation."""

    def score(self, rules: Any, dice: Dice, args: argparse.Namespace) -> Report:
        """What these dice score (`args.sheet`: the boxes already filled, if the family has sheets)."""

    def play_help(self, texts: Texts) -> str:
        """The commands of the line mode of `cubilete play`, in one line."""

    def table_text(self, match: Match, texts: Texts) -> str:
        """What a human needs to choose their action, as lines of text."""

    def describe(self, match: Match, before: GameState, texts: Texts) -> str:
        """One line on the step just taken (the match's last event), from the states around it."""

    def hint(self, state: Any, texts: Texts) -> Hint:
        """The best choices for the dice on the table, with their values (the tables are loaded)."""

    def box_id(self, rules: Any, typed: str, texts: Texts) -> str:
        """The box a player named (its id or its name in any case), or what they typed when no box has that name."""


def cli_family(game: str) -> CliFamily:
    module = FAMILY_MODULES[family_of(game).id]
    return cast(CliFamily, importlib.import_module(f"{__name__}.{module}"))
