"""The terminal's sheet instructions in each game's own words: Penta's sheet has boxes, Generala's
combinations (engine/game_words.py says which messages a game words its own way; the others are
common, as in the web app's sheet_words.js)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..texts import Texts


@dataclass(frozen=True)
class SheetWords:
    box: str
    must_sacrifice: str
    last_roll: str
    hold_or_choose: str
    choose_box_first: str


def sheet_words(texts: Texts, game: str) -> SheetWords:
    words = texts.of_game(game)
    return SheetWords(
        box=words.t("Box"),
        must_sacrifice=words.t("No open box scores: one must be sacrificed"),
        last_roll=words.t("Last roll: choose a box"),
        hold_or_choose=words.t(
            "Hold dice (1-5 or a click), then roll again (r) or choose a box (↑↓ or a click, Enter)"
        ),
        choose_box_first=words.t("Choose a box first (↑↓ or a click), then press Enter"),
    )


def boxes_line(texts: Texts, game: str, boxes: str) -> str:
    """The open boxes and what each would score, named as the game names its sheet's lines."""
    return texts.of_game(game).t("Boxes: {boxes}", boxes=boxes)


def play_help(texts: Texts, game: str) -> str:
    """The line mode's commands; `score` names a box of Penta, a combination of Generala."""
    return texts.of_game(game).t(
        "keep 1 3 5 (hold those dice, roll the rest) | roll (all five again) | score BOX (its name) | hint | quit"
    )
