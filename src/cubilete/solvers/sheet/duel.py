"""The chance to finish first in a score-sheet game, and the play that maximises it ("duel").

The seat to move faces the best final total of its opponents, X: each opponent plays on from
the start of its next turn as the optimal (expected-total) player does, independently of the
others, so the law of X is the product of their laws' distribution functions
(`distributions`). Finishing first means ending above X; a tie shares the first place
and counts half, so a final total y is worth G(y) = P(X < y) + P(X = y) / 2.

Within its turn the duel player maximises the mean of G over the turn's outcomes, counting
the turns after this one as played by the optimal player: scoring g points from turn-start
class c into class c' is worth the mean of G(now + g + R) over R, the law of the points c'
still scores (`distributions`' D(c')). Every later turn sees the opponents' new totals
and decides again: one turn of look-ahead on exact score distributions (cheap, where the
"beat X" chances of every need a Penta game meets would take many minutes to compute; the
exact two-seat comparison in research.sheet_two_player measures the difference). Options whose
chances agree to 12 decimals are ranked as the expected-total solver ranks them, so a game
already won, or lost whatever happens, is played like the optimal player.

Instant wins (docs/rules.md#generala-servida-wins): with two seats or more, a turn's first roll of
five equal dice wins at once, with chance w = 6/7776 at every turn start whatever the sheet and
the play. The turns left come in a known order, so the chance that seat s wins at once is
I(s) = sum of w (1 - w)**i over the places i of its turn starts in that order, and no one does
with chance (1 - w)**turns. Apart from that, the laws above become sub-laws (`distributions`' duel
laws): the chance of each final total together with no instant win in the seat's turns. The seats'
dice being independent, finishing first is worth I(mover) plus the mean of G over the sub-laws,
exactly within the model above; a first roll that wins is worth 1.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from ...engine.errors import IllegalAction
from ...engine.sheet import SheetState
from ...engine.sheet_rules import SheetRules
from ...engine.sheet_scoring import Sheet, sheet_total
from ..dice_lattice import keep_indices
from ..kernel_cache import njit
from ..table_cache import Progress
from .cache import solution
from .distributions import (
    ScoreDistribution,
    complete_table,
    distribution_table,
    remaining_distribution,
)
from .tables import instant_win_rolls
from .threshold import ReachOption, best_turn, bonus_levels, chance_scratch, rank_by_chance
from .turn import next_class

TURNS_REMEMBERED = 256  # duel turns kept in memory: a few concurrent games


def best_opponent_law(rules: SheetRules, sheets: tuple[Sheet, ...], seat: int) -> ScoreDistribution | None:
    """The law of the best final total among the seats other than `seat` (None if there are
    none), each playing optimally from the start of its next turn (or done, its sheet full); a
    sub-law (no instant win in their turns) where instant wins can happen."""
    instant = has_instant_wins(rules, len(sheets))
    laws = [final_law(rules, sheet, instant) for other, sheet in enumerate(sheets) if other != seat]
    if not laws:
        return None
    low = max(law.low for law in laws)
    high = max(law.high for law in laws)
    cdf = np.ones(high - low + 1)
    for law in laws:
        cumulative = np.cumsum(law.probabilities)
        below = cumulative[max(low - law.low, 0) :]  # P(law <= low + i); none when it ends below `low`
        cdf[: below.size] *= below
        if instant:
            cdf[below.size :] *= cumulative[-1]  # a sub-law's mass past its end
    return ScoreDistribution(low, np.diff(cdf, prepend=0.0))


def has_instant_wins(rules: SheetRules, seats: int) -> bool:
    """Whether a first roll can win a game of the rule set at once with this many seats."""
    return seats > 1 and rules.first_roll_wins is not None


def instant_win_chance(rules: SheetRules) -> float:
    """w: the chance that a turn's first roll wins at once, with two seats or more."""
    return float(solution(rules).lattice.roll_probability @ instant_win_rolls(rules))


def instant_wins(rules: SheetRules, sheets: tuple[Sheet, ...], seat: int, rolled: bool) -> tuple[float, ...]:
    """I(s): each seat's chance to win at once in the turns left, play going on from `seat`'s turn
    (its first roll already seen if `rolled`); zeros where no roll wins at once."""
    chances = [0.0] * len(sheets)
    if not has_instant_wins(rules, len(sheets)):
        return tuple(chances)
    w = instant_win_chance(rules)
    left = [sum(points is None for points in sheet.boxes) for sheet in sheets]
    left[seat] -= rolled
    survive, s = 1.0, seat  # survive: no instant win before this turn start
    while any(left):
        if left[s]:
            chances[s] += survive * w
            survive *= 1.0 - w
            left[s] -= 1
        s = (s + 1) % len(sheets)
    return tuple(chances)


