"""Bot levels and rule sets as typed on a command line (`bot:optimal`, `--players duel,optimal`,
`--rules forced`, `--rules entry-750+free-set-aside`): any case, and a refusal that lists the words the command line accepts."""

from __future__ import annotations

from typing import cast

from ..engine.errors import UnknownVariant
from ..engine.games import Rules, game_info, rules_for
from ..engine.rule_switches import SEPARATOR
from ..translations import LANGUAGES, gettext


def typed_level(rules: Rules, word: str) -> str:
    """The level a command-line word names, in any case; else refused with the accepted words."""
    from ..players import family_players

    players = family_players(rules.game)
    level = word.strip().casefold()
    if players.make_player(level, rules) is None:  # the family's own test: 5000 also plays bankN
        raise UnknownVariant(
            "unknown_level_typed", game=rules.game, typed=word.strip(), words=", ".join(players.LEVELS)
        )
    return level


def typed_rules(game: str, word: str | None) -> Rules:
    """The rule set a command-line word names: its id or its name in any language, in any case, or such
    words of a game's switches joined with "+" (`entry-750+free-set-aside`; None: the game's default
    rules); else refused with the ids and the names."""
    info = game_info(game)
    if word is None:
        return info.default
    ids = [
        *info.variants,
        *(choice for switch in info.switches for choice in switch.words if choice not in info.variants),
    ]
    typed = [_typed_id(game, ids, part) for part in word.split(SEPARATOR)]
    if None in typed:
        raise UnknownVariant("unknown_rules_typed", game=game, rules=word.strip(), words=", ".join(ids), rule_sets=ids)
    return rules_for(game, SEPARATOR.join(cast(list[str], typed)))


def _typed_id(game: str, ids: list[str], word: str) -> str | None:
    wanted = word.strip().casefold()
    for rules_id in ids:
        names = {rules_id, *(gettext(lang, rules_id, f"rules:{game}") for lang in LANGUAGES)}
        if wanted in {name.casefold() for name in names}:
            return rules_id
    return None
