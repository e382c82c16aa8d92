"""The exact law of the points still to come, from any score-sheet situation, under the
optimal (expected-total) player's policy; computed on demand and remembered per process.

From a turn-start class c the optimal turn ends in outcomes (the class it leads to, the
points gained with every bonus, the probability), the same ones as `stats`' forward
pass; the points still to come from c are then

    D(c) = sum over outcomes of probability * D(target) shifted by the points gained,

so D is computed backward, most filled classes first, each class as a window of the
totals it reaches (low .. high). A request computes only the classes the optimal player's
turns can lead its state to that no earlier request computed: supersets of its mask, the
same joker state once the joker box is filled, upper totals not below its own (from the
empty sheet, every class in Generala, not all of them in Penta: `complete_table`). A
situation inside a turn carries its chance through the keeps and the box the optimal
player picks (the tie rules of `stats`) and mixes the windows of the turn's outcomes. A turn's
first roll scores with its own points where they differ (a servida: `classes`).

The duel's laws (`instant_wins`) leave out the first rolls that win a game of two seats or more at
once (docs/rules.md#generala-servida-wins): D0(c) is then the chance of each number of points still
to come together with no such roll in the turns left, a law of total (1 - w)**turns, w being a
first roll's chance to win (`solvers.sheet.duel`).

The duel and the live bar read every class's law (`complete_table`): that table is computed
once per install and rule set, saved, and mapped read-only by every process, its entries
stored as whole multiples of 2**-31 (uint32, half the bytes of float64): each within 2**-32
of the computed probability, and each law's entries still summing to exactly what they did
(1), so that a game won, or lost, whatever happens still has a chance of exactly 1, or 0.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, BinaryIO

import numpy as np
from numba import prange

from ...engine.actions import Action, Keep
from ...engine.errors import IllegalAction
from ...engine.sheet import SheetState
from ...engine.sheet_rules import SheetRules
from ...engine.sheet_scoring import Sheet, sheet_total
from .. import mapped_tables
from ..dice_lattice import keep_indices
from ..kernel_cache import njit
from ..table_cache import Progress, load_or_build, load_saved, table_path
from .advice import position, turn_arrays
from .cache import solution, table_key
from .classes import TurnOutcomes, outcome_bonus_values, score_first_rolls, turn_outcomes, write_outcomes
from .solver import SheetSolution
from .tables import instant_win_rolls
from .turn import carry_to_scoring, roll_free_dice
from .windows import MISSING, ClassTable


@dataclass(frozen=True, eq=False)
class ScoreDistribution:
    """The law of a number of points: `probabilities[i]` is the chance of `low + i`."""

    low: int
    probabilities: np.ndarray

    @property
    def high(self) -> int:
        return self.low + self.probabilities.size - 1

    @property
    def mean(self) -> float:
        return self.low + float(np.arange(self.probabilities.size) @ self.probabilities)

    @property
    def standard_deviation(self) -> float:
        spread = np.arange(self.probabilities.size) + (self.low - self.mean)
        return float(np.sqrt(spread**2 @ self.probabilities))

    def at_least(self, points: int) -> float:
        """The chance of `points` or more."""
        return float(self.probabilities[max(points - self.low, 0) :].sum())

    def shifted(self, points: int) -> ScoreDistribution:
        """The law of this number plus `points`."""
        return ScoreDistribution(self.low + points, self.probabilities)


def turn_start_distribution(rules: SheetRules, sheet: Sheet) -> ScoreDistribution:
    """The points still to come from the start of a turn on this sheet (bonuses included)."""
    table = distribution_table(solution(rules))
    c = table.class_of(sheet)
    table.ensure(c)
    return table.distribution(c)


def remaining_distribution(state: SheetState, instant_wins: bool = False) -> ScoreDistribution:
    """The points the seat to move still scores, from this point of its turn, under optimal play; with
    `instant_wins`, in the duel's laws: the chance of each number of points still to come with no first
    roll winning at once, this turn's included if not rolled yet."""
    _check(state)
    table = distribution_table(solution(state.rules), instant_wins=instant_wins)
    c = table.class_of(state.sheet)
    table.ensure(c)
    if state.is_chance:
        if not state.held and state.rolls_left == state.rules.rolls_per_turn:
            return table.distribution(c)
        return table.after_keep(state.sheet, tuple(sorted(state.dice[i] for i in state.held)), state.rolls_left)
    return table.after_roll(state.sheet, state.dice, state.rolls_left)


