"""5000 in the commands: reports and the terminal table.

Solvers and players are imported inside the functions that use them (see the package's docstring).
"""

from __future__ import annotations

import argparse
import time
from typing import TYPE_CHECKING, Any, cast

from ...engine.actions import Bank, Roll
from ...engine.dice import DICE_COUNT, Dice
from ...engine.errors import InvalidDice
from ...engine.five_thousand import FiveThousandRules, FiveThousandState, score_roll
from ...engine.games import rules_for
from ...engine.protocol import GameState
from ...engine.runner import Match
from ..output import CommandError, Report

if TYPE_CHECKING:
    from ...players.matches import Simulation

SITUATION_KEYS = ("game", "scores", "to_move", "turn_points", "dice_left")
ACTION_NAMES = {Roll(): "roll", Bank(): "bank"}
PLAY_HELP = "roll | bank | aside 1 2 (free set-aside: the dice to keep) | quit"


def solve(args: argparse.Namespace) -> Report:
    """Build or load the two-player table; report the first player's optimal win probability."""
    from ...solvers.five_thousand_cache import two_player_solution
    from ..progress import ProgressBar

    rules = rules_for(args.game, args.rules)
    players = args.players or 2
    if players != 2:
        raise CommandError(
            f"the exact {rules.game} solver is for 2 players, not {players}: with more, exact solving is out"
            " of reach; `cubilete advise` gives the strong player's estimates"
        )
    started = time.perf_counter()
    with ProgressBar() as progress:
        solution = two_player_solution(cast(FiveThousandRules, rules), progress)
    seconds = time.perf_counter() - started
    wins = solution.first_player_wins
    data = {"game": rules.game, "players": 2, "first_player_wins": wins, "seconds": seconds}
    text = (
        f"{rules.game} ({rules.name}), 2 players: with optimal play by both, the first player wins with"
        f" probability {wins:.10f} ({seconds:.2f} s)"
    )
    return Report(data, text)


def advise(situation: dict[str, Any], target: int | None = None) -> Report:
    """Every legal action of a situation (a turn start or a decision point) with its win probability, best first.

    Exact with two players; with more, the strong player's estimates ("estimate": true).
    """
    if target is not None:
        raise CommandError("--target is for Penta and Generala: 5000's advice is already the chance to win")
    from ...players import prepare
    from ...players.five_thousand_advice import rank_five_thousand
    from ...players.five_thousand_advice import situation as five_thousand_situation
    from ..progress import ProgressBar

    keys = set(situation) - {"rules"}
    if keys != set(SITUATION_KEYS):
        raise CommandError(f"a {situation['game']} situation has exactly the keys {', '.join(SITUATION_KEYS)}"
                           " (and optionally rules)")
    rules = cast(FiveThousandRules, rules_for(situation["game"], situation.get("rules")))
    state = five_thousand_situation(
        rules, situation["scores"], situation["to_move"], situation["turn_points"], situation["dice_left"]
    )
    with ProgressBar() as progress:
        prepare("optimal", rules, progress)
    advice = rank_five_thousand(state)
    options: list[dict[str, Any]] = [{"action": ACTION_NAMES[o.action], "win_probability": o.win_probability} for o in advice.options]
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


def stats(args: argparse.Namespace) -> Report:
    raise CommandError(f"stats is for the score-sheet games, not {args.game}")


def simulation_report(simulation: Simulation) -> Report:
    """Each listed player's win rate with its 95% Wilson interval."""
    from ...players.matches import MAX_STEPS

    games = simulation.games
    results: list[dict[str, Any]] = [
        {"player": p.level, "wins": p.wins, "win_rate": p.wins / games, "ci95": list(p.win_interval(games))}
        for p in simulation.players
    ]
    data = {
        "game": simulation.rules.game,
        "rules": simulation.rules.name,
        "players": [p.level for p in simulation.players],
        "games": games,
        "seed": simulation.seed,
        "results": results,
        "unfinished": simulation.unfinished,
        "seconds": simulation.seconds,
        "games_per_second": games / simulation.seconds,
    }
    lines = [f"{data['game']} ({data['rules']}), {games} games, seed {data['seed']}, seats rotating:"]
    width = max(len(r["player"]) for r in results)
    for r in results:
        low, high = r["ci95"]
        lines.append(f"  {r['player']:<{width}}  {100 * r['win_rate']:5.1f}%"
                     f"  (95% CI {100 * low:.1f}% - {100 * high:.1f}%)  {r['wins']} wins")
    if simulation.unfinished:
        lines.append(f"  {simulation.unfinished} games unfinished after {MAX_STEPS} steps")
    lines.append(f"  {data['games_per_second']:.1f} games per second")
    return Report(data, "\n".join(lines))


def score(rules: FiveThousandRules, dice: Dice, args: argparse.Namespace) -> Report:
    """The points of one roll and how many of its dice scored."""
    if not 1 <= len(dice) <= DICE_COUNT:
        raise InvalidDice("roll_dice_count", game=rules.game, most=DICE_COUNT, count=len(dice))
    result = score_roll(dice, rules)
    data = {"game": rules.game, "dice": list(dice), "points": result.points, "scoring_dice": result.scoring_dice}
    text = (
        f"{result.points} points, {result.scoring_dice} of {len(dice)} dice scored"
        if result.points
        else "no points: this roll busts"
    )
    return Report(data, text)


def show_table(match: Match) -> None:
    state = cast(FiveThousandState, match.state)
    reason = state.must_roll_reason()
    line = f"  turn points {state.turn_points}, {state.dice_left} dice to roll"
    print(line + (f" ({reason})" if reason else ""))


def describe(match: Match, before: GameState) -> str:
    event, after = match.events[-1], cast(FiveThousandState, match.state)
    name = match.names[cast(FiveThousandState, before).current]
    last = after.last_event
    if "roll" in event:
        line = f"  {name} rolls {' '.join(map(str, event['roll']))}"
        return line + (": bust" if last is not None and last.kind == "bust" else "")
    action = event["action"]
    if action["type"] == "bank" and last is not None:
        detail = f" -> {match.names[last.receiver]}" if last.receiver is not None else ""
        return f"  {name} banks {last.points}: {last.kind.replace('_', ' ')}{detail}"
    return f"  {name}: {action['type'].replace('_', ' ')}"
