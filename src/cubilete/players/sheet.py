"""Computer players of the score-sheet games (Penta, Generala), weakest first.

- beginner: greedy and blind to the future. Out of rolls it scores the box
  worth most now; otherwise it holds the dice of its most frequent face (the
  higher face on a tie) and rolls the rest, or scores at once when all five
  dice already show that face.
- casual: picks among the solver's options at random, an option being
  exp(-regret / CASUAL_TEMPERATURE) times as likely as the best; near-best
  options are common, blunders rare. Its random.Random is seeded, so the same
  game replays the same way.
- optimal: the option with the highest expected final total.
- duel: the option with the best chance to finish first, given the other seats' sheets and
  the law of their remaining scores (solvers.sheet.duel); alone, it plays as optimal does.

Ties go to the first option in the engine's `legal_actions` order (keeps by held
values, then boxes in sheet order), so every level is reproducible.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Hashable

from ..engine.actions import Action, Keep, Score
from ..engine.runner import Player
from ..engine.sheet import SheetState
from ..engine.sheet_rules import SheetRules
from ..solvers.mapped_tables import file_bytes
from ..solvers.sheet.advice import advise, best_action
from ..solvers.sheet.cache import cache_path, solution
from ..solvers.sheet.distributions import laws_path
from ..solvers.sheet.duel import duel_law_kinds, prepare_duel, rank_for_duel
from ..solvers.sheet.tables import sheet_tables, state_count
from ..solvers.table_cache import Progress

LEVELS = ("beginner", "casual", "optimal", "duel")
DEFAULT_LEVEL = "optimal"  # a new bot seat's: the duel's tables cost Penta about 20 s to build, once per install
TABLE_LEVELS = ("casual", "optimal", "duel")  # the levels that play by the solver's tables
# Before a table is saved, its file's size is estimated by bytes per solver state: the duel's laws of
# every class, uint32, measured 807 for Penta (1,048,576 states, 847 MB) and 674 for Generala (8,192
# states, 5.5 MB); the solution, 8 per state. Once saved, the file's size is counted: what mapping adds.
DUEL_BYTES_PER_STATE = 850
SOLUTION_BYTES_PER_STATE = 8
QUICK_STATES = 65_536  # a rule set's tables of at most this many states build in well under a second
CASUAL_TEMPERATURE = 1.5  # points of expected final total
CASUAL_SEED = 0


class OptimalPlayer:
    """Maximises its own expected final total (the solitaire optimum)."""

    def choose(self, state: SheetState) -> Action:
        return best_action(state)


class DuelPlayer:
    """Maximises its chance to finish first (a shared first place counting half)."""

    def choose(self, state: SheetState) -> Action:
        return rank_for_duel(state)[0].option.action


class CasualPlayer:
    """Softmax over the options' values: usually good, sometimes not quite."""

    def __init__(self, temperature: float = CASUAL_TEMPERATURE, seed: int = CASUAL_SEED) -> None:
        self.temperature = temperature
        self.random = random.Random(seed)

    def choose(self, state: SheetState) -> Action:
        options = advise(state)
        weights = [math.exp(-option.regret / self.temperature) for option in options]
        return self.random.choices(options, weights)[0].action


class BeginnerPlayer:
    """Scores what pays most now, else chases its most frequent face."""

    def choose(self, state: SheetState) -> Action:
        face, count = max(Counter(state.dice).items(), key=lambda item: (item[1], item[0]))
        if state.rolls_left == 0 or count == len(state.dice):
            best = max(state.score_options(), key=lambda o: o.points + o.bonus)  # first on a tie
            return Score(best.box)
        return Keep(tuple(i for i, value in enumerate(state.dice) if value == face))


def make_player(level: str, rules: SheetRules) -> Player[SheetState] | None:
    """A player of this level, None for an unknown level. The solver's table of the rule set
    is loaded (or built) at the first move that needs it, not here."""
    players = {"beginner": BeginnerPlayer, "casual": CasualPlayer, "optimal": OptimalPlayer, "duel": DuelPlayer}
    return players[level]() if level in players else None


def prepare(level: str, rules: SheetRules, progress: Progress | None = None) -> None:
    """Load (or solve, reporting to `progress`) the tables a level plays by."""
    if level in TABLE_LEVELS:
        solution(rules, progress)
        advise(SheetState.new(rules).apply_roll((1, 2, 3, 4, 5)))  # compiles the advice kernels too
    if level == "duel":
        prepare_duel(rules, progress=progress)


def table_memory(level: str, rules: SheetRules) -> dict[Hashable, int]:
    """The tables a level plays by, each with the bytes it maps once prepared: its file's size once saved,
    else an estimate from the rule set's number of states (nothing is solved)."""
    states = state_count(sheet_tables(rules))
    tables: dict[Hashable, int] = {}
    if level in TABLE_LEVELS:
        tables["sheet solution", rules] = file_bytes(cache_path(rules)) or SOLUTION_BYTES_PER_STATE * states
    if level == "duel":
        for instant_wins in duel_law_kinds(rules):
            key = ("duel laws", rules, "instant wins") if instant_wins else ("duel laws", rules)
            tables[key] = file_bytes(laws_path(rules, instant_wins)) or DUEL_BYTES_PER_STATE * states
    return tables


def quick_to_prepare(level: str, rules: SheetRules) -> bool:
    """Whether the level's tables are saved on disk already (mapped in milliseconds) or build within a
    fraction of a second (Generala's, of 8,192 states, all do; Penta's duel laws take about 20 s)."""
    if level not in TABLE_LEVELS or state_count(sheet_tables(rules)) <= QUICK_STATES:
        return True
    return cache_path(rules).exists() and (
        level != "duel" or all(laws_path(rules, instant_wins).exists() for instant_wins in duel_law_kinds(rules))
    )
