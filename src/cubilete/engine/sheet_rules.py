"""Score-sheet rule sets (Penta, Generala, Yahtzee, Yatzy, Kniffel) as plain data.

A variant is a value: the boxes with their patterns and points, the upper
bonus, the joker rule and the five-equal bonus. Scoring code reads these
fields; it never asks which game it is playing. The rules themselves, with
the source each follows: docs/rules.md#penta, #generala, #yahtzee, #yatzy and #kniffel.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from enum import Enum
from typing import Any

from .dice import DICE_COUNT, FACES
from .errors import UnknownBox
from .validation import Record, describe


class Pattern(Enum):
    FACE = "face"  # upper box: the sum of the dice showing `face`
    OF_A_KIND = "of_a_kind"  # at least `count` equal dice
    FULL_HOUSE = "full_house"  # three of one face and two of another
    STRAIGHT = "straight"  # one of `runs` among the dice
    ANY = "any"  # any dice
    TWO_PAIRS = "two_pairs"  # two different faces with two or more dice each (four equal dice are one pair)


# Where five equal dice may go, and how they score there (docs/rules.md#penta-joker).
class JokerRule(Enum):
    SEED = "seed"  # forced placement while the joker box holds points (docs/rules.md#penta-seed)
    FORCED = "forced"  # forced placement whenever the joker box is filled (0 or points)
    FREE = "free"  # any open box; joker scoring once the joker box and the face's upper box are filled
    NONE = "none"  # a five-equal roll is always an ordinary roll
    # while the joker box holds points, a five-equal roll goes in its face's open upper box and only there
    # earns the bonus; joker scoring in any open box once both are filled (docs/rules.md#kniffel-joker)
    FACE_FIRST = "face_first"


@dataclass(frozen=True)
class BoxRule:
    id: str
    pattern: Pattern
    points: int | None = None  # fixed points when the pattern matches; None: the sum of the dice
    face: int = 0
    count: int = 0
    runs: tuple[tuple[int, ...], ...] = ()
    only_without_combination: bool = False  # scores only when no other lower pattern matches
    first_roll_bonus: int = 0  # added when the pattern is made with the turn's first roll ("servida")
    only_after_joker_box: bool = False  # scores only while the joker box holds points (Doble Generala)
    # scores the dice that form the pattern (the highest face's `count` dice; both pairs), not all five
    matching_dice_only: bool = False

    @property
    def upper(self) -> bool:
        return self.pattern is Pattern.FACE


@dataclass(frozen=True)
class SheetRules:
    game: str
    name: str
    boxes: tuple[BoxRule, ...]
    min_players: int = 1
    max_players: int = 6
    rolls_per_turn: int = 3
    upper_bonus_threshold: int | None = None  # None: no upper bonus
    upper_bonus_points: int = 0
    joker: JokerRule = JokerRule.NONE
    joker_box: str | None = None  # the five-equal box whose points enable the joker and bonus
    five_equal_bonus: int = 0  # paid for each further five-equal roll while joker_box holds points
    first_roll_wins: str | None = None  # the box whose pattern on a first roll wins at once with 2+ seats
    box_ids: tuple[str, ...] = field(init=False, repr=False, compare=False)
    upper_indices: tuple[int, ...] = field(init=False, repr=False, compare=False)
    _hash: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "box_ids", tuple(box.id for box in self.boxes))
        object.__setattr__(self, "upper_indices", tuple(i for i, box in enumerate(self.boxes) if box.upper))
        object.__setattr__(self, "_hash", hash(tuple(getattr(self, name) for name in RULE_FIELDS)))

    def __hash__(self) -> int:
        # Computed once: the scoring caches are keyed by the rules, and every roll of every game asks them.
        return self._hash

    def box_index(self, box_id: str) -> int:
        try:
            return self.box_ids.index(box_id)
        except ValueError:
            raise UnknownBox("unknown_box", game=self.game, box=box_id, boxes=list(self.box_ids)) from None

    def to_json(self) -> dict[str, Any]:
        # field by field: dataclasses.asdict deep-copies, and every stored state writes its rules
        data = _written(self, RULE_FIELDS, LATER_RULE_FIELDS)
        data["joker"] = self.joker.value
        data["boxes"] = [
            {
                **_written(box, BOX_FIELDS, LATER_BOX_FIELDS),
                "pattern": box.pattern.value,
                "runs": [list(run) for run in box.runs],
            }
            for box in self.boxes
        ]
        return data

    @classmethod
    def from_json(cls, data: Any) -> SheetRules:
        """Parse a rule set written by to_json; every field is required so a record never changes meaning."""
        data = {**LATER_RULE_FIELDS, **RULES.fields(data, RULE_FIELDS, LATER_RULE_FIELDS)}
        boxes = tuple(_box_from_json(box) for box in RULES.array(data["boxes"], "boxes", 1))
        ids = [box.id for box in boxes]
        if len(set(ids)) != len(ids):
            raise RULES.refuse(f"box ids must be distinct: {', '.join(ids)}")
        joker_box = data["joker_box"]
        if joker_box is not None and joker_box not in ids:
            raise RULES.refuse(f"joker_box must be one of the boxes or null, not {describe(joker_box)}")
        first_roll_wins = data["first_roll_wins"]
        if first_roll_wins is not None and first_roll_wins not in ids:
            raise RULES.refuse(f"first_roll_wins must be one of the boxes or null, not {describe(first_roll_wins)}")
        if any(box.only_after_joker_box for box in boxes) and joker_box is None:
            raise RULES.refuse("a box that scores only after the joker box needs a joker_box")
        min_players = RULES.integer(data["min_players"], "min_players", 1)
        return cls(
            game=RULES.text(data["game"], "game"),
            name=RULES.text(data["name"], "name"),
            boxes=boxes,
            min_players=min_players,
            max_players=RULES.integer(data["max_players"], "max_players", min_players),
            rolls_per_turn=RULES.integer(data["rolls_per_turn"], "rolls_per_turn", 1),
            upper_bonus_threshold=RULES.optional_integer(
                data["upper_bonus_threshold"], "upper_bonus_threshold", 0
            ),
            upper_bonus_points=RULES.integer(data["upper_bonus_points"], "upper_bonus_points", 0),
            joker=RULES.choice(data["joker"], "joker", JokerRule),
            joker_box=joker_box,
            five_equal_bonus=RULES.integer(data["five_equal_bonus"], "five_equal_bonus", 0),
            first_roll_wins=first_roll_wins,
        )


RULES = Record("score-sheet rule set")
# Fields added after records were first stored, with their defaults: a record writes them only when
# they differ, and a record without them means the default, so the older records and the solver's
# cached tables of the rule sets that do not use them keep their meaning and their keys.
LATER_RULE_FIELDS: dict[str, Any] = {"first_roll_wins": None}
LATER_BOX_FIELDS: dict[str, Any] = {"first_roll_bonus": 0, "only_after_joker_box": False, "matching_dice_only": False}
RULE_FIELDS = tuple(f.name for f in fields(SheetRules) if f.init and f.name not in LATER_RULE_FIELDS)
BOX_FIELDS = tuple(f.name for f in fields(BoxRule) if f.name not in LATER_BOX_FIELDS)


def _written(rules: SheetRules | BoxRule, names: tuple[str, ...], later: dict[str, Any]) -> dict[str, Any]:
    """The fields of a record: every first one, and the later ones that differ from their defaults."""
    data = {name: getattr(rules, name) for name in names}
    data.update((name, getattr(rules, name)) for name, default in later.items() if getattr(rules, name) != default)
    return data


def _box_from_json(data: Any) -> BoxRule:
    """A box as to_json writes it; fields that its pattern does not use keep their defaults."""
    data = {**LATER_BOX_FIELDS, **RULES.fields(data, BOX_FIELDS, LATER_BOX_FIELDS)}
    box_id = RULES.text(data["id"], "a box id")
    pattern = RULES.choice(data["pattern"], f"the pattern of {box_id}", Pattern)
    box = BoxRule(
        box_id,
        pattern,
        points=RULES.optional_integer(data["points"], f"the points of {box_id}", 0),
        face=RULES.integer(data["face"], f"the face of {box_id}", 0, FACES[-1]),
        count=RULES.integer(data["count"], f"the count of {box_id}", 0, DICE_COUNT),
        runs=tuple(
            RULES.dice(run, f"a run of {box_id}", 1)
            for run in RULES.array(data["runs"], f"the runs of {box_id}")
        ),
        only_without_combination=RULES.boolean(
            data["only_without_combination"], f"only_without_combination of {box_id}"
        ),
        first_roll_bonus=RULES.integer(data["first_roll_bonus"], f"the first-roll bonus of {box_id}", 0),
        only_after_joker_box=RULES.boolean(data["only_after_joker_box"], f"only_after_joker_box of {box_id}"),
        matching_dice_only=RULES.boolean(
            data["matching_dice_only"], f"matching_dice_only of {box_id}"
        ),
    )
    if box.matching_dice_only and box.points is not None:
        raise RULES.refuse(f"box {box_id}: scores either fixed points or its matching dice, not both")
    used = {
        "face": box.face > 0,
        "count": box.count > 0,
        "runs": bool(box.runs),
        "points": box.points is not None,
        "matching_dice_only": box.matching_dice_only,
    }
    needs, may = PATTERN_FIELDS[pattern]
    if any(used[name] != (name in needs) for name in used if name not in may):
        rule = [f"sets {', '.join(needs)}"] if needs else []
        rule += [f"may set {', '.join(may)}"] if may else []
        raise RULES.refuse(f"box {box_id}: a {pattern.value} box {', '.join(rule)} and nothing else")
    return box


# What each pattern reads (box_points): the fields it needs, and those it may leave unset.
PATTERN_FIELDS: dict[Pattern, tuple[tuple[str, ...], tuple[str, ...]]] = {
    Pattern.FACE: (("face",), ()),
    Pattern.OF_A_KIND: (("count",), ("points", "matching_dice_only")),
    Pattern.FULL_HOUSE: ((), ("points",)),
    Pattern.STRAIGHT: (("runs",), ("points",)),
    Pattern.ANY: ((), ("points",)),
    Pattern.TWO_PAIRS: ((), ("points", "matching_dice_only")),
}


UPPER_BOXES = tuple(
    BoxRule(box_id, Pattern.FACE, face=face)
    for face, box_id in enumerate(("ones", "twos", "threes", "fours", "fives", "sixes"), start=1)
)

# docs/rules.md#penta-boxes, #penta-upper-bonus, #penta-bonus and #penta-joker
PENTA_SEED = SheetRules(
    game="penta",
    name="seed",
    boxes=UPPER_BOXES
    + (
        BoxRule("three_of_a_kind", Pattern.OF_A_KIND, count=3),
        BoxRule("four_of_a_kind", Pattern.OF_A_KIND, count=4),
        BoxRule("full_house", Pattern.FULL_HOUSE, points=25),
        BoxRule(
            "small_straight",
            Pattern.STRAIGHT,
            points=30,
            runs=((1, 2, 3, 4), (2, 3, 4, 5), (3, 4, 5, 6)),
        ),
        BoxRule("large_straight", Pattern.STRAIGHT, points=40, runs=((1, 2, 3, 4, 5), (2, 3, 4, 5, 6))),
        BoxRule("chance", Pattern.ANY),
        BoxRule("penta", Pattern.OF_A_KIND, points=50, count=5),
    ),
    upper_bonus_threshold=63,
    upper_bonus_points=35,
    joker=JokerRule.SEED,
    joker_box="penta",
    five_equal_bonus=100,
)

# docs/rules.md#penta-rule-sets
PENTA_FORCED = replace(PENTA_SEED, name="forced", joker=JokerRule.FORCED)
PENTA_FREE = replace(PENTA_SEED, name="free", joker=JokerRule.FREE)
PENTA_NO_JOKER = replace(PENTA_SEED, name="no-joker", joker=JokerRule.NONE)
PENTA_NO_BONUS = replace(PENTA_SEED, name="no-bonus", joker=JokerRule.NONE, five_equal_bonus=0)

# docs/rules.md#generala-players, #generala-boxes; no bonuses (#generala-total)
GENERALA_SEED = SheetRules(
    game="generala",
    name="seed",
    max_players=4,
    boxes=UPPER_BOXES
    + (
        BoxRule("trio", Pattern.OF_A_KIND, points=20, count=3),
        BoxRule("poker", Pattern.OF_A_KIND, points=30, count=4),
        BoxRule("full", Pattern.FULL_HOUSE, points=25),
        BoxRule("long_straight", Pattern.STRAIGHT, points=30, runs=((2, 3, 4, 5, 6),)),
        BoxRule("short_straight", Pattern.STRAIGHT, points=40, runs=((1, 2, 3, 4, 5),)),
        BoxRule("generala", Pattern.OF_A_KIND, points=50, count=5),
        BoxRule("libre", Pattern.ANY),
    ),
)

# docs/rules.md#generala-libre-without-combination
GENERALA_LIBRE_WITHOUT_COMBINATION = replace(
    GENERALA_SEED,
    name="libre-without-combination",
    boxes=tuple(
        replace(box, only_without_combination=True) if box.id == "libre" else box
        for box in GENERALA_SEED.boxes
    ),
)

# docs/rules.md#generala-traditional: the Argentine scoring, the escalera with the one after the six
GENERALA_TRADITIONAL = SheetRules(
    game="generala",
    name="traditional",
    max_players=4,
    boxes=UPPER_BOXES
    + (
        BoxRule(
            "straight",
            Pattern.STRAIGHT,
            points=20,
            runs=((1, 2, 3, 4, 5), (2, 3, 4, 5, 6), (3, 4, 5, 6, 1)),
            first_roll_bonus=5,
        ),
        BoxRule("full", Pattern.FULL_HOUSE, points=30, first_roll_bonus=5),
        BoxRule("poker", Pattern.OF_A_KIND, points=40, count=4, first_roll_bonus=5),
        BoxRule("generala", Pattern.OF_A_KIND, points=50, count=5),
    ),
    first_roll_wins="generala",
)

# docs/rules.md#generala-double: a second Generala while the Generala box holds 50
GENERALA_TRADITIONAL_DOUBLE = replace(
    GENERALA_TRADITIONAL,
    name="traditional-double",
    boxes=GENERALA_TRADITIONAL.boxes
    + (BoxRule("double_generala", Pattern.OF_A_KIND, points=100, count=5, only_after_joker_box=True),),
    joker_box="generala",
)

# docs/rules.md#yahtzee: Penta `free` under Hasbro's names, so its optimum is Verhoeff's 254.5896094820
YAHTZEE_HASBRO = replace(
    PENTA_FREE,
    game="yahtzee",
    name="hasbro",
    boxes=tuple(replace(box, id="yahtzee") if box.id == "penta" else box for box in PENTA_FREE.boxes),
    joker_box="yahtzee",
)

# docs/rules.md#kniffel: Yahtzee's boxes and values; docs/rules.md#kniffel-joker for the extra Kniffel
KNIFFEL_SCHMIDT = replace(
    YAHTZEE_HASBRO,
    game="kniffel",
    name="schmidt",
    boxes=tuple(replace(box, id="kniffel") if box.id == "yahtzee" else box for box in YAHTZEE_HASBRO.boxes),
    joker=JokerRule.FACE_FIRST,
    joker_box="kniffel",
    five_equal_bonus=50,
)

# docs/rules.md#yatzy-boxes; no joker and no extra-Yatzy bonus (#yatzy-five-equal)
YATZY_SCANDINAVIAN = SheetRules(
    game="yatzy",
    name="scandinavian",
    boxes=UPPER_BOXES
    + (
        BoxRule("one_pair", Pattern.OF_A_KIND, count=2, matching_dice_only=True),
        BoxRule("two_pairs", Pattern.TWO_PAIRS, matching_dice_only=True),
        BoxRule("three_of_a_kind", Pattern.OF_A_KIND, count=3, matching_dice_only=True),
        BoxRule("four_of_a_kind", Pattern.OF_A_KIND, count=4, matching_dice_only=True),
        BoxRule("small_straight", Pattern.STRAIGHT, points=15, runs=((1, 2, 3, 4, 5),)),
        BoxRule("large_straight", Pattern.STRAIGHT, points=20, runs=((2, 3, 4, 5, 6),)),
        BoxRule("full_house", Pattern.FULL_HOUSE),
        BoxRule("chance", Pattern.ANY),
        BoxRule("yatzy", Pattern.OF_A_KIND, points=50, count=5),
    ),
    upper_bonus_threshold=63,
    upper_bonus_points=50,
)
