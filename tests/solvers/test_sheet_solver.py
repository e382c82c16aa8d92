"""The score-sheet solver: published optimal values, the engine-probed tables, a brute force.

`BruteForce` (also used by test_sheet_stats.py) is plain expectimax over the
engine's own API: score_options, apply, sheet_total and roll_outcomes, with no
solver tables, no state reduction and no dice lattice.
"""

from __future__ import annotations

import random
from dataclasses import replace
from itertools import combinations

import numpy as np
import pytest

from cubilete.engine.actions import Score
from cubilete.engine.dice import DICE_COUNT, roll_outcomes
from cubilete.engine.sheet import SheetState
from cubilete.engine.sheet_rules import (
    GENERALA_LIBRE_WITHOUT_COMBINATION,
    GENERALA_SEED,
    GENERALA_TRADITIONAL,
    GENERALA_TRADITIONAL_DOUBLE,
    KNIFFEL_SCHMIDT,
    PENTA_FORCED,
    PENTA_FREE,
    PENTA_NO_BONUS,
    PENTA_NO_JOKER,
    PENTA_SEED,
    YAHTZEE_HASBRO,
    YATZY_SCANDINAVIAN,
)
from cubilete.engine.sheet_scoring import Sheet, possible_points, score_options, sheet_from_json, sheet_total
from cubilete.solvers.cache_dir import CACHE_DIR_ENV
from cubilete.solvers.dice_lattice import dice_lattice, keeps
from cubilete.solvers.sheet import cache as sheet_cache
from cubilete.solvers.sheet.advice import advise, expected_value
from cubilete.solvers.sheet.simulation import simulate_optimal
from cubilete.solvers.sheet.tables import sheet_tables
from cubilete.solvers.sheet.turn import roll_context

ALL_RULES = (
    PENTA_SEED,
    PENTA_FORCED,
    PENTA_FREE,
    PENTA_NO_JOKER,
    PENTA_NO_BONUS,
    GENERALA_SEED,
    GENERALA_LIBRE_WITHOUT_COMBINATION,
    GENERALA_TRADITIONAL,
    GENERALA_TRADITIONAL_DOUBLE,
    YAHTZEE_HASBRO,
    YATZY_SCANDINAVIAN,
    KNIFFEL_SCHMIDT,
)
PUBLISHED = {  # docs/rules.md#penta-optimal-values: optimal expected scores to reproduce exactly
    PENTA_FREE: 254.5896094820,
    PENTA_FORCED: 254.5877287345,
    PENTA_NO_JOKER: 253.9702411898,
    PENTA_NO_BONUS: 245.8707745141,
}
ROLLS = [roll for roll, _ in roll_outcomes(DICE_COUNT)]


@pytest.mark.parametrize("rules", list(PUBLISHED), ids=lambda rules: rules.name)
def test_published_optimal_values_reproduce(rules):
    assert sheet_cache.solution(rules).start_value == pytest.approx(PUBLISHED[rules], abs=1e-6)


NEW_GAMES_OPTIMA = {  # docs/rules.md#yahtzee-optimal-value, #yatzy-optimal-value, #kniffel-optimal-value
    YAHTZEE_HASBRO: 254.5896094820,  # Verhoeff's published optimum (Penta `free` under Hasbro's names)
    # yatzy-solver 1.0.0 (PyPI), `Solver.build(Variant("yatzy-scandinavian")).state_value("upper 0 | filled -")`
    YATZY_SCANDINAVIAN: 248.4399893778553,
    KNIFFEL_SCHMIDT: 248.3213844126,  # our solver's, no published value; its scoring is brute-force checked
}


@pytest.mark.slow  # three tables no quick test needs: about 3 to 10 s each
@pytest.mark.parametrize("rules", list(NEW_GAMES_OPTIMA), ids=lambda rules: rules.game)
def test_yahtzee_yatzy_and_kniffel_optima(rules):
    assert sheet_cache.solution(rules).start_value == pytest.approx(NEW_GAMES_OPTIMA[rules], abs=1e-9)


