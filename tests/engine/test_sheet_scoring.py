"""Golden scores from docs/rules.md (#penta-examples, #generala-examples), box by box, joker case by joker case."""

import pytest

from cubilete.engine.errors import InvalidRecord, UnknownBox
from cubilete.engine.sheet_rules import (
    GENERALA_LIBRE_WITHOUT_COMBINATION,
    GENERALA_SEED,
    PENTA_FORCED,
    PENTA_FREE,
    PENTA_NO_BONUS,
    PENTA_NO_JOKER,
    PENTA_SEED,
)
from cubilete.engine.sheet_scoring import (
    Sheet,
    no_open_box_scores,
    score_options,
    sheet_from_json,
    sheet_total,
    upper_bonus,
)


def options(rules, dice, filled=None):
    sheet = sheet_from_json(rules, filled or {})
    return {o.box: (o.points, o.bonus) for o in score_options(rules, sheet, dice)}


def points(rules, dice, filled=None):
    return {box: pts for box, (pts, _) in options(rules, dice, filled).items()}


# -- every box of Penta ------------------------------------------------------

PENTA_GOLDEN = [
    # dice, then the 13 boxes in sheet order
    ([1, 1, 1, 4, 5], [3, 0, 0, 4, 5, 0, 12, 0, 0, 0, 0, 12, 0]),
    ([3, 3, 4, 4, 5], [0, 0, 6, 8, 5, 0, 0, 0, 0, 0, 0, 19, 0]),
    ([2, 2, 2, 5, 5], [0, 6, 0, 0, 10, 0, 16, 0, 25, 0, 0, 16, 0]),
    ([6, 6, 6, 6, 2], [0, 2, 0, 0, 0, 24, 26, 26, 0, 0, 0, 26, 0]),
    ([1, 2, 3, 4, 6], [1, 2, 3, 4, 0, 6, 0, 0, 0, 30, 0, 16, 0]),
    ([3, 4, 5, 6, 6], [0, 0, 3, 4, 5, 12, 0, 0, 0, 30, 0, 24, 0]),
    ([2, 3, 4, 5, 6], [0, 2, 3, 4, 5, 6, 0, 0, 0, 30, 40, 20, 0]),
    ([1, 2, 3, 4, 5], [1, 2, 3, 4, 5, 0, 0, 0, 0, 30, 40, 15, 0]),
    ([5, 5, 5, 5, 5], [0, 0, 0, 0, 25, 0, 25, 25, 0, 0, 0, 25, 50]),
    ([1, 1, 3, 4, 6], [2, 0, 3, 4, 0, 6, 0, 0, 0, 0, 0, 15, 0]),
]


@pytest.mark.parametrize("dice, expected", PENTA_GOLDEN)
def test_every_penta_box(dice, expected):
    assert list(points(PENTA_SEED, dice).values()) == expected
    assert list(points(PENTA_SEED, dice)) == list(PENTA_SEED.box_ids)


GENERALA_GOLDEN = [
    ([1, 1, 1, 4, 5], [3, 0, 0, 4, 5, 0, 20, 0, 0, 0, 0, 0, 12]),
    ([3, 3, 4, 4, 5], [0, 0, 6, 8, 5, 0, 0, 0, 0, 0, 0, 0, 19]),
    ([1, 4, 4, 5, 6], [1, 0, 0, 8, 5, 6, 0, 0, 0, 0, 0, 0, 20]),
    ([2, 2, 2, 5, 5], [0, 6, 0, 0, 10, 0, 20, 0, 25, 0, 0, 0, 16]),
    ([4, 4, 4, 4, 1], [1, 0, 0, 16, 0, 0, 20, 30, 0, 0, 0, 0, 17]),
    ([2, 3, 4, 5, 6], [0, 2, 3, 4, 5, 6, 0, 0, 0, 30, 0, 0, 20]),
    ([1, 2, 3, 4, 5], [1, 2, 3, 4, 5, 0, 0, 0, 0, 0, 40, 0, 15]),
    ([1, 2, 3, 4, 6], [1, 2, 3, 4, 0, 6, 0, 0, 0, 0, 0, 0, 16]),
    ([6, 6, 6, 6, 6], [0, 0, 0, 0, 0, 30, 20, 30, 0, 0, 0, 50, 30]),
]


@pytest.mark.parametrize("dice, expected", GENERALA_GOLDEN)
def test_every_generala_box(dice, expected):
    assert list(points(GENERALA_SEED, dice).values()) == expected


def test_seed_examples():
    # seed 003: 1-1-1-4-5 as ones = 3; 3-3-4-4-5 as threes 6, fours 8, fives 5; 1-4-4-5-6 libre = 20
    assert points(GENERALA_SEED, [1, 1, 1, 4, 5])["ones"] == 3
    generala = points(GENERALA_SEED, [3, 3, 4, 4, 5])
    assert (generala["threes"], generala["fours"], generala["fives"]) == (6, 8, 5)
    assert points(GENERALA_SEED, [1, 4, 4, 5, 6])["libre"] == 20
    # seed 000: with 1,1,3,4,6 a full house or a large straight would give 0
    penta = points(PENTA_SEED, [1, 1, 3, 4, 6])
    assert penta["full_house"] == 0 and penta["large_straight"] == 0