def option_distributions(state: SheetState) -> tuple[tuple[Action, ScoreDistribution], ...]:
    """Each legal action of the seat to move, in the engine's order, with the law of the
    points still to come after it (optimal play from then on, this turn included)."""
    _check(state)
    if state.is_chance:
        raise IllegalAction("advice_needs_dice")
    table = distribution_table(solution(state.rules))
    c = table.class_of(state.sheet)
    table.ensure(c)
    now = sheet_total(state.rules, state.sheet)
    options: list[tuple[Action, ScoreDistribution]] = []
    for action in state.legal_actions():
        if isinstance(action, Keep):
            kept = tuple(sorted(state.dice[i] for i in action.held))
            options.append((action, table.after_keep(state.sheet, kept, state.rolls_left)))
        else:
            after = state.apply(action).sheets[state.current_player or 0]
            gained = sheet_total(state.rules, after) - now
            target = table.class_of(after)
            table.ensure(target)
            options.append((action, table.distribution(target).shifted(gained)))
    return tuple(options)


def _check(state: SheetState) -> None:
    if state.is_over:
        raise IllegalAction("game_over")


LAWS_VERSION = "1"  # bump when a change alters the saved laws or their layout
QUANTUM = 2.0**-31  # a saved law's unit: its entries are uint32 multiples of it


def distribution_table(solved: SheetSolution, instant_wins: bool = False) -> DistributionTable:
    """The table of a solution (the duel's laws with `instant_wins`): every law, mapped, once saved
    (`complete_table`); else this process's own, computed on demand."""
    return _saved_table(solved, instant_wins) or _table_on_demand(solved, instant_wins)


@cache
def _table_on_demand(solved: SheetSolution, instant_wins: bool) -> DistributionTable:
    """The one table of a solution computed in this process (a solution is hashed by identity)."""
    return DistributionTable(solved, instant_wins)


def complete_table(
    solved: SheetSolution, progress: Progress | None = None, instant_wins: bool = False
) -> DistributionTable:
    """The law of every class: mapped from the install's saved file, else computed (by one process
    of the install at a time), saved and mapped. A duel turn weighs every box and points it can score,
    so it reads the laws of classes the optimal player never leads to (not computed by a request from
    the empty sheet): a law missing would count as no chance at all, and which laws some earlier
    request happened to compute would change the play."""
    parts, path, load = _saved_table_parts(solved, instant_wins)
    return load_or_build(
        parts,
        path,
        load,
        lambda report: _computed_complete(solved, instant_wins),
        _save_table,
        progress,
        mapped=True,
    )


def laws_path(rules: SheetRules, instant_wins: bool = False) -> Path:
    """The file of a rule set's saved laws (the duel's with `instant_wins`)."""
    kind = "sheet-duel-laws" if instant_wins else "sheet-laws"
    return table_path(f"{kind}-{rules.game}-{rules.name}", _laws_key(rules, instant_wins), ".table")


def _laws_key(rules: SheetRules, instant_wins: bool) -> dict[str, Any]:
    return {**table_key(rules), "laws": LAWS_VERSION, **({"instant_wins": True} if instant_wins else {})}


def _saved_table(solved: SheetSolution, instant_wins: bool) -> DistributionTable | None:
    return load_saved(*_saved_table_parts(solved, instant_wins))


def _saved_table_parts(
    solved: SheetSolution, instant_wins: bool
) -> tuple[tuple[Hashable, ...], Callable[[], Path], Callable[[Path], DistributionTable | None]]:
    """The table cache's key parts, path and load of a solution's saved laws."""
    rules = solved.rules
    return (
        ("sheet laws", solved, instant_wins),
        lambda: laws_path(rules, instant_wins),
        lambda path: _load_table(solved, instant_wins, path),
    )


def _load_table(solved: SheetSolution, instant_wins: bool, path: Path) -> DistributionTable | None:
    arrays = mapped_tables.read(path, _laws_key(solved.rules, instant_wins))
    if arrays is None:
        return None
    table = DistributionTable(solved, instant_wins)
    saved = table.windows.restore(arrays) and not (table.windows.width == MISSING).any()
    return table if saved else None


