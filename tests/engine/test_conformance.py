"""Random legal games of every game, rule set and player count through the one state API.

In the spirit of OpenSpiel's random-simulation test: Hypothesis draws each chance outcome
from `chance_outcomes()` and each action from `legal_actions()`, so a failure shrinks to a
short game. At every step: the state survives a JSON round trip, chance probabilities sum
to 1, requests the rules forbid raise a typed error and change nothing, scores and places
agree; and every game ends.
"""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, reject, settings
from hypothesis import strategies as st

from cubilete.engine.actions import Bank, Keep, Roll, Score, SetAside
from cubilete.engine.dice import DICE_COUNT
from cubilete.engine.errors import IllegalAction, InvalidDice, NotYourTurn
from cubilete.engine.five_thousand import Phase, score_roll
from cubilete.engine.games import GAMES, new_state, state_from_json
from cubilete.engine.sheet_scoring import sheet_total

# Each rule set with its fewest and its most players in the quick suite; the counts between run
# in the slow step (the whole matrix is some fifty cases).
CASES = [
    pytest.param(
        rules,
        players,
        id=f"{game}-{name}-{players}p",
        marks=() if players in (rules.min_players, rules.max_players) else pytest.mark.slow,
    )
    for game, info in GAMES.items()
    for name, rules in info.variants.items()
    for players in range(rules.min_players, rules.max_players + 1)
]
# A sheet game of 6 players takes at most 13 * 6 * 6 steps; a random 5000 game a few hundred.
MAX_STEPS = 1500


def places(scores, winner=None):
    """Independent of the engine: 1 + how many seats scored strictly more, a seat that won at
    once (a Generala servida) counting as more than everyone."""
    ranked = [float("inf") if seat == winner else score for seat, score in enumerate(scores)]
    return tuple(1 + sorted(ranked, reverse=True).index(score) for score in ranked)


def forbidden_requests(state):
    """Requests the rules refuse in this state, each with the error it must raise."""
    requests = []
    if state.num_players > 1 and not state.is_over:
        other = (state.current_player + 1) % state.num_players
        for action in state.legal_actions()[:1] or [Roll(), Keep(())]:
            requests.append((lambda s, a=action: s.apply(a, seat=other), NotYourTurn))
    if state.is_chance or state.is_over:
        requests += [(lambda s, a=a: s.apply(a), IllegalAction) for a in (Keep(()), Score("chance"), Roll(), Bank())]
    if state.is_chance:
        wrong = 1 + state.dice_to_roll % DICE_COUNT
        requests += [
            (lambda s: s.apply_roll([1] * wrong), InvalidDice),
            (lambda s: s.apply_roll([7] * s.dice_to_roll), InvalidDice),
        ]
    else:
        requests.append((lambda s: s.apply_roll([1] * DICE_COUNT), IllegalAction))
    if not state.is_chance and not state.is_over:
        requests += (sheet_forbidden if state.game != "5000" else five_thousand_forbidden)(state)
    return requests


def sheet_forbidden(state):
    used = [box for box, points in zip(state.rules.box_ids, state.sheet.boxes) if points is not None]
    allowed = {action.box for action in state.legal_actions() if isinstance(action, Score)}
    requests = [
        (lambda s: s.apply(Score("no-such-box")), IllegalAction),
        (lambda s: s.apply(Roll()), IllegalAction),
        (lambda s: s.apply(SetAside((0,))), IllegalAction),
        (lambda s: s.apply(Keep((0, 1, 2, 3, 4))), IllegalAction),
        (lambda s: s.apply(Keep((DICE_COUNT,))), InvalidDice if state.rolls_left else IllegalAction),
    ]
    # boxes already used, and open boxes that the joker rule closes for this roll
    requests += [(lambda s, b=b: s.apply(Score(b)), IllegalAction) for b in state.rules.box_ids if b not in allowed]
    if state.rolls_left == 0:
        requests.append((lambda s: s.apply(Keep((0,))), IllegalAction))
    assert not allowed & set(used)
    return requests


def five_thousand_forbidden(state):
    requests = [
        (lambda s: s.apply(Keep((0,))), IllegalAction),
        (lambda s: s.apply(Score("ones")), IllegalAction),
    ]
    if state.phase is Phase.DECIDE:
        requests.append((lambda s: s.apply(SetAside((0,))), IllegalAction))
        if state.must_roll_reason():
            requests.append((lambda s: s.apply(Bank()), IllegalAction))
    if state.phase is Phase.SET_ASIDE:
        roll = state.last_roll
        # a die that scores nothing in the whole roll scores in no group of it
        dead = [i for i in range(len(roll)) if i not in score_roll(roll, state.rules).positions]
        requests += [
            (lambda s: s.apply(Bank()), IllegalAction),
            (lambda s: s.apply(Roll()), IllegalAction),
            (lambda s: s.apply(SetAside((0, 0))), InvalidDice),
            (lambda s: s.apply(SetAside((len(roll),))), InvalidDice),
        ]
        requests += [(lambda s, i=i: s.apply(SetAside(tuple(range(i + 1)))), IllegalAction) for i in dead]
    return requests


