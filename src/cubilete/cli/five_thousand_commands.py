"""5000 for the solve, advise and simulate commands: reports only, the game logic lives below.

The command modules (cli/commands/solve.py, advise.py, simulate.py) parse the
arguments and hand game "5000" to these functions.
"""

from __future__ import annotations

import math
import random
import time
from typing import Any

from ..engine.actions import Bank, Roll
from ..engine.games import rules_for
from ..engine.runner import Match
from ..players import make_player
from ..players.five_thousand import prepare
from ..players.five_thousand_advice import rank_five_thousand
from ..players.five_thousand_advice import situation as five_thousand_situation
from ..solvers.five_thousand_cache import two_player_solution
from .output import CommandError, Report, progress_bar

GAME = "5000"
SITUATION_KEYS = ("game", "scores", "to_move", "turn_points", "dice_left")
ACTION_NAMES = {Roll(): "roll", Bank(): "bank"}
Z95 = 1.959963984540054  # the standard normal quantile of 97.5%
MAX_STEPS = 100_000  # a simulated game still running after this many steps is called unfinished


def solve(args: Any) -> Report:
    """Build or load the two-player table; report the first player's optimal win probability."""
    rules = rules_for(GAME, getattr(args, "rules", None))
    players = getattr(args, "players", None) or 2
    if players != 2:
        raise CommandError(
            f"the exact 5000 solver is for 2 players, not {players}: with more, exact solving is out"
            " of reach; `cubilete advise` gives the strong player's estimates"
        )
    started = time.perf_counter()
    solution = two_player_solution(rules, show_progress=True)
    seconds = time.perf_counter() - started
    wins = solution.first_player_wins
    data = {"game": GAME, "players": 2, "first_player_wins": wins, "seconds": seconds}
    text = (
        f"5000 ({rules.name}), 2 players: with optimal play by both, the first player wins with"
        f" probability {wins:.10f} ({seconds:.2f} s)"
    )
    return Report(data, text)


def advise(situation: dict) -> Report:
    """Every legal action of a decision point with its win probability, best first.

    Exact with two players; with more, the strong player's estimates ("estimate": true).
    """
    if not isinstance(situation, dict):
        raise CommandError("a 5000 situation is a JSON object")
    keys = set(situation) - {"rules"}
    if keys != set(SITUATION_KEYS):
        raise CommandError(f"a 5000 situation has exactly the keys {', '.join(SITUATION_KEYS)}"
                           " (and optionally rules)")
    if situation["game"] != GAME:
        raise CommandError(f'this situation is for game "{GAME}", not {situation["game"]!r}')
    rules = rules_for(GAME, situation.get("rules"))
    state = five_thousand_situation(
        rules, situation["scores"], situation["to_move"], situation["turn_points"], situation["dice_left"]
    )
    prepare("optimal", rules, show_progress=True)
    advice = rank_five_thousand(state)
    options: list[dict[str, Any]] = [
        {"action": ACTION_NAMES[o.action], "win_probability": o.win_probability} for o in advice.options
    ]
    data: dict[str, Any] = {"options": options}
    if not advice.exact:
        data["estimate"] = True
    reason = None if state.is_chance else state.must_roll_reason()
    lines = [f"{o['action']:<5} {100 * o['win_probability']:7.3f}%" for o in options]
    if reason:
        lines.append(f"(bank is not allowed: {reason})")
    if not advice.exact:
        lines.append("(estimates of the strong player: exact values exist for 2 players only)")
    return Report(data, "\n".join(lines))


def simulate(args: Any) -> Report:
    """Play many seeded games between bots, rotating seats; win rates with 95% Wilson intervals."""
    rules = rules_for(GAME, getattr(args, "rules", None))
    levels = [name.strip() for name in args.players.split(",")] if isinstance(args.players, str) else list(args.players)
    if args.games < 1:
        raise CommandError(f"--games must be at least 1, not {args.games}")
    players = [make_player(level, rules) for level in levels]
    for level in set(levels):
        prepare(level, rules, show_progress=True)
    seeds = random.Random(args.seed).sample(range(2**62), args.games)
    wins, unfinished = [0] * len(levels), 0
    started = time.perf_counter()
    with progress_bar() as bar:
        task = bar.add_task("5000: simulating", total=args.games)
        for number, seed in enumerate(seeds):
            # Seats rotate from game to game, so that no player keeps the first move.
            seated = [(seat + number) % len(levels) for seat in range(len(levels))]
            match = Match(rules, [levels[i] for i in seated], seed)
            state = match.advance([players[i] for i in seated], MAX_STEPS)
            if state.is_over:
                wins[seated[state.winner]] += 1
            else:
                unfinished += 1
            bar.advance(task)
    seconds = time.perf_counter() - started
    results = [
        {"player": level, "wins": won, "win_rate": won / args.games, "ci95": list(wilson(won, args.games))}
        for level, won in zip(levels, wins)
    ]
    data = {
        "game": GAME,
        "rules": rules.name,
        "players": levels,
        "games": args.games,
        "seed": args.seed,
        "results": results,
        "unfinished": unfinished,
        "seconds": seconds,
        "games_per_second": args.games / seconds,
    }
    return Report(data, _simulation_text(data))


def wilson(successes: int, trials: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a binomial proportion (sound near 0 and 1, unlike p ± 2se)."""
    p = successes / trials
    spread = Z95 * math.sqrt(p * (1 - p) / trials + Z95**2 / (4 * trials**2))
    centre = p + Z95**2 / (2 * trials)
    scale = 1 + Z95**2 / trials
    return max(0.0, (centre - spread) / scale), min(1.0, (centre + spread) / scale)


def _simulation_text(data: dict[str, Any]) -> str:
    lines = [f"5000 ({data['rules']}), {data['games']} games, seed {data['seed']}, seats rotating:"]
    width = max(len(r["player"]) for r in data["results"])
    for r in data["results"]:
        low, high = r["ci95"]
        lines.append(f"  {r['player']:<{width}}  {100 * r['win_rate']:5.1f}%"
                     f"  (95% CI {100 * low:.1f}% - {100 * high:.1f}%)  {r['wins']} wins")
    if data["unfinished"]:
        lines.append(f"  {data['unfinished']} games unfinished after {MAX_STEPS} steps")
    lines.append(f"  {data['games_per_second']:.1f} games per second")
    return "\n".join(lines)


