"""The score-sheet games (Penta, Generala, Yahtzee...) as the JSON the client draws, and their hints."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from ..analysis.sheet import same_choice
from ..engine.actions import Action, Keep
from ..engine.sheet import SheetState
from ..engine.sheet_rules import SheetRules
from ..engine.sheet_scoring import Sheet, no_open_box_scores, sheet_total, upper_bonus, upper_total
from ..solvers.sheet.advice import advise

HINT_OPTIONS = 3


def table(state: SheetState, legal: tuple[Action, ...], lang: str) -> dict[str, Any]:
    """The sheets, the dice and what can be done with them."""
    rules = state.rules
    options = state.score_options()
    can_reroll = any(isinstance(action, Keep) for action in legal)
    return {
        "boxes": _boxes(rules),
        "upper_bonus_threshold": rules.upper_bonus_threshold,
        "upper_bonus_points": rules.upper_bonus_points,
        # the box the five-equal bonus row is named after (Penta's, Yahtzee's...), None without that bonus
        "five_equal_bonus_box": rules.joker_box if rules.five_equal_bonus else None,
        "sheets": [_sheet(rules, sheet) for sheet in state.sheets],
        "dice": list(state.dice),
        "held": list(state.held),
        "rolls_left": state.rolls_left,
        "can_reroll": can_reroll,
        "options": [{"box": option.box, "points": option.points, "bonus": option.bonus} for option in options],
        # due only once the dice cannot be rolled again: with rolls left, a roll may still score (seed 000)
        "must_sacrifice": bool(options) and not can_reroll and no_open_box_scores(options),
        # the seat whose first roll (the dice above) won the game at once, a Generala servida
        # (docs/rules.md#generala-servida-wins); None otherwise
        "won_at_once": state.winner,
    }


# A sheet changes once a turn but is drawn at every step: each is drawn once. Like the state views
# (web/views.py), these are shared, and nothing changes them once drawn.
@lru_cache(maxsize=4096)
def _sheet(rules: SheetRules, sheet: Sheet) -> dict[str, Any]:
    return {
        "boxes": sheet.filled(rules),
        "upper_total": upper_total(rules, sheet),
        "upper_bonus": upper_bonus(rules, sheet),
        "five_equal_bonus": sheet.bonus,
        "total": sheet_total(rules, sheet),
    }


@lru_cache(maxsize=64)
def _boxes(rules: SheetRules) -> list[dict[str, Any]]:
    return [{"id": box.id, "upper": box.upper} for box in rules.boxes]


def hint(state: SheetState, limit: int = HINT_OPTIONS) -> dict[str, Any]:
    """The solver's best options for the dice on the table, best first."""
    return {"unit": "points", "options": rank(state)[:limit]}


def rank(state: SheetState, chosen: Action | None = None) -> list[dict[str, Any]]:
    """Every option of the seat to move, best first, with its expected final total and its loss
    beside the best; `chosen` (an action taken there) is marked, a keep known by the values held."""
    return [
        {
            "kind": "score" if option.box is not None else "keep",
            "box": option.box,
            "keep": None if option.keep is None else list(option.keep),
            "points": option.points,
            "bonus": option.bonus,
            "value": option.value,
            "loss": option.regret,
            "chosen": chosen is not None and same_choice(state, option, chosen),
        }
        for option in advise(state)
    ]


def turn_start(state: SheetState) -> bool:
    """Whether a seat's turn begins here: the first roll is pending."""
    return state.is_chance and state.rolls_left == state.rules.rolls_per_turn