def test_every_rule_set_has_a_finite_value_and_generala_is_solved():
    for rules in (PENTA_SEED, GENERALA_SEED, GENERALA_LIBRE_WITHOUT_COMBINATION):
        assert np.isfinite(sheet_cache.solution(rules).start_value)
    assert 200 < sheet_cache.solution(GENERALA_SEED).start_value < 230


TRADITIONAL_OPTIMA = {  # docs/rules.md#generala-optimal-value: a Generala servida counts 50 in solitaire
    GENERALA_TRADITIONAL: 151.8989551830,
    GENERALA_TRADITIONAL_DOUBLE: 162.4694683999,
}


@pytest.mark.parametrize("rules", list(TRADITIONAL_OPTIMA), ids=lambda rules: rules.name)
def test_traditional_generala_optima_and_the_servida_is_worth_something(rules):
    assert sheet_cache.solution(rules).start_value == pytest.approx(TRADITIONAL_OPTIMA[rules], abs=1e-9)
    without = replace(rules, name="no-servida", boxes=tuple(replace(box, first_roll_bonus=0) for box in rules.boxes))
    assert not sheet_tables(without).shape.first_roll_differs and sheet_tables(rules).shape.first_roll_differs
    assert 0.5 < TRADITIONAL_OPTIMA[rules] - sheet_cache.build(without).start_value < 3


@pytest.mark.slow  # a statistical check: 4,000 games and the simulator's compile
def test_the_compiled_simulation_plays_the_servida_as_the_solver_values_it():
    solved = sheet_cache.solution(GENERALA_TRADITIONAL_DOUBLE)
    totals = simulate_optimal(GENERALA_TRADITIONAL_DOUBLE, 4000, seed=3)
    assert abs(totals.mean() - solved.start_value) < 3 * totals.std() / np.sqrt(totals.size)


@pytest.mark.parametrize("rules", ALL_RULES, ids=lambda rules: f"{rules.game}-{rules.name}")
def test_tables_give_exactly_the_engines_options_on_random_sheets(rules):
    """The solver's premise (solvers.sheet.tables): options depend on the sheet only through its context."""
    shape, arrays = sheet_tables(rules)
    generator = random.Random(rules.name)
    for _ in range(150):
        sheet = _random_sheet(rules, generator)
        mask = sum(1 << i for i, points in enumerate(sheet.boxes) if points is not None)
        joker = int(shape.joker_states == 2 and bool(sheet.boxes[shape.joker_box]))
        for r in [*generator.sample(range(len(ROLLS)), 10), *np.flatnonzero(arrays.face_box >= 0)]:
            context = roll_context(shape, mask, joker, arrays.face_box[r])
            for first_roll, points, bonus in [
                (False, arrays.points, arrays.bonus),
                (True, arrays.first_points, arrays.first_bonus),
            ]:
                derived = [
                    (rules.box_ids[b], int(points[context, b, r]), int(bonus[context, b, r]))
                    for b in range(len(rules.boxes))
                    if sheet.boxes[b] is None and points[context, b, r] >= 0
                ]
                expected = [(o.box, o.points, o.bonus) for o in score_options(rules, sheet, ROLLS[r], first_roll)]
                assert derived == expected, (sheet, ROLLS[r], first_roll)


def test_the_lattice_rolls_free_dice_with_the_engines_probabilities():
    lattice = dice_lattice()
    every_keep = keeps()
    for keep in [(), (3,), (2, 2), (1, 4, 6), (5, 5, 5, 5)]:
        chance = np.zeros(len(every_keep))
        chance[every_keep.index(keep)] = 1.0
        for k in range(len(every_keep) - 1, len(ROLLS) - 1, -1):
            chance[lattice.child[k]] += chance[k] / lattice.child.shape[1]
        for outcome, probability in roll_outcomes(DICE_COUNT - len(keep)):
            roll = tuple(sorted(keep + outcome))
            assert chance[every_keep.index(roll)] == pytest.approx(float(probability), abs=1e-15)


