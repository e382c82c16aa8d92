"""The compiled duel-against-optimal games are the engine runner's games with common dice. Their
kernels take a while to compile: these checks run in the slow step (`cubilete simulate` plays them only
for many games)."""

from __future__ import annotations

import numpy as np
import pytest

from cubilete.engine.dice_seeds import CommonSeed
from cubilete.engine.runner import play
from cubilete.engine.sheet import distinct_keeps
from cubilete.engine.sheet_rules import GENERALA_SEED, PENTA_SEED
from cubilete.players.sheet import DuelPlayer, OptimalPlayer
from cubilete.solvers.dice_lattice import keep_indices, keeps
from cubilete.solvers.sheet.duel_simulation import DUEL, OPTIMAL, keep_order, simulate_duel

pytestmark = pytest.mark.slow  # its kernels compile only for these checks


def test_the_keeps_of_a_roll_come_in_the_engines_legal_order():
    order = keep_order()
    for r, roll in enumerate(keeps()[: order.shape[0]]):
        engine = [tuple(sorted(roll[i] for i in keep.held)) for keep in distinct_keeps(roll)]
        assert [k for k in order[r] if k >= 0] == [keep_indices()[kept] for kept in engine]


def runner_totals(rules, seed: int) -> list[list[int]]:
    """[order][player] as simulate_duel lists them, from the engine's runner."""
    totals = []
    for duel_seat in range(2):
        players = [OptimalPlayer(), OptimalPlayer()]
        players[duel_seat] = DuelPlayer()
        scores = play(rules, players, CommonSeed(seed)).state.scores()
        totals.append([scores[duel_seat], scores[1 - duel_seat]])
    return totals


def assert_same_games(rules, seeds: list[int]) -> None:
    totals = simulate_duel(rules, np.array(seeds))
    assert totals.shape == (len(seeds), 2, 2)
    assert [runner_totals(rules, seed) for seed in seeds] == totals.tolist()


def test_the_compiled_games_are_the_runners_games():
    assert_same_games(GENERALA_SEED, [0, 2**62 + 7])


@pytest.mark.slow
@pytest.mark.parametrize(
    "rules, seeds", [(GENERALA_SEED, list(range(1, 21))), (PENTA_SEED, list(range(6)))], ids=["generala", "penta"]
)
def test_many_compiled_games_are_the_runners_games(rules, seeds):
    assert_same_games(rules, seeds)


def test_the_same_seeds_replay_and_common_dice_make_ties_independent_dice_do_not():
    totals = simulate_duel(GENERALA_SEED, np.arange(40))
    assert (simulate_duel(GENERALA_SEED, np.arange(40)) == totals).all()
    # on the same dice the duel player often plays the whole game as the optimal one does
    assert (totals[..., DUEL] == totals[..., OPTIMAL]).sum() > 5
    independent = simulate_duel(GENERALA_SEED, np.arange(40), common=False)
    assert (independent[..., DUEL] == independent[..., OPTIMAL]).sum() < 5
