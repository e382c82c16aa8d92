"""5000: the rule set as data, and the pure scoring of one roll.

Combinations count only inside one roll (docs/rules.md#5000-one-roll): a third 1 rolled
after two earlier 1s is a single 1, so every function here sees one roll.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, fields, replace
from functools import lru_cache
from itertools import combinations
from typing import Any

from .dice import DICE_COUNT, FACES, Dice, face_counts, validate_dice
from .errors import InvalidDice, InvalidRecord
from .rule_switches import Switch
from .validation import Record

GAME = "5000"
STRAIGHTS = ((1, 2, 3, 4, 5), (2, 3, 4, 5, 6))
POINTS_PER_PIP = 100  # three of a face (other than 1s) score 100 × face
OF_A_KIND_COUNTS = (3, 4, 5)


def check_int(value: Any, what: str, low: int | None = None, high: int | None = None) -> int:
    """Return value if it is an int within [low, high], else raise InvalidRecord saying so."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidRecord("not_an_integer", what=what, value=repr(value))
    if (low is not None and value < low) or (high is not None and value > high):
        if high is None:
            raise InvalidRecord("below_minimum", what=what, low=low, value=value)
        raise InvalidRecord("out_of_range", what=what, low=low, high=high, value=value)
    return value


@dataclass(frozen=True)
class FiveThousandRules:
    """Every rule of 5000 that a variant may change; a variant is just another value.

    docs/rules.md#5000-rule-sets
    """

    name: str = "seed"
    target: int = 5000
    entry: int = 500
    straight_points: int = 1500
    three_ones_points: int = 1100
    single_one: int = 100
    single_five: int = 50
    of_a_kind_multiplier: tuple[tuple[int, int], ...] = ((3, 1), (4, 2), (5, 4))
    free_set_aside: bool = False
    min_players: int = 2
    max_players: int = 6

    def __post_init__(self) -> None:
        object.__setattr__(self, "of_a_kind_multiplier", _checked_multipliers(self.of_a_kind_multiplier))
        if not isinstance(self.name, str) or not self.name:
            raise InvalidRecord("invalid_record", what="5000 rule set", detail=f"it needs a non-empty name, not {self.name!r}")
        if check_int(self.target, "target", 100) % 100:
            raise InvalidRecord(
                "invalid_record", what="5000 rule set", detail=f"target must be a multiple of 100, not {self.target}"
            )
        check_int(self.entry, "entry", 0)
        for points in ("straight_points", "three_ones_points", "single_one", "single_five"):
            check_int(getattr(self, points), points, 1)
        if not isinstance(self.free_set_aside, bool):
            raise InvalidRecord(
                "invalid_record",
                what="5000 rule set",
                detail=f"free_set_aside must be true or false, not {self.free_set_aside!r}",
            )
        check_int(self.max_players, "max_players", check_int(self.min_players, "min_players", 1))

    @property
    def game(self) -> str:
        return GAME

    def multiplier(self, count: int) -> int:
        """How many times the three-of-a-face value `count` equal dice are worth."""
        return dict(self.of_a_kind_multiplier)[count]

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["of_a_kind_multiplier"] = {str(count): times for count, times in self.of_a_kind_multiplier}
        return data

    @classmethod
    def from_json(cls, data: Any) -> FiveThousandRules:
        """Parse a rule set; every field is required so that a record never changes meaning."""
        data = RULES.fields(data, tuple(field.name for field in fields(cls)))
        counts = tuple(str(count) for count in OF_A_KIND_COUNTS)
        multipliers = RULES.fields(data["of_a_kind_multiplier"], counts)
        pairs = tuple(
            (int(count), RULES.integer(multipliers[count], f"the multiplier of {count} of a kind", 1))
            for count in counts
        )
        return cls(**{**data, "of_a_kind_multiplier": pairs})


RULES = Record("5000 rule set")


def _checked_multipliers(pairs: Any) -> tuple[tuple[int, int], ...]:
    """The multipliers sorted by count (so equal rule sets compare equal), or InvalidRecord."""
    try:
        result = tuple(sorted((count, times) for count, times in pairs))
    except (TypeError, ValueError):
        raise InvalidRecord(
            "invalid_record", what="5000 rule set", detail="of_a_kind_multiplier must be (count, multiplier) pairs"
        ) from None
    if tuple(count for count, _ in result) != OF_A_KIND_COUNTS:
        raise InvalidRecord(
            "invalid_record",
            what="5000 rule set",
            detail=f"of_a_kind_multiplier needs exactly the counts {OF_A_KIND_COUNTS}",
        )
    for count, times in result:
        check_int(count, "an of-a-kind count")
        check_int(times, f"the multiplier of {count} of a kind", 1)
    return result


