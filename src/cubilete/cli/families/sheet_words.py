"""The terminal's sheet instructions in each game's own words. Penta's sheet has boxes («casillas»)
and a box that scores nothing is sacrificed (seed 000); Generala's has combinations
(«combinaciones») that players cross out («tachar», seed 003). Generala's texts are the same English
messages in the catalog context "generala" (gettext's pgettext), as the web app's sheet_words.js."""

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
    if game == "generala":
        return SheetWords(
            box=texts.pgettext("generala", "Box"),
            must_sacrifice=texts.pgettext("generala", "No open box scores: one must be sacrificed"),
            last_roll=texts.pgettext("generala", "Last roll: choose a box"),
            hold_or_choose=texts.pgettext(
                "generala", "Hold dice (1-5 or a click), then roll again (r) or choose a box (↑↓ or a click, Enter)"
            ),
            choose_box_first=texts.pgettext("generala", "Choose a box first (↑↓ or a click), then press Enter"),
        )
    return SheetWords(
        box=texts.t("Box"),
        must_sacrifice=texts.t("No open box scores: one must be sacrificed"),
        last_roll=texts.t("Last roll: choose a box"),
        hold_or_choose=texts.t(
            "Hold dice (1-5 or a click), then roll again (r) or choose a box (↑↓ or a click, Enter)"
        ),
        choose_box_first=texts.t("Choose a box first (↑↓ or a click), then press Enter"),
    )


def boxes_line(texts: Texts, game: str, boxes: str) -> str:
    """The open boxes and what each would score, named as the game names its sheet's lines."""
    if game == "generala":
        return texts.pgettext("generala", "Boxes: {boxes}", boxes=boxes)
    return texts.t("Boxes: {boxes}", boxes=boxes)


def play_help(texts: Texts, game: str) -> str:
    """The line mode's commands; `score` names a box of Penta, a combination of Generala."""
    if game == "generala":
        return texts.pgettext(
            "generala",
            "keep 1 3 5 (hold those dice, roll the rest) | roll (all five again) | score BOX (its name) | hint | quit",
        )
    return texts.t(
        "keep 1 3 5 (hold those dice, roll the rest) | roll (all five again) | score BOX (its name) | hint | quit"
    )
