"""The score-sheet games (Penta, Generala) in the commands: reports and the terminal table.

Solvers and players are imported inside the functions that use them (see the package's docstring).
"""

from __future__ import annotations

import argparse
import time
import unicodedata
from typing import TYPE_CHECKING, Any, cast

from ...engine.actions import Action, Keep, Score
from ...engine.dice import DICE_COUNT, Dice
from ...engine.errors import IllegalAction, InvalidDice
from ...engine.events import Event, RollEvent
from ...engine.games import GAMES
from ...engine.protocol import GameState
from ...engine.runner import Match
from ...engine.sheet import SheetState
from ...engine.sheet_rules import SheetRules
from ...engine.sheet_scoring import no_open_box_scores, score_options, sheet_from_json
from ..levels import typed_rules
from ..output import CommandError, Report, parse_json
from .hints import HINT_OPTIONS, Hint, HintOption
from .seating import Seating
from .sheet_words import boxes_line, sheet_words
from .sheet_words import play_help as play_help
from .win_rates import games_per_second, simulation_head, win_rate_lines, win_rates

if TYPE_CHECKING:
    from ...analysis.matches import Simulation
    from ...solvers.sheet.advice import RankedOption
    from ...solvers.sheet.stats import SheetStats
    from ..texts import Texts

SITUATION_KEYS = ("game", "rules", "sheet", "dice", "rolls_left")
SACRIFICE_WARNING = "No open box scores: one must be sacrificed"


def solve(args: argparse.Namespace) -> Report:
    """Build or load the rule set's table; report the optimal expected score of a new game."""
    from ...solvers.sheet.cache import solution
    from ..progress import ProgressBar

    rules = _rules(args.game, args.rules)
    if args.players not in (None, 1):
        raise CommandError(
            f"{args.game} is solved for one sheet (the solitaire optimum): --players is for 5000"
        )
    started = time.perf_counter()
    with ProgressBar() as progress:
        value = solution(rules, progress).start_value
    seconds = time.perf_counter() - started
    data = {"game": rules.game, "rules": rules.name, "expected_score": value, "seconds": seconds}
    text = f"{rules.game} ({rules.name}): optimal expected score {value:.10f} ({seconds:.2f} s)"
    return Report(data, text)


def advise(situation: dict[str, Any], target: int | None = None) -> Report:
    """Every legal action of a situation with the expected final total it leads to, best first;
    with a target, with its chance to end with `target` points or more, playing for it."""
    from ...solvers.sheet.advice import advise as rank_options
    from ...solvers.sheet.advice import expected_value
    from ...solvers.sheet.cache import solution
    from ...solvers.sheet.threshold import check_target
    from ..progress import ProgressBar

    rules = _rules(situation.get("game"), situation.get("rules"))
    bonus_key = f"{rules.joker_box}_bonus" if rules.five_equal_bonus else None
    allowed = SITUATION_KEYS + ((bonus_key,) if bonus_key else ())
    unknown = sorted(set(situation) - set(allowed))
    if unknown:
        raise CommandError(f"unknown key {unknown[0]!r}; a {rules.game} situation has {', '.join(allowed)}")
    sheet = sheet_from_json(rules, situation.get("sheet", {}), situation.get(bonus_key, 0) if bonus_key else 0)
    dice = situation.get("dice", [])
    rolls_left = situation.get("rolls_left", rules.rolls_per_turn - 1)
    if not isinstance(dice, list):
        raise CommandError(f'"dice" is a list of {DICE_COUNT} numbers 1 to 6, not {dice!r}')
    if isinstance(rolls_left, bool) or not isinstance(rolls_left, int):
        raise CommandError(f'"rolls_left" is a whole number 0 to {rules.rolls_per_turn - 1}, not {rolls_left!r}')
    state = SheetState.situation(rules, sheet, dice, rolls_left)
    with ProgressBar() as progress:
        solution(rules, progress)
        if target is not None:
            check_target(state, target, progress)
    if target is not None:
        return _target_advice(state, target)
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


