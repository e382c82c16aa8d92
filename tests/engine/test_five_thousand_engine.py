"""The 5000 engine against docs/rules.md#5000 and its worked examples (#5000-examples)."""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import replace
from fractions import Fraction
from itertools import product

import pytest

from cubilete.engine.actions import Bank, Keep, Roll, Score, SetAside
from cubilete.engine.dice import FACES
from cubilete.engine.errors import (
    IllegalAction,
    InvalidDice,
    InvalidRecord,
    NotYourTurn,
)
from cubilete.engine.five_thousand import (
    EVENT_KINDS,
    FIVE_THOUSAND_FREE_SET_ASIDE,
    FIVE_THOUSAND_SEED,
    FIVE_THOUSAND_THREE_ONES_1000,
    FIVE_THOUSAND_VARIANTS,
    FiveThousandRules,
    FiveThousandState,
    Phase,
    TurnEvent,
    score_roll,
    set_aside_choices,
    set_aside_points,
)
from cubilete.engine.refusals import Refusal

SEED = FIVE_THOUSAND_SEED
FREE = FIVE_THOUSAND_FREE_SET_ASIDE


def decide(scores, to_move, turn_points, dice_left=3, rules=SEED):
    return FiveThousandState.decision_point(rules, scores, to_move, turn_points, dice_left)


def roll_again(state, dice):
    return state.apply(Roll()).apply_roll(dice)


def assert_refused(state, request, error, message=None):
    """The request raises `error` (mentioning `message`) and the state is left as it was."""
    before = state.to_json()
    with pytest.raises(error, match=message):
        request(state)
    assert state.to_json() == before


# --- scoring -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "dice, points, scoring",
    [
        ((1, 1, 5, 6, 4), 250, 3),  # the seed's example
        ((1, 1, 1, 2, 3), 1100, 3),
        ((1, 1, 1, 1, 3), 2200, 4),
        ((1, 1, 1, 1, 1), 4400, 5),
        ((2, 2, 2, 2, 3), 400, 4),
        ((6, 6, 6, 6, 6), 2400, 5),
        ((3, 4, 1, 2, 5), 1500, 5),
        ((6, 2, 5, 3, 4), 1500, 5),
        ((2, 3, 4, 6, 6), 0, 0),
        ((5, 5, 5, 1, 5), 1100, 5),  # four 5s 1000 and a leftover 1
        ((4, 4, 4, 5, 1), 550, 5),
        ((2, 2, 3, 3, 6), 0, 0),
        ((1, 3), 100, 1),
        ((5,), 50, 1),
    ],
)
def test_golden_scores(dice, points, scoring):
    score = score_roll(dice, SEED)
    assert (score.points, score.scoring_dice) == (points, scoring)


def test_scoring_positions_are_the_dice_that_scored():
    assert score_roll((1, 1, 5, 6, 4), SEED).positions == (0, 1, 2)
    assert score_roll((3, 1, 3, 5, 3), SEED).positions == (0, 1, 2, 3, 4)
    assert score_roll((6, 2, 5, 2, 2), SEED).positions == (1, 2, 3, 4)


def test_three_ones_variant_scores_1000_and_scales():
    assert score_roll((1, 1, 1, 4, 6), FIVE_THOUSAND_THREE_ONES_1000).points == 1000
    assert score_roll((1, 1, 1, 1, 6), FIVE_THOUSAND_THREE_ONES_1000).points == 2000


def test_score_roll_refuses_impossible_dice():
    for dice in ((0, 1), (7,), (1, 2, 3, 4, 5, 6), (True, 1)):
        with pytest.raises(InvalidDice):
            score_roll(dice, SEED)


def test_set_aside_groups_score_only_within_themselves():
    roll = (1, 1, 1, 5, 2)
    assert set_aside_points(roll, (0, 1, 2), SEED) == 1100
    assert set_aside_points(roll, (0, 1), SEED) == 200
    assert set_aside_points(roll, (0, 3), SEED) == 150
    assert set_aside_points(roll, (0, 4), SEED) == 0  # the 2 scores nothing
    assert set_aside_points(roll, (), SEED) == 0
    assert set_aside_points((1, 2, 3, 4, 5), (0, 1, 2, 3, 4), SEED) == 1500
    assert set_aside_points((1, 2, 3, 4, 5), (0, 4), SEED) == 150
    with pytest.raises(InvalidDice):
        set_aside_points(roll, (5,), SEED)
    with pytest.raises(InvalidDice):
        set_aside_points(roll, (0, 0), SEED)


