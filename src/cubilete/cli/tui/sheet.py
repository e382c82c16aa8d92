"""Penta and Generala in the app: the sheet of every seat with previews of what each open box
would score, the five dice to hold, and the computer's score after the last roll.

Keys: 1-5 hold a die (or a click), r rolls the others, ↑↓ choose a box (or a click), Enter scores
it; after the last roll, choosing nothing for the auto-score delay lets the computer score in the
box the optimal player would choose (as the web app does).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.events import Click
from textual.timer import Timer
from textual.widgets import Static

from ...engine.actions import Keep, Score
from ...engine.dice import DICE_COUNT
from ...engine.errors import IllegalAction
from ...engine.sheet import SheetState
from ...engine.sheet_rules import SheetRules
from ...engine.sheet_scoring import upper_bonus, upper_total
from ..families.hints import HintOption
from ..families.sheet_words import sheet_words
from ..texts import Texts
from .keys import Key
from .widgets import DiceRow, action_button, relabel

if TYPE_CHECKING:
    from ..play_session import PlaySession
    from .app import PlayApp

CELL_WIDTH = (6, 10)  # a seat's column, at least and at most: two seats and the dice fit in 80 columns


class BoxRow(Static):
    """A box's row: its name, then each seat's score, or what the box would score now (in brackets)."""

    DEFAULT_CSS = """
    BoxRow.-open { text-style: bold; }
    BoxRow.-selected { background: $accent 40%; text-style: bold reverse; }
    """

    def __init__(self, box: str, on_press: Callable[[str], None]) -> None:
        super().__init__("", markup=False, id=f"box-{box}")
        self.box = box
        self.on_press = on_press

    def on_click(self, event: Click) -> None:
        event.stop()
        self.on_press(self.box)


class SheetBoard(Vertical):
    DEFAULT_CSS = """
    SheetBoard { width: auto; height: auto; }
    SheetBoard > Static { width: auto; }
    SheetBoard > .sum { color: $foreground 70%; }
    SheetBoard > #sheet-total { text-style: bold; border-top: solid $foreground 30%; }
    """

    def __init__(self, session: PlaySession, on_press: Callable[[str], None]) -> None:
        super().__init__(id="board")
        self.rules: SheetRules = session.state.rules
        self.session = session
        texts = session.texts
        self.labels = {box.id: texts.box(self.rules.game, box.id) for box in self.rules.boxes}
        self.upper_label = texts.t("Upper part")
        self.bonus_label = texts.t("Bonus (+{points} at {threshold})", points=self.rules.upper_bonus_points,
                                   threshold=self.rules.upper_bonus_threshold)
        joker = self.rules.joker_box
        self.five_equal_label = texts.t("{box} bonus", box=texts.box(self.rules.game, joker)) if joker else ""
        self.total_label = texts.t("TOTAL")
        shown = [*self.labels.values(), self.total_label, self.five_equal_label]
        if self.rules.upper_bonus_threshold is not None:
            shown += [self.upper_label, self.bonus_label]
        self.label_width = 2 + max(map(len, shown))
        self.cell_width = max(CELL_WIDTH[0], min(CELL_WIDTH[1], max(map(len, session.names)) + 2))
        self.head = Static("", markup=False, id="sheet-head")
        self.rows = {box: BoxRow(box, on_press) for box in self.labels}
        self.upper = Static("", markup=False, classes="sum", id="sheet-upper")
        self.bonus = Static("", markup=False, classes="sum", id="sheet-bonus")
        self.five_equal = Static("", markup=False, classes="sum", id="sheet-five-equal")
        self.total = Static("", markup=False, id="sheet-total")

    def compose(self) -> ComposeResult:
        yield self.head
        has_upper_bonus = self.rules.upper_bonus_threshold is not None
        for position, box in enumerate(self.rules.boxes):
            yield self.rows[box.id]
            last_upper = box.upper and not (position + 1 < len(self.rules.boxes) and self.rules.boxes[position + 1].upper)
            if last_upper and has_upper_bonus:
                yield self.upper
                yield self.bonus
        if self.rules.five_equal_bonus:
            yield self.five_equal
        yield self.total

    def show(self, state: SheetState, selected: str | None) -> None:
        rules, current = self.rules, state.current_player
        options = {} if state.is_chance or current is None else {o.box: o for o in state.score_options()}
        heads = [("▸" if seat == current else " ") + self.session.short_name(seat, self.cell_width - 2)
                 for seat in range(len(state.sheets))]
        self.head.update(self._line("", heads))
        for index, (box, row) in enumerate(self.rows.items()):
            cells = []
            for seat, sheet in enumerate(state.sheets):
                points = sheet.boxes[index]
                option = options.get(box) if seat == current else None
                if points is not None:
                    cells.append(str(points))
                elif option is not None:
                    cells.append(f"({option.points}+{option.bonus})" if option.bonus else f"({option.points})")
                else:
                    cells.append("·")
            marker = "▶ " if box == selected else "  "
            row.update(self._line(self.labels[box], cells, marker))
            row.set_class(box in options, "-open")
            row.set_class(box == selected, "-selected")
        threshold = rules.upper_bonus_threshold
        self.upper.update(self._line(self.upper_label, [f"{upper_total(rules, s)}/{threshold}" for s in state.sheets]))
        self.bonus.update(self._line(self.bonus_label, [str(upper_bonus(rules, s)) for s in state.sheets]))
        self.five_equal.update(self._line(self.five_equal_label, [str(s.bonus) for s in state.sheets]))
        self.total.update(self._line(self.total_label, [str(total) for total in state.scores()]))

    def _line(self, label: str, cells: list[str], marker: str = "  ") -> str:
        return f"{marker}{label:<{self.label_width - 2}}" + "".join(f"{cell:>{self.cell_width}}" for cell in cells)


class FamilyTable:
    def __init__(self, session: PlaySession, app: PlayApp) -> None:
        self.session = session
        self.app = app
        self.texts: Texts = session.texts
        self.words = sheet_words(self.texts, session.state.game)
        t = self.texts.t
        self.holding: set[int] = set()
        self.selected: str | None = None
        self.timers: list[Timer] = []
        self.seconds_left = 0
        self.board = SheetBoard(session, lambda box: app.action_table("select", box))
        self.dice = DiceRow(lambda index: app.action_table("toggle", index),
                            lambda values: self.texts.t("Held: {dice}", dice=values))
        self.roll_button = action_button(t("Roll"), "roll", "app.table('roll')")
        self.score_button = action_button(t("Score"), "score", "app.table('score')")
        self.hint_button = action_button(t("Hint"), "hint", "app.hint")
        self.countdown = Static("", markup=False, id="countdown")
        self.turn = Static("", markup=False, id="turn")
        self.controls = Vertical(
            self.turn,
            self.dice,
            Horizontal(self.roll_button, self.score_button, self.hint_button, id="buttons"),
            self.countdown,
            id="controls",
        )

    def keys(self) -> list[Key]:
        t = self.texts.t
        dice = [Key(str(n), "toggle", n - 1) for n in range(1, DICE_COUNT + 1)]
        dice[0] = Key("1", "toggle", 0, t("Hold"), f"1-{DICE_COUNT}")
        return [
            *dice,
            Key("r", "roll", None, t("Roll")),
            Key("down", "move", 1, self.words.box, "↑↓"),
            Key("up", "move", -1),
            Key("enter", "score", None, t("Score")),
        ]

    @property
    def state(self) -> SheetState:
        state: SheetState = self.session.state
        return state

    # -- drawing ------------------------------------------------------------------------------

    def show(self) -> None:
        state, texts, human = self.state, self.texts, self.session.human_to_move
        if not state.dice or not human:
            self.holding.clear()
            self.selected = None
        held = sorted(self.holding) if human and not state.is_chance else list(state.held)
        self.dice.show(state.dice, held)
        self.board.show(state, self.selected)
        self.turn.update("" if state.is_over else texts.tn("{n} roll left", "{n} rolls left", state.rolls_left))
        turn_start = state.is_chance and not state.held
        relabel(self.roll_button, texts.t("Roll") if turn_start or state.is_over else texts.t("Roll again"))
        can_roll = state.is_chance or (state.rolls_left > 0 and len(self.holding) < DICE_COUNT)
        self.roll_button.set_class(not (human and can_roll), "-unavailable")
        self.score_button.set_class(not human or self.selected is None, "-unavailable")
        self.hint_button.set_class(not human or state.is_chance, "-unavailable")

    def ready(self) -> None:
        state, t, session = self.state, self.texts.t, self.session
        name = session.name(state.current)
        if state.is_chance:
            self.app.say(t("{name}, roll the dice", name=name) if session.humans > 1 else t("Roll the dice"))
        elif state.no_open_box_scores():
            self.app.say(self.words.must_sacrifice, warning=True)
        elif session.must_score:
            self.app.say(self.words.last_roll)
        else:
            self.app.say(self.words.hold_or_choose)
        self._start_countdown()

    def idle(self) -> None:
        self._stop_countdown()

    # -- the player's gestures ---------------------------------------------------------------

    def do_toggle(self, index: int) -> None:
        state = self.state
        if state.is_chance:
            raise IllegalAction("roll_first")
        if state.rolls_left == 0:
            raise IllegalAction("no_rolls_left")
        self.holding ^= {index}
        self.show()

    def do_roll(self) -> None:
        if self.state.is_chance:
            self.app.perform(self.session.roll)
        else:
            held = tuple(sorted(self.holding))
            self.app.perform(lambda: self.session.act(Keep(held)))

    def do_select(self, box: str) -> None:
        """A click on a box: choose it, or drop the choice when it was chosen."""
        self._choose(None if box == self.selected else box)

    def do_move(self, step: int) -> None:
        """↑↓: the previous or next box that can be scored."""
        boxes = self._legal_boxes()
        if self.selected in boxes:
            position = (boxes.index(self.selected) + step) % len(boxes)
        else:
            position = 0 if step > 0 else len(boxes) - 1
        self._choose(boxes[position])

    def do_score(self) -> None:
        box = self.selected
        if box is None:
            self._legal_boxes()  # refuses before the roll
            self.app.say(self.words.choose_box_first, warning=True)
            return
        self.app.perform(lambda: self.session.act(Score(box)))

    def take_over(self, old: FamilyTable) -> None:
        self.holding, self.selected = old.holding, old.selected

    def take_hint(self, option: HintOption) -> None:
        if isinstance(option.action, Keep):
            self.holding = set(option.action.held)
            self.show()
        elif isinstance(option.action, Score):
            self._choose(option.action.box)

    def cancel(self) -> bool:
        if self.selected is None:
            return False
        self._choose(None)
        return True

    def _choose(self, box: str | None) -> None:
        if box is not None and box not in self._legal_boxes():
            self.state.apply(Score(box))  # the engine says why not (a used box, the joker rule...)
        self.selected = box
        self.show()
        if box is None:
            self._start_countdown()
        else:
            self._stop_countdown()
            option = next(o for o in self.state.score_options() if o.box == box)
            points = option.points + option.bonus
            self.app.say(self.texts.tn("{box}: {points} point", "{box}: {points} points", points,
                                       box=self.texts.box(self.state.game, box), points=points)
                         + " · " + self.texts.t("Enter to score it, Escape to choose again"))

    def _legal_boxes(self) -> list[str]:
        if self.state.is_chance:
            raise IllegalAction("roll_first")
        return [option.box for option in self.state.score_options()]

    # -- the auto-score --------------------------------------------------------------------------

    def _start_countdown(self) -> None:
        seconds = self.app.auto_score_seconds
        self._stop_countdown()
        if not seconds or self.selected is not None or not self.session.must_score:
            return
        self.seconds_left = math.ceil(seconds)
        self.timers = [self.app.set_timer(seconds, self._auto_score), self.app.set_interval(1, self._tick)]
        self._show_countdown()

    def _tick(self) -> None:
        self.seconds_left = max(1, self.seconds_left - 1)
        self._show_countdown()

    def _show_countdown(self) -> None:
        self.countdown.update(self.texts.t("The computer scores for you in {n}…", n=self.seconds_left))

    def _stop_countdown(self) -> None:
        for timer in self.timers:
            timer.stop()
        self.timers = []
        self.countdown.update("")

    def _auto_score(self) -> None:
        self._stop_countdown()
        session = self.session
        if session.human_to_move and session.must_score:
            action = session.auto_action()
            self.app.perform(lambda: [lambda: self.texts.t("The computer scores for you"), *session.act(action)])

