"""The games cubilete knows, their named rule sets, and state construction by rule set."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping, Union

from .errors import InvalidRecord, UnknownGame, UnknownVariant
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

Rules = Union[SheetRules, FiveThousandRules]


@dataclass(frozen=True)
class GameInfo:
    id: str
    variants: Mapping[str, Rules]
    rules_type: type
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
        raise UnknownGame("unknown_game", game=game, games=list(GAMES)) from None


def rules_for(game: str, variant: str | None = None) -> Rules:
    """A named rule set of a game; None gives the game's default (the seed rules)."""
    info = game_info(game)
    if variant is None:
        return info.default
    try:
        return info.variants[variant]
    except KeyError:
        raise UnknownVariant("unknown_rules", game=game, rules=variant, rule_sets=list(info.variants)) from None


def rules_from_json(game: str, data: Any) -> Rules:
    return game_info(game).rules_type.from_json(data)


def new_state(rules: Rules, num_players: int) -> GameState:
    return game_info(rules.game).new_state(rules, num_players)


def state_from_json(data: Any) -> GameState:
    """Any game's state from its JSON, dispatching on its "game" field."""
    if not isinstance(data, dict):
        raise InvalidRecord("invalid_record", what="state", detail='it is a JSON object with a "game" field')
    return game_info(str(data.get("game"))).state_from_json(data)