def final_laws(state: SheetState) -> tuple[ScoreDistribution, ...]:
    """The law of every seat's final total, each playing optimally from here: the seat to move
    from this point of its turn, the others from the start of their next turn. Where instant wins
    can happen, sub-laws: each total together with no instant win (`first_seat_chances` adds them)."""
    instant = has_instant_wins(state.rules, state.num_players)
    laws = [final_law(state.rules, sheet, instant) for sheet in state.sheets]
    if not state.is_over:
        mover = state.current
        remaining = remaining_distribution(state, instant_wins=instant)
        laws[mover] = remaining.shifted(sheet_total(state.rules, state.sheets[mover]))
    return tuple(laws)


def first_seat_chances(state: SheetState) -> tuple[float, ...]:
    """Each seat's chance to finish first, every seat playing optimally from here (the seat to move
    from this point of its turn): a win at once in the turns left, else first place by the totals."""
    if state.winner is not None:
        return tuple(float(seat == state.winner) for seat in range(state.num_players))
    by_totals = first_place_chances(final_laws(state))
    if state.is_over:
        return by_totals
    at_once = instant_wins(state.rules, state.sheets, state.current, not _at_turn_start(state))
    return tuple(a + b for a, b in zip(at_once, by_totals, strict=True))


def _at_turn_start(state: SheetState) -> bool:
    return state.is_chance and not state.held and state.rolls_left == state.rules.rolls_per_turn


def first_place_chances(laws: Sequence[ScoreDistribution]) -> tuple[float, ...]:
    """Each of independent totals' chance to be the largest, a first place shared by k totals
    counting 1/k to each: over y, P(this = y) times the mean of 1 / (1 + K) with every other
    total at most y and K of them equal to it, which is the integral over z in [0, 1] of the
    product of (P(other < y) + P(other = y) z)."""
    low = min(law.low for law in laws)
    size = max(law.high for law in laws) - low + 1
    at = np.zeros((len(laws), size))
    for i, law in enumerate(laws):
        at[i, law.low - low : law.high - low + 1] = law.probabilities
    below = np.cumsum(at, axis=1) - at  # P(total < y)
    chances = []
    for i in range(len(laws)):
        product = np.ones((size, 1))  # coefficients of z, per y
        for j in range(len(laws)):
            if j != i:
                grown = np.zeros((size, product.shape[1] + 1))
                grown[:, :-1] += product * below[j, :, None]
                grown[:, 1:] += product * at[j, :, None]
                product = grown
        shares = product @ (1.0 / np.arange(1, product.shape[1] + 1))  # the integral over z
        chances.append(float(at[i] @ shares))
    return tuple(chances)


def final_law(rules: SheetRules, sheet: Sheet, instant_wins: bool = False) -> ScoreDistribution:
    """The law of the final total of a sheet played optimally from the start of a turn (the sub-law
    of no instant win in its turns with `instant_wins`)."""
    total = sheet_total(rules, sheet)
    if sheet.is_full:
        return ScoreDistribution(total, np.ones(1))
    table = distribution_table(solution(rules), instant_wins)
    c = table.class_of(sheet)
    table.ensure(c)
    return table.distribution(c).shifted(total)


@dataclass(frozen=True, eq=False)
class DuelTurn:
    """One seat's turn against a known law of its opponents: the worth (chance to finish
    first) of scoring each outcome and of holding each keep, as best_turn fills them."""

    bonus_values: np.ndarray  # the five-equal bonuses a box can pay (bonus level -> points)
    scored: np.ndarray  # [box, points, bonus level]
    expect: np.ndarray  # [rolls left, keep]
    start: float  # the turn's chance before its first roll


def rank_for_duel(state: SheetState) -> tuple[ReachOption, ...]:
    """Every legal action of the seat to move with its chance to finish first (a tie counting
    half), the duel player's choice first; alone, the advice's ranking (every chance is 1)."""
    if state.is_over:
        raise IllegalAction("game_over")
    if state.is_chance:
        raise IllegalAction("advice_needs_dice")
    turn = duel_turn(state.rules, state.sheets, state.current)
    return rank_by_chance(state, turn.scored, turn.expect, turn.bonus_values)


