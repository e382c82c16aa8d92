"""The score-sheet computer players, and simulated play against the exact mean. The compiled
simulation is research (cubilete.research), not the product: its checks run in the slow step."""

from __future__ import annotations

import math
import random
import statistics

import pytest

from cubilete.analysis.matches import simulate
from cubilete.engine.actions import Keep, Score
from cubilete.engine.errors import UnknownVariant
from cubilete.engine.runner import Match, play
from cubilete.engine.sheet import SheetState
from cubilete.engine.sheet_rules import GENERALA_SEED, GENERALA_TRADITIONAL, PENTA_FREE, PENTA_SEED
from cubilete.engine.sheet_scoring import sheet_from_json
from cubilete.players import make_player, player_levels, prepare, table_memory
from cubilete.players.sheet import DUEL_BYTES_PER_STATE, LEVELS, CasualPlayer
from cubilete.solvers.sheet import cache as sheet_cache
from cubilete.solvers.sheet.advice import advise
from cubilete.solvers.sheet.distributions import complete_table, laws_path
from cubilete.solvers.sheet.simulation import simulate_optimal
from cubilete.solvers.sheet.tables import sheet_tables, state_count


def test_levels_weakest_first_and_unknown_levels():
    assert LEVELS == ("beginner", "casual", "optimal", "duel") == player_levels("penta") == player_levels("generala")
    assert all(make_player(level, PENTA_SEED) is not None for level in LEVELS)
    with pytest.raises(UnknownVariant, match="beginner, casual, optimal, duel"):
        make_player("grandmaster", PENTA_SEED)


def test_optimal_plays_the_best_option():
    state = SheetState.situation(PENTA_SEED, sheet_from_json(PENTA_SEED, {"fives": 15}), (2, 3, 4, 5, 5), 2)
    assert make_player("optimal", PENTA_SEED).choose(state) == advise(state)[0].action


def test_beginner_scores_the_most_points_when_out_of_rolls_and_else_keeps_its_commonest_face():
    beginner = make_player("beginner", PENTA_SEED)
    state = SheetState.situation(PENTA_SEED, sheet_from_json(PENTA_SEED, {}), (2, 2, 4, 6, 6), 1)
    assert beginner.choose(state) == Keep((3, 4))  # the sixes win the tie of pairs
    out_of_rolls = SheetState.situation(PENTA_SEED, sheet_from_json(PENTA_SEED, {}), (2, 3, 4, 5, 6), 0)
    assert beginner.choose(out_of_rolls) == Score("large_straight")
    five_equal = SheetState.situation(PENTA_SEED, sheet_from_json(PENTA_SEED, {}), (3, 3, 3, 3, 3), 2)
    assert beginner.choose(five_equal) == Score("penta")


def test_every_level_plays_whole_games_and_is_reproducible():
    players = [make_player(level, GENERALA_SEED) for level in LEVELS]
    first = play(GENERALA_SEED, players, seed=11)
    again = play(GENERALA_SEED, [make_player(level, GENERALA_SEED) for level in LEVELS], seed=11)
    assert first.state.is_over and first.to_json() == again.to_json()


def test_casual_plays_near_best_options_at_random_from_its_seed():
    state = SheetState.situation(PENTA_SEED, sheet_from_json(PENTA_SEED, {"ones": 3}), (1, 3, 3, 5, 6), 2)
    picks = [CasualPlayer(seed=seed).choose(state) for seed in range(40)]
    assert picks == [CasualPlayer(seed=seed).choose(state) for seed in range(40)]
    assert len(set(picks)) > 1
    regrets = {option.action: option.regret for option in advise(state)}
    assert statistics.fmean(regrets[pick] for pick in picks) < 2


