"""Pure scoring of score-sheet games: box points, the joker, bonuses and totals."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache

from .dice import DICE_COUNT, face_counts, roll_outcomes, validate_dice
from .sheet_rules import BoxRule, JokerRule, Pattern, SheetRules
from .validation import Record


@dataclass(frozen=True)
class Sheet:
    """One player's sheet: points per box in rule order (None = open) and five-equal bonuses."""

    boxes: tuple[int | None, ...]
    bonus: int = 0

    @classmethod
    def empty(cls, rules: SheetRules) -> Sheet:
        return cls((None,) * len(rules.boxes))

    def is_open(self, index: int) -> bool:
        return self.boxes[index] is None

    @property
    def is_full(self) -> bool:
        return None not in self.boxes

    def filled(self, rules: SheetRules) -> dict[str, int]:
        return {box.id: pts for box, pts in zip(rules.boxes, self.boxes) if pts is not None}

    def to_json(self, rules: SheetRules) -> dict[str, object]:
        return {"boxes": self.filled(rules), "bonus": self.bonus}


@dataclass(frozen=True)
class ScoreOption:
    """A legal box for the current dice: the box's points and the five-equal bonus paid with it."""

    box: str
    points: int
    bonus: int


# A few hundred distinct options in all: each is made once and shared by every state that offers it.
_score_option = cache(ScoreOption)


# Box patterns: docs/rules.md#penta-boxes, #generala-boxes and #yatzy-boxes.
def _matches(box: BoxRule, counts: tuple[int, ...]) -> bool:
    if box.pattern is Pattern.FACE or box.pattern is Pattern.ANY:
        return True
    if box.pattern is Pattern.OF_A_KIND:
        return max(counts) >= box.count
    if box.pattern is Pattern.FULL_HOUSE:
        return sorted(c for c in counts if c) == [2, 3]
    if box.pattern is Pattern.TWO_PAIRS:
        return len(_pair_faces(counts)) >= 2
    return any(all(counts[v - 1] for v in run) for run in box.runs)


def _is_combination(box: BoxRule) -> bool:
    return box.pattern not in (Pattern.FACE, Pattern.ANY)


def box_points(
    rules: SheetRules, box: BoxRule, counts: tuple[int, ...], joker: bool = False, first_roll: bool = False
) -> int:
    """Points of `box` for dice with these face counts; a joker counts as matching every pattern,
    and a pattern made with the turn's first roll earns the box's first-roll bonus."""
    if box.pattern is Pattern.FACE:
        return box.face * counts[box.face - 1]
    matched = joker or _matches(box, counts)
    # docs/rules.md#generala-libre-without-combination
    if matched and box.only_without_combination:
        matched = not any(_matches(other, counts) for other in rules.boxes if _is_combination(other))
    if not matched:
        return 0
    if box.matching_dice_only:
        points = _matching_dice_total(box, counts)
    else:
        points = box.points if box.points is not None else sum(f * c for f, c in enumerate(counts, 1))
    # docs/rules.md#generala-servida
    return points + (box.first_roll_bonus if first_roll else 0)


def first_roll_scores_apart(rules: SheetRules) -> bool:
    """Whether a turn's first roll may score other points than a later roll of the same dice: only a
    first-roll bonus makes it (box_points)."""
    return any(box.first_roll_bonus for box in rules.boxes)


def wins_at_once(rules: SheetRules, dice: Sequence[int]) -> bool:
    """Whether these dice, as a turn's first roll, win the game at once with two seats or more.

    docs/rules.md#generala-servida-wins
    """
    if rules.first_roll_wins is None:
        return False
    box = rules.boxes[rules.box_index(rules.first_roll_wins)]
    return _matches(box, face_counts(validate_dice(dice, DICE_COUNT)))


def _pair_faces(counts: tuple[int, ...]) -> list[int]:
    return [face for face, count in enumerate(counts, 1) if count >= 2]


def _matching_dice_total(box: BoxRule, counts: tuple[int, ...]) -> int:
    """The dice that form the pattern (docs/rules.md#yatzy-boxes): the `count` dice of the highest face
    that has them, or two dice of each pair; 0 when none do."""
    if box.pattern is Pattern.TWO_PAIRS:
        pairs = _pair_faces(counts)
        return 2 * sum(pairs) if len(pairs) >= 2 else 0
    return max((box.count * face for face, count in enumerate(counts, 1) if count >= box.count), default=0)


# The totals below are summed at every view of every state: filter(None, ...) skips the open boxes
# (and the zeros, which add nothing) at C speed.
def upper_total(rules: SheetRules, sheet: Sheet) -> int:
    return sum(filter(None, map(sheet.boxes.__getitem__, rules.upper_indices)))


def upper_bonus(rules: SheetRules, sheet: Sheet) -> int:
    # docs/rules.md#penta-upper-bonus
    threshold = rules.upper_bonus_threshold
    earned = threshold is not None and upper_total(rules, sheet) >= threshold
    return rules.upper_bonus_points if earned else 0


def sheet_total(rules: SheetRules, sheet: Sheet) -> int:
    """TOTAL = upper + upper bonus + lower + five-equal bonuses (docs/rules.md#penta-total)."""
    return sum(filter(None, sheet.boxes)) + upper_bonus(rules, sheet) + sheet.bonus