CHECKED_OUTCOMES: dict[int, object] = {}  # id -> the outcomes (held, so that the id stays theirs)


def check_outcomes(outcomes, count):
    """Every roll of `count` dice once, sorted, with probabilities summing to exactly 1."""
    if CHECKED_OUTCOMES.get(id(outcomes)) is outcomes:
        return  # the engine caches its outcomes: the same object was checked already
    assert sum(probability for _, probability in outcomes) == Fraction(1)
    assert all(len(dice) == count and list(dice) == sorted(dice) for dice, _ in outcomes)
    assert len({dice for dice, _ in outcomes}) == len(outcomes)
    CHECKED_OUTCOMES[id(outcomes)] = outcomes


def check_state(state):
    data = json.loads(json.dumps(state.to_json()))
    assert state_from_json(data) == state
    scores = state.scores()
    winner = getattr(state, "winner", None) if state.game != "5000" else None
    assert len(scores) == state.num_players and state.ranking() == places(scores, winner)
    assert (state.current_player is None) == state.is_over
    if state.is_chance:
        check_outcomes(state.chance_outcomes(), state.dice_to_roll)
    elif not state.is_over:
        actions = state.legal_actions()
        assert actions and len(set(actions)) == len(actions)
    else:
        assert state.legal_actions() == ()
    (check_sheet if state.game != "5000" else check_five_thousand)(state)
    for request, error in forbidden_requests(state):
        with pytest.raises(error):
            request(state)
    assert state.to_json() == data  # refused requests changed nothing


def check_sheet(state):
    rules = state.rules
    for sheet, total in zip(state.sheets, state.scores()):
        upper = sum(points or 0 for box, points in zip(rules.boxes, sheet.boxes) if box.upper)
        bonus = rules.upper_bonus_points if rules.upper_bonus_threshold is not None and upper >= rules.upper_bonus_threshold else 0
        assert total == sum(points or 0 for points in sheet.boxes) + bonus + sheet.bonus == sheet_total(rules, sheet)
    if state.winner is not None:  # docs/rules.md#generala-servida-wins
        assert state.num_players > 1 and len(set(state.dice)) == 1
        assert state.rolls_left == rules.rolls_per_turn - 1 and state.current == state.winner
    elif state.is_over:
        assert all(sheet.is_full for sheet in state.sheets)


def check_five_thousand(state):
    rules, scores = state.rules, state.scores()
    assert all(score % 100 == 0 for score in scores) and state.turn_points % 50 == 0
    in_game = [score for score in scores if score]
    assert len(in_game) == len(set(in_game)), "equal scores knock each other out"
    assert state.is_over == (state.phase is Phase.OVER)
    if state.is_over:
        assert [seat for seat, score in enumerate(scores) if score == rules.target] == [state.winner]
        assert state.ranking()[state.winner] == 1 and state.ranking().count(1) == 1
        assert state.last_event.kind == "win"
    else:
        assert state.winner is None and max(scores) < rules.target
        assert state.last_event is None or state.last_event.kind != "win"


def next_step(state, data, number):
    """A chance outcome or a legal action drawn by Hypothesis (a forced step draws nothing).

    Draws shrink towards 0. For outcomes, 0 means "the step number's outcome": were it always
    the first outcome, every seat would roll the same and, in 5000, knock the others out forever.
    For actions, banking comes first, so that shrinking shortens 5000 games.
    """
    if state.is_chance:
        outcomes = state.chance_outcomes()
        return outcomes[(number + data.draw(st.integers(0, len(outcomes) - 1))) % len(outcomes)][0]
    actions = sorted(state.legal_actions(), key=lambda action: not isinstance(action, Bank))
    return actions[0] if len(actions) == 1 else actions[data.draw(st.integers(0, len(actions) - 1))]


@pytest.mark.parametrize("rules, players", CASES)
@settings(max_examples=2, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_random_legal_games_keep_every_rule(rules, players, data):
    state = new_state(rules, players)
    scored = 0
    for number in range(MAX_STEPS):
        check_state(state)
        if state.is_over:
            break
        step = next_step(state, data, number)
        if state.is_chance:
            state = state.apply_roll(step)
            continue
        after = state.apply(step, seat=state.current_player)
        if isinstance(step, Score):
            scored += 1
            filled = [sum(points is not None for points in s.sheets[state.current].boxes) for s in (state, after)]
            assert filled[1] == filled[0] + 1
        state = after
    else:
        # 5000 can legally go on forever (equal banks knock each other out): such a game is
        # discarded; test_five_thousand_engine plays seeded games to their end.
        assert state.game == "5000", f"no end after {MAX_STEPS} steps"
        reject()
    if state.game != "5000" and state.winner is None:
        assert scored == len(rules.boxes) * players
