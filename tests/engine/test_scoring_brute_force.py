"""The engine's scoring against a scorer written here from the rule book alone (RULES.md).

The reference below reads the rule set's name, never its fields, and spells out each box
as the rule book does; Hypothesis draws the dice, the sheets and the rule sets.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from cubilete.engine.five_thousand import (
    FIVE_THOUSAND_VARIANTS,
    score_roll,
    set_aside_choices,
    set_aside_points,
)
from cubilete.engine.games import GAMES
from cubilete.engine.ranking import shared_places
from cubilete.engine.sheet_rules import SheetRules
from cubilete.engine.sheet_scoring import Sheet, first_roll_scores_apart, possible_points, score_options

SETTINGS = settings(max_examples=300, deadline=None)

# --- 5000 ------------------------------------------------------------------------------


def five_thousand_points(dice, rules_name):
    """RULES.md, 5000: one roll scored as a whole; returns (points, positions that scored)."""
    three_ones = 1000 if rules_name == "three-ones-1000" else 1100
    if len(dice) == 5 and sorted(dice) in ([1, 2, 3, 4, 5], [2, 3, 4, 5, 6]):
        return 1500, set(range(5))
    counts = Counter(dice)
    points, scoring_faces = 0, set()
    for face, count in counts.items():
        if count >= 3:
            triple = three_ones if face == 1 else 100 * face
            points += triple * {3: 1, 4: 2, 5: 4}[count]
            scoring_faces.add(face)
        elif face in (1, 5):
            points += count * (100 if face == 1 else 50)
            scoring_faces.add(face)
    return points, {i for i, face in enumerate(dice) if face in scoring_faces}


dice_rolls = st.lists(st.integers(1, 6), min_size=0, max_size=5)
five_thousand_rules = st.sampled_from(FIVE_THOUSAND_VARIANTS)


@SETTINGS
@given(dice=dice_rolls, rules=five_thousand_rules)
def test_score_roll_agrees_with_the_rule_book(dice, rules):
    score = score_roll(dice, rules)
    points, positions = five_thousand_points(dice, rules.name)
    assert (score.points, set(score.positions)) == (points, positions)


@SETTINGS
@given(dice=st.lists(st.integers(1, 6), min_size=1, max_size=5), rules=five_thousand_rules)
def test_set_asides_are_exactly_the_groups_that_score_whole(dice, rules):
    roll = tuple(dice)
    valid_groups = set()
    for size in range(1, len(roll) + 1):
        for held in combinations(range(len(roll)), size):
            group = [roll[i] for i in held]
            points, positions = five_thousand_points(group, rules.name)
            whole = points > 0 and len(positions) == len(group)
            assert set_aside_points(roll, held, rules) == (points if whole else 0)
            if whole:
                valid_groups.add(tuple(sorted(group)))
    choices = set_aside_choices(roll, rules)
    assert sorted(tuple(sorted(roll[i] for i in held)) for held in choices) == sorted(valid_groups)


# --- Penta and Generala ----------------------------------------------------------------

STRAIGHTS = {
    "small_straight": ({1, 2, 3, 4}, {2, 3, 4, 5}, {3, 4, 5, 6}),
    "large_straight": ({1, 2, 3, 4, 5}, {2, 3, 4, 5, 6}),
}
UPPER = ("ones", "twos", "threes", "fours", "fives", "sixes")
# Penta joker placement by rule set name, and whether the penta bonus is paid (RULES.md, Penta)
PENTA_JOKER = {"seed": "seed", "forced": "forced", "free": "free", "no-joker": "none", "no-bonus": "none"}


def penta_box(box, dice, joker=False):
    """What a box scores; a joker matches every lower pattern (RULES.md, Penta, joker case 2)."""
    counts = sorted(Counter(dice).values())
    total = sum(dice)
    if box in UPPER:
        return dice.count(UPPER.index(box) + 1) * (UPPER.index(box) + 1)
    if box == "chance":
        return total
    if box == "three_of_a_kind":
        return total if joker or counts[-1] >= 3 else 0
    if box == "four_of_a_kind":
        return total if joker or counts[-1] >= 4 else 0
    if box == "full_house":
        return 25 if joker or counts == [2, 3] else 0
    if box in STRAIGHTS:
        matched = any(run <= set(dice) for run in STRAIGHTS[box])
        return (30 if box == "small_straight" else 40) if joker or matched else 0
    assert box == "penta"
    return 50 if counts == [5] else 0


def penta_options(rules_name, sheet, dice):
    """Every legal box with its points and bonus: a dict box -> (points, bonus)."""
    open_boxes = [box for box, points in sheet.items() if points is None]
    five_equal = len(set(dice)) == 1
    penta = sheet["penta"]
    bonus = 100 if five_equal and penta == 50 and rules_name != "no-bonus" else 0
    placement = PENTA_JOKER[rules_name]
    face_box = UPPER[dice[0] - 1]
    joker_on = five_equal and penta is not None and (placement == "forced" or (placement == "seed" and penta == 50))
    if placement == "free" and five_equal and penta is not None:
        joker = sheet[face_box] is not None
        return {box: (penta_box(box, dice, joker), bonus) for box in open_boxes}
    if not joker_on:
        return {box: (penta_box(box, dice), bonus) for box in open_boxes}
    if sheet[face_box] is None:  # 1. the face's upper box, alone
        return {face_box: (penta_box(face_box, dice), bonus)}
    lower = [box for box in open_boxes if box not in UPPER]
    if lower:  # 2. any open lower box, joker scoring
        return {box: (penta_box(box, dice, joker=True), bonus) for box in lower}
    return {box: (0, bonus) for box in open_boxes}  # 3. any open upper box, for 0


def generala_options(rules_name, sheet, dice, first_roll=False):
    if rules_name.startswith("traditional"):
        return traditional_generala_options(sheet, dice, first_roll)
    counts = sorted(Counter(dice).values())
    combination = {
        "trio": counts[-1] >= 3,
        "poker": counts[-1] >= 4,
        "full": counts == [2, 3],
        "long_straight": sorted(dice) == [2, 3, 4, 5, 6],
        "short_straight": sorted(dice) == [1, 2, 3, 4, 5],
        "generala": counts == [5],
    }
    fixed = {"trio": 20, "poker": 30, "full": 25, "long_straight": 30, "short_straight": 40, "generala": 50}
    libre_scores = rules_name != "libre-without-combination" or not any(combination.values())

    def points(box):
        if box in UPPER:
            return dice.count(UPPER.index(box) + 1) * (UPPER.index(box) + 1)
        if box == "libre":
            return sum(dice) if libre_scores else 0
        return fixed[box] if combination[box] else 0

    return {box: (points(box), 0) for box, filled in sheet.items() if filled is None}


def traditional_generala_options(sheet, dice, first_roll):
    """docs/rules.md#generala-traditional: 20/30/40 (+5 servida), generala 50, doble 100 after a 50."""
    counts = sorted(Counter(dice).values())
    escaleras = ([1, 2, 3, 4, 5], [2, 3, 4, 5, 6], [1, 3, 4, 5, 6])
    servida = 5 if first_roll else 0
    fixed = {
        "straight": 20 + servida if sorted(dice) in escaleras else 0,
        "full": 30 + servida if counts == [2, 3] else 0,
        "poker": 40 + servida if counts[-1] >= 4 else 0,
        "generala": 50 if counts == [5] else 0,
        "double_generala": 100 if counts == [5] and sheet["generala"] == 50 else 0,
    }

    def points(box):
        return dice.count(UPPER.index(box) + 1) * (UPPER.index(box) + 1) if box in UPPER else fixed[box]

    return {box: (points(box), 0) for box, filled in sheet.items() if filled is None}