BRUTE_FORCE_CASES = [  # two open boxes each; sheets chosen to exercise the joker and bonuses
    (PENTA_FORCED, {"ones": 2, "twos": 6, "threes": 9, "fours": 12, "sixes": 18, "three_of_a_kind": 20,
                    "four_of_a_kind": 0, "full_house": 25, "small_straight": 30, "chance": 22, "penta": 50},
     100),
    (PENTA_FREE, {"ones": 3, "threes": 12, "fours": 16, "fives": 20, "sixes": 6, "three_of_a_kind": 20,
                  "four_of_a_kind": 0, "small_straight": 30, "large_straight": 40, "chance": 22, "full_house": 25},
     0),
    (PENTA_SEED, {"ones": 3, "twos": 6, "fours": 12, "fives": 15, "sixes": 18, "three_of_a_kind": 20,
                  "four_of_a_kind": 0, "small_straight": 30, "large_straight": 0, "chance": 22, "penta": 0},
     0),
    (GENERALA_LIBRE_WITHOUT_COMBINATION, {"ones": 3, "twos": 6, "threes": 9, "fours": 12, "fives": 15,
                                          "sixes": 18, "trio": 20, "poker": 30, "full": 25, "long_straight": 30,
                                          "libre": 0}, 0),
    # docs/rules.md#generala-servida: servida póker (45) against a Doble Generala (100)
    (GENERALA_TRADITIONAL_DOUBLE, {"ones": 3, "twos": 6, "threes": 9, "fours": 12, "fives": 15, "sixes": 18,
                                   "straight": 25, "full": 30, "generala": 50}, 0),
    (GENERALA_TRADITIONAL, {"ones": 3, "twos": 6, "threes": 9, "fours": 12, "sixes": 18, "poker": 0,
                            "generala": 0, "full": 35}, 0),
    pytest.param(  # Kniffel: a further Kniffel forced into its open upper box for the 50
        KNIFFEL_SCHMIDT, {"ones": 3, "twos": 6, "threes": 9, "sixes": 18, "three_of_a_kind": 20,
                          "four_of_a_kind": 0, "small_straight": 30, "large_straight": 40, "chance": 22,
                          "full_house": 25, "kniffel": 50}, 0, marks=pytest.mark.slow),
    pytest.param(  # Yatzy: pairs scoring their dice, the 50 upper bonus pending
        YATZY_SCANDINAVIAN, {"ones": 3, "twos": 6, "threes": 9, "fours": 12, "fives": 15,
                             "three_of_a_kind": 12, "four_of_a_kind": 0, "small_straight": 15,
                             "large_straight": 20, "full_house": 0, "chance": 22, "yatzy": 50}, 0,
        marks=pytest.mark.slow),
]


@pytest.mark.parametrize(
    "rules, filled, bonus",
    BRUTE_FORCE_CASES,
    ids=["forced-joker", "free-bonus-pending", "seed-penta-0", "generala", "servida-double", "servida-straight",
         "kniffel", "yatzy"],
)
def test_solver_and_advice_agree_exactly_with_brute_force_expectimax(rules, filled, bonus):
    sheet = sheet_from_json(rules, filled, bonus)
    brute = BruteForce(rules)
    now = sheet_total(rules, sheet)
    assert expected_value(SheetState.situation(rules, sheet)) == pytest.approx(now + brute.value(sheet), abs=1e-9)
    turn = brute.turn(sheet)
    for dice, rolls_left in [
        ((5, 5, 5, 5, 5), 2), ((5, 5, 5, 5, 5), 1), ((3, 4, 5, 6, 1), 2), ((1, 2, 3, 4, 6), 1), ((2, 2, 3, 6, 6), 0)
    ]:
        options = advise(SheetState.situation(rules, sheet, dice, rolls_left))
        for option in options:
            if option.keep is not None:
                expected = turn.held(option.keep, rolls_left)
            else:
                expected = next(
                    gain + brute.value(after)
                    for after, gain, box in turn.options(dice, rolls_left)
                    if box == option.box
                )
            assert option.value == pytest.approx(now + expected, abs=1e-9), option
        assert options[0].value == pytest.approx(now + turn.seen(dice, rolls_left), abs=1e-9)


