"""Pictures of `cubilete stats`: the exact law of the optimal player's final total, as PNG or SVG.

Matplotlib is an optional extra (`pip install 'cubilete[plots]'`): it is imported only when a
plot is asked for, and its absence is a clear command-line error, found before any solving.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

from .output import CommandError

FORMATS = (".png", ".svg")
EXTRA = "plots"
TAIL = 0.0005  # the x axis leaves out this much probability at each end: the tails are a hair thin
MARKED_PERCENTILES = ("5", "50", "95")
PNG_DPI = 150
HEADROOM = 1.2  # room above the highest bar for the labels of the marked totals


def plot_format(path: str) -> str:
    """The file's format from its extension: "png" or "svg"."""
    suffix = Path(path).suffix.lower()
    if suffix not in FORMATS:
        raise CommandError(f"--plot writes a .png or .svg file, not '{Path(path).name}'")
    return suffix[1:]


def matplotlib_figure() -> ModuleType:
    """matplotlib.figure, or a command-line error naming the extra that installs it."""
    try:
        import matplotlib.figure
    except ImportError:
        raise CommandError(
            f"--plot needs matplotlib, which the optional extra '{EXTRA}' installs: pip install 'cubilete[{EXTRA}]'"
        ) from None
    return matplotlib.figure


def write_distribution_plot(path: str, stats: dict[str, Any]) -> None:
    """Draw the distribution of `cubilete stats --json` (its "distribution" of [total, probability]
    pairs, mean and percentiles) into `path`, a PNG or an SVG by its extension."""
    kind = plot_format(path)
    figure_module = matplotlib_figure()
    totals = [total for total, _ in stats["distribution"]]
    probabilities = [probability for _, probability in stats["distribution"]]
    first, last = shown_range(stats["distribution"])

    # The Figure API draws without pyplot: no GUI backend, no global state.
    figure = figure_module.Figure(figsize=(8, 4.5), layout="constrained")
    axes = figure.subplots()
    axes.bar(totals, probabilities, width=1.0, color="#2f6fd9", linewidth=0)
    marks = [(stats["mean"], f"mean {stats['mean']:.2f}", "#d9412f", "-", 0.92)]
    marks += [(stats["percentiles"][percent], f"{percent}%", "#6a7380", "--", 1.0) for percent in MARKED_PERCENTILES]
    for total, label, color, style, height in marks:  # the mean's label one row lower, clear of the median's
        axes.axvline(total, color=color, linewidth=1.2, linestyle=style)
        axes.annotate(label, (total, height), xycoords=("data", "axes fraction"), xytext=(3, -12),
                      textcoords="offset points", fontsize=8, color=color)
    axes.set_xlim(first - 1, last + 1)
    axes.set_ylim(0, max(probabilities) * HEADROOM)
    axes.set_xlabel(
        f"final total ({1 - 2 * TAIL:.1%} of games from {first} to {last} shown; all from {totals[0]} to {totals[-1]})"
    )
    axes.set_ylabel("probability")
    axes.set_title(f"{stats['game']} ({stats['rules']}): final total of optimal solitaire play, exact"
                   f" (SD {stats['sd']:.2f})")
    try:
        figure.savefig(path, format=kind, dpi=PNG_DPI)
    except OSError as error:
        raise CommandError(f"cannot write {path}: {error.strerror}") from None


def shown_range(distribution: Sequence[Sequence[float]]) -> tuple[int, int]:
    """The totals between which all but TAIL of the probability lies at each end."""
    reached, first, last = 0.0, None, int(distribution[-1][0])
    for total, probability in distribution:
        reached += probability
        if first is None and reached > TAIL:
            first = int(total)
        if reached >= 1 - TAIL:
            last = int(total)
            break
    return first if first is not None else int(distribution[0][0]), last
