"""5000 in the commands: reports and the terminal table.

Solvers and players are imported inside the functions that use them (see the package's docstring).
"""

from __future__ import annotations

import argparse
import time
from typing import TYPE_CHECKING, Any, cast

from ...engine.actions import Action, Bank, Roll, SetAside
from ...engine.dice import DICE_COUNT, Dice
from ...engine.errors import IllegalAction, InvalidDice
from ...engine.events import Event, RollEvent
from ...engine.five_thousand import FiveThousandRules, FiveThousandState, Phase, score_roll
from ...engine.protocol import GameState
from ...engine.runner import Match
from ..levels import typed_rules
from ..output import CommandError, Report
from .hints import Hint, HintOption
from .seating import Seating
from .win_rates import games_per_second, simulation_head, win_rate_lines, win_rates

if TYPE_CHECKING:
    from ...analysis.matches import Simulation
    from ..texts import Texts

SITUATION_KEYS = ("game", "scores", "to_move", "turn_points", "dice_left")
ACTION_NAMES = {Roll(): "roll", Bank(): "bank"}


def solve(args: argparse.Namespace) -> Report:
    """Build or load the two-player table; report the first player's optimal win probability."""
    from ...solvers.five_thousand.cache import two_player_solution
    from ..progress import ProgressBar

    rules = typed_rules(args.game, args.rules)
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
    from ...players.table import prepare_advice
    from ...solvers.five_thousand.advice import rank_five_thousand
    from ...solvers.five_thousand.advice import situation as five_thousand_situation
    from ..progress import ProgressBar

    keys = set(situation) - {"rules"}
    if keys != set(SITUATION_KEYS):
        raise CommandError(f"a {situation['game']} situation has exactly the keys {', '.join(SITUATION_KEYS)}"
                           " (and optionally rules)")
    rules = cast(FiveThousandRules, typed_rules(situation["game"], situation.get("rules")))
    state = five_thousand_situation(
        rules, situation["scores"], situation["to_move"], situation["turn_points"], situation["dice_left"]
    )
    with ProgressBar() as progress:
        prepare_advice(rules, progress)
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


def simulation_report(simulation: Simulation, texts: Texts) -> Report:
    """Each listed player's win rate (a tie counts half) with its 95% interval."""
    from ...analysis.matches import MAX_STEPS

    results = win_rates(simulation)
    data = {
        "game": simulation.rules.game,
        "rules": simulation.rules.name,
        "players": [p.level for p in simulation.players],
        "games": simulation.games,
        "seed": simulation.seed,
        "common_dice": simulation.common_dice,
        "results": results,
        "unfinished": simulation.unfinished,
        "seconds": simulation.seconds,
        "games_per_second": simulation.games / simulation.seconds,
    }
    lines = [simulation_head(simulation, texts), *win_rate_lines(results, simulation, texts)]
    if simulation.unfinished:
        lines.append("  " + texts.tn("{n} game unfinished after {steps} steps", "{n} games unfinished after {steps} steps",
                                     simulation.unfinished, steps=MAX_STEPS))
    lines.append(games_per_second(simulation, texts))
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


def play_help(texts: Texts, game: str) -> str:  # one game, one wording
    return texts.t("roll | bank | aside 1 2 (free set-aside: the dice to keep) | hint | quit")


def table_text(match: Match, texts: Texts) -> str:
    state = cast(FiveThousandState, match.state)
    reason = state.must_roll_reason()
    line = texts.t("This turn") + f": {state.turn_points}, " + texts.tn("One die to roll", "{n} dice to roll",
                                                                       state.dice_left)
    if state.phase is Phase.SET_ASIDE:
        line += ". " + texts.t("Dice: {dice}", dice="  ".join(f"[{i + 1}]{d}" for i, d in enumerate(state.last_roll)))
    return "  " + line + (f" ({texts.refusal(reason)})" if reason else "")


def dice_on_table(state: FiveThousandState) -> Dice:
    return state.last_roll


def roll_action() -> Action:
    return Roll()


def describe(event: Event, before: GameState, after: GameState, seating: Seating, texts: Texts) -> str:
    """The roll or action just taken, and what it ended in (a bust, a bank, a win...)."""
    played = cast(FiveThousandState, after)
    seat = cast(FiveThousandState, before).current
    name, you = seating.name(seat), seating.is_you(seat)
    if isinstance(event, RollEvent):
        dice = " ".join(map(str, event.dice))
        line = texts.t("You roll {dice}", dice=dice) if you else texts.t("{name} rolls {dice}", name=name, dice=dice)
    elif isinstance(event.action, SetAside):
        dice = " ".join(str(played.last_roll[i]) for i in event.action.held)
        line = texts.t("You set aside {dice}", dice=dice) if you else texts.t("{name} sets aside {dice}", name=name, dice=dice)
    elif isinstance(event.action, Roll):
        line = texts.t("You roll again") if you else texts.t("{name} rolls again", name=name)
    else:
        line = ""
    outcome = _outcome(played, seating, texts) if played.last_event is not None else ""
    return ": ".join(part for part in (line, outcome) if part)


