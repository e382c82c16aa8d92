"""Every refusal the engine and the apps can give: a stable code and its English template.

An error carries a code and parameters (`IllegalAction("box_used", box="chance")`); the
English text is this table's template filled with the parameters, and the apps translate
the same code into the player's language.
"""

from __future__ import annotations

from typing import Any, Mapping

REFUSALS: dict[str, str] = {
    "command_line": "{message}",
    "turn_start_dice": "a turn starts by rolling all {dice} dice: with 0 turn points dice_left is {dice}, not {dice_left}",
    "score_below_entry": "no game reaches seat {seat}'s score of {score}: a player enters the game with at least {entry} points",
    "bonus_without_joker_box": "no game reaches a bonus of {bonus}: it is only paid while the {box} box holds points",
    "bonus_beyond_boxes": "no game reaches a bonus of {bonus}: its {count} bonuses each come with another filled box",
    "equal_scores": "no game reaches seats {first} and {second} both at {score}: reaching a player's score knocks that player out",
}


def english(code: str, params: Mapping[str, Any]) -> str:
    """The English text of a refusal."""
    template = REFUSALS.get(code)
    if template is None:  # transitional: raise sites still passing English text as the code
        return code
    return template.format(**params)
