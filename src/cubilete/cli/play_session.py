"""A game of `cubilete play`: the match, who sits where, and what a human asks of it (a roll,
an action, the hint, the computer's choice after the last roll), each step told in words.

Both faces of the command play through it: the Textual app in a terminal, the line mode in a pipe.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..engine.actions import Action
from ..engine.errors import CubileteError, IllegalAction
from ..engine.events import Event
from ..engine.games import Rules
from ..engine.protocol import GameState
from ..engine.runner import Match, Player
from ..players.table import ADVICE_LEVEL, auto_score, must_score, play_human, prepare_advice
from ..solvers.table_cache import Progress
from .families import CliFamily, cli_family
from .families.hints import Hint
from .levels import typed_level
from .texts import Texts

BOT_PREFIX = "bot:"
YOU = "you"  # a human seat of this name (the default one) is the player at this keyboard, spoken to as "you"
Told = Callable[[], str]  # a step in words, said again in the current language each time it is called


@dataclass(frozen=True)
class Seat:
    name: str  # as the match records it
    level: str | None  # a bot's level; None for a human at this terminal
    twin: int = 0  # bots of the same level are numbered: how many came before this one


def parse_seats(text: str, rules: Rules, texts: Texts) -> list[Seat]:
    """Comma-separated seats: a name for a human, bot:LEVEL for a computer player (the level in any
    case). A blank name or an unknown level is refused."""
    seats: list[Seat] = []
    for number, word in enumerate((word.strip() for word in text.split(",")), start=1):
        if word.casefold().startswith(BOT_PREFIX):
            level = typed_level(rules, word[len(BOT_PREFIX):])
            twin = sum(seat.level == level for seat in seats)
            seats.append(Seat(bot_name(texts, level, twin), level, twin))
        elif word:
            seats.append(Seat(word, None))
        else:
            raise CubileteError("seat_without_name", seat=number, text=text)
    return seats


def bot_name(texts: Texts, level: str, twin: int) -> str:
    name = texts.t("Bot ({level})", level=texts.level(level))
    return f"{name} {twin + 1}" if twin else name  # two bots of a level: the second is numbered 2


class PlaySession:
    def __init__(self, rules: Rules, seats: list[Seat], seed: int | None, texts: Texts) -> None:
        from ..players import make_player

        self.rules = rules
        self.seats = seats
        self.texts = texts
        self.family: CliFamily = cli_family(rules.game)
        self.players: list[Player[Any] | None] = [
            None if seat.level is None else make_player(seat.level, rules) for seat in seats
        ]
        self.match = Match(rules, [seat.name for seat in seats], seed)

    def prepare(self, progress: Progress | None = None, advice: bool = True) -> None:
        """Load (or build) the tables the bots play by and, with `advice`, those of the hint and
        the auto-score (when a human plays)."""
        from ..players import prepare

        levels = {seat.level for seat in self.seats if seat.level is not None}
        if advice and self.humans:
            levels.add(ADVICE_LEVEL)
        for level in sorted(levels):
            prepare(level, self.rules, progress)

    @property
    def state(self) -> Any:
        return self.match.state

    def name(self, seat: int) -> str:
        """A seat's name as the player reads it now: a bot's level and "You" in the current language."""
        info = self.seats[seat]
        if info.level is not None:
            return bot_name(self.texts, info.level, info.twin)
        return self.texts.t("You") if self.is_you(seat) else info.name

    def short_name(self, seat: int, width: int) -> str:
        """A seat's name in at most `width` characters, for a narrow column: a bot's in full, else its
        level alone (as the column of a bot reads), abbreviated with a period if even that is too long;
        a human's cut with an ellipsis."""
        name, info = self.name(seat), self.seats[seat]
        if len(name) <= width:
            return name
        if info.level is None:
            return name[: width - 1] + "…"
        level, number = self.texts.level(info.level), f" {info.twin + 1}" if info.twin else ""
        if len(level) + len(number) <= width:
            return level + number
        return level[: width - 1 - len(number)] + "." + number

    def is_you(self, seat: int) -> bool:
        """Whether the seat is the player at this keyboard, spoken to in the second person ("You roll...")."""
        info = self.seats[seat]
        return info.level is None and info.name.casefold() == YOU

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(self.name(seat) for seat in range(len(self.seats)))

    @property
    def seat_to_move(self) -> int | None:
        return self.match.state.current_player

    @property
    def human_to_move(self) -> bool:
        seat = self.seat_to_move
        return seat is not None and self.seats[seat].level is None

    @property
    def humans(self) -> int:
        return sum(seat.level is None for seat in self.seats)

    @property
    def must_score(self) -> bool:
        """Whether every action left is a box to score: the last roll of a sheet game's turn."""
        return must_score(self.state)

    def bot_step(self) -> Told:
        """One step of the bot to move (a roll or an action), in words."""
        return self._told(lambda: self.match.advance(self.players, max_steps=1))

    def roll(self) -> Told:
        return self._told(self.match.roll)

    def act(self, action: Action) -> list[Told]:
        """A human's action and the table's roll if it asked for the dice (players/table.py), in words."""
        seat = self.seat_to_move
        if seat is None:
            raise IllegalAction("game_over")
        told, before = [], self.match.state
        for after in play_human(self.match, seat, action):
            told.append(self._words(self.match.events[-1], before, after))
            before = after
        return told

    def auto_action(self) -> Action:
        """The box the advice would score now: the computer's choice after the last roll."""
        return auto_score(self.state, self.rules)

    def hint(self, progress: Progress | None = None) -> Hint:
        """The best choices for the dice on the table (the advice's tables are loaded first, if need be)."""
        prepare_advice(self.rules, progress)
        return self.family.hint(self.state, self.texts)

    def standings(self) -> list[str]:
        """Each seat's place, name and score, first place first; a solo game's end and score alone (no place)."""
        state = self.state
        if len(self.seats) == 1:
            score = state.scores()[0]
            return [self.texts.tn("Game over: {n} point", "Game over: {n} points", score)]
        return [f"{place}. {name}: {score}" for place, name, score in sorted(zip(state.ranking(), self.names, state.scores()))]

    def _told(self, step: Callable[[], object]) -> Told:
        before = self.match.state
        step()
        return self._words(self.match.events[-1], before, self.match.state)

    def _words(self, event: Event, before: GameState, after: GameState) -> Told:
        return lambda: self.family.describe(event, before, after, self, self.texts)