def _joker_box_points(rules: SheetRules, sheet: Sheet) -> int | None:
    if rules.joker_box is None:
        return None
    return sheet.boxes[rules.box_index(rules.joker_box)]


def _upper_index(rules: SheetRules, face: int) -> int | None:
    return next((i for i, box in enumerate(rules.boxes) if box.upper and box.face == face), None)


def score_options(
    rules: SheetRules, sheet: Sheet, dice: Sequence[int], first_roll: bool = False
) -> tuple[ScoreOption, ...]:
    """Exactly the legal boxes for these dice on this sheet, in sheet order; `first_roll`: the
    dice are the turn's first roll (no die rethrown yet)."""
    counts = face_counts(validate_dice(dice, DICE_COUNT))
    open_boxes = [i for i, points in enumerate(sheet.boxes) if points is None]
    five_equal = max(counts) == DICE_COUNT
    joker_points = _joker_box_points(rules, sheet)
    # docs/rules.md#penta-bonus
    bonus_paid = five_equal and bool(joker_points)
    # The joker per rule set: docs/rules.md#penta-joker, #penta-ordinary-five-equal, #penta-rule-sets.
    if not five_equal or joker_points is None or rules.joker is JokerRule.NONE:
        legal, joker = open_boxes, False
    else:
        face_box = _upper_index(rules, counts.index(DICE_COUNT) + 1)
        face_open = face_box is not None and sheet.is_open(face_box)
        if rules.joker is JokerRule.FREE:
            legal, joker = open_boxes, not face_open
        elif rules.joker is JokerRule.FACE_FIRST:  # docs/rules.md#kniffel-joker
            bonus_paid = face_open and bool(joker_points)
            legal = [face_box] if face_box is not None and bonus_paid else open_boxes
            joker = not face_open
        elif rules.joker is JokerRule.SEED and joker_points == 0:
            legal, joker = open_boxes, False
        else:  # forced placement: the face's upper box, else a lower box, else any upper box
            lower = [i for i in open_boxes if not rules.boxes[i].upper]
            legal = [face_box] if face_box is not None and face_open else (lower or open_boxes)
            joker = True
    bonus = rules.five_equal_bonus if bonus_paid else 0
    points = _points_by_box(rules, counts, joker, first_roll, bool(joker_points))
    return tuple(_score_option(rules.box_ids[i], points[i], bonus) for i in legal)


@cache
def _points_by_box(
    rules: SheetRules, counts: tuple[int, ...], joker: bool, first_roll: bool, joker_box_scored: bool
) -> tuple[int, ...]:
    """box_points of every box: a few rule sets times 252 face counts, asked for at every roll of every game.

    A box that scores only after the joker box gets 0 until that box holds points
    (docs/rules.md#generala-double)."""
    return tuple(
        0 if box.only_after_joker_box and not joker_box_scored else box_points(rules, box, counts, joker, first_roll)
        for box in rules.boxes
    )


def no_open_box_scores(options: Sequence[ScoreOption]) -> bool:
    """The app's sacrifice warning: every legal box would get 0 points for this roll.

    docs/rules.md#penta-sacrifice
    """
    return all(option.points == 0 for option in options)


@cache
def possible_points(rules: SheetRules, box_index: int) -> frozenset[int]:
    """Every value the box can hold (0 included), to reject impossible sheets."""
    box = rules.boxes[box_index]
    values = {0}
    for outcome, _ in roll_outcomes(DICE_COUNT):
        counts = face_counts(outcome)
        for joker in (False, True):
            for first_roll in (False, True):
                values.add(box_points(rules, box, counts, joker, first_roll))
    return frozenset(values)


@cache
def _possible_points_by_box(rules: SheetRules) -> tuple[frozenset[int], ...]:
    """possible_points of every box, hashing the rules once per sheet rather than once per box."""
    return tuple(possible_points(rules, index) for index in range(len(rules.boxes)))


SHEET = Record("score sheet")


def sheet_from_json(rules: SheetRules, filled: object, bonus: object = 0) -> Sheet:
    """Build a sheet from `{"ones": 3, "penta": 50}` and a bonus, rejecting what cannot occur."""
    if not isinstance(filled, Mapping):
        raise SHEET.refuse('expected an object of filled boxes, e.g. {"ones": 3, "penta": 50}')
    boxes: list[int | None] = [None] * len(rules.boxes)
    possible = _possible_points_by_box(rules)
    for box_id, points in filled.items():
        index = rules.box_index(box_id)
        if SHEET.integer(points, f"box {box_id}") not in possible[index]:
            raise SHEET.refuse(f"box {box_id} cannot hold {points} points")
        boxes[index] = points
    sheet = Sheet(tuple(boxes), SHEET.integer(bonus, "the five-equal bonus", 0))
    # each bonus was paid with a roll scored in another box while the joker box held points
    joker_points = _joker_box_points(rules, sheet)
    step = rules.five_equal_bonus
    paid = sheet.bonus // step if step else 0
    if sheet.bonus and (not step or not joker_points or sheet.bonus % step or paid > len(filled) - 1):
        raise SHEET.refuse(
            f"the five-equal bonus is a multiple of {step}, paid at most once per box filled while"
            f" the joker box holds points, not {sheet.bonus}"
        )
    return sheet
