"""What each game calls the things of its sheet: the one place where a game words the apps' messages its own
way (the terminal's and the web app's, `static/js/sheet_words.js` keeps the same table for the browser).

Penta's sheet has boxes («casillas») and a box that scores nothing is sacrificed (seed 000); Generala's has
combinations («combinaciones») that players cross out («tachar», seed 003). A game words a message its own
way by translating the same English message under its catalog context (gettext's pgettext), and a refusal
by its own English template, translated under the context "refusal:CONTEXT" with the same {placeholders}
as the common one (engine/refusals.py). A game not named here, or a message it does not name, takes the
common words. A game's rule sets share its words.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType


@dataclass(frozen=True)
class GameWords:
    context: str | None = None  # the catalog context of its own wording; None: the common words
    messages: frozenset[str] = frozenset()  # the apps' English messages it words its own way
    refusals: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))  # code: English template


COMMON_WORDS = GameWords()

GAME_WORDS: dict[str, GameWords] = {
    "generala": GameWords(
        context="generala",
        messages=frozenset(
            {
                # both apps
                "Box",
                "No open box scores: one must be sacrificed",
                "Last roll: choose a box",
                # the terminal
                "Hold dice (1-5 or a click), then roll again (r) or choose a box (↑↓ or a click, Enter)",
                "Choose a box first (↑↓ or a click), then press Enter",
                "Boxes: {boxes}",
                "keep 1 3 5 (hold those dice, roll the rest) | roll (all five again) | score BOX (its name) | hint | quit",
                # the web app
                "Choose a box first",
                "No rolls left: choose a box",
                "All five dice are held: release one to roll again, or choose a box",
                "Tap dice to hold them, then roll again or choose a box",
                "After the last roll, score for me in the computer's box",
            }
        ),
        refusals=MappingProxyType(
            {
                "unknown_box": "{game} has no combination '{box}'; its combinations are {boxes}",
                "box_used": "the combination {box} is already used",
                "no_roll_pending_keep_or_score": "no roll is pending: choose dice to keep or a combination to score",
                "no_rolls_left": "no rolls left this turn: choose a combination to score",
                "hold_all": "holding all five dice rolls nothing: choose a combination to score",
                "sheet_full": "every combination of this sheet is filled: the game is over",
                "nothing_to_score": "every combination of this sheet is filled: nothing can be scored",
            }
        ),
    ),
}


def game_words(game: str) -> GameWords:
    """The game's own words, else the common ones."""
    return GAME_WORDS.get(game, COMMON_WORDS)
