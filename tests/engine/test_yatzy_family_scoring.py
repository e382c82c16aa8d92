"""Yahtzee, Scandinavian Yatzy and Kniffel: golden scores from docs/rules.md (#yahtzee, #yatzy,
#kniffel), and the engine against scorers written here from those rule texts on all 252 rolls."""

from __future__ import annotations

from collections import Counter
from itertools import product

import pytest

from cubilete.engine.dice import DICE_COUNT, roll_outcomes
from cubilete.engine.errors import InvalidRecord
from cubilete.engine.games import rules_for
from cubilete.engine.sheet_rules import KNIFFEL_SCHMIDT, YAHTZEE_HASBRO, YATZY_SCANDINAVIAN, SheetRules
from cubilete.engine.sheet_scoring import Sheet, score_options, sheet_from_json, sheet_total

ROLLS = [list(roll) for roll, _ in roll_outcomes(DICE_COUNT)]
UPPER = ("ones", "twos", "threes", "fours", "fives", "sixes")


def options(rules, dice, filled=None):
    sheet = sheet_from_json(rules, filled or {})
    return {o.box: (o.points, o.bonus) for o in score_options(rules, sheet, dice)}


def points(rules, dice, filled=None):
    return {box: pts for box, (pts, _) in options(rules, dice, filled).items()}


def test_each_game_defaults_to_its_one_named_rule_set():
    assert rules_for("yahtzee") is YAHTZEE_HASBRO and YAHTZEE_HASBRO.name == "hasbro"
    assert rules_for("yatzy") is YATZY_SCANDINAVIAN and YATZY_SCANDINAVIAN.name == "scandinavian"
    assert rules_for("kniffel") is KNIFFEL_SCHMIDT and KNIFFEL_SCHMIDT.name == "schmidt"
    assert rules_for("penta").name == "seed"


# -- Scandinavian Yatzy ------------------------------------------------------

YATZY_GOLDEN = [
    # dice, then the 15 boxes in sheet order: ones..sixes, one_pair, two_pairs, three_of_a_kind,
    # four_of_a_kind, small_straight, large_straight, full_house, chance, yatzy
    ([3, 3, 3, 4, 4], [0, 0, 9, 8, 0, 0, 8, 14, 9, 0, 0, 0, 17, 17, 0]),  # a pair: the higher one
    ([1, 1, 6, 6, 2], [2, 2, 0, 0, 0, 12, 12, 14, 0, 0, 0, 0, 0, 16, 0]),
    ([5, 5, 5, 5, 2], [0, 2, 0, 0, 20, 0, 10, 0, 15, 20, 0, 0, 0, 22, 0]),  # four equal: not two pairs
    ([1, 2, 3, 4, 5], [1, 2, 3, 4, 5, 0, 0, 0, 0, 0, 15, 0, 0, 15, 0]),
    ([2, 3, 4, 5, 6], [0, 2, 3, 4, 5, 6, 0, 0, 0, 0, 0, 20, 0, 20, 0]),
    ([1, 2, 3, 4, 6], [1, 2, 3, 4, 0, 6, 0, 0, 0, 0, 0, 0, 0, 16, 0]),  # four in a row is no straight
    ([6, 6, 6, 6, 6], [0, 0, 0, 0, 0, 30, 12, 0, 18, 24, 0, 0, 0, 30, 50]),  # not a full house
    ([2, 2, 2, 6, 6], [0, 6, 0, 0, 0, 12, 12, 16, 6, 0, 0, 0, 18, 18, 0]),
]


@pytest.mark.parametrize("dice, expected", YATZY_GOLDEN)
def test_every_yatzy_box(dice, expected):
    assert list(points(YATZY_SCANDINAVIAN, dice)) == list(YATZY_SCANDINAVIAN.box_ids)
    assert list(points(YATZY_SCANDINAVIAN, dice).values()) == expected