# docs/rules.md#5000-seed, #5000-three-ones-1000, #5000-free-set-aside
FIVE_THOUSAND_SEED = FiveThousandRules()
FIVE_THOUSAND_THREE_ONES_1000 = replace(
    FIVE_THOUSAND_SEED, name="three-ones-1000", three_ones_points=1000
)
FIVE_THOUSAND_FREE_SET_ASIDE = replace(FIVE_THOUSAND_SEED, name="free-set-aside", free_set_aside=True)
FIVE_THOUSAND_VARIANTS = (
    FIVE_THOUSAND_SEED,
    FIVE_THOUSAND_THREE_ONES_1000,
    FIVE_THOUSAND_FREE_SET_ASIDE,
)
# docs/rules.md#5000-switches: 350 and 750 are house rules of Farkle, where they are banked as such; here
# a bank never ends in 50, so they ask for 400 and 800 in fact, and are offered under their usual names.
ENTRY_CHOICES = (0, 350, 500, 750, 1000)
FIVE_THOUSAND_SWITCHES = (
    Switch("entry", "entry", tuple((f"entry-{points}", points) for points in ENTRY_CHOICES)),
    Switch("three_ones", "three_ones_points", (("three-ones-1100", 1100), ("three-ones-1000", 1000))),
    Switch("set_aside", "free_set_aside", (("auto-set-aside", False), ("free-set-aside", True))),
)


@dataclass(frozen=True)
class RollScore:
    """What one roll scores as a whole, and which of its dice (positions) scored."""

    points: int
    positions: tuple[int, ...]

    @property
    def scoring_dice(self) -> int:
        return len(self.positions)


def score_roll(dice: Sequence[int], rules: FiveThousandRules) -> RollScore:
    """Score a roll of up to five dice as a whole: straight, of-a-kind, then single 1s and 5s.

    docs/rules.md#5000-combinations
    """
    roll = validate_dice(dice)
    if len(roll) > DICE_COUNT:
        raise InvalidDice("too_many_dice", most=DICE_COUNT, count=len(roll))
    return _roll_score(roll, rules)


# Bounded: rule sets are data, and a stored game may bring its own (the presets fit many times over).
ROLLS_KEPT = 16 * 9_330


@lru_cache(maxsize=ROLLS_KEPT)  # 9,330 rolls of one to five dice per rule set; every roll and every view scores one
def _roll_score(roll: Dice, rules: FiveThousandRules) -> RollScore:
    if tuple(sorted(roll)) in STRAIGHTS:
        return RollScore(rules.straight_points, tuple(range(len(roll))))
    points = {face: _face_points(face, count, rules) for face, count in zip(FACES, face_counts(roll))}
    positions = tuple(i for i, face in enumerate(roll) if points[face])
    return RollScore(sum(points.values()), positions)


def _face_points(face: int, count: int, rules: FiveThousandRules) -> int:
    """Points of the `count` dice showing `face` in one roll (with five dice, at most one triple)."""
    if count >= 3:
        base = rules.three_ones_points if face == 1 else POINTS_PER_PIP * face
        return base * rules.multiplier(count)
    single = {1: rules.single_one, 5: rules.single_five}.get(face, 0)
    return count * single


def set_aside_points(roll: Dice, held: Sequence[int], rules: FiveThousandRules) -> int:
    """Points of keeping the dice at `held`: their score as a group, or 0 when any of them
    would not score in that group (then it is not a valid set-aside); docs/rules.md#5000-free-set-aside."""
    for position in held:
        is_index = isinstance(position, int) and not isinstance(position, bool)
        if not is_index or not 0 <= position < len(roll):
            raise InvalidDice("die_position", position=repr(position), last=len(roll) - 1)
    if len(set(held)) != len(held):
        raise InvalidDice("set_aside_twice", positions=list(held))
    group = score_roll(tuple(roll[i] for i in held), rules)
    return group.points if group.scoring_dice == len(held) else 0


def set_aside_choices(roll: Dice, rules: FiveThousandRules) -> tuple[tuple[int, ...], ...]:
    """Every valid set-aside of the roll, each distinct group of values once (first positions)."""
    seen: set[Dice] = set()
    choices = []
    for size in range(1, len(roll) + 1):
        for held in combinations(range(len(roll)), size):
            values = tuple(sorted(roll[i] for i in held))
            if values not in seen:
                seen.add(values)  # validity depends only on the values, not the positions
                if set_aside_points(roll, held, rules):
                    choices.append(held)
    return tuple(choices)
