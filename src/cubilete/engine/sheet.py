"""The state of a score-sheet game (Penta, Generala) for 1 to 6 players."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cache, cached_property
from itertools import combinations
from typing import Any

from .actions import Action, Keep, Score
from .dice import DICE_COUNT, Dice, is_submultiset, roll_outcomes, validate_dice
from .errors import IllegalAction, InvalidDice, InvalidRecord, NotYourTurn
from .ranking import shared_places
from .sheet_rules import SheetRules
from .sheet_scoring import (
    ScoreOption,
    Sheet,
    no_open_box_scores,
    score_options,
    sheet_from_json,
    sheet_total,
    wins_at_once,
)
from .validation import Record, describe

FORMAT = 1

# One Keep per set of held positions and one Score per box, shared by every state: a long-running
# server keeps many states, and objects that are all alike only add to what the garbage collector walks.
_keep_action = cache(Keep)
_score_action = cache(Score)


@cache  # 7,776 tables of dice at most, and every roll of every game asks
def distinct_keeps(dice: Dice) -> tuple[Keep, ...]:
    """One Keep per distinct multiset of held values (not all five), ordered by those values;
    of the positions showing those values, it holds the first ones."""
    # The keeps of the sorted dice, carried to the table by the stable sort: the k-th lowest
    # die (ties in table order) sits at table position by_value[k].
    by_value = tuple(sorted(range(DICE_COUNT), key=dice.__getitem__))
    keep = _keeps_by_ranks(by_value)
    return tuple(keep[ranks] for ranks in _sorted_keeps(tuple(sorted(dice))))


@cache  # 252 multisets
def _sorted_keeps(dice: Dice) -> tuple[tuple[int, ...], ...]:
    """distinct_keeps of sorted dice, as positions: the lowest combination for each multiset."""
    distinct = {
        tuple(dice[i] for i in held): held
        for size in range(DICE_COUNT)
        for held in reversed(list(combinations(range(DICE_COUNT), size)))
    }
    return tuple(held for _, held in sorted(distinct.items()))


@cache  # 120 orders of the dice
def _keeps_by_ranks(by_value: tuple[int, ...]) -> dict[tuple[int, ...], Keep]:
    """The Keep of each combination of positions in the sorted dice, for dice in this order."""
    return {
        ranks: _keep_action(tuple(sorted(by_value[rank] for rank in ranks)))
        for size in range(DICE_COUNT)
        for ranks in combinations(range(DICE_COUNT), size)
    }


@dataclass(frozen=True)
class SheetState:
    """Whose turn it is, every sheet, the dice on the table and what the turn allows next.

    `dice` are in table order (held dice keep their place); `held` lists the positions
    kept for the pending roll; `rolls_left` counts the rolls still allowed this turn;
    `winner` is the seat whose first roll won the game at once, its dice left on the table.
    The turn: docs/rules.md#penta-turn and #generala-turn; the end: #penta-total and
    #generala-servida-wins.
    """

    rules: SheetRules
    sheets: tuple[Sheet, ...]
    current: int = 0
    dice: Dice = ()
    held: tuple[int, ...] = ()
    rolls_left: int = 3
    awaiting_roll: bool = True
    winner: int | None = None

    @classmethod
    def new(cls, rules: SheetRules, num_players: int = 1) -> SheetState:
        if not rules.min_players <= num_players <= rules.max_players:
            raise InvalidRecord(
                "player_count", game=rules.game, low=rules.min_players, high=rules.max_players, count=num_players
            )
        return cls(rules, (Sheet.empty(rules),) * num_players, rolls_left=rules.rolls_per_turn)

    @classmethod
    def situation(
        cls, rules: SheetRules, sheet: Sheet, dice: Sequence[int] = (), rolls_left: int = 0
    ) -> SheetState:
        """A one-player state mid-game: this sheet, and either a turn start or these dice."""
        if sheet.is_full:
            raise InvalidRecord("sheet_full", game=rules.game)
        start = cls(rules, (sheet,), rolls_left=rules.rolls_per_turn)
        if not dice:
            return start
        if not 0 <= rolls_left < rules.rolls_per_turn:
            raise InvalidRecord("rolls_left_range", last=rules.rolls_per_turn - 1, value=repr(rolls_left))
        return replace(
            start, dice=validate_dice(dice, DICE_COUNT), rolls_left=rolls_left, awaiting_roll=False
        )

    # -- the GameState protocol ------------------------------------------------

    @property
    def game(self) -> str:
        return self.rules.game

    @property
    def num_players(self) -> int:
        return len(self.sheets)

    @cached_property  # asked many times of each state (every view and move): computed once
    def is_over(self) -> bool:
        return self.winner is not None or all(sheet.is_full for sheet in self.sheets)

    @property
    def current_player(self) -> int | None:
        return None if self.is_over else self.current

    @property
    def is_chance(self) -> bool:
        return self.awaiting_roll and not self.is_over

    @property
    def dice_to_roll(self) -> int:
        return DICE_COUNT - len(self.held) if self.is_chance else 0

    def chance_outcomes(self) -> tuple[tuple[Dice, Fraction], ...]:
        return roll_outcomes(self.dice_to_roll)

    def apply_roll(self, dice: Sequence[int]) -> SheetState:
        if not self.is_chance:
            raise IllegalAction("no_roll_pending_keep_or_score", game=self.game)
        rolled = iter(validate_dice(dice, self.dice_to_roll))
        table = (
            self.dice[i] if i in self.held else next(rolled) for i in range(DICE_COUNT)
        )
        rolled_state = replace(
            self, dice=tuple(table), held=(), rolls_left=self.rolls_left - 1, awaiting_roll=False
        )
        if rolled_state._wins_at_once:
            return replace(rolled_state, winner=self.current)
        return rolled_state

    @property
    def _first_roll(self) -> bool:
        """The dice on the table are the turn's first roll."""
        return not self.awaiting_roll and self.rolls_left == self.rules.rolls_per_turn - 1

    @property
    def _wins_at_once(self) -> bool:
        """The dice on the table win the game at once (docs/rules.md#generala-servida-wins)."""
        return self.num_players > 1 and self._first_roll and wins_at_once(self.rules, self.dice)

    def legal_actions(self) -> tuple[Action, ...]:
        return self._legal

    @cached_property
    def _legal(self) -> tuple[Action, ...]:
        if self.is_over or self.awaiting_roll:
            return ()
        return self._keeps() + tuple(_score_action(option.box) for option in self.score_options())

    def apply(self, action: Action, seat: int | None = None) -> SheetState:
        if self.is_over:
            raise IllegalAction("game_over")
        if seat is not None and seat != self.current:
            raise NotYourTurn(  # seats counted from 1 for people, from 0 in params
                "not_seat_turn", seat=self.current, asked=seat, number=self.current + 1, asked_number=seat + 1
            )
        if self.awaiting_roll:
            raise IllegalAction("roll_first")
        if isinstance(action, Keep):
            return self._keep(action)
        if isinstance(action, Score):
            return self._score(action.box)
        raise IllegalAction("wrong_action", action=type(action).__name__, game=self.game)

    def scores(self) -> tuple[int, ...]:
        return self._totals

    @cached_property
    def _totals(self) -> tuple[int, ...]:
        return tuple(sheet_total(self.rules, sheet) for sheet in self.sheets)

    def ranking(self) -> tuple[int, ...]:
        if self.winner is None:
            return shared_places(self.scores())
        # the winner first, the others' places after it by their totals (docs/rules.md#generala-servida-wins)
        others = shared_places([score for seat, score in enumerate(self.scores()) if seat != self.winner])
        places = [place + 1 for place in others]
        places.insert(self.winner, 1)
        return tuple(places)

    # -- score-sheet specifics -------------------------------------------------

    @property
    def sheet(self) -> Sheet:
        """The sheet of the seat to move."""
        return self.sheets[self.current]

    def score_options(self) -> tuple[ScoreOption, ...]:
        """The legal boxes for the dice on the table, with what each would score now."""
        return self._options

    @cached_property
    def _options(self) -> tuple[ScoreOption, ...]:
        if self.awaiting_roll or self.is_over:
            return ()
        return score_options(self.rules, self.sheet, self.dice, self._first_roll)

    def no_open_box_scores(self) -> bool:
        """True when the player must sacrifice a box (the app's warning)."""
        options = self.score_options()
        return bool(options) and no_open_box_scores(options)

    def keep_values(self, values: Sequence[int]) -> Keep:
        """The Keep that holds dice showing these values (the first matching positions)."""
        if not is_submultiset(values, self.dice):
            raise IllegalAction("cannot_keep", values=list(values), dice=list(self.dice))
        free = list(range(DICE_COUNT))
        held = []
        for value in values:
            position = next(i for i in free if self.dice[i] == value)
            free.remove(position)
            held.append(position)
        return Keep(tuple(held))

    def _keeps(self) -> tuple[Keep, ...]:
        return distinct_keeps(self.dice) if self.rolls_left else ()

    def _keep(self, action: Keep) -> SheetState:
        if self.rolls_left == 0:
            raise IllegalAction("no_rolls_left", game=self.game)
        bad = [i for i in action.held if not 0 <= i < DICE_COUNT]
        if bad:
            raise InvalidDice("die_positions", last=DICE_COUNT - 1, positions=bad)
        if len(set(action.held)) != len(action.held):
            raise IllegalAction("held_twice")
        if len(action.held) == DICE_COUNT:
            raise IllegalAction("hold_all", game=self.game)
        return replace(self, held=action.held, awaiting_roll=True)

    def _score(self, box: str) -> SheetState:
        self.rules.box_index(box)  # an unknown box name raises here, before "already used"
        option = next((o for o in self.score_options() if o.box == box), None)
        if option is None:
            raise self._refusal(box)
        index = self.rules.box_index(box)
        sheet = self.sheet
        scored = Sheet(
            sheet.boxes[:index] + (option.points,) + sheet.boxes[index + 1 :],
            sheet.bonus + option.bonus,
        )
        sheets = self.sheets[: self.current] + (scored,) + self.sheets[self.current + 1 :]
        return replace(
            self,
            sheets=sheets,
            current=(self.current + 1) % self.num_players,
            dice=(),
            held=(),
            rolls_left=self.rules.rolls_per_turn,
            awaiting_roll=True,
        )

    def _refusal(self, box: str) -> IllegalAction:
        """Why an open-or-used box of this sheet cannot take the dice on the table."""
        if not self.sheet.is_open(self.rules.box_index(box)):
            return IllegalAction("box_used", game=self.game, box=box)
        allowed = [option.box for option in self.score_options()]
        return IllegalAction("joker_forces", game=self.game, boxes=allowed)

    # -- JSON ------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "game": self.game,
            "rules": self.rules.to_json(),
            "sheets": [sheet.to_json(self.rules) for sheet in self.sheets],
            "current": self.current,
            "dice": list(self.dice),
            "held": list(self.held),
            "rolls_left": self.rolls_left,
            "awaiting_roll": self.awaiting_roll,
            **({} if self.winner is None else {"winner": self.winner}),
        }

    @classmethod
    def from_json(cls, data: Any) -> SheetState:
        """Parse a state written by to_json; InvalidRecord says what is wrong otherwise."""
        data = STATE.fields(data, STATE_FIELDS, ("winner",))
        STATE.integer(data["format"], "format", FORMAT, FORMAT)
        rules = SheetRules.from_json(data["rules"])
        if data["game"] != rules.game:
            raise STATE.refuse(f"game must be its rules' game {rules.game!r}, not {describe(data['game'])}")
        seats = STATE.array(data["sheets"], "sheets", rules.min_players, rules.max_players)
        sheets = tuple(
            sheet_from_json(rules, sheet["boxes"], sheet["bonus"])
            for sheet in (STATE.fields(seat, ("boxes", "bonus")) for seat in seats)
        )
        state = cls(
            rules,
            sheets,
            current=STATE.integer(data["current"], "current", 0, len(sheets) - 1),
            dice=STATE.dice(data["dice"], "dice"),
            held=STATE.positions(data["held"], "held"),
            rolls_left=STATE.integer(data["rolls_left"], "rolls_left", 0, rules.rolls_per_turn),
            awaiting_roll=STATE.boolean(data["awaiting_roll"], "awaiting_roll"),
            winner=STATE.optional_integer(data.get("winner"), "winner", 0, len(sheets) - 1),
        )
        state._check_turn()
        return state

    def _check_turn(self) -> None:
        """Refuse turn data that play could never produce: seats out of turn, dice and rolls out of step."""
        filled = [sum(points is not None for points in sheet.boxes) for sheet in self.sheets]
        behind = filled[self.current]
        if any(count != behind + (seat < self.current) for seat, count in enumerate(filled)):
            raise STATE.refuse(
                f"the seats before seat {self.current} have filled one box more than the others,"
                f" not {filled}"
            )
        rolls = self.rules.rolls_per_turn
        if not self.dice:
            if not self.awaiting_roll or self.held or self.rolls_left != rolls:
                raise STATE.refuse(
                    f"a turn without dice awaits its first roll, holds nothing, and has {rolls} rolls left"
                )
        elif len(self.dice) != DICE_COUNT or (self.is_over and self.winner is None):
            raise STATE.refuse(
                f"the table has no dice or {DICE_COUNT}, and none once the game is over (but a winning first roll)"
            )
        elif self.rolls_left == rolls:
            raise STATE.refuse(f"after a roll fewer than {rolls} rolls are left")
        elif not self.awaiting_roll and self.held:
            raise STATE.refuse("held dice are only kept for a pending roll")
        elif self.awaiting_roll and (self.rolls_left == 0 or len(self.held) == DICE_COUNT):
            raise STATE.refuse("a pending roll needs a roll left and a die to roll")
        if self._wins_at_once and self.winner != self.current:
            raise STATE.refuse(f"the first roll on the table wins the game for seat {self.current}")
        if self.winner is not None and (self.winner != self.current or not self._wins_at_once):
            raise STATE.refuse("a winner is the seat to move, its winning first roll on the table")


STATE = Record("score-sheet state")
STATE_FIELDS = ("format", "game", "rules", "sheets", "current", "dice", "held", "rolls_left", "awaiting_roll")