def test_yatzy_upper_bonus_is_50_at_63_and_a_second_yatzy_is_an_ordinary_roll():
    filled = {"ones": 3, "twos": 6, "threes": 9, "fours": 12, "fives": 15, "sixes": 18, "yatzy": 50}
    assert sheet_total(YATZY_SCANDINAVIAN, sheet_from_json(YATZY_SCANDINAVIAN, filled)) == 63 + 50 + 50
    assert options(YATZY_SCANDINAVIAN, [4] * 5, {"yatzy": 50}) == {
        box: (pts, 0) for box, pts in points(YATZY_SCANDINAVIAN, [4] * 5).items() if box != "yatzy"
    }


def yatzy_reference(dice):
    """Every box as the Scandinavian rules describe it (docs/rules.md#yatzy-boxes)."""
    counts = Counter(dice)
    pairs = sorted((face for face, n in counts.items() if n >= 2), reverse=True)

    def kind(n):
        return max((n * face for face, c in counts.items() if c >= n), default=0)

    return {
        **{box: dice.count(face) * face for face, box in enumerate(UPPER, 1)},
        "one_pair": 2 * pairs[0] if pairs else 0,
        "two_pairs": 2 * sum(pairs) if len(pairs) == 2 else 0,
        "three_of_a_kind": kind(3),
        "four_of_a_kind": kind(4),
        "small_straight": 15 if sorted(dice) == [1, 2, 3, 4, 5] else 0,
        "large_straight": 20 if sorted(dice) == [2, 3, 4, 5, 6] else 0,
        "full_house": sum(dice) if sorted(counts.values()) == [2, 3] else 0,
        "chance": sum(dice),
        "yatzy": 50 if len(counts) == 1 else 0,
    }


def test_yatzy_scores_all_252_rolls_as_the_rule_text():
    for dice in ROLLS:
        assert points(YATZY_SCANDINAVIAN, dice) == yatzy_reference(dice), dice


# -- Yahtzee -----------------------------------------------------------------


def test_yahtzee_boxes_and_free_joker():
    assert points(YAHTZEE_HASBRO, [2, 2, 2, 5, 5]) == {
        "ones": 0, "twos": 6, "threes": 0, "fours": 0, "fives": 10, "sixes": 0, "three_of_a_kind": 16,
        "four_of_a_kind": 0, "full_house": 25, "small_straight": 0, "large_straight": 0, "chance": 16,
        "yahtzee": 0,
    }  # fmt: skip
    assert points(YAHTZEE_HASBRO, [3] * 5)["yahtzee"] == 50
    # a second Yahtzee: +100, any open box; joker scoring once the face's upper box is filled
    assert options(YAHTZEE_HASBRO, [3] * 5, {"yahtzee": 50})["full_house"] == (0, 100)
    assert options(YAHTZEE_HASBRO, [3] * 5, {"yahtzee": 50, "threes": 6})["full_house"] == (25, 100)
    assert options(YAHTZEE_HASBRO, [3] * 5, {"yahtzee": 0, "threes": 6})["large_straight"] == (40, 0)


# -- Kniffel -----------------------------------------------------------------


def test_kniffel_extra_kniffel_scores_50_only_in_its_open_upper_box():
    assert options(KNIFFEL_SCHMIDT, [4] * 5, {"kniffel": 50}) == {"fours": (20, 50)}
    after = options(KNIFFEL_SCHMIDT, [4] * 5, {"kniffel": 50, "fours": 8})
    assert after["full_house"] == (25, 0) and after["large_straight"] == (40, 0) and after["ones"] == (0, 0)
    assert len(after) == 11  # any open box, as a joker, no bonus
    crossed_out = options(KNIFFEL_SCHMIDT, [4] * 5, {"kniffel": 0})
    assert crossed_out["fours"] == (20, 0) and crossed_out["full_house"] == (0, 0) and len(crossed_out) == 12
    assert options(KNIFFEL_SCHMIDT, [4] * 5, {"kniffel": 0, "fours": 12})["small_straight"] == (30, 0)