def test_set_aside_choices_list_each_group_of_values_once():
    choices = set_aside_choices((1, 1, 1, 5, 2), SEED)
    groups = sorted(tuple(sorted((1, 1, 1, 5, 2)[i] for i in held)) for held in choices)
    assert groups == sorted([(1,), (5,), (1, 1), (1, 5), (1, 1, 1), (1, 1, 5), (1, 1, 1, 5)])


# --- a turn ------------------------------------------------------------------------------


def test_seed_example_first_roll_must_be_rolled_again():
    state = FiveThousandState.new(SEED, 3).apply_roll([1, 1, 5, 6, 4])
    assert (state.turn_points, state.dice_left, state.phase) == (250, 2, Phase.DECIDE)
    assert state.legal_actions() == (Roll(),)
    assert state.must_roll_reason() == Refusal("must_roll_points", {"rest": 50})
    assert "end in 50" in str(state.must_roll_reason())
    assert_refused(state, lambda s: s.apply(Bank()), IllegalAction, "end in 50")


def test_seed_warning_three_ones_over_two_rolls_do_not_combine():
    state = FiveThousandState.new(SEED, 3).apply_roll([1, 1, 5, 6, 4])
    state = roll_again(state, [1, 3])
    assert (state.turn_points, state.dice_left) == (350, 1)


def test_hot_dice_gives_five_dice_and_keeps_the_points():
    state = roll_again(decide([0, 0], 0, 300, dice_left=2), [1, 5])
    assert (state.turn_points, state.dice_left, state.phase) == (450, 5, Phase.DECIDE)
    assert state.last_event == TurnEvent("hot_dice", 0, 450)
    assert state.apply(Roll()).dice_to_roll == 5


def test_straight_on_the_first_roll_is_hot_dice():
    state = FiveThousandState.new(SEED, 2).apply_roll([2, 3, 4, 5, 6])
    assert (state.turn_points, state.dice_left) == (1500, 5)
    assert state.legal_actions() == (Roll(), Bank())


def test_bust_loses_the_turn_points_and_passes_the_dice():
    state = roll_again(decide([600, 0, 900], 0, 300), [2, 3, 4])
    assert state.scores() == (600, 0, 900)
    assert (state.current, state.turn_points, state.dice_left, state.phase) == (1, 0, 5, Phase.ROLL)
    assert state.last_event == TurnEvent("bust", 0, 300)
    assert state.last_roll == (2, 3, 4)


def test_bust_on_five_dice():
    state = FiveThousandState.new(SEED, 2).apply_roll([2, 3, 4, 6, 6])
    assert (state.current, state.last_event) == (1, TurnEvent("bust", 0, 0))


# --- entry and banking -------------------------------------------------------------------


def test_entry_needs_500_in_one_turn():
    below = decide([0, 700], 0, 400)
    assert below.legal_actions() == (Roll(),)
    assert_refused(below, lambda s: s.apply(Bank()), IllegalAction, "not in the game yet: you need 500")
    banked = decide([0, 700], 0, 500).apply(Bank())
    assert banked.scores() == (500, 700)
    assert banked.last_event == TurnEvent("bank", 0, 500)
    assert (banked.current, banked.phase, banked.dice_to_roll) == (1, Phase.ROLL, 5)


def test_in_the_game_any_hundred_counts():
    assert decide([600, 0], 0, 100).apply(Bank()).scores() == (700, 0)


def test_entry_threshold_is_a_rule():
    rules = replace(SEED, name="entry-300", entry=300)
    assert decide([0, 0], 0, 300, rules=rules).apply(Bank()).scores() == (300, 0)


