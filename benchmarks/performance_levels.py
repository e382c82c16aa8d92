"""The performance of each computer level: where the formula of analysis/ratings.py puts the bots.

    PYTHONPATH=src .venv/bin/python benchmarks/performance_levels.py [--games 200] [--out games.json]
    PYTHONPATH=src .venv/bin/python benchmarks/performance_levels.py --from games.json

For each game and level, --games games on fixed seeds (game k of every level has seed SEED + k): Penta
and Generala solo, 5000 the level against the optimal player (two seats, the level taking the first
seat in even games and the second in odd ones). The bot's seat is reviewed (analysis/review.py) and
each game gives its mean loss per decision and its decision count, hence its performance. Printed per
level: the games, the mean loss per decision (over the games), the mean decisions, the mean
performance and its 95% interval. --out keeps every game's figures, and --from prints the table again
from them without playing (after a change of the formula's constants).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from cubilete.analysis.confidence import mean_interval
from cubilete.analysis.ratings import performance
from cubilete.analysis.review import review
from cubilete.engine.games import rules_for
from cubilete.engine.runner import Match
from cubilete.players import make_player, player_levels, prepare

SEED = 20_261_204
OPPONENT = "optimal"  # 5000's other seat
SOLO_GAMES = ("penta", "generala")


def play_level(game: str, level: str, games: int) -> list[dict[str, float]]:
    """Each game's figures for the bot's seat: mean loss, decisions, seconds (play and review)."""
    rules = rules_for(game)
    for needed in {level, OPPONENT}:
        prepare(needed, rules)
    rows = []
    for number in range(games):
        started = time.perf_counter()
        seat = 0 if game in SOLO_GAMES else number % 2
        levels = [level] if game in SOLO_GAMES else [level, OPPONENT][:: 1 if seat == 0 else -1]
        match = Match(rules, levels, SEED + number)
        match.advance([make_player(name, rules) for name in levels])
        reviewed = review(match, [seat]).players[0]
        rows.append({"mean_loss": reviewed.mean_loss, "decisions": reviewed.decisions,
                     "seconds": time.perf_counter() - started})
    return rows


def print_row(game: str, level: str, rows: list[dict[str, float]]) -> None:
    losses = [row["mean_loss"] for row in rows]
    decisions = [row["decisions"] for row in rows]
    mean, low, high = mean_interval([performance(game, row["mean_loss"], int(row["decisions"])) for row in rows])
    loss = sum(losses) / len(losses)
    print(f"| {game} | {level} | {len(rows)} | {loss:.3g} | {sum(decisions) / len(decisions):.1f} |"
          f" {mean:.0f} | {low:.0f} to {high:.0f} | {sum(row['seconds'] for row in rows):.0f} s |", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--only", nargs="*", default=["penta", "generala", "5000"], help="games to play")
    parser.add_argument("--skip", nargs="*", default=[], help="game:level pairs to leave out")
    parser.add_argument("--out", type=Path, help="write every game's figures here (JSON)")
    parser.add_argument("--from", dest="source", type=Path, help="print the table from a saved --out file")
    args = parser.parse_args()
    print("| game | level | games | mean loss per decision | decisions | performance | 95% interval | time |")
    print("|---|---|---|---|---|---|---|---|", flush=True)
    if args.source:
        for key, rows in json.loads(args.source.read_text()).items():
            print_row(*key.split(":"), rows)
        return
    saved: dict[str, list[dict[str, float]]] = {}
    for game in args.only:
        for level in player_levels(game):
            if f"{game}:{level}" not in args.skip:
                saved[f"{game}:{level}"] = rows = play_level(game, level, args.games)
                print_row(game, level, rows)
                if args.out:
                    args.out.write_text(json.dumps(saved))


if __name__ == "__main__":
    main()