# yatzy-solver 1.0.0's `option_values("dice 2 2 5 5 6 | rolls 1 | upper 10 | filled twos,fives,chance")` for
# `yatzy-scandinavian`: expected points still to come, every legal option (benchmarks/solver.py prints the same)
PEER_YATZY_MID_TURN = {
    'score ones': 146.2605124430997,
    'score threes': 141.60367741547176,
    'score fours': 138.8432080109388,
    'score sixes': 140.5324366541632,
    'score one_pair': 148.11093887190074,
    'score two_pairs': 146.82194764661037,
    'score three_of_a_kind': 135.96565731192632,
    'score four_of_a_kind': 140.276838812457,
    'score small_straight': 146.71580244685316,
    'score large_straight': 144.59544625371987,
    'score full_house': 135.19201468096702,
    'score yatzy': 143.0258515015855,
    'keep -': 150.06546088498024,
    'keep 2': 149.2583801870531,
    'keep 5': 150.27895566173513,
    'keep 6': 150.88713828544746,
    'keep 2 2': 148.31515382570015,
    'keep 2 5': 149.4680684193501,
    'keep 2 6': 149.8388733676387,
    'keep 5 5': 151.35359237487037,
    'keep 5 6': 150.90809625161543,
    'keep 2 2 5': 148.03173108402677,
    'keep 2 2 6': 148.61506441736014,
    'keep 2 5 5': 149.82753607027766,
    'keep 2 5 6': 149.8810951710811,
    'keep 5 5 6': 151.91023222091567,
    'keep 2 2 5 5': 149.6379641415895,
    'keep 2 2 5 6': 147.73671979827117,
    'keep 2 5 5 6': 149.70522674102327,
}


@pytest.mark.slow  # the Yatzy table: 15 boxes, about 10 s
def test_every_yatzy_option_value_equals_the_peers_mid_turn():
    sheet = sheet_from_json(YATZY_SCANDINAVIAN, {"twos": 0, "fives": 10, "chance": 20})
    now = sheet_total(YATZY_SCANDINAVIAN, sheet)
    options = advise(SheetState.situation(YATZY_SCANDINAVIAN, sheet, (2, 2, 5, 5, 6), 1))
    ours = {
        f"score {o.box}" if o.keep is None else f"keep {' '.join(map(str, o.keep)) or '-'}": o.value - now
        for o in options
    }
    assert ours == pytest.approx(PEER_YATZY_MID_TURN, abs=1e-9)


def test_tables_are_cached_on_disk_by_rules_and_reloaded(solver_cache_dir):
    solved = sheet_cache.solution(PENTA_SEED)
    path = sheet_cache.cache_path(PENTA_SEED)
    assert path.parent == solver_cache_dir and path.exists()
    assert path != sheet_cache.cache_path(PENTA_FREE)
    assert np.array_equal(sheet_cache.load(PENTA_SEED, path).values, solved.values, equal_nan=True)


def test_a_damaged_cache_file_is_not_loaded(tmp_path, monkeypatch):
    monkeypatch.setenv(CACHE_DIR_ENV, str(tmp_path))
    path = sheet_cache.cache_path(GENERALA_SEED)
    path.write_bytes(b"not a table")
    assert sheet_cache.load(GENERALA_SEED, path) is None
    np.save(path, np.zeros(3))
    assert sheet_cache.load(GENERALA_SEED, path) is None



class BruteForce:
    """Optimal solitaire play by expectimax over the engine's states, remembered per sheet."""

    def __init__(self, rules):
        self.rules = rules
        self.turns = {}

    def value(self, sheet: Sheet) -> float:
        """Expected points still to come from the start of a turn on this sheet."""
        return 0.0 if sheet.is_full else self.turn(sheet).value

    def turn(self, sheet: Sheet) -> BruteForceTurn:
        if sheet not in self.turns:
            self.turns[sheet] = BruteForceTurn(self, sheet)
        return self.turns[sheet]