def test_libre_only_without_combination_variant():
    assert points(GENERALA_LIBRE_WITHOUT_COMBINATION, [1, 4, 4, 5, 6])["libre"] == 20
    assert points(GENERALA_LIBRE_WITHOUT_COMBINATION, [2, 2, 2, 5, 5])["libre"] == 0


# -- the joker, seed 000's five 4s ---------------------------------------------

LOWER_FULL = {
    "three_of_a_kind": 10, "four_of_a_kind": 0, "full_house": 25, "small_straight": 30,
    "large_straight": 40, "chance": 20,
}


def test_joker_case_1_the_upper_box_of_the_face_is_forced():
    assert options(PENTA_SEED, [4] * 5, {"penta": 50}) == {"fours": (20, 100)}


def test_joker_case_2_any_open_lower_box_with_joker_scores():
    assert options(PENTA_SEED, [4] * 5, {"penta": 50, "fours": 8}) == {
        "three_of_a_kind": (20, 100),
        "four_of_a_kind": (20, 100),
        "full_house": (25, 100),
        "small_straight": (30, 100),
        "large_straight": (40, 100),
        "chance": (20, 100),
    }


def test_joker_case_3_another_upper_box_scores_zero_and_keeps_the_bonus():
    got = options(PENTA_SEED, [4] * 5, {"penta": 50, "fours": 8, **LOWER_FULL})
    assert got == {box: (0, 100) for box in ("ones", "twos", "threes", "fives", "sixes")}


def test_a_sacrificed_penta_makes_five_equal_an_ordinary_roll():
    got = options(PENTA_SEED, [4] * 5, {"penta": 0})
    assert len(got) == 12 and all(bonus == 0 for _, bonus in got.values())
    assert got["large_straight"] == (0, 0) and got["full_house"] == (0, 0)
    assert got["fours"] == (20, 0) and got["chance"] == (20, 0)


def test_open_penta_box_makes_five_equal_ordinary():
    got = options(PENTA_SEED, [4] * 5)
    assert got["penta"] == (50, 0) and got["full_house"] == (0, 0)


def test_forced_variant_forces_placement_after_a_zero_penta_without_bonus():
    assert options(PENTA_FORCED, [4] * 5, {"penta": 0}) == {"fours": (20, 0)}
    assert options(PENTA_FORCED, [4] * 5, {"penta": 0, "fours": 8})["full_house"] == (25, 0)


def test_free_variant_allows_any_box_and_jokers_once_the_face_box_is_filled():
    free = options(PENTA_FREE, [4] * 5, {"penta": 50})
    assert len(free) == 12 and free["full_house"] == (0, 100) and free["fours"] == (20, 100)
    assert options(PENTA_FREE, [4] * 5, {"penta": 50, "fours": 8})["large_straight"] == (40, 100)


def test_no_joker_variants():
    assert options(PENTA_NO_JOKER, [4] * 5, {"penta": 50, "fours": 8})["full_house"] == (0, 100)
    assert options(PENTA_NO_BONUS, [4] * 5, {"penta": 50})["fours"] == (20, 0)


# -- bonuses, totals, the sacrifice warning -----------------------------------


def test_upper_bonus_at_63_and_total():
    sheet = sheet_from_json(
        PENTA_SEED, {"ones": 3, "twos": 6, "threes": 9, "fours": 12, "fives": 15, "sixes": 18}
    )
    assert upper_bonus(PENTA_SEED, sheet) == 35
    assert sheet_total(PENTA_SEED, Sheet(sheet.boxes, bonus=200)) == 63 + 35 + 200
    short = sheet_from_json(PENTA_SEED, {"ones": 2, "sixes": 30, "fives": 25})
    assert upper_bonus(PENTA_SEED, short) == 0
    assert upper_bonus(GENERALA_SEED, sheet_from_json(GENERALA_SEED, {"sixes": 30, "fives": 25, "fours": 20})) == 0


def test_no_box_scores_warning():
    filled = {"ones": 2, "threes": 3, "fours": 4, "sixes": 6, "chance": 15,
              "three_of_a_kind": 0, "four_of_a_kind": 0}
    sheet = sheet_from_json(PENTA_SEED, filled)
    assert no_open_box_scores(score_options(PENTA_SEED, sheet, [1, 1, 3, 4, 6]))
    assert not no_open_box_scores(score_options(PENTA_SEED, Sheet.empty(PENTA_SEED), [1, 1, 3, 4, 6]))


@pytest.mark.parametrize(
    "filled, message",
    [
        ({"sevens": 7}, "no box 'sevens'"),
        ({"ones": 7}, "cannot hold 7"),
        ({"penta": 40}, "cannot hold 40"),
        ({"ones": "3"}, "whole number"),
        ([], "object of filled boxes"),
    ],
)
def test_impossible_sheets_are_refused(filled, message):
    with pytest.raises(InvalidRecord, match=message):
        sheet_from_json(PENTA_SEED, filled)


def test_unknown_box_is_both_an_illegal_action_and_a_bad_record():
    with pytest.raises(UnknownBox):
        PENTA_SEED.box_index("yahtzee")
