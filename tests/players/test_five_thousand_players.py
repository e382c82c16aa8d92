"""5000 bots: names and levels, legal and replayable play, and strength measured by simulation."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest

from cubilete.engine.actions import Bank, Roll
from cubilete.engine.errors import UnknownVariant
from cubilete.engine.five_thousand import (
    FIVE_THOUSAND_FREE_SET_ASIDE,
    FIVE_THOUSAND_SEED,
    FiveThousandState,
)
from cubilete.engine.games import rules_for
from cubilete.engine.runner import Match, play
from cubilete.players import make_player as make_any_player
from cubilete.players import player_levels, table_memory
from cubilete.players.five_thousand import LEVELS, ThresholdPlayer, make_player
from cubilete.solvers.five_thousand.cache import cache_path, two_player_solution
from cubilete.solvers.five_thousand.exact import solution_bytes

SEED = FIVE_THOUSAND_SEED
SHORT = replace(SEED, name="short", target=1000)  # fast games, solved in a fraction of a second
SHORT_FREE = replace(FIVE_THOUSAND_FREE_SET_ASIDE, name="short-free", target=1000)


def wins_by_player(rules, levels, games, seed=0):
    """Games won by each listed player, seats rotating from game to game."""
    players = [make_player(level, rules) for level in levels]
    wins = [0] * len(levels)
    for number in range(games):
        seated = [(seat + number) % len(levels) for seat in range(len(levels))]
        match = play(rules, [players[i] for i in seated], seed=seed * 1_000_003 + number)
        wins[seated[match.state.winner]] += 1
    return wins


def assert_better_than_fair(wins, games, share, standard_errors=3):
    """The first player's win rate exceeds `share` by more than `standard_errors` standard errors."""
    rate = wins / games
    error = math.sqrt(rate * (1 - rate) / games)
    assert rate - standard_errors * error > share, f"{rate:.3f} ± {error:.3f} against {share:.3f}"


def decision(scores, turn_points, dice_left=3, rules=SEED, to_move=0):
    return FiveThousandState.decision_point(rules, scores, to_move, turn_points, dice_left)


# --- names and levels ---------------------------------------------------------


def test_levels_and_threshold_names():
    assert player_levels("5000") == LEVELS == ("beginner", "casual", "strong", "optimal")
    for level in LEVELS:
        assert make_player(level, SEED) is not None
    bot = make_player("bank350", SEED)
    assert isinstance(bot, ThresholdPlayer) and bot.threshold == 350
    for unknown in ("bank", "bank0", "bank-300", "bankx", "bank300x", "expert", ""):
        assert make_player(unknown, SEED) is None
    with pytest.raises(UnknownVariant, match="beginner, casual, strong, optimal"):
        make_any_player("expert", SEED)


def test_threshold_bot_banks_at_its_threshold_or_a_win_and_obeys_must_continue():
    bot = make_player("bank300", SEED)
    assert bot.choose(decision((1000, 0), 300)) == Bank()
    assert bot.choose(decision((1000, 0), 200)) == Roll()
    assert bot.choose(decision((1000, 0), 350)) == Roll()  # ends in 50: must roll
    assert bot.choose(decision((0, 0), 400)) == Roll()  # not in the game below 500
    assert bot.choose(decision((0, 0), 500)) == Bank()
    assert bot.choose(decision((4900, 0), 100)) == Bank()  # below its threshold, but it wins


# --- every level plays legally and replays ---------------------------------------


@pytest.mark.parametrize("rules", [SHORT, SHORT_FREE], ids=lambda rules: rules.name)
def test_every_level_plays_whole_games_legally_and_replays(rules):
    levels = [*LEVELS, "bank200"]
    for seats in (2, 3, 5):
        names = [levels[(seats + i) % len(levels)] for i in range(seats)]
        players = [make_player(name, rules) for name in names]
        first = play(rules, players, seed=seats)  # the engine refuses any illegal action
        assert first.state.is_over
        again = play(rules, [make_player(name, rules) for name in names], seed=seats)
        assert again.events == first.events
        assert Match.from_json(first.to_json()).state == first.state


# --- strength (simulations of thousands of games: the slow step, `pytest -m slow`) ---------------


@pytest.mark.slow
def test_self_play_first_player_win_rate_matches_the_solver():
    games = 3000
    optimal = make_player("optimal", SHORT)
    first_wins = sum(play(SHORT, [optimal, optimal], seed=n).state.winner == 0 for n in range(games))
    expected = two_player_solution(SHORT).first_player_wins
    error = math.sqrt(expected * (1 - expected) / games)
    assert abs(first_wins / games - expected) < 3 * error


@pytest.mark.slow
@pytest.mark.parametrize(
    "simpler, games", [("casual", 1200), ("beginner", 400), ("bank200", 400), ("bank500", 400)]
)
def test_optimal_beats_each_simpler_bot_significantly(simpler, games):
    optimal_wins, _ = wins_by_player(SEED, ["optimal", simpler], games)
    assert_better_than_fair(optimal_wins, games, 1 / 2)


@pytest.mark.slow
@pytest.mark.parametrize("others, games", [(["casual", "bank300"], 300), (["bank300"] * 3, 1200)])
def test_strong_wins_more_than_its_share_with_more_players(others, games):
    """A modest check: larger runs against every level are a matter for `cubilete simulate`.

    Against three bank300 bots the edge is a few points over the fair 25%, so it takes 1200 games
    (3 standard errors are then about 4 points) to show it."""
    levels = ["strong", *others]
    wins = wins_by_player(SEED, levels, games)
    assert_better_than_fair(wins[0], games, 1 / len(levels))


def test_the_two_player_table_s_memory_is_what_its_file_maps_once_saved_and_an_estimate_before():
    """The web's table budget counts these before anything is built (web/tables.py), then the file."""
    estimate = solution_bytes(SHORT)
    solved = two_player_solution(SHORT)
    held = solved.start.nbytes + solved.roll.nbytes + solved.bank.nbytes
    assert estimate == held and not solved.roll.flags.writeable  # mapped read-only
    assert table_memory("casual", SHORT) == {}
    assert table_memory("strong", SHORT) == table_memory("optimal", SHORT)  # the same table
    mapped = cache_path(SHORT).stat().st_size
    assert table_memory("optimal", SHORT) == {("two-player table", SHORT): mapped}
    assert held < mapped < held + 4096  # the header is small


@pytest.mark.parametrize("name", ["entry-0+three-ones-1000", "entry-1000+free-set-aside"])
def test_every_level_plays_rules_set_one_by_one_to_the_end_and_the_record_replays(name):
    """docs/rules.md#5000-switches: any combination is a rule set the bots play (a short target: the table
    of a real one takes 4 to 16 s to solve, once)."""
    rules = replace(rules_for("5000", name), target=1000)
    match = play(rules, [make_player(level, rules) for level in LEVELS], seed=11)
    assert match.state.is_over and match.rules.entry == rules.entry
    assert Match.from_json(match.to_json()).state == match.state
