"""Bot levels as typed on a command line (`bot:optimal`, `--players duel,optimal`): any case, and a
refusal that lists the words the command line accepts, not their translated names."""

from __future__ import annotations

from ..engine.errors import UnknownVariant
from ..engine.games import Rules


def typed_level(rules: Rules, word: str) -> str:
    """The level a command-line word names, in any case; else refused with the accepted words."""
    from ..players import family_players

    players = family_players(rules.game)
    level = word.strip().casefold()
    if players.make_player(level, rules) is None:  # the family's own test: 5000 also plays bankN
        raise UnknownVariant(
            "unknown_level_typed", game=rules.game, level=word.strip(), words=", ".join(players.LEVELS)
        )
    return level