def duel_chance(state: SheetState) -> float:
    """The chance that the seat to move finishes first, playing the duel from here on."""
    if state.is_over:
        raise IllegalAction("game_over")
    if not state.is_chance:
        return rank_for_duel(state)[0].chance
    turn = duel_turn(state.rules, state.sheets, state.current)
    if _at_turn_start(state):
        return turn.start
    kept = tuple(sorted(state.dice[i] for i in state.held))
    return float(turn.expect[state.rolls_left, keep_indices()[kept]])


def prepare_duel(rules: SheetRules, progress: Progress | None = None) -> None:
    """Map (or compute and save) the laws a duel needs (every class; the duel's laws too where a first
    roll can win at once), the solution reporting to `progress`."""
    solved = solution(rules, progress)
    for instant_wins in duel_law_kinds(rules):
        complete_table(solved, instant_wins=instant_wins)


def duel_law_kinds(rules: SheetRules) -> tuple[bool, ...]:
    """The laws `prepare_duel` saves and maps, by `instant_wins`: the plain ones, and the duel's too where a
    first roll can win at once (counted by the web's table budget too)."""
    return (False, True) if rules.first_roll_wins is not None else (False,)


@lru_cache(maxsize=TURNS_REMEMBERED)
def duel_turn(rules: SheetRules, sheets: tuple[Sheet, ...], seat: int) -> DuelTurn:
    """The duel turn of `seat` on these sheets, at the start of its turn."""
    solved = solution(rules)
    instant = has_instant_wins(rules, len(sheets))
    table = complete_table(solved, instant_wins=instant)
    sheet = sheets[seat]
    c = table.class_of(sheet)
    now = sheet_total(rules, sheet)
    others = best_opponent_law(rules, sheets, seat)
    if others is None:  # alone: first whatever happens
        others = ScoreDistribution(now - 1, np.ones(1))
    beyond = float(others.probabilities.sum()) if instant else 1.0  # no instant win among the others
    bonus_values, bonus_level = bonus_levels(solved)
    shape, t, lat = solved.tables.shape, solved.tables.arrays, solved.lattice
    classes, windows = table.classes, table.windows
    mask, joker, upper = int(classes.mask[c]), int(classes.joker[c]), int(classes.upper[c])
    scored, expect, best = chance_scratch(shape, lat, bonus_values.size, 1)
    scored_worths(
        shape, t, mask, joker, upper, classes.index, windows.low, windows.width, windows.offset,
        windows.layers[int(classes.filled[c]) + 1], windows.scale, bonus_values, now - others.low,
        beat_values(others), beyond, scored[..., 0],
    )
    if instant:  # the mover's instant wins in its later turns (elsewhere nothing: scored's unused slots stay unread)
        scored += instant_wins(rules, sheets, seat, rolled=True)[seat]
    best_turn(shape, t, bonus_level, lat, mask, joker, scored, expect, best)
    if instant:
        best[: lat.roll_probability.size][instant_win_rolls(rules)] = 1.0
    start = float(lat.roll_probability @ best[: lat.roll_probability.size, 0])
    return DuelTurn(bonus_values, scored[..., 0], expect[..., 0], start)


def beat_values(others: ScoreDistribution) -> np.ndarray:
    """G(low + i) = P(X < low + i) + P(X = low + i) / 2 for X of this law."""
    p = others.probabilities
    return np.cumsum(p) - p / 2


@njit(cache=True)
def scored_worths(
    shape, t, mask, joker, upper, cindex, low, width, offset, following, scale, bonus_values, shift, beat, beyond,
    scored,
):
    """scored[box, points, bonus level]: the chance to finish first after scoring those, the
    mean of beat[shift + gained + R] over R, the points still to come from the class they lead
    to (its law in `following`, the next layer's windows, each entry worth `scale` times its
    value); beat is 0 before its start and `beyond` past its end."""
    for b in range(shape.box_count):
        if (mask >> b) & 1:
            continue
        for jp in range(t.point_values_start[b], t.point_values_start[b + 1]):
            p = t.point_values[jp]
            to, earned = next_class(shape, cindex, mask, joker, upper, b, p)
            for level in range(bonus_values.shape[0]):
                first = shift + p + bonus_values[level] + earned + low[to]
                worth = 0.0
                for j in range(width[to]):
                    i = first + j
                    g = 0.0 if i < 0 else (beyond if i >= beat.shape[0] else beat[i])
                    worth += following[offset[to] + j] * g
                scored[b, p, level] = worth * scale