def _outcome(state: FiveThousandState, seating: Seating, texts: Texts) -> str:
    event = state.last_event
    assert event is not None
    you = seating.is_you(event.seat)
    names = texts.names([seating.name(seat) for seat in event.knocked])
    params = {"name": seating.name(event.seat), "points": event.points, "target": state.rules.target, "names": names}
    receiver = None if event.receiver is None else seating.name(event.receiver)
    points = event.points
    if event.kind == "bust":
        if points == 0:
            return texts.t("You roll nothing that scores") if you else texts.t("{name} rolls nothing that scores", **params)
        if you:
            return texts.tn(
                "You roll nothing that scores: the turn's {points} point is lost",
                "You roll nothing that scores: the turn's {points} points are lost",
                points,
                **params,
            )
        return texts.tn(
            "{name} rolls nothing that scores: the turn's {points} point is lost",
            "{name} rolls nothing that scores: the turn's {points} points are lost",
            points,
            **params,
        )
    if event.kind == "bank":
        return texts.t("You bank {points}", **params) if you else texts.t("{name} banks {points}", **params)
    if event.kind == "knock_out":
        if you:
            return texts.t("You bank {points} and knock {names} back to zero", **params)
        return texts.t("{name} banks {points} and knocks {names} back to zero", **params)
    if event.kind in ("gift", "gift_lost"):
        return _gift(event.kind == "gift", you, receiver, len(event.knocked), params, texts)
    if event.kind == "hot_dice":  # rolling the five dice again is a choice when the points may be banked
        if any(isinstance(action, Bank) for action in state.legal_actions()):
            if you:
                return texts.t("All five dice scored: you may roll all five again or bank")
            return texts.t("All five dice scored: {name} may roll all five again or bank", **params)
        if you:
            return texts.t("All five dice scored: you must roll all five again")
        return texts.t("All five dice scored: {name} must roll all five again", **params)
    if receiver is None:  # a win
        return texts.t("You reach {target} and win!", **params) if you else texts.t("{name} reaches {target} and wins!", **params)
    return texts.t("{receiver} reaches {target} with {name}'s gift and wins!", receiver=receiver, **params)


def _gift(given: bool, you: bool, receiver: str | None, knocked: int, params: dict[str, Any], texts: Texts) -> str:
    """A turn that would pass the target: its points go to the next player (knocking some back), or are lost."""
    points = params["points"]
    if not given:
        if you:
            return texts.tn(
                "You would pass {target}: the {points} point is lost",
                "You would pass {target}: the {points} points are lost",
                points,
                **params,
            )
        return texts.tn(
            "{name} would pass {target}: the {points} point is lost",
            "{name} would pass {target}: the {points} points are lost",
            points,
            **params,
        )
    if you:
        gift = texts.tn(
            "You would pass {target}: the {points} point goes to {receiver}",
            "You would pass {target}: the {points} points go to {receiver}",
            points,
            receiver=receiver,
            **params,
        )
    else:
        gift = texts.tn(
            "{name} would pass {target}: the {points} point goes to {receiver}",
            "{name} would pass {target}: the {points} points go to {receiver}",
            points,
            receiver=receiver,
            **params,
        )
    if not knocked:
        return gift
    return gift + " " + texts.tn("{names} is knocked back to zero", "{names} are knocked back to zero", knocked, **params)


def hint(state: FiveThousandState, texts: Texts) -> Hint:
    """Roll or bank (with free set-aside, each choice of dice), best first, with the chance to win after each:
    exact with two players, the strong player's estimate with more."""
    from ...solvers.five_thousand.advice import rank_five_thousand

    if state.is_chance:
        raise IllegalAction("hint_roll_first")
    advice = rank_five_thousand(state)
    options = []
    for option in advice.options:
        action = option.action
        if isinstance(action, SetAside):
            dice = " ".join(str(state.last_roll[i]) for i in sorted(action.held, key=lambda i: state.last_roll[i]))
            text = texts.t("Set aside {dice}", dice=dice)
        elif isinstance(action, Bank):
            text = texts.t("Bank {points}", points=state.turn_points)
        else:
            text = texts.t("Roll")
        options.append(HintOption(f"{text} → {texts.percent(option.win_probability)}", action,
                                  preselect=isinstance(action, SetAside)))
    title = (texts.t("Best choices, with the chance to win") if advice.exact
             else texts.t("Best choices, with the chance to win (the computer's estimate)"))
    return Hint(title, tuple(options))


def box_id(rules: FiveThousandRules, typed: str, texts: Texts) -> str:
    return typed.strip()  # 5000 has no boxes: the engine refuses a score
