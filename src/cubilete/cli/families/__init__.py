"""Each game family's part of the commands: its reports and its table in the terminal.

The commands (cli/commands/*.py) parse their arguments and hand the game's family
module its work; FAMILY_MODULES names that module by the engine's family id. A module
is imported when a command needs it and imports solvers and players inside the
functions that use them, so that `score` starts without NumPy, Numba or Rich.
"""

from __future__ import annotations

import argparse
import importlib
from typing import Any, Protocol, cast

from ...engine.dice import Dice
from ...engine.games import family_of
from ...engine.protocol import GameState
from ...engine.runner import Match
from ..output import Report

FAMILY_MODULES = {"sheet": "sheet", "five_thousand": "five_thousand"}


class CliFamily(Protocol):
    """What a family's module defines."""

    PLAY_HELP: str  # the commands of `cubilete play`, in one line

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

    def show_table(self, match: Match) -> None:
        """Print what a human needs to choose their action."""

    def describe(self, match: Match, before: GameState) -> str:
        """One line on the step just taken (the match's last event), from the states around it."""


def cli_family(game: str) -> CliFamily:
    module = FAMILY_MODULES[family_of(game).id]
    return cast(CliFamily, importlib.import_module(f"{__name__}.{module}"))
