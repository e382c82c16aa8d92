"""5000 advice: every option of a situation with the mover's chance to win, and situations
built from what a person types (refusing those no game can reach).

The values are the optimal player's (optimal.OptimalValues): exact win probabilities with two
players, the strong player's estimates with more.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ...engine.actions import Action, Bank, Roll
from ...engine.dice import DICE_COUNT
from ...engine.errors import IllegalAction, InvalidRecord
from ...engine.five_thousand import FiveThousandRules, FiveThousandState, Phase
from ...engine.five_thousand_scoring import check_int
from .optimal import OptimalValues
from .turn import TurnTable


@dataclass(frozen=True)
class WinOption:
    """One action and the mover's chance to win after it; regret: the best option's chance minus this one's."""

    action: Action
    win_probability: float
    regret: float


@dataclass(frozen=True)
class FiveThousandAdvice:
    options: tuple[WinOption, ...]  # best first; equal chances keep the engine's legal order
    exact: bool  # False with more than two players: the strong player's estimates

    @property
    def value(self) -> float:
        """The mover's chance to win with the best option."""
        return self.options[0].win_probability


def rank_five_thousand(state: FiveThousandState, optimal: OptimalValues | None = None) -> FiveThousandAdvice:
    """Every option of the mover, best first, with its chance to win.

    A pending roll (a turn start among them) has one option, Roll: rolling is all there is to do.
    Pass `optimal` to reuse its remembered turn plans (games of more than two players).
    """
    if state.is_over:
        raise IllegalAction("game_over")
    table, exact = (optimal or OptimalValues()).turn_table(state)
    values: list[tuple[Action, float]]
    if state.is_chance:
        values = [(Roll(), table.roll_value(state.turn_points, state.dice_left))]
    else:
        values = [(action, action_value(state, table, action)) for action in state.legal_actions()]
    best = max(value for _, value in values)
    ranked = sorted(values, key=lambda entry: -entry[1])
    return FiveThousandAdvice(tuple(WinOption(a, v, best - v) for a, v in ranked), exact)


def action_value(state: FiveThousandState, table: TurnTable, action: Action) -> float:
    """The mover's chance to win after this action of the turn that `table` values."""
    if isinstance(action, Bank):
        return table.bank_value(state.turn_points)
    if isinstance(action, Roll):
        return table.roll_value(state.turn_points, state.dice_left)
    kept = state.apply(action)  # a set-aside: the decision point it leads to
    return table.decide_value(kept.turn_points, kept.dice_left)


def mover_value(state: FiveThousandState, table: TurnTable) -> float:
    """The mover's chance to win in any state of the turn that `table` values."""
    if state.is_chance:
        return table.roll_value(state.turn_points, state.dice_left)
    return max(action_value(state, table, action) for action in state.legal_actions())


def situation(
    rules: FiveThousandRules, scores: Sequence[int], to_move: int, turn_points: int, dice_left: int
) -> FiveThousandState:
    """The state a person describes: a turn start (0 turn points, five dice) or a decision point.

    Refuses what no game reaches, beyond the engine's own checks: a score above 0 but below the
    entry (a player enters with at least the entry and scores only grow) and two equal scores
    above 0 (the second to reach a score knocks the first out).
    """
    start = check_int(turn_points, "turn points", 0) == 0
    if start and dice_left != DICE_COUNT:
        raise InvalidRecord("turn_start_dice", dice=DICE_COUNT, dice_left=dice_left)
    # The engine checks scores, seat and dice; a turn start is the decision point's scores rolling.
    state = FiveThousandState.decision_point(
        rules, scores, to_move, 50 if start else turn_points, dice_left
    )
    for seat, score in enumerate(state.totals):
        if 0 < score < rules.entry:
            raise InvalidRecord("score_below_entry", seat=seat, score=score, entry=rules.entry)
        if score and state.totals.index(score) != seat:
            raise InvalidRecord("equal_scores", first=state.totals.index(score), second=seat, score=score)
    if start:
        return FiveThousandState(rules, state.totals, state.current, phase=Phase.ROLL)
    return state