def test_kniffel_bonuses_are_multiples_of_50_paid_while_the_kniffel_box_holds_50():
    sheet = sheet_from_json(KNIFFEL_SCHMIDT, {"kniffel": 50, "fours": 20}, 50)
    assert sheet_total(KNIFFEL_SCHMIDT, sheet) == 120
    with pytest.raises(InvalidRecord):
        sheet_from_json(KNIFFEL_SCHMIDT, {"kniffel": 50, "fours": 20}, 100)
    with pytest.raises(InvalidRecord):
        sheet_from_json(KNIFFEL_SCHMIDT, {"kniffel": 0, "fours": 20}, 50)


def kniffel_reference(sheet, dice):
    """Schmidt's Kniffel (docs/rules.md#kniffel): Yahtzee's boxes; a further Kniffel while the Kniffel box
    holds 50 must go in its open upper box and earns 50; with both boxes filled it is a joker anywhere."""
    counts = sorted(Counter(dice).values())
    total, face = sum(dice), UPPER[dice[0] - 1]
    kniffel = len(set(dice)) == 1
    joker = kniffel and sheet["kniffel"] is not None and sheet[face] is not None

    def box_points(box):
        if box in UPPER:
            return dice.count(UPPER.index(box) + 1) * (UPPER.index(box) + 1)
        runs = {"small_straight": ({1, 2, 3, 4}, {2, 3, 4, 5}, {3, 4, 5, 6}),
                "large_straight": ({1, 2, 3, 4, 5}, {2, 3, 4, 5, 6})}  # fmt: skip
        matched = {
            "three_of_a_kind": counts[-1] >= 3,
            "four_of_a_kind": counts[-1] >= 4,
            "full_house": counts == [2, 3],
            "chance": True,
            "kniffel": kniffel,
        }
        if box in runs:
            matched[box] = any(run <= set(dice) for run in runs[box])
        if not (joker or matched[box]):
            return 0
        return {"full_house": 25, "small_straight": 30, "large_straight": 40, "kniffel": 50}.get(box, total)

    if kniffel and sheet["kniffel"] == 50 and sheet[face] is None:
        return {face: (box_points(face), 50)}
    return {box: (box_points(box), 0) for box, filled in sheet.items() if filled is None}


KNIFFEL_SHEETS = [  # the Kniffel box open, 0 or 50; each upper box and the lower part open or filled
    {box: value for box, value in zip(KNIFFEL_SCHMIDT.box_ids, row)}
    for kniffel in (None, 0, 50)
    for upper_filled, lower_filled in product((False, True), repeat=2)
    for row in [
        [(0 if upper_filled and i % 2 else None) for i in range(6)] + [0 if lower_filled else None] * 6 + [kniffel]
    ]
]


@pytest.mark.parametrize("sheet", KNIFFEL_SHEETS)
def test_kniffel_scores_all_252_rolls_as_the_rule_text(sheet):
    engine_sheet = Sheet(tuple(sheet.values()))
    for dice in ROLLS:
        options = score_options(KNIFFEL_SCHMIDT, engine_sheet, dice)
        assert {o.box: (o.points, o.bonus) for o in options} == kniffel_reference(sheet, dice), (sheet, dice)


@pytest.mark.parametrize("rules", [YAHTZEE_HASBRO, YATZY_SCANDINAVIAN, KNIFFEL_SCHMIDT], ids=lambda r: r.game)
def test_rule_sets_survive_json(rules):
    assert SheetRules.from_json(rules.to_json()) == rules


def test_older_records_read_without_the_matching_dice_flag_and_refuse_it_where_it_means_nothing():
    penta = rules_for("penta").to_json()
    assert all("matching_dice_only" not in box for box in penta["boxes"])  # records as before
    flagged = {**penta, "boxes": [{**box, "matching_dice_only": True} for box in penta["boxes"]]}
    with pytest.raises(InvalidRecord, match="ones"):
        SheetRules.from_json(flagged)  # an upper box cannot score "its matching dice"
