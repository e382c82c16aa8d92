"""`cubilete play GAME`: a plain text game in the terminal, against bots or hot-seat."""

from __future__ import annotations

import argparse
import secrets

from ...engine.actions import Action, Bank, Keep, Roll, Score, SetAside
from ...engine.errors import CubileteError
from ...engine.games import GAMES, rules_for
from ...engine.runner import Match, Player
from ...players import make_player

SHEET_HELP = "keep 1 3 5 (hold those dice, roll the rest) | score BOX | quit"
FIVE_THOUSAND_HELP = "roll | bank | aside 1 2 (free set-aside: the dice to keep) | quit"
SACRIFICE_WARNING = "No open box scores: one must be sacrificed"


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("play", help="play in the terminal", description=__doc__)
    parser.add_argument("game", choices=tuple(GAMES), help="the game")
    parser.add_argument("--rules", help="rule set (default: the game's seed rules)")
    parser.add_argument(
        "--players",
        default="you,bot:optimal",
        help="comma-separated seats: a name for a human, bot:LEVEL for a computer player"
        " (default: you,bot:optimal)",
    )
    parser.add_argument("--seed", type=int, help="seed of the dice, to replay a game")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    rules = rules_for(args.game, args.rules)
    seats = [seat.strip() for seat in args.players.split(",")]
    players: list[Player | None] = [
        make_player(seat[4:], rules) if seat.startswith("bot:") else None for seat in seats
    ]
    names = [f"{seat[4:]} bot" if seat.startswith("bot:") else seat for seat in seats]
    # every seat is at this terminal, so a seed anyone can replay is fine (and is printed)
    match = Match(rules, names, secrets.randbits(63) if args.seed is None else args.seed)
    print(f"{args.game} ({rules.name}), seed {match.seed}. {_help(match)}")
    while not match.state.is_over:
        before = match.state
        seat = before.current_player
        if before.is_chance:
            match.roll()
        elif players[seat] is not None:
            match.act(players[seat].choose(before))
        elif not _human_turn(match):
            return 0
        print(_describe(match, before))
    for place, name, score in sorted(zip(match.state.ranking(), names, match.state.scores())):
        print(f"{place}. {name}: {score}")
    return 0


def _help(match: Match) -> str:
    return FIVE_THOUSAND_HELP if match.state.game == "5000" else SHEET_HELP


def _human_turn(match: Match) -> bool:
    """Ask until the human gives a legal action; False when they quit."""
    _show_table(match)
    while True:
        try:
            command = input(f"{match.names[match.state.current_player]}> ").strip()
        except EOFError:
            return False
        if command in ("quit", "q"):
            return False
        try:
            match.act(_parse(match, command), match.state.current_player)
            return True
        except CubileteError as error:
            print(f"  {error}")


def _parse(match: Match, command: str) -> Action:
    word, _, rest = command.partition(" ")
    if word in ("keep", "aside"):
        positions = _positions(rest)
        return Keep(positions) if word == "keep" else SetAside(positions)
    if word == "score":
        return Score(rest.strip())
    if word in ("roll", "bank"):
        return Roll() if word == "roll" else Bank()
    raise CubileteError(f"unknown command {command!r}: {_help(match)}")


def _positions(text: str) -> tuple[int, ...]:
    """Dice numbered 1 to 5 on screen, 0 to 4 in the engine."""
    words = text.split()
    if not all(word in "12345" and len(word) == 1 for word in words):
        raise CubileteError(f"the dice are numbered 1 to 5, not {text.strip()!r}")
    return tuple(int(word) - 1 for word in words)


def _show_table(match: Match) -> None:
    state = match.state
    print("  scores: " + ", ".join(f"{n} {s}" for n, s in zip(match.names, state.scores())))
    if state.game == "5000":
        reason = state.must_roll_reason()
        line = f"  turn points {state.turn_points}, {state.dice_left} dice to roll"
        print(line + (f" ({reason})" if reason else ""))
        return
    dice = "  ".join(f"[{i + 1}]{d}" for i, d in enumerate(state.dice))
    print(f"  dice {dice}   rolls left: {state.rolls_left}")
    options = ", ".join(
        f"{o.box} {o.points}" + (f"+{o.bonus}" if o.bonus else "") for o in state.score_options()
    )
    print(f"  boxes: {options}")
    if state.no_open_box_scores():
        print(f"  {SACRIFICE_WARNING}")


def _describe(match: Match, before) -> str:
    """One line on the step just taken, from the record and the states around it."""
    event, after = match.events[-1], match.state
    name = match.names[before.current_player]
    if "roll" in event:
        line = f"  {name} rolls {' '.join(map(str, event['roll']))}"
        kind = getattr(after, "last_event", None)
        return line + (f": {kind.kind.replace('_', ' ')}" if kind and kind.kind == "bust" else "")
    action = event["action"]
    if action["type"] == "score":
        gained = after.scores()[before.current_player] - before.scores()[before.current_player]
        return f"  {name} scores {action['box']}: total +{gained}"
    if action["type"] == "keep":
        return f"  {name} holds {' '.join(str(before.dice[i]) for i in action['held']) or 'nothing'}"
    last = getattr(after, "last_event", None)
    if action["type"] == "bank" and last is not None:
        detail = f" -> {match.names[last.receiver]}" if last.receiver is not None else ""
        return f"  {name} banks {last.points}: {last.kind.replace('_', ' ')}{detail}"
    return f"  {name}: {action['type'].replace('_', ' ')}"