def test_exactly_the_target_wins():
    state = decide([4500, 1000, 0], 0, 500).apply(Bank())
    assert (state.winner, state.is_over, state.current_player) == (0, True, None)
    assert state.scores() == (5000, 1000, 0)
    assert state.ranking() == (1, 2, 3)
    assert state.last_event == TurnEvent("win", 0, 500)
    assert state.legal_actions() == ()
    assert_refused(state, lambda s: s.apply(Roll()), IllegalAction, "the game is over")
    assert_refused(state, lambda s: s.apply_roll([1] * 5), IllegalAction, "the game is over")


def test_overshoot_gives_the_points_to_the_lowest_opponent_in_the_game():
    state = decide([4800, 1200, 600, 0], 0, 500).apply(Bank())
    assert state.scores() == (4800, 1200, 1100, 0)
    assert state.last_event == TurnEvent("gift", 0, 500, receiver=2)
    assert state.current == 1


def test_gift_tie_goes_to_the_first_after_the_mover():
    state = decide([700, 4800, 1500, 700], 1, 500).apply(Bank())
    assert state.scores() == (700, 4800, 1500, 1200)
    assert state.last_event.receiver == 3


def test_gift_is_lost_when_nobody_else_is_in_the_game():
    state = decide([4800, 0, 0], 0, 500).apply(Bank())
    assert state.scores() == (4800, 0, 0)
    assert state.last_event == TurnEvent("gift_lost", 0, 500)


def test_gift_reaching_the_target_wins_for_the_receiver():
    state = decide([4800, 4600, 4500], 0, 500).apply(Bank())
    assert (state.winner, state.scores(), state.ranking()) == (2, (4800, 4600, 5000), (2, 3, 1))
    assert state.last_event == TurnEvent("win", 0, 500, receiver=2)
    assert state.is_over and state.current_player is None


def test_gift_beyond_the_target_is_lost():
    state = decide([4800, 4700], 0, 500).apply(Bank())
    assert (state.winner, state.scores()) == (None, (4800, 4700))
    assert state.last_event == TurnEvent("gift_lost", 0, 500, receiver=1)


def test_equal_score_knocks_the_other_player_to_zero():
    state = decide([1000, 1500, 700], 0, 500).apply(Bank())
    assert state.scores() == (1500, 0, 700)
    assert state.last_event == TurnEvent("knock_out", 0, 500, knocked=(1,))
    # knocked out means out again: 500 in one turn to come back
    assert decide(state.scores(), 1, 400).must_roll_reason() == Refusal("must_roll_entry", {"entry": 500})


def test_a_gift_knocks_out_too():
    state = decide([4800, 1200, 700], 0, 500).apply(Bank())
    assert state.scores() == (4800, 0, 1200)
    assert state.last_event == TurnEvent("gift", 0, 500, receiver=2, knocked=(1,))


def test_a_gift_can_knock_out_the_giver():
    # docs/rules.md#5000-overshoot: the gift follows the same rules for its receiver, equal scores included
    state = decide([4800, 4300], 0, 500).apply(Bank())
    assert state.scores() == (0, 4800)
    assert state.last_event.knocked == (0,)


def test_target_is_a_rule():
    rules = replace(SEED, name="to-1000", target=1000)
    assert decide([500, 0], 0, 500, rules=rules).apply(Bank()).winner == 0


# --- free set-aside ----------------------------------------------------------------------


def test_free_set_aside_lets_the_player_choose_the_scoring_dice():
    state = FiveThousandState.new(FREE, 2).apply_roll([1, 1, 1, 5, 2])
    assert state.phase is Phase.SET_ASIDE
    assert SetAside((0, 1, 2, 3)) in state.legal_actions()
    kept = state.apply(SetAside((3,)))
    assert (kept.turn_points, kept.dice_left, kept.phase) == (50, 4, Phase.DECIDE)
    kept = state.apply(SetAside((2, 1, 0)))
    assert (kept.turn_points, kept.dice_left) == (1100, 2)


def test_free_set_aside_refusals():
    state = FiveThousandState.new(FREE, 2).apply_roll([1, 1, 1, 5, 2])
    assert_refused(state, lambda s: s.apply(SetAside((0, 4))), IllegalAction, "score together")
    assert_refused(state, lambda s: s.apply(SetAside(())), IllegalAction, "non-empty")
    assert_refused(state, lambda s: s.apply(SetAside((5,))), InvalidDice)
    assert_refused(state, lambda s: s.apply(SetAside((0, 0))), InvalidDice)
    assert_refused(state, lambda s: s.apply(Bank()), IllegalAction, "set aside first")
    assert_refused(state, lambda s: s.apply(Roll()), IllegalAction, "set aside first")


