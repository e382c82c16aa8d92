"""Exact two-player 5000: the probability that the player to move wins, with optimal play by both.

State space. A decision point is (mover's score, other's score, turn points,
dice to roll). Scores are multiples of 100 below the target (0 = not in the
game); turn points are slots of 50 (`tables`), all totals above the
target sharing one slot; dice 1..5. Within a turn the values follow from the
values of the turn starts it can end in (`turn`), so the unknowns
of the fixed point are only the turn-start values V[s, o], one per score pair.

Algorithm. Gauss-Seidel over score pairs with two accelerations:
- A pair (s, o) and its mirror (o, s) are solved together exactly: a bust hands
  the turn to the mirror, and that coupling (the slow one: near the target most
  turns pass) is a monotone piecewise-linear fixed point in one unknown, solved
  by Newton's method with the derivative carried through the turn's pass.
- Pairs are visited by the higher of the two scores, highest first, and within
  that by the lower score, highest first; each such block is swept until it
  settles before moving down. Banks and gifts only raise scores and knock-outs
  only send a player to zero without lowering the higher score, so almost every
  successor of a pair is already final when the pair is solved.
The ordering is only for speed: the result is accepted when the Bellman
residual of every pair is below TOLERANCE, whatever the rules.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from ...engine.five_thousand import FiveThousandRules
from ..kernel_cache import njit
from .tables import (
    RollTable,
    UnsupportedRules,
    roll_table,
    same_end,
    slot_count,
    turn_ends,
)
from .turn import TurnTable, turn_arrays, turn_values

# Bump whenever a change alters the tables, so that stale caches are not loaded.
SOLVER_VERSION = "1"
TOLERANCE = 1e-12  # the largest Bellman residual |V - T V| accepted, in probability
MAX_ROUNDS = 100  # passes over every block; the seed rules need one
MAX_SWEEPS = 10_000  # sweeps of one block; the seed rules need at most 15
SCORE_STEP = 100  # the engine keeps scores in multiples of 100

# What banking at a slot does (BankTable.kind).
FORBIDDEN, WIN, LOSS, PASS, MOVE = range(5)


class BankTable(NamedTuple):
    """How every turn of the two-player game ends, for Numba; pairs are s_index * n + o_index."""

    kind: np.ndarray  # int8[pair, slot]: FORBIDDEN, WIN, LOSS, PASS or MOVE
    successor: np.ndarray  # int64[pair, slot]: for MOVE, the pair of the turn that follows
    pass_pair: np.ndarray  # int64[pair]: the pair of the turn that follows a bust (the mirror)
    reach: np.ndarray  # int64[pair]: first slot from which every end is a pass


@dataclass(frozen=True)
class TwoPlayerSolution:
    """Win probabilities of the player to move at every decision point of a two-player game."""

    rules: FiveThousandRules
    start: np.ndarray  # float64[s, o]: at the start of the turn of the player scoring s
    roll: np.ndarray  # float64[s, o, slot, dice]: rolling `dice` dice holding `slot` turn points
    bank: np.ndarray  # float64[s, o, slot]: banking, NaN where the rules forbid it
    residual: float  # the largest Bellman residual of `start`

    @property
    def first_player_wins(self) -> float:
        return float(self.start[0, 0])

    def turn_table(self, scores: Sequence[int], to_move: int) -> TurnTable:
        """The values of the turn of `to_move` at these scores."""
        s, o = scores[to_move] // SCORE_STEP, scores[1 - to_move] // SCORE_STEP
        return TurnTable(self.rules, self.roll[s, o], self.bank[s, o])


def score_count(rules: FiveThousandRules) -> int:
    return rules.target // SCORE_STEP


def solution_bytes(rules: FiveThousandRules) -> int:
    """What a solution of these rules holds in memory: start, roll and bank, in float64, for every pair
    of scores (its arrays' shapes, as `_solution` makes them)."""
    slots = slot_count(rules)
    roll_columns = turn_arrays(slots)[0].shape[1]  # a roll's values at a slot, by dice to roll
    return 8 * score_count(rules) ** 2 * (1 + slots * roll_columns + slots)


def bank_table(
    rules: FiveThousandRules, table: RollTable, progress: Callable[[int], None] | None = None
) -> BankTable:
    """Ask the engine how every turn of every score pair ends; progress(s + 1) after mover score s."""
    n, slots = score_count(rules), slot_count(rules)
    kind = np.zeros((n * n, slots), dtype=np.int8)
    successor = np.zeros((n * n, slots), dtype=np.int64)
    pass_pair = np.zeros(n * n, dtype=np.int64)
    reach = np.zeros(n * n, dtype=np.int64)
    for s in range(n):
        for o in range(n):
            pair = s * n + o
            ends = turn_ends(rules, (s * SCORE_STEP, o * SCORE_STEP), 0, table)
            pass_pair[pair] = _next_pair(ends.passed, n)
            reach[pair] = ends.reach
            for slot, end in enumerate(ends.banked):
                if end is None:
                    continue
                if end.winner is not None:
                    kind[pair, slot] = WIN if end.winner == 0 else LOSS
                elif same_end(end, ends.passed):
                    kind[pair, slot] = PASS
                else:
                    kind[pair, slot] = MOVE
                    successor[pair, slot] = _next_pair(end, n)
        if progress is not None:
            progress(s + 1)
    return BankTable(kind, successor, pass_pair, reach)


def _next_pair(end, n: int) -> int:
    """The pair of the turn that starts after `end`: the other seat moves, scores as banked."""
    if end.current != 1 or end.winner is not None:
        raise UnsupportedRules("in a two-player game every turn must hand the dice to the other seat")
    return (end.totals[1] // SCORE_STEP) * n + end.totals[0] // SCORE_STEP


def solve_order(n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Blocks of (pair, mirror) groups in solving order, see the module docstring.

    Returns (first, second, block_start): group g solves pairs first[g] and second[g] (equal for
    equal scores); block b is groups block_start[b] .. block_start[b + 1] - 1.
    """
    first, second, block_start = [], [], [0]
    for high in range(n - 1, -1, -1):
        for low in range(high, -1, -1):
            first.append(high * n + low)
            second.append(low * n + high)
        block_start.append(len(first))
    return (np.array(first, dtype=np.int64), np.array(second, dtype=np.int64),
            np.array(block_start, dtype=np.int64))


def solve(
    rules: FiveThousandRules,
    progress: Callable[[str, int, int], None] | None = None,
) -> TwoPlayerSolution:
    """Solve the two-player game of these rules.

    progress(phase, done, total) reports two phases: "rules" (asking the engine how turns end,
    by mover score) and "solve" (by block of pairs).
    """
    report = progress or (lambda phase, done, total: None)
    n = score_count(rules)
    table = roll_table(rules)
    banks = bank_table(rules, table, lambda done: report("rules", done, n))
    first, second, block_start = solve_order(n)
    if not np.array_equal(banks.pass_pair[first], second):
        raise UnsupportedRules("a bust must hand the turn to the other seat, scores unchanged")
    values = np.full(n * n, 0.5)
    scratch = _scratch(slot_count(rules))
    for _ in range(MAX_ROUNDS):
        for block in range(n):
            _solve_block(table, banks, values, first, second,
                         block_start[block], block_start[block + 1], *scratch)
            report("solve", block + 1, n)
        residual = _residual(table, banks, values, *scratch)
        if residual <= TOLERANCE:
            return _solution(rules, table, banks, values, residual, scratch)
    raise UnsupportedRules(f"rules {rules.name!r}: no convergence after {MAX_ROUNDS} rounds"
                           f" (residual {residual:.1e})")


def _scratch(slots: int) -> tuple[np.ndarray, ...]:
    """bank_value, bank_slope, roll, decide and slope arrays for the turns of one pair."""
    return (np.empty(slots), np.empty(slots), *turn_arrays(slots))


def _solution(rules, table, banks, values, residual, scratch) -> TwoPlayerSolution:
    n, slots = score_count(rules), slot_count(rules)
    roll = np.empty((n * n, *scratch[2].shape))
    bank = np.empty((n * n, slots))
    _fill_tables(table, banks, values, roll, bank, *scratch)
    return TwoPlayerSolution(
        rules,
        values.reshape(n, n).copy(),
        roll.reshape(n, n, *scratch[2].shape),
        bank.reshape(n, n, slots),
        float(residual),
    )


@njit(cache=True)
def _bank_values(banks, values, pair, pass_value, bank_value, bank_slope):
    """What banking at each slot is worth to the mover of `pair`, and its slope by pass_value."""
    for k in range(bank_value.shape[0]):
        kind = banks.kind[pair, k]
        bank_slope[k] = 0.0
        if kind == FORBIDDEN:
            bank_value[k] = np.nan
        elif kind == WIN:
            bank_value[k] = 1.0
        elif kind == LOSS:
            bank_value[k] = 0.0
        elif kind == PASS:
            bank_value[k] = pass_value
            bank_slope[k] = 1.0
        else:
            bank_value[k] = 1.0 - values[banks.successor[pair, k]]


@njit(cache=True)
def _turn_start(table, banks, values, pair, pass_value, bank_value, bank_slope, roll, decide, slope):
    """The mover's win probability at the start of the turn of `pair`, and its slope by pass_value."""
    _bank_values(banks, values, pair, pass_value, bank_value, bank_slope)
    return turn_values(table, pass_value, bank_value, bank_slope, banks.reach[pair], roll, decide, slope)


@njit(cache=True)
def _coupled(table, banks, values, pair, mirror, x, bank_value, bank_slope, roll, decide, slope):
    """For V[pair] = x: the mirror's value given x, the residual g(x) = x - T(x) and g'(x)."""
    if pair == mirror:
        value, value_slope = _turn_start(table, banks, values, pair, 1.0 - x,
                                         bank_value, bank_slope, roll, decide, slope)
        return x, x - value, 1.0 + value_slope
    other, other_slope = _turn_start(table, banks, values, mirror, 1.0 - x,
                                     bank_value, bank_slope, roll, decide, slope)
    value, value_slope = _turn_start(table, banks, values, pair, 1.0 - other,
                                     bank_value, bank_slope, roll, decide, slope)
    return other, x - value, 1.0 - value_slope * other_slope


@njit(cache=True)
def _solve_group(table, banks, values, pair, mirror, bank_value, bank_slope, roll, decide, slope):
    """Solve V[pair] and V[mirror] exactly given every other value; return the largest change.

    g(x) = x - T(x) is increasing and piecewise linear in x (T is the composed turn values,
    increasing with slope below 1), so Newton's method converges in a few steps; bisection on
    a bracket keeps it safe across kinks.
    """
    x = values[pair]
    low, high = 0.0, 1.0
    other = values[mirror]
    for _ in range(100):
        other, g, g_slope = _coupled(table, banks, values, pair, mirror, x,
                                     bank_value, bank_slope, roll, decide, slope)
        if g == 0.0:
            break
        if g > 0.0:
            high = x
        else:
            low = x
        step = x - g / g_slope if g_slope > 0.0 else 0.5 * (low + high)
        if not low < step < high:
            step = 0.5 * (low + high)
        if abs(step - x) < 1e-16:
            break
        x = step
    change = max(abs(x - values[pair]), abs(other - values[mirror]))
    values[pair] = x
    values[mirror] = other
    return change


@njit(cache=True)
def _solve_block(table, banks, values, first, second, begin, end,
                 bank_value, bank_slope, roll, decide, slope):
    """Sweep the groups begin .. end - 1 until no value moves by more than a tenth of TOLERANCE
    (or MAX_SWEEPS sweeps: solve's residual check then decides)."""
    for _ in range(MAX_SWEEPS):
        change = 0.0
        for g in range(begin, end):
            change = max(change, _solve_group(table, banks, values, first[g], second[g],
                                              bank_value, bank_slope, roll, decide, slope))
        if change <= 0.1 * TOLERANCE:
            return


@njit(cache=True)
def _residual(table, banks, values, bank_value, bank_slope, roll, decide, slope):
    """The largest |V - T V| over all pairs."""
    worst = 0.0
    for pair in range(values.shape[0]):
        pass_value = 1.0 - values[banks.pass_pair[pair]]
        value, _ = _turn_start(table, banks, values, pair, pass_value,
                               bank_value, bank_slope, roll, decide, slope)
        worst = max(worst, abs(value - values[pair]))
    return worst


@njit(cache=True)
def _fill_tables(table, banks, values, roll_out, bank_out, bank_value, bank_slope, roll, decide, slope):
    for pair in range(values.shape[0]):
        pass_value = 1.0 - values[banks.pass_pair[pair]]
        _turn_start(table, banks, values, pair, pass_value, bank_value, bank_slope, roll, decide, slope)
        # Element loops: Numba compiles slice assignment between arrays far more slowly.
        for k in range(roll.shape[0]):
            bank_out[pair, k] = bank_value[k]
            for d in range(roll.shape[1]):
                roll_out[pair, k, d] = roll[k, d]
