"""Penta and Generala for the solve, advise, stats and simulate commands: reports only.

The command modules (cli/commands/*.py) parse the arguments and hand score-sheet
games to these functions; the game logic lives in the engine, the solver and the players.
"""

from __future__ import annotations

import math
import random
import statistics
import time
from typing import Any, Callable


from ..engine.dice import DICE_COUNT
from ..engine.games import GAMES, rules_for
from ..engine.runner import play
from ..engine.sheet import SheetState
from ..engine.sheet_rules import SheetRules
from ..engine.sheet_scoring import sheet_from_json
from ..players import make_player
from ..solvers.sheet_advice import RankedOption, advise as rank_options, expected_value
from ..solvers.sheet_cache import solution
from ..solvers.sheet_stats import SheetStats, exact_stats
from .output import CommandError, Report, progress_bar

SITUATION_KEYS = ("game", "rules", "sheet", "dice", "rolls_left")
FIVE_THOUSAND = "5000"


def solve(args: Any) -> Report:
    """Build or load the rule set's table; report the optimal expected score of a new game."""
    rules = _rules(args.game, args.rules)
    if getattr(args, "players", None) not in (None, 1):
        raise CommandError(
            f"{args.game} is solved for one sheet (the solitaire optimum): --players is for 5000"
        )
    started = time.perf_counter()
    value = solution(rules).start_value
    seconds = time.perf_counter() - started
    data = {"game": rules.game, "rules": rules.name, "expected_score": value, "seconds": seconds}
    text = f"{rules.game} ({rules.name}): optimal expected score {value:.10f} ({seconds:.2f} s)"
    return Report(data, text)


def advise(situation: dict) -> Report:
    """Every legal action of a situation with the expected final total it leads to, best first."""
    if not isinstance(situation, dict):
        raise CommandError('a situation is a JSON object, e.g. {"game": "penta", "dice": [1, 3, 3, 5, 6]}')
    rules = _rules(situation.get("game"), situation.get("rules"))
    bonus_key = f"{rules.joker_box}_bonus" if rules.five_equal_bonus else None
    allowed = SITUATION_KEYS + ((bonus_key,) if bonus_key else ())
    unknown = sorted(set(situation) - set(allowed))
    if unknown:
        raise CommandError(f"unknown key {unknown[0]!r}; a {rules.game} situation has {', '.join(allowed)}")
    sheet = sheet_from_json(rules, situation.get("sheet", {}), situation.get(bonus_key, 0))
    dice = situation.get("dice", [])
    rolls_left = situation.get("rolls_left", rules.rolls_per_turn - 1)
    if not isinstance(dice, list):
        raise CommandError(f'"dice" is a list of {DICE_COUNT} numbers 1 to 6, not {dice!r}')
    if isinstance(rolls_left, bool) or not isinstance(rolls_left, int):
        raise CommandError(f'"rolls_left" is a whole number 0 to {rules.rolls_per_turn - 1}, not {rolls_left!r}')
    state = SheetState.situation(rules, sheet, dice, rolls_left)
    if state.is_chance:
        value = expected_value(state)
        data = {"game": rules.game, "rules": rules.name, "value": value, "options": []}
        return Report(data, f"start of a turn: expected final total {value:.4f}")
    options = rank_options(state)
    data = {
        "game": rules.game,
        "rules": rules.name,
        "value": options[0].value,
        "options": [_option_json(option) for option in options],
    }
    lines = [f"dice {' '.join(map(str, state.dice))}, {rolls_left} rolls left; expected final total:"]
    lines += [
        f"  {_option_text(option):<28} {option.value:9.4f}"
        + (f"  -{option.regret:.4f}" if option.regret else "  best")
        for option in options
    ]
    return Report(data, "\n".join(lines))


def stats(args: Any) -> Report:
    """The exact statistics of optimal solitaire play, from the forward pass."""
    rules = _rules(args.game, args.rules)
    started = time.perf_counter()
    result = exact_stats(rules)
    seconds = time.perf_counter() - started
    totals = [t for t, p in enumerate(result.distribution) if p > 0]
    data = {
        "game": rules.game,
        "rules": rules.name,
        "mean": result.mean,
        "sd": result.standard_deviation,
        "percentiles": {str(p): total for p, total in result.percentiles().items()},
        "upper_bonus_probability": result.upper_bonus_probability,
        "five_equal_box": result.five_equal_box,
        "five_equal_probability": result.five_equal_probability,
        "five_equal_bonus_mean": result.five_equal_bonus_mean,
        "box_means": result.box_means,
        "distribution": [[t, float(result.distribution[t])] for t in totals],
        "seconds": seconds,
    }
    return Report(data, _stats_text(rules, result, totals, seconds))