def _target_advice(state: SheetState, target: int) -> Report:
    """The chance to end with `target` or more: after each legal action, or from the turn start."""
    from ...solvers.sheet.threshold import rank_for_target, reach_chance

    rules = state.rules
    heading = f"chance to end with {target} or more, playing for it"
    data: dict[str, Any] = {"game": rules.game, "rules": rules.name, "target": target}
    if state.is_chance:
        chance = reach_chance(state, target)
        return Report({**data, "chance": chance, "options": []}, f"start of a turn: {heading}: {chance:.6f}")
    ranked = rank_for_target(state, target)
    best = ranked[0].chance
    options = [
        {**_option_json(reach.option), "chance": reach.chance, "regret": best - reach.chance}
        for reach in ranked
    ]
    lines = [f"dice {' '.join(map(str, state.dice))}, {state.rolls_left} rolls left; {heading}:"]
    lines += [
        f"  {_option_text(reach.option):<28} {reach.chance:9.6f}"
        + (f"  -{best - reach.chance:.6f}" if best - reach.chance else "  best")
        for reach in ranked
    ]
    return Report({**data, "chance": best, "options": options}, "\n".join(lines))


def stats(args: argparse.Namespace) -> Report:
    """The exact statistics of optimal solitaire play, from the forward pass."""
    from ...solvers.sheet.cache import solution
    from ...solvers.sheet.stats import exact_stats
    from ..progress import ProgressBar

    rules = _rules(args.game, args.rules)
    started = time.perf_counter()
    with ProgressBar() as progress:
        solution(rules, progress)
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


def simulation_report(simulation: Simulation, texts: Texts) -> Report:
    """Each listed player's mean and SD; with two players or more, each one's win rate; games per second."""
    rules = simulation.rules
    seats = [
        {"player": p.level, "mean": p.mean, "sd": p.sd, "standard_error": p.standard_error}
        for p in simulation.players
    ]
    rates = win_rates(simulation) if len(simulation.players) > 1 else []
    data = {
        "game": rules.game,
        "rules": rules.name,
        "players": [player.level for player in simulation.players],
        "games": simulation.games,
        "seed": simulation.seed,
        "common_dice": simulation.common_dice,
        "seats": seats,
        "results": rates,
        "seconds": simulation.seconds,
        "games_per_second": simulation.games / simulation.seconds,
    }
    lines = [simulation_head(simulation, texts)]
    width = max(len(p.level) for p in simulation.players)
    for number, seat in enumerate(seats, start=1):
        lines.append("  " + texts.t(
            "seat {number} {player}  mean {mean} ± {error} (SE), SD {sd}", number=number,
            player=f"{seat['player']:<{width}}", mean=f"{seat['mean']:.2f}", error=f"{seat['standard_error']:.2f}",
            sd=f"{seat['sd']:.2f}",
        ))
    lines += win_rate_lines(rates, simulation, texts)
    lines.append(games_per_second(simulation, texts))
    return Report(data, "\n".join(lines))


def score(rules: SheetRules, dice: Dice, args: argparse.Namespace) -> Report:
    """Every legal box for these dice on the sheet of `args.sheet`, with its points now."""
    sheet = sheet_from_json(rules, parse_json(args.sheet, "--sheet"))
    if sheet.is_full:
        raise InvalidDice("nothing_to_score", game=rules.game)
    options = score_options(rules, sheet, dice)
    sacrifice = no_open_box_scores(options)
    data = {
        "game": rules.game,
        "rules": rules.name,
        "dice": list(dice),
        "boxes": [{"box": o.box, "points": o.points, "bonus": o.bonus} for o in options],
        "no_box_scores": sacrifice,
    }
    lines = [f"{rules.game} ({rules.name}), dice {' '.join(map(str, dice))}:"]
    lines += [
        f"  {o.box:<16} {o.points:>3}" + (f"  + {o.bonus} bonus" if o.bonus else "") for o in options
    ]
    if sacrifice:
        lines.append(SACRIFICE_WARNING)
    return Report(data, "\n".join(lines))


def dice_on_table(state: SheetState) -> Dice:
    return state.dice


def roll_action() -> Action:
    return Keep(())


def table_text(match: Match, texts: Texts) -> str:
    state = cast(SheetState, match.state)
    dice = "  ".join(f"[{i + 1}]{d}" for i, d in enumerate(state.dice))
    rolls = texts.tn("{n} roll left", "{n} rolls left", state.rolls_left)
    boxes = ", ".join(f"{texts.box(state.game, o.box)} {_points(o.points, o.bonus)}" for o in state.score_options())
    dice_line = texts.t("Dice: {dice}", dice=dice)
    lines = [f"  {dice_line}   {rolls}", "  " + boxes_line(texts, state.game, boxes)]
    if state.no_open_box_scores():
        lines.append("  " + sheet_words(texts, state.game).must_sacrifice)
    return "\n".join(lines)


