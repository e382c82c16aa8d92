"""5000 (docs/rules.md#5000): the game state, its transitions and its JSON form."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import Enum
from fractions import Fraction
from functools import cache, lru_cache
from typing import Any, NoReturn

from .actions import Action, Bank, Roll, SetAside
from .dice import DICE_COUNT, Dice, roll_outcomes, validate_dice
from .errors import IllegalAction, InvalidRecord, NotYourTurn
from .five_thousand_scoring import (
    FIVE_THOUSAND_FREE_SET_ASIDE,
    FIVE_THOUSAND_SEED,
    FIVE_THOUSAND_SWITCHES,
    FIVE_THOUSAND_THREE_ONES_1000,
    FIVE_THOUSAND_VARIANTS,
    GAME,
    ROLLS_KEPT,
    FiveThousandRules,
    RollScore,
    check_int,
    score_roll,
    set_aside_choices,
    set_aside_points,
)
from .ranking import shared_places
from .refusals import Refusal
from .validation import Record, describe

__all__ = [
    "FIVE_THOUSAND_FREE_SET_ASIDE",
    "FIVE_THOUSAND_SEED",
    "FIVE_THOUSAND_SWITCHES",
    "FIVE_THOUSAND_THREE_ONES_1000",
    "FIVE_THOUSAND_VARIANTS",
    "EVENT_KINDS",
    "FiveThousandRules",
    "FiveThousandState",
    "Phase",
    "RollScore",
    "TurnEvent",
    "score_roll",
    "set_aside_choices",
    "set_aside_points",
]

FORMAT = 1
STATE_KEYS = (
    "game", "format", "rules", "scores", "current", "turn_points",
    "dice_left", "last_roll", "phase", "winner", "last_event",
)
EVENT_KINDS = ("bust", "bank", "hot_dice", "knock_out", "gift", "gift_lost", "win")


class Phase(Enum):
    ROLL = "roll"  # chance node: the next step is a roll of dice_left dice
    DECIDE = "decide"  # the player rolls again or banks
    SET_ASIDE = "set_aside"  # free_set_aside only: the player picks the scoring dice to keep
    OVER = "over"  # someone reached the target


# The actions offered are shared by every state (a server keeps many states; the collector walks each object).
_ROLL_ONLY, _ROLL_OR_BANK = (Roll(),), (Roll(), Bank())
_set_aside_action = cache(SetAside)


@lru_cache(maxsize=ROLLS_KEPT)  # each roll's 31 subsets of dice scored once, and every view of a set-aside asks
def _set_aside_actions(roll: Dice, rules: FiveThousandRules) -> tuple[SetAside, ...]:
    return tuple(_set_aside_action(held) for held in set_aside_choices(roll, rules))


@dataclass(frozen=True)
class TurnEvent:
    """What the last step did, for apps to announce.

    seat: the player whose turn it was. points: the points lost (bust), banked
    (bank, knock_out, win), given (gift, gift_lost, win by a gift) or this
    turn's total (hot_dice). receiver: the seat a gift went to (None when the
    gift found nobody in the game, or when there was no gift). knocked: seats
    knocked to zero by this bank or gift. The winner is the state's `winner`.
    """

    kind: str
    seat: int
    points: int
    receiver: int | None = None
    knocked: tuple[int, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "seat": self.seat,
            "points": self.points,
            "receiver": self.receiver,
            "knocked": list(self.knocked),
        }

    @classmethod
    def from_json(cls, data: Any, num_players: int) -> TurnEvent:
        data = EVENT.fields(data, ("kind", "seat", "points", "receiver", "knocked"))
        if data["kind"] not in EVENT_KINDS:
            raise EVENT.refuse(f"kind must be one of {', '.join(EVENT_KINDS)}, not {describe(data['kind'])}")
        last_seat = num_players - 1
        points = EVENT.integer(data["points"], "points", 0)
        if points % 50:
            raise EVENT.refuse(f"points are a multiple of 50, not {points}")
        return cls(
            data["kind"],
            EVENT.integer(data["seat"], "seat", 0, last_seat),
            points,
            EVENT.optional_integer(data["receiver"], "the gift's receiver", 0, last_seat),
            tuple(
                EVENT.integer(seat, "a knocked seat", 0, last_seat)
                for seat in EVENT.array(data["knocked"], "knocked", 0, last_seat)
            ),
        )


@dataclass(frozen=True)
class FiveThousandState:
    """A 5000 position. `totals` are the banked scores (0 = not in the game)."""

    rules: FiveThousandRules
    totals: tuple[int, ...]
    current: int
    turn_points: int = 0
    dice_left: int = DICE_COUNT
    last_roll: Dice = ()
    phase: Phase = Phase.ROLL
    winner: int | None = None
    last_event: TurnEvent | None = None

    # --- constructors -------------------------------------------------------

    @classmethod
    def new(cls, rules: FiveThousandRules, num_players: int) -> FiveThousandState:
        """Seat 0 is about to roll five dice; everybody is out of the game."""
        _check_player_count(rules, num_players)
        return cls(rules, (0,) * num_players, 0)

    @classmethod
    def decision_point(
        cls,
        rules: FiveThousandRules,
        scores: Sequence[int],
        to_move: int,
        turn_points: int,
        dice_left: int,
    ) -> FiveThousandState:
        """`to_move` has scored `turn_points` this turn and chooses to roll `dice_left` dice or bank."""
        totals = _checked_totals(rules, scores, winner=None)
        check_int(turn_points, "turn points", 50)
        if turn_points % 50:
            raise InvalidRecord("invalid_record", what="5000 state", detail=f"turn points must be a multiple of 50, not {turn_points}")
        check_int(dice_left, "dice left", 1, DICE_COUNT)
        seat = _seat(to_move, len(totals), "the player to move")
        return cls(rules, totals, seat, turn_points, dice_left, (), Phase.DECIDE)

    # --- the GameState protocol ---------------------------------------------

    @property
    def game(self) -> str:
        return GAME

    @property
    def num_players(self) -> int:
        return len(self.totals)

    @property
    def current_player(self) -> int | None:
        return None if self.is_over else self.current

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    @property
    def is_chance(self) -> bool:
        return self.phase is Phase.ROLL

    @property
    def dice_to_roll(self) -> int:
        return self.dice_left if self.is_chance else 0

    def chance_outcomes(self) -> tuple[tuple[Dice, Fraction], ...]:
        if not self.is_chance:
            _refuse(self._no_roll_reason())
        return roll_outcomes(self.dice_left)

    def apply_roll(self, dice: Sequence[int]) -> FiveThousandState:
        if not self.is_chance:
            _refuse(self._no_roll_reason())
        roll = validate_dice(dice, self.dice_left)
        score = score_roll(roll, self.rules)
        # docs/rules.md#5000-bust, then #5000-free-set-aside or #5000-set-aside
        if score.points == 0:
            return self._end_turn(TurnEvent("bust", self.current, self.turn_points), last_roll=roll)
        if self.rules.free_set_aside:
            return self._moved_on(Phase.SET_ASIDE, roll)
        return self._keep(roll, score.points, score.scoring_dice)

    def legal_actions(self) -> tuple[Action, ...]:
        if self.phase is Phase.SET_ASIDE:
            return _set_aside_actions(self.last_roll, self.rules)
        if self.phase is not Phase.DECIDE:
            return ()
        return _ROLL_ONLY if self.must_roll_reason() else _ROLL_OR_BANK

    def apply(self, action: Action, seat: int | None = None) -> FiveThousandState:
        if self.is_over:
            raise IllegalAction("game_over")
        if seat is not None and seat != self.current:
            raise NotYourTurn(  # seats counted from 1 for people, from 0 in params
                "not_seat_turn", seat=self.current, asked=seat, number=self.current + 1, asked_number=seat + 1
            )
        if isinstance(action, Roll) and self.phase is Phase.DECIDE:
            return self._moved_on(Phase.ROLL, self.last_roll)
        if isinstance(action, Bank) and self.must_roll_reason() is None:
            return self._credit(self.current, gift=False)
        if isinstance(action, SetAside) and self.phase is Phase.SET_ASIDE:
            return self._set_aside(action.held)
        _refuse(self._refusal(action))

    def scores(self) -> tuple[int, ...]:
        return self.totals

    def ranking(self) -> tuple[int, ...]:
        # The winner holds exactly the target and everybody else less, so plain
        # score order puts the winner first (docs/rules.md#5000-places).
        return shared_places(self.totals)

    def must_roll_reason(self) -> Refusal | None:
        """Why the current player may not bank now, or None when banking is allowed.

        docs/rules.md#5000-must-roll and #5000-entry
        """
        if self.phase is not Phase.DECIDE:
            return self._no_decision_reason()
        if self.turn_points % 100:
            return Refusal("must_roll_points", {"rest": self.turn_points % 100})
        if self.totals[self.current] == 0 and self.turn_points < self.rules.entry:
            return Refusal("must_roll_entry", {"entry": self.rules.entry})
        return None

    # --- transitions ----------------------------------------------------------

    def _keep(self, roll: Dice, points: int, kept: int) -> FiveThousandState:
        """Set aside `kept` scoring dice worth `points`; all dice scored means five again
        (docs/rules.md#5000-hot-dice)."""
        left = self.dice_left - kept
        turn_points = self.turn_points + points
        event = None if left else TurnEvent("hot_dice", self.current, turn_points)
        return replace(
            self, last_roll=roll, turn_points=turn_points, dice_left=left or DICE_COUNT, phase=Phase.DECIDE,
            last_event=event,
        )

    def _moved_on(self, phase: Phase, last_roll: Dice) -> FiveThousandState:
        """The same turn in `phase`, after `last_roll`, with nothing to announce."""
        return replace(self, last_roll=last_roll, phase=phase, last_event=None)

    def _set_aside(self, held: tuple[int, ...]) -> FiveThousandState:
        points = set_aside_points(self.last_roll, held, self.rules)
        if not points:
            raise IllegalAction("set_aside_scoring")
        return self._keep(self.last_roll, points, len(held))

    def _credit(self, seat: int, gift: bool) -> FiveThousandState:
        """Add the turn's points to `seat` (the mover, or the receiver of a gift).

        docs/rules.md#5000-bank: #5000-win, #5000-overshoot, #5000-knock-out
        """
        points, target = self.turn_points, self.rules.target
        new = self.totals[seat] + points
        receiver = seat if gift else None
        if new == target:
            totals = tuple(new if s == seat else t for s, t in enumerate(self.totals))
            return self._end_turn(TurnEvent("win", self.current, points, receiver), totals, winner=seat)
        if new > target and gift:
            return self._end_turn(TurnEvent("gift_lost", self.current, points, receiver))
        if new > target:
            return self._give()
        knocked = tuple(s for s, t in enumerate(self.totals) if s != seat and t == new)
        totals = tuple(
            new if s == seat else 0 if s in knocked else t for s, t in enumerate(self.totals)
        )
        kind = "gift" if gift else "knock_out" if knocked else "bank"
        return self._end_turn(TurnEvent(kind, self.current, points, receiver, knocked), totals)

    def _give(self) -> FiveThousandState:
        """Overshoot: the points go to the lowest opponent in the game (ties: first in turn order).

        docs/rules.md#5000-overshoot; "in the game" is a score above 0 (#5000-entry)
        """
        after_mover = [(self.current + k) % self.num_players for k in range(1, self.num_players)]
        in_game = [seat for seat in after_mover if self.totals[seat] > 0]
        if not in_game:
            return self._end_turn(TurnEvent("gift_lost", self.current, self.turn_points))
        return self._credit(min(in_game, key=lambda seat: self.totals[seat]), gift=True)

    def _end_turn(
        self,
        event: TurnEvent,
        totals: tuple[int, ...] | None = None,
        winner: int | None = None,
        last_roll: Dice | None = None,
    ) -> FiveThousandState:
        over = winner is not None
        return replace(
            self,
            totals=self.totals if totals is None else totals,
            current=self.current if over else (self.current + 1) % self.num_players,
            turn_points=0,
            dice_left=DICE_COUNT,
            last_roll=self.last_roll if last_roll is None else last_roll,
            phase=Phase.OVER if over else Phase.ROLL,
            winner=winner,
            last_event=event,
        )

    # --- refusals ---------------------------------------------------------------

    def _no_decision_reason(self) -> Refusal:
        if self.is_over:
            return Refusal("game_over")
        if self.phase is Phase.ROLL:
            return Refusal("roll_first")
        return Refusal("set_aside_first")

    def _no_roll_reason(self) -> Refusal:
        if self.phase is Phase.DECIDE:
            return Refusal("no_roll_pending_roll_or_bank")
        return self._no_decision_reason()

    def _refusal(self, action: object) -> Refusal | None:
        if not isinstance(action, (Roll, Bank, SetAside)):
            return Refusal("wrong_action", {"action": type(action).__name__, "game": GAME})
        if self.phase is not Phase.DECIDE:
            return self._no_decision_reason()
        if isinstance(action, SetAside):
            return Refusal("already_set_aside")
        return self.must_roll_reason()

    # --- JSON -------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        return {
            "game": GAME,
            "format": FORMAT,
            "rules": self.rules.to_json(),
            "scores": list(self.totals),
            "current": self.current,
            "turn_points": self.turn_points,
            "dice_left": self.dice_left,
            "last_roll": list(self.last_roll),
            "phase": self.phase.value,
            "winner": self.winner,
            "last_event": None if self.last_event is None else self.last_event.to_json(),
        }

    @classmethod
    def from_json(cls, data: Any) -> FiveThousandState:
        """Parse a state written by to_json; InvalidRecord says what is wrong otherwise."""
        data = STATE.fields(data, STATE_KEYS)
        if data["game"] != GAME:
            raise STATE.refuse(f"game must be {GAME!r}, not {describe(data['game'])}")
        STATE.integer(data["format"], "format", FORMAT, FORMAT)
        rules = FiveThousandRules.from_json(data["rules"])
        phase = STATE.choice(data["phase"], "phase", Phase)
        scores = STATE.array(data["scores"], "scores", rules.min_players, rules.max_players)
        last_seat = len(scores) - 1
        winner = STATE.optional_integer(data["winner"], "winner", 0, last_seat)
        if (winner is None) == (phase is Phase.OVER):
            raise STATE.refuse('a state has a winner exactly when its phase is "over"')
        for seat, score in enumerate(scores):
            STATE.integer(score, f"seat {seat}'s score")
        state = cls(
            rules,
            _checked_totals(rules, scores, winner),
            STATE.integer(data["current"], "current", 0, last_seat),
            STATE.integer(data["turn_points"], "turn_points", 0),
            STATE.integer(data["dice_left"], "dice_left", 1, DICE_COUNT),
            STATE.dice(data["last_roll"], "last_roll"),
            phase,
            winner,
            None if data["last_event"] is None else TurnEvent.from_json(data["last_event"], len(scores)),
        )
        state._check_phase()
        return state

    def _check_phase(self) -> None:
        """Refuse phase data that the transitions could never produce and could not continue from."""
        if self.turn_points % 50:
            raise STATE.refuse(f"turn points are a multiple of 50, not {self.turn_points}")
        if self.turn_points == 0 and self.dice_left != DICE_COUNT:
            raise STATE.refuse(f"a turn without points has all {DICE_COUNT} dice to roll")
        won = self.last_event is not None and self.last_event.kind == "win"
        if won != self.is_over or (self.is_over and self.turn_points):
            raise STATE.refuse('a game is "over" exactly after a win event, with no turn points left')
        if self.phase is Phase.DECIDE and self.turn_points == 0:
            raise STATE.refuse('in phase "decide" the turn has points')
        if self.phase is Phase.SET_ASIDE:
            if not self.rules.free_set_aside:
                raise STATE.refuse('phase "set_aside" needs rules with free_set_aside')
            scores = score_roll(self.last_roll, self.rules).points > 0
            if len(self.last_roll) != self.dice_left or not scores:
                raise STATE.refuse('in phase "set_aside" the last roll scores and has dice_left dice')


