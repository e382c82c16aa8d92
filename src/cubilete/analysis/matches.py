"""Many seeded games between computer players, for any game: what `cubilete simulate` reports."""

from __future__ import annotations

import math
import random
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from ..engine.dice_seeds import CommonSeed, DiceSeed
from ..engine.games import Rules, new_state
from ..engine.runner import Match
from ..engine.sheet_rules import SheetRules
from ..players import make_player, prepare
from ..solvers.table_cache import Progress
from .confidence import mean_interval, wilson_interval

MAX_STEPS = 100_000  # a game still running after this many steps is called unfinished
COMPILED_LEVELS = ["duel", "optimal"]  # the players of the compiled games (solvers.sheet.duel_simulation)
COMPILED_FROM = 1_000  # games: fewer are played by the runner, sparing the kernels' first compilation
COMPILED_CHUNK = 500  # pairs of games per call of the kernel, between two steps of the progress bar


@dataclass
class PlayerResults:
    """One listed player's results over the finished games."""

    level: str
    scores: list[int] = field(default_factory=list)
    wins: int = 0  # games it ended in first place (a shared first place included)
    ties: int = 0  # games whose first place it shared
    shares: list[float] = field(default_factory=list)  # per game: its share of first place, NaN if unfinished

    @property
    def mean(self) -> float:
        return statistics.fmean(self.scores)

    @property
    def sd(self) -> float:
        return statistics.pstdev(self.scores)

    @property
    def standard_error(self) -> float:
        return self.sd / math.sqrt(len(self.scores))

    @property
    def finished(self) -> int:
        return len(self.scores)

    @property
    def win_rate(self) -> float:
        """Its share of first place over the finished games, a tie counting half (a third among three...)."""
        return math.fsum(share for share in self.shares if not math.isnan(share)) / self.finished

    def win_interval(self) -> tuple[float, float]:
        """The 95% Wilson interval of its win rate (the shares of tied games counted as fractions of a win)."""
        return wilson_interval(self.win_rate * self.finished, self.finished)

    def paired_rate(self) -> tuple[float, float, float]:
        """Common dice: its share of first place (a tie counting half) over the pairs of games
        both finished, and the 95% interval with each pair one observation (normal, so cut to
        0 .. 1 for a few games)."""
        pairs = [(a + b) / 2 for a, b in zip(self.shares[::2], self.shares[1::2])]
        rate, low, high = mean_interval([pair for pair in pairs if not math.isnan(pair)])
        return rate, max(low, 0.0), min(high, 1.0)


@dataclass(frozen=True)
class Simulation:
    rules: Rules
    games: int
    seed: int
    players: tuple[PlayerResults, ...]
    unfinished: int
    seconds: float
    common_dice: bool = False


def simulate(
    rules: Rules,
    levels: Sequence[str],
    games: int,
    seed: int,
    progress: Progress | None = None,
    common_dice: bool = False,
) -> Simulation:
    """Play `games` games with the dice seeded from `seed`, one player per level in `levels`.

    Seats rotate from game to game, so that no player keeps the first move; results are
    reported per listed player. The same arguments give the same results. With common dice
    (two players, an even number of games), games come in pairs that share a game seed,
    every seat drawing the same dice (CommonSeed), the seats swapped in the second game.
    Duel against optimal with common dice, from COMPILED_FROM games, plays the very same
    games at compiled speed (solvers.sheet.duel_simulation).
    """
    new_state(rules, len(levels))  # the engine refuses a number of players before any table is built
    players = [make_player(level, rules) for level in levels]
    for level in dict.fromkeys(levels):
        prepare(level, rules, progress)
    results = tuple(PlayerResults(level) for level in levels)
    unfinished = 0
    started = time.perf_counter()
    if common_dice and (len(levels) != 2 or games % 2):
        raise ValueError("common dice are for pairs of games between two players")
    drawn = random.Random(seed).sample(range(2**62), games // 2 if common_dice else games)
    # the compiled games do not play a servida (docs/rules.md#generala-servida): the runner does
    compiled = sorted(levels) == COMPILED_LEVELS and games >= COMPILED_FROM
    if common_dice and compiled and isinstance(rules, SheetRules) and not any(box.first_roll_bonus for box in rules.boxes):
        _compiled_duel(rules, levels, drawn, results, progress)
        return Simulation(rules, games, seed, results, 0, time.perf_counter() - started, common_dice)
    seeds: list[int | DiceSeed] = [CommonSeed(s) for s in drawn for _ in range(2)] if common_dice else list(drawn)
    for number, game_seed in enumerate(seeds):
        seated = [(seat + number) % len(levels) for seat in range(len(levels))]
        match = Match(rules, [levels[listed] for listed in seated], game_seed)
        state = match.advance([players[listed] for listed in seated], MAX_STEPS)
        if state.is_over:
            _record(results, seated, state.scores(), state.ranking())
        else:
            unfinished += 1
            for player in results:
                player.shares.append(math.nan)
        if progress is not None:
            progress(number + 1, games, f"{rules.game}: simulating")
    return Simulation(rules, games, seed, results, unfinished, time.perf_counter() - started, common_dice)


def _record(results: Sequence[PlayerResults], seated: Sequence[int], scores: Sequence[int], places: Sequence[int]) -> None:
    """A finished game's scores and places, seat by seat, into the results of the listed player seated there."""
    firsts = list(places).count(1)
    for seat, (score, place) in enumerate(zip(scores, places)):
        player = results[seated[seat]]
        player.scores.append(score)
        player.wins += place == 1
        player.ties += place == 1 and firsts > 1
        player.shares.append(1 / firsts if place == 1 else 0.0)


def _compiled_duel(
    rules: SheetRules, levels: Sequence[str], drawn: Sequence[int], results: Sequence[PlayerResults],
    progress: Progress | None,
) -> None:
    """The runner's pairs of games (levels as listed, then swapped) from the compiled kernel, in chunks
    for the progress bar: totals[pair, order, player], order 0 with the duel player in seat 0."""
    import numpy as np

    from ..solvers.sheet.duel_simulation import DUEL, OPTIMAL, simulate_duel

    duel_listed = levels.index("duel")
    for first in range(0, len(drawn), COMPILED_CHUNK):
        chunk = np.array(drawn[first : first + COMPILED_CHUNK], dtype=np.uint64)
        for pair in simulate_duel(rules, chunk).tolist():
            for swapped in (0, 1):  # the game's seats: the listed levels, then swapped
                seated = [swapped, 1 - swapped]
                duel_seat = seated.index(duel_listed)
                totals = [0, 0]
                totals[duel_seat], totals[1 - duel_seat] = pair[duel_seat][DUEL], pair[duel_seat][OPTIMAL]
                _record(results, seated, totals, [1 + sum(other > total for other in totals) for total in totals])
        if progress is not None:
            done = 2 * min(first + COMPILED_CHUNK, len(drawn))
            progress(done, 2 * len(drawn), f"{rules.game}: simulating (compiled)")