SHEET_RULES = [rules for game in ("penta", "generala") for rules in GAMES[game].variants.values()]


@st.composite
def sheet_situations(draw):
    """A rule set, a sheet with some boxes filled (the five-equal box with 0 or 50), five dice, and
    whether they are the turn's first roll."""
    rules = draw(st.sampled_from(SHEET_RULES))
    five_equal_box = "penta" if rules.game == "penta" else "generala"
    sheet = {}
    for box in rules.box_ids:
        filled = draw(st.booleans())
        sheet[box] = (draw(st.sampled_from([0, 50])) if box == five_equal_box else 0) if filled else None
    # five equal dice often enough to reach every joker case
    dice = draw(st.lists(st.integers(1, 6), min_size=5, max_size=5) | st.integers(1, 6).map(lambda face: [face] * 5))
    return rules, sheet, dice, draw(st.booleans())


@settings(max_examples=600, deadline=None)
@given(situation=sheet_situations())
def test_score_options_agree_with_the_rule_book(situation):
    rules, sheet, dice, first_roll = situation
    engine_sheet = Sheet(tuple(sheet[box] for box in rules.box_ids))
    options = score_options(rules, engine_sheet, dice, first_roll)
    if rules.game == "penta":
        expected = penta_options(rules.name, sheet, dice)  # no servida in Penta
    else:
        expected = generala_options(rules.name, sheet, dice, first_roll)
    assert {option.box: (option.points, option.bonus) for option in options} == expected
    assert [option.box for option in options] == [box for box in rules.box_ids if box in expected]


# --- places ----------------------------------------------------------------------------


@SETTINGS
@given(st.lists(st.integers(0, 400), min_size=1, max_size=6))
def test_places_are_one_plus_the_seats_that_scored_more(scores):
    assert shared_places(scores) == tuple(1 + sum(other > score for other in scores) for score in scores)


EVERY_SHEET_RULES = [rules for info in GAMES.values() for rules in info.variants.values() if isinstance(rules, SheetRules)]


@st.composite
def any_sheet_situation(draw):
    """Any sheet rule set of any game, its boxes each open or filled with points it can hold, five dice."""
    rules = draw(st.sampled_from(EVERY_SHEET_RULES))
    boxes = tuple(
        draw(st.none() | st.sampled_from(sorted(possible_points(rules, index)))) for index in range(len(rules.boxes))
    )
    dice = draw(st.lists(st.integers(1, 6), min_size=5, max_size=5) | st.integers(1, 6).map(lambda face: [face] * 5))
    return rules, Sheet(boxes), dice


@settings(max_examples=100, deadline=None)  # one comparison per example: 300 took 5.9 s of the quick suite
@given(situation=any_sheet_situation())
def test_a_first_roll_scores_apart_only_where_the_rule_set_says_it_may(situation):
    """The solver probes a turn's first roll apart only where `first_roll_scores_apart` says so
    (solvers/sheet/tables.py): elsewhere a first roll scores as a later one, box by box."""
    rules, sheet, dice = situation
    if not first_roll_scores_apart(rules):
        assert score_options(rules, sheet, dice, first_roll=True) == score_options(rules, sheet, dice, first_roll=False)


def test_traditional_generala_scores_a_first_roll_apart():
    """docs/rules.md#generala-servida: a full house served on the first roll earns its bonus."""
    rules = GAMES["generala"].variants["traditional"]
    assert first_roll_scores_apart(rules)
    sheet = Sheet((None,) * len(rules.boxes))
    first, later = (
        {option.box: option.points for option in score_options(rules, sheet, [2, 2, 3, 3, 3], first_roll)}
        for first_roll in (True, False)
    )
    assert first != later