def test_free_set_aside_of_every_die_is_hot_dice():
    state = FiveThousandState.new(FREE, 2).apply_roll([1, 2, 3, 4, 5]).apply(SetAside((0, 1, 2, 3, 4)))
    assert (state.turn_points, state.dice_left, state.last_event.kind) == (1500, 5, "hot_dice")


# --- refusals --------------------------------------------------------------------------


def test_every_illegal_request_is_refused_with_its_error():
    chance = FiveThousandState.new(SEED, 3)
    assert_refused(chance, lambda s: s.apply(Roll()), IllegalAction, "roll the dice first")
    assert_refused(chance, lambda s: s.apply(Bank()), IllegalAction, "roll the dice first")
    assert_refused(chance, lambda s: s.apply_roll([1, 2, 3, 4]), InvalidDice, "expected 5 dice")
    assert_refused(chance, lambda s: s.apply_roll([1, 2, 3, 4, 7]), InvalidDice)
    assert_refused(chance, lambda s: s.apply_roll([1, 2, 3, 4, 0]), InvalidDice)
    decision = decide([0, 600, 0], 1, 250)
    assert_refused(decision, lambda s: s.apply(Roll(), seat=0), NotYourTurn)
    assert_refused(decision, lambda s: s.apply(Bank()), IllegalAction, "end in 50")
    assert_refused(decision, lambda s: s.apply_roll([1, 2, 3]), IllegalAction, "no roll is pending")
    assert_refused(decision, lambda s: s.chance_outcomes(), IllegalAction)
    assert_refused(decision, lambda s: s.apply(SetAside((0,))), IllegalAction, "already set aside")
    assert_refused(decision, lambda s: s.apply(Keep((0,))), IllegalAction, "not an action of 5000")
    assert_refused(decision, lambda s: s.apply(Score("ones")), IllegalAction, "not an action of 5000")
    assert decision.apply(Roll(), seat=1).is_chance


def test_bad_setups_are_invalid_records():
    for players in (1, 7, "3"):
        with pytest.raises(InvalidRecord):
            FiveThousandState.new(SEED, players)
    bad_decisions = [
        ([250, 0], 0, 500, 3),
        ([5000, 0], 0, 500, 3),
        ([-100, 0], 0, 500, 3),
        ([0], 0, 500, 3),
        ([0, 0], 2, 500, 3),
        ([0, 0], 0, 0, 3),
        ([0, 0], 0, 75, 3),
        ([0, 0], 0, 500, 0),
        ([0, 0], 0, 500, 6),
    ]
    for scores, to_move, turn_points, dice_left in bad_decisions:
        with pytest.raises(InvalidRecord):
            FiveThousandState.decision_point(SEED, scores, to_move, turn_points, dice_left)


def test_a_rule_set_may_allow_one_player():
    solo = replace(SEED, name="solo", min_players=1)
    state = FiveThousandState.decision_point(solo, [4800], 0, 500, 3).apply(Bank())
    assert (state.current, state.last_event) == (0, TurnEvent("gift_lost", 0, 500))


# --- chance -----------------------------------------------------------------------------


@pytest.mark.parametrize("dice_left", [1, 2, 3, 4, 5])
def test_chance_outcomes_match_brute_force(dice_left):
    state = decide([0, 0], 0, 300, dice_left).apply(Roll())
    outcomes = dict(state.chance_outcomes())
    brute = Counter(tuple(sorted(roll)) for roll in product(FACES, repeat=dice_left))
    assert sum(outcomes.values()) == 1
    assert outcomes == {roll: Fraction(count, 6**dice_left) for roll, count in brute.items()}


# --- rules and JSON -------------------------------------------------------------------------


