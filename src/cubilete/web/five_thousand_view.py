"""5000 as the JSON the client draws."""

from __future__ import annotations

from typing import Any

from ..engine.actions import Action, Bank, Roll, SetAside
from ..engine.five_thousand import FiveThousandState, Phase, score_roll
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
        "last_event": None if event is None else event.to_json(),
        "winner": state.winner,
    }
