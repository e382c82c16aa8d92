"""Game states as the JSON the client draws: everything read from the engine, nothing decided here."""

from __future__ import annotations

from typing import Any

from ..engine.actions import Bank, Keep, Roll, Score, SetAside
from ..engine.five_thousand import FiveThousandState, Phase, score_roll
from ..engine.protocol import GameState
from ..engine.sheet import SheetState
from ..engine.sheet_scoring import upper_bonus, upper_total
from ..solvers.sheet_advice import RankedOption
from .i18n import translate_engine_message
from .sessions import LiveGame
from .storage import GameSummary


def game_view(live: LiveGame, lang: str, since: int | None = None) -> dict[str, Any]:
    """The game now, and with `since` every step after that event index, for the client to animate."""
    view = {
        "id": live.id,
        "game": live.match.rules.game,
        "rules": live.match.rules.name,
        "lang": live.lang,
        "seats": [{"name": seat.name, "kind": seat.kind, "level": seat.level} for seat in live.seats],
        "rematch": live.rematch,
        **state_view(live.state, len(live.match.events), lang),
    }
    if since is not None:
        view["steps"] = [
            {
                "index": index,
                "seat": live.mover(index),
                "event": live.match.events[index],
                **state_view(live.history[index + 1], index + 1, lang),
            }
            for index in range(max(since, 0), len(live.match.events))
        ]
    return view


def state_view(state: GameState, events: int, lang: str) -> dict[str, Any]:
    legal = state.legal_actions()
    view = {
        "events": events,
        "current_player": state.current_player,
        "is_over": state.is_over,
        "scores": list(state.scores()),
        "ranking": list(state.ranking()),
        "to_roll": state.is_chance,
        "must_score": bool(legal) and all(isinstance(action, Score) for action in legal),
    }
    if isinstance(state, SheetState):
        view["table"] = _sheet_table(state, legal)
    else:
        view["table"] = _five_thousand_table(state, legal, lang)
    return view


def _sheet_table(state: SheetState, legal) -> dict[str, Any]:
    rules = state.rules
    return {
        "boxes": [{"id": box.id, "upper": box.upper} for box in rules.boxes],
        "upper_bonus_threshold": rules.upper_bonus_threshold,
        "upper_bonus_points": rules.upper_bonus_points,
        "has_five_equal_bonus": bool(rules.five_equal_bonus),
        "sheets": [
            {
                "boxes": sheet.filled(rules),
                "upper_total": upper_total(rules, sheet),
                "upper_bonus": upper_bonus(rules, sheet),
                "five_equal_bonus": sheet.bonus,
                "total": total,
            }
            for sheet, total in zip(state.sheets, state.scores())
        ],
        "dice": list(state.dice),
        "held": list(state.held),
        "rolls_left": state.rolls_left,
        "can_reroll": any(isinstance(action, Keep) for action in legal),
        "options": [
            {"box": option.box, "points": option.points, "bonus": option.bonus}
            for option in state.score_options()
        ],
        "must_sacrifice": state.no_open_box_scores(),
    }


def _five_thousand_table(state: FiveThousandState, legal, lang: str) -> dict[str, Any]:
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
        "must_roll_reason": None if reason is None else translate_engine_message(lang, reason),
        "set_aside_choices": [
            sorted(state.last_roll[i] for i in action.held) for action in legal if isinstance(action, SetAside)
        ],
        "last_event": None if event is None else event.to_json(),
        "winner": state.winner,
    }


def hint_view(options: tuple[RankedOption, ...], limit: int = 3) -> dict[str, Any]:
    return {
        "options": [
            {
                "kind": "score" if option.box is not None else "keep",
                "box": option.box,
                "keep": None if option.keep is None else list(option.keep),
                "points": option.points,
                "bonus": option.bonus,
                "value": option.value,
            }
            for option in options[:limit]
        ]
    }


def unfinished_view(summary: GameSummary) -> dict[str, Any]:
    return {
        "id": summary.id,
        "url": f"/game/{summary.id}",
        "game": summary.game,
        "rules": summary.rules,
        "players": summary.players,
        "updated": summary.updated.isoformat(),
    }
