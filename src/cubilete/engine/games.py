"""The games cubilete knows, their named rule sets, and state construction by rule set."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping, Union

from .errors import UnknownGame, UnknownVariant
from .five_thousand import FIVE_THOUSAND_VARIANTS, FiveThousandRules, FiveThousandState
from .protocol import GameState
from .sheet import SheetState
from .sheet_rules import (
    GENERALA_LIBRE_WITHOUT_COMBINATION,
    GENERALA_SEED,
    PENTA_FORCED,
    PENTA_FREE,
    PENTA_NO_BONUS,
    PENTA_NO_JOKER,
    PENTA_SEED,
    SheetRules,
)
from .validation import Record, describe

Rules = Union[SheetRules, FiveThousandRules]


@dataclass(frozen=True)
class GameInfo:
    id: str
    variants: Mapping[str, Rules]
    rules_type: type[SheetRules] | type[FiveThousandRules]
    new_state: Callable[[Any, int], GameState]
    state_from_json: Callable[[Any], GameState]

    @property
    def default(self) -> Rules:
        return self.variants["seed"]


def _named(*rule_sets: Rules) -> dict[str, Rules]:
    return {rules.name: rules for rules in rule_sets}


GAMES: dict[str, GameInfo] = {
    "penta": GameInfo(
        "penta",
        _named(PENTA_SEED, PENTA_FORCED, PENTA_FREE, PENTA_NO_JOKER, PENTA_NO_BONUS),
        SheetRules,
        SheetState.new,
        SheetState.from_json,
    ),
    "generala": GameInfo(
        "generala",
        _named(GENERALA_SEED, GENERALA_LIBRE_WITHOUT_COMBINATION),
        SheetRules,
        SheetState.new,
        SheetState.from_json,
    ),
    "5000": GameInfo(
        "5000",
        _named(*FIVE_THOUSAND_VARIANTS),
        FiveThousandRules,
        FiveThousandState.new,
        FiveThousandState.from_json,
    ),
}


def game_info(game: str) -> GameInfo:
    try:
        return GAMES[game]
    except KeyError:
        raise UnknownGame(f"unknown game {game!r}; cubilete plays {', '.join(GAMES)}") from None


def rules_for(game: str, variant: str | None = None) -> Rules:
    """A named rule set of a game; None gives the game's default (the seed rules)."""
    info = game_info(game)
    if variant is None:
        return info.default
    try:
        return info.variants[variant]
    except KeyError:
        raise UnknownVariant(
            f"{game} has no rule set {variant!r}; choose one of {', '.join(info.variants)}"
        ) from None


def rules_from_json(game: str, data: Any) -> Rules:
    """A rule set of this game written by `to_json`; a record names the game it was played."""
    info = _recorded_game(game, "rule set")
    rules = info.rules_type.from_json(data)
    if rules.game != info.id:
        raise Record("rule set").refuse(f"these are rules of {rules.game!r}, not of {info.id!r}")
    return rules


def new_state(rules: Rules, num_players: int) -> GameState:
    return game_info(rules.game).new_state(rules, num_players)


def state_from_json(data: Any) -> GameState:
    """Any game's state from its JSON, dispatching on its "game" field."""
    if not isinstance(data, dict):
        raise Record("state").refuse('expected a JSON object with a "game" field')
    return _recorded_game(data.get("game"), "state").state_from_json(data)


def _recorded_game(game: Any, what: str) -> GameInfo:
    """The game a record names: a name cubilete does not know makes it an invalid record."""
    if not isinstance(game, str) or game not in GAMES:
        raise Record(what).refuse(f"game must be one of {', '.join(GAMES)}, not {describe(game)}")
    return GAMES[game]
