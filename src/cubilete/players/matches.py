"""Many seeded games between computer players, for any game: what `cubilete simulate` reports."""

from __future__ import annotations

import math
import random
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from ..engine.games import Rules, new_state
from ..engine.runner import Match
from ..solvers.table_cache import Progress
from . import make_player, prepare
from .confidence import wilson_interval

MAX_STEPS = 100_000  # a game still running after this many steps is called unfinished


@dataclass
class PlayerResults:
    """One listed player's results over the finished games."""

    level: str
    scores: list[int] = field(default_factory=list)
    wins: int = 0  # games it ended in first place (a shared first place included)

    @property
    def mean(self) -> float:
        return statistics.fmean(self.scores)

    @property
    def sd(self) -> float:
        return statistics.pstdev(self.scores)

    @property
    def standard_error(self) -> float:
        return self.sd / math.sqrt(len(self.scores))

    def win_interval(self, games: int) -> tuple[float, float]:
        """The 95% Wilson interval of its chance to win a game."""
        return wilson_interval(self.wins, games)


@dataclass(frozen=True)
class Simulation:
    rules: Rules
    games: int
    seed: int
    players: tuple[PlayerResults, ...]
    unfinished: int
    seconds: float


def simulate(
    rules: Rules, levels: Sequence[str], games: int, seed: int, progress: Progress | None = None
) -> Simulation:
    """Play `games` games with the dice seeded from `seed`, one player per level in `levels`.

    Seats rotate from game to game, so that no player keeps the first move; results are
    reported per listed player. The same arguments give the same results.
    """
    new_state(rules, len(levels))  # the engine refuses a number of players before any table is built
    players = [make_player(level, rules) for level in levels]
    for level in dict.fromkeys(levels):
        prepare(level, rules, progress)
    results = tuple(PlayerResults(level) for level in levels)
    unfinished = 0
    started = time.perf_counter()
    for number, game_seed in enumerate(random.Random(seed).sample(range(2**62), games)):
        seated = [(seat + number) % len(levels) for seat in range(len(levels))]
        match = Match(rules, [levels[listed] for listed in seated], game_seed)
        state = match.advance([players[listed] for listed in seated], MAX_STEPS)
        if state.is_over:
            for seat, (score, place) in enumerate(zip(state.scores(), state.ranking())):
                results[seated[seat]].scores.append(score)
                results[seated[seat]].wins += place == 1
        else:
            unfinished += 1
        if progress is not None:
            progress(number + 1, games, f"{rules.game}: simulating")
    return Simulation(rules, games, seed, results, unfinished, time.perf_counter() - started)