# --- validation helpers -----------------------------------------------------------


def _refuse(reason: Refusal | None) -> NoReturn:
    """Raise the refusal a state gave as a reason (None only if a caller erred)."""
    assert reason is not None
    raise IllegalAction(reason.code, **reason.params)


STATE = Record("5000 state")
EVENT = Record("5000 event")


def _seat(value: Any, num_players: int, what: str) -> int:
    return check_int(value, what, 0, num_players - 1)


def _check_player_count(rules: FiveThousandRules, num_players: Any) -> None:
    if isinstance(num_players, bool) or not isinstance(num_players, int) or not (
        rules.min_players <= num_players <= rules.max_players
    ):
        raise InvalidRecord(
            "player_count", game=GAME, low=rules.min_players, high=rules.max_players, count=repr(num_players)
        )


def _checked_totals(rules: FiveThousandRules, scores: Any, winner: int | None) -> tuple[int, ...]:
    """Scores as a tuple: multiples of 100, below the target except the winner's, which equals it."""
    if isinstance(scores, (str, bytes)) or not isinstance(scores, Sequence):
        raise InvalidRecord("invalid_record", what="5000 state", detail="scores must be a list with one score per seat")
    _check_player_count(rules, len(scores))
    for seat, score in enumerate(scores):
        highest = rules.target if seat == winner else rules.target - 100
        check_int(score, f"seat {seat}'s score", 0, highest)
        if score % 100:
            raise InvalidRecord("invalid_record", what="5000 state", detail=f"scores are multiples of 100, not {score}")
        if seat == winner and score != rules.target:
            raise InvalidRecord("invalid_record", what="5000 state", detail=f"the winner's score must be exactly {rules.target}, not {score}")
    return tuple(scores)
