"""Each game family's part of the commands: its reports, and its table and hints in `cubilete play`.

The commands (cli/commands/*.py) parse their arguments and hand the game's family
module (a CliFamily) its work; CLI_FAMILIES names that module by the engine's family id.
A family module imports solvers, players and analysis inside the functions that use them,
so that `score` starts without NumPy, Numba or Rich.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any, Protocol

from ...engine.actions import Action
from ...engine.dice import Dice
from ...engine.events import Event
from ...engine.games import FIVE_THOUSAND, SHEET, family_of
from ...engine.protocol import GameState
from ...engine.runner import Match
from ..output import Report
from . import five_thousand, sheet
from .hints import Hint
from .seating import Seating

if TYPE_CHECKING:
    from ..texts import Texts


class CliFamily(Protocol):
    """What a family's module defines."""

    def solve(self, args: argparse.Namespace) -> Report:
        """Build or load the family's exact table of `args.rules`; its headline value."""

    def advise(self, situation: dict[str, Any], target: int | None = None) -> Report:
        """Every legal action of a situation (the JSON of `cubilete advise`) with its value, or
        its chance to end with `target` points or more (families with a total to reach)."""

    def stats(self, args: argparse.Namespace) -> Report: ...

    def simulation_report(self, simulation: Any, texts: Texts) -> Report:
        """The report of an analysis.matches.Simulation."""

    def score(self, rules: Any, dice: Dice, args: argparse.Namespace) -> Report:
        """What these dice score (`args.sheet`: the boxes already filled, if the family has sheets)."""

    def play_help(self, texts: Texts, game: str) -> str:
        """The commands of the line mode of `cubilete play`, in one line, in the game's words."""

    def table_text(self, match: Match, texts: Texts) -> str:
        """What a human needs to choose their action, as lines of text."""

    def describe(self, event: Event, before: GameState, after: GameState, seating: Seating, texts: Texts) -> str:
        """One line on a step (`event`), from the states around it; the seat that is `you` in the
        second person."""

    def dice_on_table(self, state: Any) -> Dice:
        """The dice the line mode numbers from 1 for `keep` or `aside` (none before a roll)."""

    def roll_action(self) -> Action:
        """What `roll` asks in the line mode when the dice are on the table (Penta, Generala: all five again)."""

    def hint(self, state: Any, texts: Texts) -> Hint:
        """The best choices for the dice on the table, with their values (the tables are loaded)."""

    def box_id(self, rules: Any, typed: str, texts: Texts) -> str:
        """The box a player named (its id or its name in any case), or what they typed when no box has that name."""


CLI_FAMILIES: dict[str, CliFamily] = {SHEET.id: sheet, FIVE_THOUSAND.id: five_thousand}


def cli_family(game: str) -> CliFamily:
    return CLI_FAMILIES[family_of(game).id]
