"""How much of the possible gain over the optimal player the duel player takes, computed
exactly on the last boxes of real games (issue 12).

    .venv/bin/python benchmarks/duel_exact.py [--games penta,generala] [--boxes 4] [--positions 3]

Positions come from seeded games between two optimal players: both sheets when seat 0 is
about to start a turn with `--boxes` boxes open (seat 1 has as many). From each position,
seat 0 to move, the tested player sits first (it moves first) and then second, the other
seat being the optimal player, and the script prints its exact chance to finish first
(research.sheet_two_player, a tie counting half):

- exact:    the best reply to the optimal player (the most any play can win against it);
- duel:     the duel player (players/sheet.py DuelPlayer);
- zero-sum: the zero-sum game's strategy (it plays as if the other seat also played to win);
- optimal:  the optimal player itself (the baseline, not 1/2 because of the sheets);
- share:    (duel - optimal) / (exact - optimal), the part of the possible gain the duel takes;
- minimax:  the value of the zero-sum game (both seats playing to finish first), for reference.

The mean share over the positions is the mean of the per-position shares (positions with
no possible gain, exact = optimal to 1e-9, are left out), and the pooled share is the total
gain over the total possible gain. Time per position is printed (tables warm after the first).
"""

from __future__ import annotations

import argparse
import time

from cubilete.engine.games import rules_for
from cubilete.engine.runner import Match
from cubilete.engine.sheet import SheetState
from cubilete.engine.sheet_scoring import Sheet, sheet_total
from cubilete.players import make_player
from cubilete.research.sheet_two_player import ReducedGame

SEED_BASE = 1200  # the games' dice seeds: SEED_BASE, SEED_BASE + 1, ...
NO_GAIN = 1e-9


def positions(rules, boxes: int, count: int) -> list[tuple[int, tuple[Sheet, Sheet]]]:  # type: ignore[no-untyped-def]
    """(seed, both sheets) when seat 0 starts a turn with `boxes` boxes open, in seeded
    optimal games."""
    found = []
    players = [make_player("optimal", rules)] * 2
    seed = SEED_BASE
    while len(found) < count:
        match = Match(rules, ["first", "second"], seed)
        while True:
            state = match.state
            assert isinstance(state, SheetState)
            if state.current == 0 and state.is_chance and state.rolls_left == rules.rolls_per_turn:
                if sum(points is None for points in state.sheets[0].boxes) == boxes:
                    found.append((seed, (state.sheets[0], state.sheets[1])))
                    break
            match.advance(players, max_steps=1)
        seed += 1
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default="penta,generala")
    parser.add_argument("--boxes", type=int, default=4)
    parser.add_argument("--positions", type=int, default=3)
    args = parser.parse_args()
    for game in args.games.split(","):
        rules = rules_for(game)
        print(f"{game} ({rules.name}), last {args.boxes} boxes of each sheet, seat 0 to move")
        print(
            f"{'seed':>5} {'seat':>4} {'lead':>5} {'exact':>9} {'duel':>9} {'zero-sum':>9} {'optimal':>9} "
            f"{'share':>6} {'minimax':>9} {'time':>6}"
        )
        shares, gained, possible = [], 0.0, 0.0
        for seed, sheets in positions(rules, args.boxes, args.positions):
            for seat, sheet in enumerate(sheets):
                left = [box.id for box, points in zip(rules.boxes, sheet.boxes) if points is None]
                print(f"{seed:>5} seat {seat}: {sheet_total(rules, sheet)} points, open {' '.join(left)}")
            start = time.perf_counter()
            game_ = ReducedGame(rules, sheets)
            lead = sheet_total(rules, sheets[0]) - sheet_total(rules, sheets[1])
            baseline = game_.chance(("optimal", "optimal"))
            minimax = game_.chance(("exact", "exact"))
            rows = [
                (0, *(game_.chance((play, "optimal")) for play in ("exact", "duel", "zero-sum")), baseline, minimax),
                (1, *(1 - game_.chance(("optimal", play)) for play in ("exact", "duel", "zero-sum")), 1 - baseline,
                 1 - minimax),
            ]
            elapsed = time.perf_counter() - start
            for seat, exact, duel, zero_sum, optimal, value in rows:
                share = (duel - optimal) / (exact - optimal) if exact - optimal > NO_GAIN else float("nan")
                if exact - optimal > NO_GAIN:
                    shares.append(share)
                gained += duel - optimal
                possible += exact - optimal
                print(
                    f"{seed:>5} {seat:>4} {lead if seat == 0 else -lead:>5} {exact:9.6f} {duel:9.6f} {zero_sum:9.6f} "
                    f"{optimal:9.6f} {share:6.3f} {value:9.6f} {elapsed:6.1f}"
                )
        mean = sum(shares) / len(shares) if shares else float("nan")
        pooled = gained / possible if possible > NO_GAIN else float("nan")
        print(f"mean share {mean:.3f} over {len(shares)} seat positions, pooled share {pooled:.3f}\n")


if __name__ == "__main__":
    main()
