"""Computer players by level name, for every game: what apps and simulations ask for.

Each game family's players live in one module of this package (FamilyPlayers), which
PLAYER_FAMILIES names by the engine's family id (`engine.games.GameFamily.id`).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import Any, Protocol

from ..engine.errors import UnknownVariant
from ..engine.games import FIVE_THOUSAND, SHEET, Rules, family_of
from ..engine.runner import Player
from ..solvers.table_cache import Progress
from . import five_thousand, sheet


class FamilyPlayers(Protocol):
    """What a family's players module defines."""

    @property
    def LEVELS(self) -> tuple[str, ...]:
        """The level names a player can pick, weakest first."""

    @property
    def DEFAULT_LEVEL(self) -> str:
        """The level a new bot seat gets."""

    def make_player(self, level: str, rules: Any) -> Player[Any] | None:
        """A player of this level, None for a name that is no level of the family."""

    def prepare(self, level: str, rules: Any, progress: Progress | None = None) -> None:
        """Load (or build) the solver tables a player of this level needs, before play."""

    def table_memory(self, level: str, rules: Any) -> Mapping[Hashable, int]:
        """The tables `prepare` makes ready, each with the bytes it holds in memory (an estimate)."""

    def quick_to_prepare(self, level: str, rules: Any) -> bool:
        """Whether `prepare` only loads saved tables or builds small ones (well under a second)."""


PLAYER_FAMILIES: dict[str, FamilyPlayers] = {SHEET.id: sheet, FIVE_THOUSAND.id: five_thousand}


def family_players(game: str) -> FamilyPlayers:
    return PLAYER_FAMILIES[family_of(game).id]


def player_levels(game: str) -> tuple[str, ...]:
    """The level names a player of this game can pick, weakest first."""
    return family_players(game).LEVELS


def default_level(game: str) -> str:
    """The level a new bot seat of this game gets."""
    return family_players(game).DEFAULT_LEVEL


def make_player(level: str, rules: Rules) -> Player[Any]:
    """A computer player of this level for this rule set."""
    players = family_players(rules.game)
    player = players.make_player(level, rules)
    if player is None:
        raise UnknownVariant("unknown_level", game=rules.game, level=level, levels=list(players.LEVELS))
    return player


def prepare(level: str, rules: Rules, progress: Progress | None = None) -> None:
    """Load (or build, reporting to `progress`) the tables a player of this level needs."""
    family_players(rules.game).prepare(level, rules, progress)


def table_memory(level: str, rules: Rules) -> Mapping[Hashable, int]:
    """The tables a player of this level needs (`prepare`), each by a key of its own (the same table for
    two levels has the same key) with the bytes it holds in memory once prepared: an estimate, cheap to
    compute, nothing solved."""
    return family_players(rules.game).table_memory(level, rules)


def quick_to_prepare(level: str, rules: Rules) -> bool:
    """Whether preparing a level's tables is quick: each is saved on disk already (a load) or small to
    build, so that it need not wait behind a long build (see web/tables.py)."""
    return family_players(rules.game).quick_to_prepare(level, rules)