def _save_table(table: DistributionTable, stream: BinaryIO) -> None:
    mapped_tables.write(stream, _laws_key(table.solved.rules, table.instant_wins), table.windows.arrays())


def _computed_complete(solved: SheetSolution, instant_wins: bool) -> DistributionTable:
    """Every class's law computed here (float64), then rounded to the saved type, layer by layer (each
    float64 layer let go once rounded: Penta's hold 1.7 GB)."""
    computed = DistributionTable(solved, instant_wins)
    computed.ensure(*np.flatnonzero(computed.windows.width == MISSING).tolist())
    w = computed.windows
    arrays = {"low": w.low, "width": w.width, "offset": w.offset, "scale": np.array(QUANTUM)}
    for filled, layer in enumerate(w.layers):
        span = computed.classes.layer(filled)
        arrays[f"layer{filled}"] = np.empty(layer.size, dtype=np.uint32)
        _quantize(layer, w.offset[span], w.width[span], 1.0 / QUANTUM, arrays[f"layer{filled}"])
        w.layers[filled] = np.zeros(0)
    rounded = DistributionTable(solved, instant_wins)
    rounded.windows.restore(arrays)
    return rounded


class DistributionTable(ClassTable):
    """The windows D(c) computed so far for one rule set, and what computes more of them."""

    def __init__(self, solved: SheetSolution, instant_wins: bool = False) -> None:
        super().__init__(solved)
        self.instant_wins = instant_wins
        self.bonus_values = outcome_bonus_values(solved.tables)
        # 0 for the first rolls the duel's laws leave out (they end the game), else 1
        self.first_kept = np.where(instant_wins & instant_win_rolls(solved.rules), 0.0, 1.0)
        full = self.classes.count - 1  # nothing more to come: 0 points for sure
        layer = self.windows.extend(self.last_layer, np.array([full]), np.zeros(1, int), np.ones(1, int))
        layer[self.windows.offset[full]] = 1.0

    def distribution(self, c: int) -> ScoreDistribution:
        """D(c); the class must have been computed (ensure)."""
        window = self.windows.window(c, int(self.classes.filled[c]))
        return ScoreDistribution(int(self.windows.low[c]), np.array(window, dtype=np.float64))

    def ensure(self, *wanted: int) -> None:
        """Compute D for these classes and every class the optimal player's turns lead them to,
        wherever not computed yet: a forward pass finds those classes and their turns'
        outcomes, a backward pass mixes the windows."""
        with self._lock:
            missing = [c for c in wanted if self.windows.width[c] == MISSING]
            if not missing:
                return
            reached = np.zeros(self.classes.count, dtype=np.bool_)
            reached[missing] = True
            found = []
            for layer in range(int(self.classes.filled[missing].min()), self.last_layer):
                span = self.classes.layer(layer)
                sources = span.start + np.flatnonzero(reached[span])
                if sources.size:
                    outcomes = turn_outcomes(self.solved, self.classes, sources, self.first_kept)
                    found.append((layer, sources, _Steps(outcomes)))
                    targets = outcomes.target
                    reached[targets[self.windows.width[targets] == MISSING]] = True
            for layer, sources, steps in reversed(found):
                self._compute(layer, sources, steps)

    def _compute(self, layer: int, sources: np.ndarray, steps: _Steps) -> None:
        starts = np.searchsorted(steps.source, sources)
        low, width = self._windows_of(steps, starts)
        data = self.windows.extend(layer, sources, low, width)
        w = self.windows
        _mix(
            np.append(starts, steps.target.size), steps.target, steps.gained, steps.probability,
            w.offset[sources] - low, w.low, w.width, w.offset, w.layers[layer + 1], w.scale, data,
        )

    def _windows_of(self, outcomes: _Steps | TurnOutcomes, starts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The window (low, width) of each group of outcomes: every total one of them reaches."""
        first = outcomes.gained + self.windows.low[outcomes.target]
        last = first + self.windows.width[outcomes.target] - 1
        low = np.minimum.reduceat(first, starts)
        return low, np.maximum.reduceat(last, starts) - low + 1

    def after_keep(self, sheet: Sheet, kept: tuple[int, ...], rolls_left: int) -> ScoreDistribution:
        """Holding `kept` with `rolls_left` rolls to come (the next roll included)."""
        chance = self._chance_at(keep_indices()[kept])
        roll_free_dice(self.solved.lattice, chance)
        return self._carried(sheet, chance, rolls_left - 1)

    def after_roll(self, sheet: Sheet, dice: tuple[int, ...], rolls_left: int) -> ScoreDistribution:
        """These dice on the table with `rolls_left` rolls left, the optimal player to choose (the
        turn's first roll when no roll was used)."""
        first_roll = rolls_left == self.solved.rules.rolls_per_turn - 1
        return self._carried(sheet, self._chance_at(keep_indices()[tuple(sorted(dice))]), rolls_left, first_roll)

    def _chance_at(self, keep: int) -> np.ndarray:
        chance = np.zeros(self.solved.lattice.child.shape[0])
        chance[keep] = 1.0
        return chance

    def _carried(
        self, sheet: Sheet, chance: np.ndarray, rolls_left: int, first_roll: bool = False
    ) -> ScoreDistribution:
        """Mix D over the outcomes of the rest of the turn, chance[:rolls] being the chance of
        each roll seen with `rolls_left` rolls left (the turn's first roll if `first_roll`)."""
        solved, classes = self.solved, self.classes
        (mask, joker, upper), _ = position(solved, sheet)
        futures, expect = turn_arrays(solved, mask, joker, upper)
        best = np.empty(expect.shape[1] + 1)
        first_chance = np.zeros(solved.lattice.roll_probability.size)
        if first_roll:
            score_first_rolls(*solved.tables, solved.lattice, mask, joker, futures, expect, best, chance, first_chance)
        carry_to_scoring(solved.lattice, expect, best, chance, rolls_left)
        c = classes.of(solved.tables, mask, joker, upper)
        outcomes = TurnOutcomes(int(classes.capacity[c]))
        count = write_outcomes(
            *solved.tables, mask, joker, upper, futures, expect[0], chance, first_chance, classes.index,
            self.bonus_values, 0, *outcomes.arrays()[1:],
        )
        outcomes = outcomes.select(np.arange(count))
        self.ensure(*np.unique(outcomes.target))
        starts = np.zeros(1, dtype=np.int64)
        low, width = self._windows_of(outcomes, starts)
        mixed = np.zeros(int(width[0]))
        w = self.windows
        mix_group(
            0, count, outcomes.target, outcomes.gained, outcomes.probability, -low[0],
            w.low, w.width, w.offset, w.layers[int(classes.filled[c]) + 1], w.scale, mixed,
        )
        return ScoreDistribution(int(low[0]), mixed)


class _Steps:
    """What the backward pass keeps of turn outcomes: source, target, points gained, probability."""

    def __init__(self, outcomes: TurnOutcomes) -> None:
        self.source, self.target = outcomes.source, outcomes.target
        self.gained, self.probability = outcomes.gained, outcomes.probability


@njit(parallel=True, cache=True)
def _mix(starts, target, gained, probability, base, low, width, offset, following, scale, out):
    """Group g (outcomes starts[g] .. starts[g + 1]) gets, from out[base[g] + total] on, the
    windows of its outcomes' targets (in `following`, each entry worth `scale` times its value)
    shifted by the total gained, weighted."""
    for g in prange(starts.size - 1):
        mix_group(
            starts[g], starts[g + 1], target, gained, probability, base[g], low, width, offset, following, scale, out
        )


@njit(cache=True)
def mix_group(first, stop, target, gained, probability, base, low, width, offset, following, scale, out):
    """_mix for one group, on the calling thread (a parallel launch costs more for one)."""
    for s in range(first, stop):
        to = target[s]
        destination = base + low[to] + gained[s]
        weight = probability[s] * scale
        for j in range(width[to]):
            out[destination + j] += weight * following[offset[to] + j]


@njit(cache=True)
def _quantize(layer, offset, width, units, out):
    """out: each window's entries in whole `1 / units`, rounded to the nearest, its largest entry
    taking what the rounding lost or gained, so that the window's sum stays what it was."""
    for c in range(offset.size):
        start = offset[c]
        total, kept, largest = 0.0, np.int64(0), start
        for i in range(start, start + width[c]):
            total += layer[i]
            rounded = np.int64(np.rint(layer[i] * units))
            out[i] = rounded
            kept += rounded
            if layer[i] > layer[largest]:
                largest = i
        out[largest] = np.int64(out[largest]) + np.int64(np.rint(total * units)) - kept
