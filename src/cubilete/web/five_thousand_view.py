"""5000 as the JSON the client draws, and its hints: each option with the mover's chance to win."""

from __future__ import annotations

from typing import Any

from ..engine.actions import Action, Bank, Roll, SetAside, action_to_json
from ..engine.five_thousand import FiveThousandState, Phase, score_roll
from ..engine.five_thousand_scoring import set_aside_points
from ..solvers.five_thousand.advice import rank_five_thousand
from .i18n import refusal_message


def table(state: FiveThousandState, legal: tuple[Action, ...], lang: str) -> dict[str, Any]:
    """The turn in progress: its points, the last roll and what can be done."""
    rules = state.rules
    decide = state.phase is Phase.DECIDE
    reason = state.must_roll_reason() if decide else None
    event = state.last_event
    return {
        "target": rules.target,
        "entry": rules.entry,
        "in_game": [score > 0 for score in state.scores()],
        "turn_points": state.turn_points,
        "dice_left": state.dice_left,
        "last_roll": list(state.last_roll),
        "scoring": list(score_roll(state.last_roll, rules).positions) if state.last_roll else [],
        "phase": state.phase.value,
        "can_roll": state.is_chance or any(isinstance(action, Roll) for action in legal),
        "can_bank": any(isinstance(action, Bank) for action in legal),
        "must_roll_reason": None if reason is None else {
            "code": reason.code,
            "params": dict(reason.params),
            "message": refusal_message(lang, reason.code, reason.params),
        },
        "set_aside_choices": [
            sorted(state.last_roll[i] for i in action.held) for action in legal if isinstance(action, SetAside)
        ],
        "set_aside_points": [  # what each of set_aside_choices adds to the turn
            set_aside_points(state.last_roll, action.held, rules) for action in legal if isinstance(action, SetAside)
        ],
        "last_event": None if event is None else event.to_json(),
        "winner": state.winner,
    }


def hint(state: FiveThousandState) -> dict[str, Any]:
    """Roll or bank (or, with free set-aside, each choice of dice), best first, with the chance
    to win after each: exact with two players, the strong player's estimate with more."""
    return {"unit": "win_probability", "estimate": state.num_players > 2, "options": rank(state)}


def rank(state: FiveThousandState, chosen: Action | None = None) -> list[dict[str, Any]]:
    """Every option of the seat to move, best first, with its chance to win and its loss beside the
    best; `chosen` (an action taken there) is marked, a set-aside known by the values it keeps.
    `points`: the turn's points after the option (a set-aside adds its dice's)."""
    return [
        {
            "kind": _choice(state, option.action)[0],
            "keep": _choice(state, option.action)[1],
            "points": state.apply(option.action).turn_points if isinstance(option.action, SetAside)
            else state.turn_points,
            "value": option.win_probability,
            "loss": option.regret,
            "chosen": chosen is not None and _choice(state, chosen) == _choice(state, option.action),
        }
        for option in rank_five_thousand(state).options
    ]


def _choice(state: FiveThousandState, action: Action) -> tuple[str, list[int] | None]:
    """An action as a player sees it: its type, and the values a set-aside keeps (whatever their positions)."""
    kept = sorted(state.last_roll[i] for i in action.held) if isinstance(action, SetAside) else None
    return action_to_json(action)["type"], kept


def turn_start(state: FiveThousandState) -> bool:
    """Whether a seat's turn begins here: a roll of all the dice, with no points yet."""
    return state.phase is Phase.ROLL and state.turn_points == 0
