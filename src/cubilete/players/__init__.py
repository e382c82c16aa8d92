"""Computer players by level name, for every game: what apps and `simulate` ask for."""

from __future__ import annotations

from ..engine.errors import UnknownVariant
from ..engine.games import Rules, game_info
from ..engine.runner import Player


def player_levels(game: str) -> tuple[str, ...]:
    """The level names a player of this game can pick, weakest first."""
    return _levels_module(game).LEVELS


def make_player(level: str, rules: Rules) -> Player:
    """A computer player of this level for this rule set."""
    module = _levels_module(rules.game)
    player = module.make_player(level, rules)
    if player is None:
        raise UnknownVariant("unknown_level", game=rules.game, level=level, levels=list(module.LEVELS))
    return player


def _levels_module(game: str):
    if game_info(game).id == "5000":
        from . import five_thousand as module
    else:
        from . import sheet as module
    return module