@pytest.mark.slow
def test_the_optimal_players_simulated_mean_is_within_three_standard_errors_of_the_exact_mean():
    """Through the engine's runner, as `cubilete simulate` plays."""
    exact = sheet_cache.solution(PENTA_SEED).start_value
    player = make_player("optimal", PENTA_SEED)
    totals = [play(PENTA_SEED, [player], seed=seed).state.scores()[0] for seed in range(200)]
    standard_error = statistics.pstdev(totals) / math.sqrt(len(totals))
    assert abs(statistics.fmean(totals) - exact) < 3 * standard_error


@pytest.mark.slow
def test_the_compiled_simulation_agrees_with_the_exact_mean_over_many_games():
    exact = sheet_cache.solution(PENTA_FREE).start_value
    totals = simulate_optimal(PENTA_FREE, 10000, seed=5)
    assert abs(totals.mean() - exact) < 3 * totals.std() / math.sqrt(totals.size)


@pytest.mark.slow  # research: its kernels compile only for this check
def test_the_compiled_simulation_is_reproducible_from_its_seed():
    first = simulate_optimal(PENTA_FREE, 50, seed=9)
    assert (first == simulate_optimal(PENTA_FREE, 50, seed=9)).all()
    assert not (first == simulate_optimal(PENTA_FREE, 50, seed=10)).all()


def test_simulated_seats_rotate_and_results_follow_the_listed_player():
    """Game n seats listed player (seat + n) % players; each result belongs to its listed player."""
    rules = PENTA_SEED
    simulation = simulate(rules, ["beginner", "optimal"], 2, seed=5)
    first, second = random.Random(5).sample(range(2**62), 2)
    beginner, optimal = make_player("beginner", rules), make_player("optimal", rules)
    game_one = Match(rules, ["beginner", "optimal"], first)
    game_one.advance([beginner, optimal])
    game_two = Match(rules, ["optimal", "beginner"], second)
    game_two.advance([optimal, beginner])
    assert simulation.players[0].scores == [game_one.state.scores()[0], game_two.state.scores()[1]]
    assert simulation.players[1].scores == [game_one.state.scores()[1], game_two.state.scores()[0]]
    assert simulation.players[0].wins + simulation.players[1].wins >= 2 and simulation.unfinished == 0


def test_the_tables_memory_is_what_their_files_map_once_saved_and_an_estimate_before():
    """The web's table budget counts these before anything is built (web/tables.py), then the files."""
    states = state_count(sheet_tables(GENERALA_SEED))
    solved = sheet_cache.solution(GENERALA_SEED)
    laws = complete_table(solved)  # computed by the duel bots' games above, or now
    assert table_memory("beginner", GENERALA_SEED) == {}
    solution_file = sheet_cache.cache_path(GENERALA_SEED).stat().st_size
    assert table_memory("optimal", GENERALA_SEED) == {("sheet solution", GENERALA_SEED): solution_file}
    assert table_memory("duel", GENERALA_SEED) == {
        ("sheet solution", GENERALA_SEED): solution_file,
        ("duel laws", GENERALA_SEED): laws_path(GENERALA_SEED).stat().st_size,
    }
    assert solved.values.nbytes < solution_file < solved.values.nbytes + 4096  # the header is small
    mapped = laws.windows.nbytes()
    assert mapped < laws_path(GENERALA_SEED).stat().st_size < mapped + 4096
    assert mapped <= DUEL_BYTES_PER_STATE * states < 1.5 * mapped  # the estimate before it is saved


def test_the_duels_tables_memory_counts_both_laws_where_a_first_roll_wins_at_once():
    """Generala traditional's duel maps the plain laws and the duel's with instant wins: the budget counts both."""
    rules = GENERALA_TRADITIONAL
    plain, instant = ("duel laws", rules), ("duel laws", rules, "instant wins")
    assert set(table_memory("duel", rules)) == {("sheet solution", rules), plain, instant}  # saved or not
    prepare("duel", rules)  # a tenth of a second: 8,192 states
    assert table_memory("duel", rules) == {
        ("sheet solution", rules): sheet_cache.cache_path(rules).stat().st_size,
        plain: laws_path(rules).stat().st_size,
        instant: laws_path(rules, instant_wins=True).stat().st_size,
    }