def simulate(args: Any) -> Report:
    """Play seeded games with the engine's runner; each seat's mean and SD, and games per second."""
    rules = _rules(args.game, args.rules)
    levels = [level.strip() for level in args.players.split(",")]
    if args.games < 1:
        raise CommandError(f"--games must be at least 1, not {args.games}")
    if not rules.min_players <= len(levels) <= rules.max_players:
        raise CommandError(
            f"{rules.game} is played by {rules.min_players} to {rules.max_players} players, not {len(levels)}"
        )
    players = [make_player(level, rules) for level in levels]
    seeds = random.Random(args.seed).sample(range(2**62), args.games)
    scores: list[tuple[int, ...]] = []
    started = time.perf_counter()
    with progress_bar() as bar:
        task = bar.add_task(f"{rules.game}: simulating", total=args.games)
        for seed in seeds:
            scores.append(play(rules, players, seed).state.scores())
            bar.advance(task)
    seconds = time.perf_counter() - started
    seats = []
    for seat, level in enumerate(levels):
        seat_scores = [game[seat] for game in scores]
        sd = statistics.pstdev(seat_scores)
        seats.append(
            {
                "player": level,
                "mean": statistics.fmean(seat_scores),
                "sd": sd,
                "standard_error": sd / math.sqrt(args.games),
            }
        )
    data = {
        "game": rules.game,
        "rules": rules.name,
        "players": levels,
        "games": args.games,
        "seed": args.seed,
        "seats": seats,
        "seconds": seconds,
        "games_per_second": args.games / seconds,
    }
    return Report(data, _simulation_text(data))


def _rules(game: Any, variant: Any) -> SheetRules:
    if game is None:
        raise CommandError(f'say which game: "game" is one of {", ".join(GAMES)}')
    if variant is not None and not isinstance(variant, str):
        raise CommandError(f'"rules" is the name of a rule set, not {variant!r}')
    rules = rules_for(str(game), variant)
    if not isinstance(rules, SheetRules):
        raise CommandError(f"{game} is not a score-sheet game")
    return rules


def _option_json(option: RankedOption) -> dict[str, Any]:
    if option.box is None:
        return {"action": "keep", "keep": list(option.keep), "value": option.value, "regret": option.regret}
    return {
        "action": "score",
        "box": option.box,
        "points": option.points,
        "bonus": option.bonus,
        "value": option.value,
        "regret": option.regret,
    }


def _option_text(option: RankedOption) -> str:
    if option.box is None:
        return f"keep {' '.join(map(str, option.keep)) or 'nothing'}"
    bonus = f" + {option.bonus} bonus" if option.bonus else ""
    return f"score {option.box} {option.points}{bonus}"


def _stats_text(rules: SheetRules, result: SheetStats, totals: list[int], seconds: float) -> str:
    percentiles = ", ".join(f"{p}%: {t}" for p, t in result.percentiles().items())
    lines = [
        f"{rules.game} ({rules.name}), optimal solitaire play, exact ({seconds:.1f} s):",
        f"  mean {result.mean:.4f}, SD {result.standard_deviation:.4f},"
        f" totals {totals[0]} to {totals[-1]}",
        f"  percentiles {percentiles}",
        f"  upper bonus {result.upper_bonus_probability:.4f}",
    ]
    if result.five_equal_box is not None:
        lines.append(f"  {result.five_equal_box} scored {result.five_equal_probability:.4f}")
    if result.five_equal_bonus_mean:
        lines.append(f"  five-equal bonuses, mean {result.five_equal_bonus_mean:.4f}")
    lines.append("  mean per box: " + ", ".join(f"{b} {m:.2f}" for b, m in result.box_means.items()))
    return "\n".join(lines)


def _simulation_text(data: dict[str, Any]) -> str:
    lines = [f"{data['game']} ({data['rules']}), {data['games']} games, seed {data['seed']}:"]
    width = max(len(seat["player"]) for seat in data["seats"])
    for number, seat in enumerate(data["seats"], start=1):
        lines.append(
            f"  seat {number} {seat['player']:<{width}}  mean {seat['mean']:.2f}"
            f" ± {seat['standard_error']:.2f} (SE), SD {seat['sd']:.2f}"
        )
    lines.append(f"  {data['games_per_second']:.1f} games per second")
    return "\n".join(lines)


def for_game(game: str, command: str) -> Callable[[Any], Report]:
    """The function of a command for a game: 5000's from five_thousand_commands (imported
    only when asked for), the score-sheet games' from this module."""
    if game != FIVE_THOUSAND:
        return {"solve": solve, "advise": advise, "stats": stats, "simulate": simulate}[command]
    from . import five_thousand_commands

    function = getattr(five_thousand_commands, command, None)
    if function is None:
        raise CommandError(f"{command} is for the score-sheet games, not {game}")
    return function
