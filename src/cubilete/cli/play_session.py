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
from ..engine.games import Rules
from ..engine.runner import Match, Player
from ..players.table import ADVICE_LEVEL, auto_score, must_score, play_human, prepare_advice
from ..solvers.table_cache import Progress
from .families import CliFamily, cli_family
from .families.hints import Hint
from .levels import typed_level
from .texts import Texts

BOT_PREFIX = "bot:"


@dataclass(frozen=True)
class Seat:
    name: str
    level: str | None  # a bot's level; None for a human at this terminal


def parse_seats(text: str, rules: Rules, texts: Texts) -> list[Seat]:
    """Comma-separated seats: a name for a human, bot:LEVEL for a computer player (the level in any
    case). A blank name or an unknown level is refused."""
    seats: list[Seat] = []
    for number, word in enumerate((word.strip() for word in text.split(",")), start=1):
        if word.casefold().startswith(BOT_PREFIX):
            level = typed_level(rules, word[len(BOT_PREFIX):])
            name = texts.t("Bot ({level})", level=texts.level(level))
            twins = sum(seat.name.startswith(name) for seat in seats)
            seats.append(Seat(f"{name} {twins + 1}" if twins else name, level))  # two bots of a level: numbered
        elif word:
            seats.append(Seat(word, None))
        else:
            raise CubileteError("seat_without_name", seat=number, text=text)
    return seats


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

    @property
    def names(self) -> tuple[str, ...]:
        return self.match.names

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

    def bot_step(self) -> str:
        """One step of the bot to move (a roll or an action), in words."""
        return self._told(lambda: self.match.advance(self.players, max_steps=1))

    def roll(self) -> str:
        return self._told(self.match.roll)

    def act(self, action: Action) -> list[str]:
        """A human's action and the table's roll if it asked for the dice (players/table.py), in words."""
        seat = self.seat_to_move
        if seat is None:
            raise IllegalAction("game_over")
        told, before = [], self.match.state
        for after in play_human(self.match, seat, action):
            told.append(self.family.describe(self.match, before, self.texts))
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
        """Each seat's place, name and score, first place first."""
        state = self.state
        return [f"{place}. {name}: {score}" for place, name, score in sorted(zip(state.ranking(), self.names, state.scores()))]

    def _told(self, step: Callable[[], object]) -> str:
        before = self.match.state
        step()
        return self.family.describe(self.match, before, self.texts)
