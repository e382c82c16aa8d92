"""A simulation's report in the player's language, for every game: its first line, and each player's
win rate (a tie counts half, a third among three...) with one 95% interval: Wilson's over the games
(analysis.confidence), or with common dice the normal approximation over the pairs of games."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ...analysis.matches import Simulation
    from ..texts import Texts


def simulation_head(simulation: Simulation, texts: Texts) -> str:
    rules, t = simulation.rules, texts.t
    names = {"game": texts.game(rules.game), "rules": texts.rules(rules.game, rules.name),
             "n": simulation.games, "seed": simulation.seed}
    if simulation.common_dice:
        return t("{game} ({rules}), {n} games with common dice, seed {seed}, in pairs with the seats swapped:", **names)
    return t("{game} ({rules}), {n} games, seed {seed}, seats rotating:", **names)


def win_rates(simulation: Simulation) -> list[dict[str, Any]]:
    """Per listed player: its win rate over the finished games (over the pairs, with common dice), the
    interval, its wins and ties."""
    rates = []
    for player in simulation.players:
        if not player.finished:
            continue
        if simulation.common_dice:
            rate, low, high = player.paired_rate()
        else:
            rate, (low, high) = player.win_rate, player.win_interval()
        rates.append({"player": player.level, "win_rate": rate, "ci95": [low, high], "wins": player.wins, "ties": player.ties})
    return rates


def win_rate_lines(rates: list[dict[str, Any]], simulation: Simulation, texts: Texts) -> list[str]:
    if not rates:
        return []
    width = max(len(rate["player"]) for rate in rates)
    shown = [texts.percent(rate["win_rate"]) for rate in rates]
    rate_width = max(map(len, shown))
    lines = []
    for rate, percent in zip(rates, shown):
        low, high = rate["ci95"]
        interval = texts.t("wins {rate}  (95% CI {low} - {high})", rate=f"{percent:>{rate_width}}",
                           low=texts.percent(low), high=texts.percent(high))
        counts = texts.tn("{n} win", "{n} wins", rate["wins"]) + ", " + texts.tn("{n} tie", "{n} ties", rate["ties"])
        lines.append(f"  {rate['player']:<{width}}  {interval}  {counts}")
    method = (texts.t("95% intervals: normal approximation, each pair of games one observation")
              if simulation.common_dice else texts.t("95% intervals: Wilson"))
    return [*lines, "  (" + texts.t("a tie counts half") + "; " + method + ")"]


def games_per_second(simulation: Simulation, texts: Texts) -> str:
    return "  " + texts.t("{rate} games per second", rate=texts.decimal(simulation.games / simulation.seconds))