def describe(event: Event, before: GameState, after: GameState, seating: Seating, texts: Texts) -> str:
    sheets, played = cast(SheetState, before), cast(SheetState, after)
    seat = sheets.current
    name, you = seating.name(seat), seating.is_you(seat)
    if isinstance(event, RollEvent):
        dice = " ".join(map(str, event.dice))
        line = texts.t("You roll {dice}", dice=dice) if you else texts.t("{name} rolls {dice}", name=name, dice=dice)
        if played.winner is None:
            return line
        # the game ends here, the roller first (docs/rules.md#generala-servida-wins)
        won = texts.t("Generala servida! You win.") if you else texts.t("Generala servida! {name} wins.", name=name)
        return f"{line}: {won}"
    action = event.action
    if isinstance(action, Score):
        box = texts.box(sheets.game, action.box)
        points = played.sheets[seat].boxes[sheets.rules.box_index(action.box)]
        bonus = played.sheets[seat].bonus - sheets.sheets[seat].bonus
        if bonus and you:
            return texts.t("You score {points} in {box}, and a bonus of {bonus}", points=points, box=box, bonus=bonus)
        if bonus:
            return texts.t("{name} scores {points} in {box}, and a bonus of {bonus}", name=name, points=points, box=box,
                           bonus=bonus)
        if you:
            return texts.t("You score {points} in {box}", points=points, box=box)
        return texts.t("{name} scores {points} in {box}", name=name, points=points, box=box)
    assert isinstance(action, Keep)  # a sheet game's actions are Score and Keep
    if not action.held:
        return texts.t("You roll all five again") if you else texts.t("{name} rolls all five again", name=name)
    kept = " ".join(str(sheets.dice[i]) for i in action.held)
    return texts.t("You keep {dice}", dice=kept) if you else texts.t("{name} keeps {dice}", name=name, dice=kept)


def hint(state: SheetState, texts: Texts) -> Hint:
    """The solver's best choices for the dice on the table, with the expected final total of each."""
    from ...solvers.sheet.advice import advise

    if state.is_chance:
        raise IllegalAction("hint_roll_first")
    options = []
    for option in advise(state)[:HINT_OPTIONS]:
        expected = texts.decimal(option.value)
        if option.box is not None:
            points = (option.points or 0) + (option.bonus or 0)
            box = texts.box(state.game, option.box)
            text = texts.tn("{box}: {points} point → {expected}", "{box}: {points} points → {expected}", points,
                            box=box, points=points, expected=expected)
        else:
            kept = " ".join(map(str, option.keep or ())) or texts.t("nothing")
            text = texts.t("Keep {dice} and roll → {expected}", dice=kept, expected=expected)
        options.append(HintOption(text, option.action, preselect=True))
    return Hint(texts.t("Best choices, with the expected final total"), tuple(options))


def box_id(rules: SheetRules, typed: str, texts: Texts) -> str:
    wanted = _folded(typed)
    for box in rules.box_ids:
        if wanted in (_folded(box), _folded(texts.box(rules.game, box))):
            return box
    return typed.strip()


def _folded(text: str) -> str:
    """A name as compared with what a player types: no case, no accents, single spaces."""
    plain = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
    return " ".join(plain.casefold().split())


def _points(points: int, bonus: int) -> str:
    return f"{points}+{bonus}" if bonus else str(points)


def _rules(game: Any, variant: Any) -> SheetRules:
    if game is None:
        raise CommandError(f'say which game: "game" is one of {", ".join(GAMES)}')
    if variant is not None and not isinstance(variant, str):
        raise CommandError(f'"rules" is the name of a rule set, not {variant!r}')
    return cast(SheetRules, typed_rules(str(game), variant))  # the commands send sheet games only


def _option_json(option: RankedOption) -> dict[str, Any]:
    if option.keep is not None:
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
    if option.keep is not None:
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
    ]
    if rules.upper_bonus_threshold is not None:  # a game without one has no line for it
        lines.append(f"  upper bonus {result.upper_bonus_probability:.4f}")
    if result.five_equal_box is not None:
        lines.append(f"  {result.five_equal_box} scored {result.five_equal_probability:.4f}")
    if result.five_equal_bonus_mean:
        lines.append(f"  five-equal bonuses, mean {result.five_equal_bonus_mean:.4f}")
    lines.append("  mean per box: " + ", ".join(f"{b} {m:.2f}" for b, m in result.box_means.items()))
    return "\n".join(lines)
