"""Each player's win rate in a simulation's report, for every game: a tie counts half (a third among
three...), with its 95% Wilson interval (analysis.confidence)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ...analysis.matches import Simulation


def win_rates(simulation: Simulation) -> list[dict[str, Any]]:
    """Per listed player: its win rate over the finished games, the interval, its wins and ties."""
    return [
        {"player": p.level, "win_rate": p.win_rate, "ci95": list(p.win_interval()), "wins": p.wins, "ties": p.ties}
        for p in simulation.players
        if p.finished
    ]


def win_rate_lines(rates: list[dict[str, Any]]) -> list[str]:
    width = max((len(rate["player"]) for rate in rates), default=0)
    lines = []
    for rate in rates:
        low, high = rate["ci95"]
        lines.append(
            f"  {rate['player']:<{width}}  wins {100 * rate['win_rate']:5.1f}%  (95% CI {100 * low:.1f}% - {100 * high:.1f}%)"
            f"  {rate['wins']} wins, {rate['ties']} ties"
        )
    return [*lines, "  (a tie counts half; 95% intervals: Wilson)"] if lines else []
