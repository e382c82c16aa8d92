"""What both tables of the app show: the five dice (a face each, its key 1-5 on the border, a
heavy border on a held or chosen die and a line naming those dice, so it shows by more than
colour; a click toggles the die), and the buttons, which run the table's actions as its keys do."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.events import Click
from textual.widgets import Button, Static

from ...engine.dice import DICE_COUNT

PIPS = {  # a face as three rows of pips
    1: ("     ", "  ●  ", "     "),
    2: ("●    ", "     ", "    ●"),
    3: ("●    ", "  ●  ", "    ●"),
    4: ("●   ●", "     ", "●   ●"),
    5: ("●   ●", "  ●  ", "●   ●"),
    6: ("●   ●", "●   ●", "●   ●"),
}
NO_DIE = ("     ", "  ·  ", "     ")


class Die(Static):
    DEFAULT_CSS = """
    Die {
        width: 7;
        height: 5;
        border: round $foreground 50%;
        border-title-align: center;
    }
    Die.-marked { border: heavy $accent; background: $accent 25%; }
    Die.-scoring { border: double $success; }
    Die.-stale, Die.-empty { color: $foreground 40%; }
    """

    def __init__(self, index: int, on_press: Callable[[int], None]) -> None:
        super().__init__("", markup=False, id=f"die-{index + 1}")
        self.index = index
        self.on_press = on_press
        self.border_title = str(index + 1)

    def show(self, value: int | None, marked: bool, scoring: bool, stale: bool) -> None:
        self.update("\n".join(PIPS[value] if value else NO_DIE))
        self.set_class(marked, "-marked")
        self.set_class(scoring and not marked, "-scoring")
        self.set_class(stale, "-stale")
        self.set_class(value is None, "-empty")

    def on_click(self, event: Click) -> None:
        event.stop()
        self.on_press(self.index)


class DiceRow(Vertical):
    DEFAULT_CSS = """
    DiceRow { height: auto; width: auto; }
    DiceRow > Horizontal { height: 5; width: auto; }
    DiceRow > #marked { height: 1; width: auto; color: $foreground 80%; }
    """

    def __init__(self, on_press: Callable[[int], None], mark_label: Callable[[str], str]) -> None:
        """`mark_label(values)`: the line naming the held or chosen dice ("Held: 4 4")."""
        super().__init__(id="dice")
        self.dice = [Die(index, on_press) for index in range(DICE_COUNT)]
        self.mark_label = mark_label
        self.marked_line = Static("", markup=False, id="marked")

    def compose(self) -> ComposeResult:
        with Horizontal():
            yield from self.dice
        yield self.marked_line

    def show(self, values: Sequence[int], marked: Sequence[int], scoring: Sequence[int] = (), stale: bool = False) -> None:
        """The dice on the table (fewer than five leave the rest empty) and which are held or chosen."""
        for die in self.dice:
            value = values[die.index] if die.index < len(values) else None
            die.show(value, die.index in marked, die.index in scoring, stale)
        shown = [values[index] for index in sorted(marked) if index < len(values)]
        self.marked_line.update(self.mark_label(" ".join(map(str, shown))) if shown else "")


def action_button(label: str, id: str, action: str) -> Button:
    """A button that runs an app action; it never takes the focus, so Enter and the keys stay the game's.
    It is never disabled either: pressed when it cannot act, the table says why."""
    button = Button(label, id=id, action=action, compact=True)
    button.can_focus = False
    return button


def relabel(button: Button, label: str) -> None:
    """A new label, and the button's width with it (a label change alone keeps the old width)."""
    if str(button.label) != label:
        button.label = label
        button.refresh(layout=True)


class MoveLog(VerticalScroll):
    """The game's steps, the newest at the bottom and kept in sight: anchored, it follows every new
    line and every change of its height (the hint list opening above it, a resize) until the player
    scrolls up, and again once they scroll back down. A long line wraps rather than being cut."""

    DEFAULT_CSS = """
    MoveLog > Static { width: 1fr; min-height: 100%; }  /* never shorter than the log: anchored, a few lines stay on top */
    """

    def __init__(self, max_lines: int, id: str) -> None:
        super().__init__(id=id, can_focus=False)  # the mouse wheel scrolls it; the arrows are the game's
        self.max_lines = max_lines
        self.lines: list[str] = []
        self.text = Static("", markup=False)

    def compose(self) -> ComposeResult:
        yield self.text

    def on_mount(self) -> None:
        self.anchor()

    def write_line(self, line: str) -> None:
        self.show([*self.lines, line])

    def show(self, lines: list[str]) -> None:
        self.lines = lines[-self.max_lines :]
        self.text.update("\n".join(self.lines))
