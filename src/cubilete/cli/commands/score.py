"""`cubilete score GAME --dice 1,1,3,4,6 [--sheet JSON]`: what a roll scores."""

from __future__ import annotations

import argparse

from ...engine.dice import DICE_COUNT, validate_dice
from ...engine.errors import InvalidDice
from ...engine.five_thousand import score_roll
from ...engine.games import GAMES, rules_for
from ...engine.sheet_rules import SheetRules
from ...engine.sheet_scoring import no_open_box_scores, score_options, sheet_from_json
from ..output import Report, emit, parse_json

SACRIFICE_WARNING = "No open box scores: one must be sacrificed"


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "score",
        help="list what a roll scores",
        description="Penta and Generala: every legal box for these dice on this sheet, with its"
        " points now. 5000: the points of the roll and how many dice scored.",
    )
    parser.add_argument("game", choices=tuple(GAMES), help="the game")
    parser.add_argument("--dice", required=True, help="the dice, e.g. 1,1,3,4,6")
    parser.add_argument(
        "--sheet", default="{}", help='filled boxes as JSON, e.g. \'{"ones": 3, "penta": 50}\''
    )
    parser.add_argument("--rules", help="rule set (default: the game's seed rules)")
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.set_defaults(run=run)


def parse_dice(text: str) -> tuple[int, ...]:
    try:
        values = [int(part) for part in text.split(",")]
    except ValueError:
        raise InvalidDice("dice_text", text=text) from None
    return validate_dice(values)


def run(args: argparse.Namespace) -> int:
    rules = rules_for(args.game, args.rules)
    dice = parse_dice(args.dice)
    if isinstance(rules, SheetRules):
        report = _sheet_report(rules, dice, parse_json(args.sheet, "--sheet"))
    else:
        report = _five_thousand_report(rules, dice)
    emit(report, args.json)
    return 0


def _sheet_report(rules: SheetRules, dice: tuple[int, ...], filled: object) -> Report:
    sheet = sheet_from_json(rules, filled)
    if sheet.is_full:
        raise InvalidDice("nothing_to_score")
    options = score_options(rules, sheet, dice)
    sacrifice = no_open_box_scores(options)
    data = {
        "game": rules.game,
        "rules": rules.name,
        "dice": list(dice),
        "boxes": [{"box": o.box, "points": o.points, "bonus": o.bonus} for o in options],
        "no_box_scores": sacrifice,
    }
    lines = [f"{rules.game} ({rules.name}), dice {' '.join(map(str, dice))}:"]
    lines += [
        f"  {o.box:<16} {o.points:>3}" + (f"  + {o.bonus} bonus" if o.bonus else "") for o in options
    ]
    if sacrifice:
        lines.append(SACRIFICE_WARNING)
    return Report(data, "\n".join(lines))


def _five_thousand_report(rules, dice: tuple[int, ...]) -> Report:
    if not 1 <= len(dice) <= DICE_COUNT:
        raise InvalidDice("roll_dice_count", game="5000", most=DICE_COUNT, count=len(dice))
    result = score_roll(dice, rules)
    data = {"game": "5000", "dice": list(dice), "points": result.points, "scoring_dice": result.scoring_dice}
    text = (
        f"{result.points} points, {result.scoring_dice} of {len(dice)} dice scored"
        if result.points
        else "no points: this roll busts"
    )
    return Report(data, text)