class BruteForceTurn:
    """One turn from a sheet: values of dice on the table and of held dice, and the best choice."""

    def __init__(self, game: BruteForce, sheet: Sheet):
        self.game, self.sheet, self.rules = game, sheet, game.rules
        self._seen, self._held, self._options = {}, {}, {}
        first = self.rules.rolls_per_turn - 1
        self.value = sum(float(p) * self.seen(roll, first) for roll, p in roll_outcomes(DICE_COUNT))

    def options(self, dice, rolls_left=0):
        """(sheet after, points gained with bonuses, box) for every legal box, the dice seen with
        these rolls left (the first roll may score more: docs/rules.md#generala-servida)."""
        key = (dice, rolls_left == self.rules.rolls_per_turn - 1)
        if key not in self._options:
            state = SheetState.situation(self.rules, self.sheet, dice, rolls_left)
            now = sheet_total(self.rules, self.sheet)
            self._options[key] = [
                (after.sheets[0], sheet_total(self.rules, after.sheets[0]) - now, option.box)
                for option in state.score_options()
                for after in [state.apply(Score(option.box))]
            ]
        return self._options[key]

    def choices(self, dice, rolls_left):
        """Every choice with its value: ("score", sheet after, gain) and ("keep", held values)."""
        scores = [
            (gain + self.game.value(after), ("score", after, gain)) for after, gain, _ in self.options(dice, rolls_left)
        ]
        if rolls_left == 0:
            return scores
        held = {tuple(sorted(c)) for size in range(DICE_COUNT) for c in combinations(dice, size)}
        return scores + [(self.held(keep, rolls_left), ("keep", keep)) for keep in sorted(held)]

    def seen(self, dice, rolls_left) -> float:
        key = (dice, rolls_left)
        if key not in self._seen:
            self._seen[key] = max(value for value, _ in self.choices(dice, rolls_left))
        return self._seen[key]

    def held(self, keep, rolls_left) -> float:
        key = (keep, rolls_left)
        if key not in self._held:
            self._held[key] = sum(
                float(p) * self.seen(tuple(sorted(keep + outcome)), rolls_left - 1)
                for outcome, p in roll_outcomes(DICE_COUNT - len(keep))
            )
        return self._held[key]

    def outcomes(self, chance=None, first=None) -> dict[tuple[Sheet, int], float]:
        """How the turn ends under the brute force's optimal choices: (sheet after, gain) -> chance;
        from its start, or from `chance` of each roll seen with `first` rolls left."""
        if chance is None:
            chance = {roll: float(p) for roll, p in roll_outcomes(DICE_COUNT)}
            first = self.rules.rolls_per_turn - 1
        ends: dict[tuple[Sheet, int], float] = {}
        for rolls_left in range(first, -1, -1):
            rerolled: dict[tuple[int, ...], float] = {}
            for dice, p in chance.items():
                _, choice = max(self.choices(dice, rolls_left), key=lambda item: item[0])
                if choice[0] == "score":
                    ends[choice[1:]] = ends.get(choice[1:], 0.0) + p
                    continue
                keep = choice[1]
                for outcome, q in roll_outcomes(DICE_COUNT - len(keep)):
                    roll = tuple(sorted(keep + outcome))
                    rerolled[roll] = rerolled.get(roll, 0.0) + p * float(q)
            chance = rerolled
        return ends


def _random_sheet(rules, generator: random.Random) -> Sheet:
    """A sheet with a random set of boxes filled, each with a value it can hold."""
    filled = generator.randint(0, len(rules.boxes) - 1)
    chosen = set(generator.sample(range(len(rules.boxes)), filled))
    return Sheet(
        tuple(
            generator.choice(sorted(possible_points(rules, i))) if i in chosen else None
            for i in range(len(rules.boxes))
        )
    )
