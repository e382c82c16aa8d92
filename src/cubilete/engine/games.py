"""The games cubilete knows, their families, their named rule sets, and state construction.

A game family is the games that share one state type and one rules type (the
score-sheet games; 5000). Every layer above the engine keeps one registry of its
per-family code keyed by `GameFamily.id` and finds a game's entry through
`game_info(game).family`, never by the game's name or its state's type.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .errors import UnknownGame, UnknownVariant
from .five_thousand import FIVE_THOUSAND_SWITCHES, FIVE_THOUSAND_VARIANTS, FiveThousandRules, FiveThousandState
from .protocol import GameState
from .rule_switches import Switch, switched_rules
from .sheet import SheetState
from .sheet_rules import (
    GENERALA_LIBRE_WITHOUT_COMBINATION,
    GENERALA_SEED,
    GENERALA_TRADITIONAL,
    GENERALA_TRADITIONAL_DOUBLE,
    KNIFFEL_SCHMIDT,
    PENTA_FORCED,
    PENTA_FREE,
    PENTA_NO_BONUS,
    PENTA_NO_JOKER,
    PENTA_SEED,
    YAHTZEE_HASBRO,
    YATZY_SCANDINAVIAN,
    SheetRules,
)
from .validation import Record, describe

Rules = SheetRules | FiveThousandRules


@dataclass(frozen=True)
class GameFamily:
    """What the games of one family share: their rules and state types and how states are made."""

    id: str
    rules_type: type[SheetRules] | type[FiveThousandRules]
    new_state: Callable[[Any, int], GameState]
    state_from_json: Callable[[Any], GameState]


SHEET = GameFamily("sheet", SheetRules, SheetState.new, SheetState.from_json)
FIVE_THOUSAND = GameFamily(
    "five_thousand", FiveThousandRules, FiveThousandState.new, FiveThousandState.from_json
)


@dataclass(frozen=True)
class GameInfo:
    id: str
    family: GameFamily
    variants: Mapping[str, Rules]
    switches: Sequence[Switch] = ()  # the rules players may set one by one (docs/rules.md#5000-switches)
    default_name: str = "seed"  # the seeds' games default to their seed rules; docs/rules.md#default-rules

    @property
    def default(self) -> Rules:
        return self.variants[self.default_name]


def _named(*rule_sets: Rules) -> dict[str, Rules]:
    return {rules.name: rules for rules in rule_sets}


GAMES: dict[str, GameInfo] = {
    "penta": GameInfo(
        "penta", SHEET, _named(PENTA_SEED, PENTA_FORCED, PENTA_FREE, PENTA_NO_JOKER, PENTA_NO_BONUS)
    ),
    "generala": GameInfo(
        "generala",
        SHEET,
        _named(GENERALA_SEED, GENERALA_LIBRE_WITHOUT_COMBINATION, GENERALA_TRADITIONAL, GENERALA_TRADITIONAL_DOUBLE),
    ),
    "5000": GameInfo("5000", FIVE_THOUSAND, _named(*FIVE_THOUSAND_VARIANTS), FIVE_THOUSAND_SWITCHES),
    "yahtzee": GameInfo("yahtzee", SHEET, _named(YAHTZEE_HASBRO), default_name="hasbro"),
    "yatzy": GameInfo("yatzy", SHEET, _named(YATZY_SCANDINAVIAN), default_name="scandinavian"),
    "kniffel": GameInfo("kniffel", SHEET, _named(KNIFFEL_SCHMIDT), default_name="schmidt"),
}

# The games the seed texts describe, each with its `seed` rule set (docs/rules.md#sources): the daily
# challenge and the room the app keeps for solver tables are theirs (Yahtzee, Yatzy and Kniffel came later).
SEED_GAMES = tuple(game for game, info in GAMES.items() if "seed" in info.variants)


def game_info(game: str) -> GameInfo:
    try:
        return GAMES[game]
    except KeyError:
        raise UnknownGame("unknown_game", game=game, games=list(GAMES)) from None


def family_of(game: str) -> GameFamily:
    """The family of a game (refused like `game_info` when there is no such game)."""
    return game_info(game).family


def rules_for(game: str, variant: str | None = None) -> Rules:
    """A named rule set of a game, or one named by its switches ("entry-750+free-set-aside", engine/rule_switches.py);
    None gives the game's default (`GameInfo.default_name`)."""
    info = game_info(game)
    if variant is None:
        return info.default
    try:
        return info.variants[variant]
    except KeyError:
        if info.switches:
            return switched_rules(game, info.default, info.switches, variant)
        raise UnknownVariant("unknown_rules", game=game, rules=variant, rule_sets=list(info.variants)) from None


def rules_from_json(game: str, data: Any) -> Rules:
    """A rule set of this game written by `to_json`; a record names the game it was played."""
    info = _recorded_game(game, "rule set")
    rules = info.family.rules_type.from_json(data)
    if rules.game != info.id:
        raise Record("rule set").refuse(f"these are rules of {rules.game!r}, not of {info.id!r}")
    return rules


def new_state(rules: Rules, num_players: int) -> GameState:
    return game_info(rules.game).family.new_state(rules, num_players)


def state_from_json(data: Any) -> GameState:
    """Any game's state from its JSON, dispatching on its "game" field."""
    if not isinstance(data, dict):
        raise Record("state").refuse('expected a JSON object with a "game" field')
    return _recorded_game(data.get("game"), "state").family.state_from_json(data)


def _recorded_game(game: Any, what: str) -> GameInfo:
    """The game a record names: a name cubilete does not know makes it an invalid record."""
    if not isinstance(game, str) or game not in GAMES:
        raise Record(what).refuse(f"game must be one of {', '.join(GAMES)}, not {describe(game)}")
    return GAMES[game]
