"""`cubilete play` line by line, for pipes (and anyone who prefers it): each step printed, a
human's commands read from standard input."""

from __future__ import annotations

from ..engine.actions import Action, Bank, Keep, Score, SetAside
from ..engine.dice import DICE_COUNT
from ..engine.errors import CubileteError
from .play_session import PlaySession
from .progress import ProgressBar


def play_lines(session: PlaySession) -> None:
    """Play until the game ends or a human quits (quit, or the end of the input)."""
    texts, match = session.texts, session.match
    print(texts.t("{game} ({rules}), seed {seed}.", game=texts.game(session.rules.game),
                  rules=texts.rules(session.rules.game, session.rules.name), seed=match.seed))
    print(session.family.play_help(texts, session.rules.game))
    while not match.state.is_over:
        if match.state.is_chance:
            print(session.roll()())
        elif not session.human_to_move:
            print(session.bot_step()())
        elif not _human_turn(session):
            return
    for line in session.standings():
        print(line)


def _human_turn(session: PlaySession) -> bool:
    """Ask until the human gives a legal action; False when they quit."""
    texts, match = session.texts, session.match
    scores = ", ".join(f"{name} {score}" for name, score in zip(session.names, match.state.scores()))
    print("  " + texts.t("Scores: {scores}", scores=scores))
    print(session.family.table_text(match, texts))
    while True:
        try:
            command = input(f"{session.name(session.seat_to_move or 0)}> ").strip()
        except EOFError:
            return False
        if command in ("quit", "q"):
            return False
        try:
            if command == "hint":
                _print_hint(session)
                continue
            for told in session.act(_parse(command, session)):
                print(told())
            return True
        except CubileteError as error:
            print(f"  {texts.refusal(error)}")


def _print_hint(session: PlaySession) -> None:
    with ProgressBar() as progress:
        hint = session.hint(progress)
    print(f"  {hint.title}:")
    for number, option in enumerate(hint.options, start=1):
        print(f"  {number}. {option.text}")


def _parse(command: str, session: PlaySession) -> Action:
    word, _, rest = command.partition(" ")
    if word in ("keep", "aside"):
        positions = _positions(rest, len(session.family.dice_on_table(session.state)) or DICE_COUNT)  # no dice yet: the engine says why
        return Keep(positions) if word == "keep" else SetAside(positions)
    if word == "score":
        return Score(session.family.box_id(session.rules, rest, session.texts))
    if word == "roll":  # with the dice on the table: in Penta and Generala, all five again
        return session.family.roll_action()
    if word == "bank":
        return Bank()
    raise CubileteError("unknown_command", command=command, help=session.family.play_help(session.texts, session.rules.game))


def _positions(text: str, on_table: int) -> tuple[int, ...]:
    """Dice numbered 1 to `on_table` on screen (5000 rolls fewer than five), 0 to on_table - 1 in the engine:
    a number beyond them is refused in the player's numbering, not the engine's."""
    words = text.split()
    numbers = {str(number) for number in range(1, on_table + 1)}
    if not all(word in numbers for word in words):
        raise CubileteError("dice_numbered", text=text.strip(), last=on_table)
    return tuple(int(word) - 1 for word in words)
