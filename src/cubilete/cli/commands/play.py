"""`cubilete play GAME`: a plain text game in the terminal, against bots or hot-seat."""

from __future__ import annotations

import argparse
import secrets
from typing import Any

from ...engine.actions import Action, Bank, Keep, Roll, Score, SetAside
from ...engine.errors import CubileteError
from ...engine.games import GAMES, rules_for
from ...engine.runner import Match, Player
from ..families import CliFamily, cli_family


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
    from ...players import make_player, prepare
    from ..progress import ProgressBar

    rules = rules_for(args.game, args.rules)
    family = cli_family(args.game)
    seats = [seat.strip() for seat in args.players.split(",")]
    players: list[Player[Any] | None] = [
        make_player(seat[4:], rules) if seat.startswith("bot:") else None for seat in seats
    ]
    names = [f"{seat[4:]} bot" if seat.startswith("bot:") else seat for seat in seats]
    # every seat is at this terminal, so a seed anyone can replay is fine (and is printed)
    match = Match(rules, names, secrets.randbits(63) if args.seed is None else args.seed)
    with ProgressBar() as progress:
        for seat in seats:
            if seat.startswith("bot:"):
                prepare(seat[4:], rules, progress)
    print(f"{args.game} ({rules.name}), seed {match.seed}. {family.PLAY_HELP}")
    while not match.state.is_over:
        before = match.state
        player = players[_seat_to_move(match)]
        if before.is_chance:
            match.roll()
        elif player is not None:
            match.act(player.choose(before))
        elif not _human_turn(match, family):
            return 0
        print(family.describe(match, before))
    for place, name, score in sorted(zip(match.state.ranking(), names, match.state.scores())):
        print(f"{place}. {name}: {score}")
    return 0


def _seat_to_move(match: Match) -> int:
    seat = match.state.current_player
    assert seat is not None, "only asked while the game is on"
    return seat


def _human_turn(match: Match, family: CliFamily) -> bool:
    """Ask until the human gives a legal action; False when they quit."""
    print("  scores: " + ", ".join(f"{n} {s}" for n, s in zip(match.names, match.state.scores())))
    family.show_table(match)
    while True:
        try:
            command = input(f"{match.names[_seat_to_move(match)]}> ").strip()
        except EOFError:
            return False
        if command in ("quit", "q"):
            return False
        try:
            match.act(_parse(command, family), match.state.current_player)
            return True
        except CubileteError as error:
            print(f"  {error}")


def _parse(command: str, family: CliFamily) -> Action:
    word, _, rest = command.partition(" ")
    if word in ("keep", "aside"):
        positions = _positions(rest)
        return Keep(positions) if word == "keep" else SetAside(positions)
    if word == "score":
        return Score(rest.strip())
    if word in ("roll", "bank"):
        return Roll() if word == "roll" else Bank()
    raise CubileteError("unknown_command", command=command, help=family.PLAY_HELP)


def _positions(text: str) -> tuple[int, ...]:
    """Dice numbered 1 to 5 on screen, 0 to 4 in the engine."""
    words = text.split()
    if not all(word in "12345" and len(word) == 1 for word in words):
        raise CubileteError("dice_numbered", text=text.strip())
    return tuple(int(word) - 1 for word in words)
