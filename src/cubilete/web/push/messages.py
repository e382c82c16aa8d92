"""The pushes, written on the server in the reader's language (the catalogs of web/locales): each is a
small JSON object the service worker shows as it is, `{kind, title, body, url, tag, game}`. The tag is
the game's, so that a newer notification of a game replaces the older one on the phone."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from babel.lists import format_list

from ...translations import gettext, ngettext
from ..seat_names import shown_name

YOUR_TURN, INVITE_TAKEN, GAME_OVER, REMINDER, CLOCK_PLAYED = (
    "your_turn",
    "invite_taken",
    "game_over",
    "reminder",
    "clock_played",
)


class Words:
    """Messages in one language (`t` and `tn` mark them for Babel's extraction, as cli/texts.py's)."""

    def __init__(self, lang: str) -> None:
        self.lang = lang

    def t(self, message: str, **params: Any) -> str:
        return gettext(self.lang, message).format(**params)

    def tn(self, singular: str, plural: str, n: int, **params: Any) -> str:
        """The plural form for the count n (Babel's plural rule of the language)."""
        return ngettext(self.lang, singular, plural, n).format(**params)

    def game(self, game: str) -> str:
        return gettext(self.lang, game, "game")


@dataclass(frozen=True)
class Note:
    """What happened, for one seat's readers: the kind of push, the game, and the names it mentions."""

    kind: str
    game_id: str
    game: str  # the game's id among the engine's games (penta, generala, 5000)
    name: str  # the seat's player
    others: tuple[str, ...] = ()  # the friend who took an invite; the winners of a finished game


def rendered(note: Note, lang: str) -> dict[str, str]:
    """The push for `note` in `lang`."""
    words = Words(lang)
    game = words.game(note.game)
    shown = replace(note, name=shown_name(note.name, lang), others=tuple(shown_name(name, lang) for name in note.others))
    title, body = _texts(words, shown, game)
    return {
        "kind": note.kind,
        "title": title,
        "body": body,
        "url": f"/game/{note.game_id}",
        "tag": f"cubilete-{note.game_id}",
        "game": note.game_id,
    }


def _texts(words: Words, note: Note, game: str) -> tuple[str, str]:
    name = note.name
    if note.kind == YOUR_TURN:
        return words.t("Your turn"), words.t("{name}, it is your turn in {game}.", name=name, game=game)
    if note.kind == INVITE_TAKEN:
        friend = note.others[0]
        return words.t("{friend} joined", friend=friend), words.t(
            "{friend} took their seat in your game of {game}.", friend=friend, game=game
        )
    if note.kind == GAME_OVER:
        winners = format_list(list(note.others), style="standard", locale=words.lang)
        won = words.tn("{game}: {winners} won.", "{game}: {winners} won.", len(note.others), game=game, winners=winners)
        return words.t("Game over"), won
    if note.kind == REMINDER:
        return words.t("Your turn is running out"), words.t(
            "{name}, a quarter of your time is left in {game}.", name=name, game=game
        )
    return words.t("The computer played for you"), words.t(
        "{name}'s time ran out in {game}: the computer played that turn.", name=name, game=game
    )
