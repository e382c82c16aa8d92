"""`cubilete review GAME [--json] [--database URL] [--all-seats]`: every decision beside the best one.

GAME is a file holding a match record (`Match.to_json`, or `{"record": ..., "seats": [...]}`
as the web app keeps it) or the id of a game in the app's database. Human seats are reviewed
when the seats' kinds are known, every seat otherwise (or with --all-seats).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...engine.actions import Action, Bank, Keep, Roll, Score, SetAside
from .. import url_options
from ..output import CommandError, Parser, Report, emit, parse_json

if TYPE_CHECKING:  # the review needs the solvers: imported when the command runs, not when the CLI starts
    from ...analysis.findings import Review, ReviewedDecision

HUMAN = "human"
COSTLIEST = 3


def register(subparsers: argparse._SubParsersAction[Parser]) -> None:
    parser = subparsers.add_parser(
        "review",
        help="review a game decision by decision",
        description="For every decision of the human seats of a game (finished or not): what was"
        " chosen, the best option and the loss (Penta and Generala: expected final total; 5000:"
        " chance to win), each player's mean loss, and how much of the result the dice gave"
        " (luck) and the decisions cost (skill).",
    )
    parser.add_argument("game", metavar="GAME", help="a match-record JSON file, or a game id of the database")
    url_options.add_database_option(parser, "the app's database (default: its own)")
    parser.add_argument("--all-seats", action="store_true", help="review the bots' seats too")
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ...analysis.review import review_record

    path = Path(args.game)
    if path.is_file():
        record, seats = _from_file(path)
    else:
        record, seats = stored_game(args.game, args.database)
    reviewed = None
    if seats is not None and not args.all_seats:
        reviewed = [seat for seat, info in enumerate(seats) if isinstance(info, dict) and info.get("kind") == HUMAN]
    result = review_record(record, reviewed)
    emit(Report(result.to_json(), review_text(result)), args.json)
    return 0


def stored_game(game_id: str, url: str | None) -> tuple[Any, list[Any] | None]:
    """The record and seats of a game in the app's database."""
    from ...storage import read_game

    stored = read_game(game_id, url)
    if stored is None:
        raise CommandError(f"{game_id} is neither a file nor a game id of the database")
    return stored.record, list(stored.seats)


def _from_file(path: Path) -> tuple[Any, list[Any] | None]:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise CommandError(f"cannot read {path}: {error.strerror}") from None
    data = parse_json(text, str(path))
    if isinstance(data, dict) and "record" in data:
        seats = data.get("seats")
        if seats is not None and not isinstance(seats, list):
            raise CommandError(f'{path}: "seats" is a list of seats, e.g. [{{"kind": "human"}}, {{"kind": "bot"}}]')
        return data["record"], seats
    return data, None


def review_text(result: Review) -> str:
    points = result.unit == "points"
    lines = [f"{result.game} ({result.rules}), {'finished' if result.finished else 'unfinished'};"
             f" {'loss in expected final total' if points else 'loss in chance to win'}"
             + (" (estimates of the strong player)" if result.estimate else "")]
    for player in result.players:
        lines.append(
            f"{player.name} (seat {player.seat}): {player.decisions} decisions,"
            f" mean loss {_amount(player.mean_loss, points)}, total {_amount(player.total_loss, points)};"
            f" start {_amount(player.start, points)}, luck {_signed(player.luck, points)},"
            f" skill {_signed(player.skill, points)}"
            + (f", others' decisions {_signed(player.others, points)}" if player.others else "")
            + f", result {_amount(player.final, points)}"
        )
        for decision in result.costliest(player.seat, COSTLIEST):
            lines.append(f"  event {decision.index}: {_decision_text(decision, points)}")
    return "\n".join(lines)


def _decision_text(decision: ReviewedDecision, points: bool) -> str:
    dice = " ".join(map(str, decision.dice))
    return (f"dice {dice}: {_action_text(decision.chosen, decision.dice)} instead of"
            f" {_action_text(decision.best, decision.dice)}, -{_amount(decision.loss, points)}"
            f" ({decision.loss_class})")


def _action_text(action: Action, dice: tuple[int, ...]) -> str:
    if isinstance(action, (Keep, SetAside)):
        held = " ".join(str(value) for value in sorted(dice[i] for i in action.held)) or "nothing"  # as options list them
        return f"keep {held}" if isinstance(action, Keep) else f"set aside {held}"
    if isinstance(action, Score):
        return f"score {action.box}"
    return "roll" if isinstance(action, Roll) else "bank" if isinstance(action, Bank) else str(action)


def _amount(value: float, points: bool) -> str:
    return f"{value:.2f}" if points else f"{100 * value:.1f}%"


def _signed(value: float, points: bool) -> str:
    return f"{value:+.2f}" if points else f"{100 * value:+.1f}%"