def test_variants_are_values():
    names = [rules.name for rules in FIVE_THOUSAND_VARIANTS]
    assert names == ["seed", "three-ones-1000", "free-set-aside"]
    assert replace(FIVE_THOUSAND_THREE_ONES_1000, name="seed", three_ones_points=1100) == SEED
    assert replace(FREE, name="seed", free_set_aside=False) == SEED
    assert hash(SEED) == hash(FiveThousandRules())
    assert {rules.game for rules in FIVE_THOUSAND_VARIANTS} == {"5000"}


@pytest.mark.parametrize("rules", FIVE_THOUSAND_VARIANTS, ids=lambda rules: rules.name)
def test_rules_json_round_trip(rules):
    assert FiveThousandRules.from_json(json.loads(json.dumps(rules.to_json()))) == rules


@pytest.mark.parametrize(
    "change",
    [
        {"target": "5000"},
        {"target": 4950},
        {"entry": -100},
        {"single_five": 0},
        {"free_set_aside": 1},
        {"name": ""},
        {"min_players": 3, "max_players": 2},
        {"of_a_kind_multiplier": {"3": 1, "4": 2}},
        {"of_a_kind_multiplier": {"3": 1, "4": 2, "5": 0}},
        {"of_a_kind_multiplier": {"three": 1, "4": 2, "5": 4}},
        {"of_a_kind_multiplier": [[3, 1], [4, 2], [5, 4]]},
        {"bonus": 100},
    ],
)
def test_bad_rules_json_is_an_invalid_record(change):
    with pytest.raises(InvalidRecord):
        FiveThousandRules.from_json({**SEED.to_json(), **change})


def test_rules_json_needs_every_field():
    data = SEED.to_json()
    del data["entry"]
    with pytest.raises(InvalidRecord, match="entry"):
        FiveThousandRules.from_json(data)


def test_state_json_shape():
    data = FiveThousandState.new(SEED, 2).apply_roll([1, 1, 5, 6, 4]).to_json()
    assert data == {
        "game": "5000",
        "format": 1,
        "rules": SEED.to_json(),
        "scores": [0, 0],
        "current": 0,
        "turn_points": 250,
        "dice_left": 2,
        "last_roll": [1, 1, 5, 6, 4],
        "phase": "decide",
        "winner": None,
        "last_event": None,
    }


@pytest.mark.parametrize(
    "change",
    [
        {"game": "penta"},
        {"format": 2},
        {"scores": [0, 250]},
        {"scores": "00"},
        {"current": 2},
        {"phase": "bank"},
        {"phase": "over"},
        {"winner": 0},
        {"phase": "set_aside"},
        {"dice_left": 6},
        {"turn_points": 0},
        {"last_roll": [1, 7]},
        {"last_event": {"kind": "boom", "seat": 0, "points": 0, "receiver": None, "knocked": []}},
        {"last_event": {"kind": "bust", "seat": 3, "points": 0, "receiver": None, "knocked": []}},
    ],
)
def test_bad_state_json_is_an_invalid_record(change):
    data = decide([0, 600], 0, 250).to_json()
    with pytest.raises(InvalidRecord):
        FiveThousandState.from_json({**data, **change})
    with pytest.raises(InvalidRecord):
        FiveThousandState.from_json([data])


# --- random legal games (every rule at every step: test_conformance.py) ---------------------


def random_dice(rng, count):
    return [rng.randint(1, 6) for _ in range(count)]


def random_step(state, rng):
    if state.is_chance:
        return state.apply_roll(random_dice(rng, state.dice_to_roll))
    actions = state.legal_actions()
    assert actions, "a running game always has a legal action"
    if Bank() in actions and rng.random() < 0.5:
        return state.apply(Bank(), seat=state.current_player)
    if state.phase is Phase.DECIDE:
        return state.apply(Roll())
    return state.apply(rng.choice(actions))


def test_random_games_end_with_every_kind_of_event():
    """Seeded games end, and every event kind occurs (test_conformance.py checks each step)."""
    kinds = set()
    rng = random.Random(5000)
    for game in range(60):
        state = FiveThousandState.new(SEED, 2 + game % 3)
        while not state.is_over:
            state = random_step(state, rng)
            kinds.add(state.last_event and state.last_event.kind)
    assert kinds - {None} == set(EVENT_KINDS)
