"""5000 in the app: every seat's score on the way to the target, the turn's points, the last
roll with its scoring dice marked, and roll or bank (with free set-aside, the dice to keep first).

Keys: r rolls, b banks; with free set-aside, 1-5 (or a click) choose the scoring dice and s sets
them aside.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Static

from ...engine.actions import Bank, Roll, SetAside
from ...engine.dice import DICE_COUNT
from ...engine.errors import IllegalAction
from ...engine.events import ActionEvent
from ...engine.five_thousand import FiveThousandState, Phase, score_roll
from ..families.hints import HintOption
from .keys import Key
from .widgets import DiceRow, action_button, relabel

if TYPE_CHECKING:
    from ..play_session import PlaySession
    from .app import PlayApp

BAR_WIDTH = 8  # with the longest name and word, the scores and the dice fit in 80 columns
NAME_WIDTH = 12


class ScoresBoard(Vertical):
    DEFAULT_CSS = """
    ScoresBoard { width: auto; height: auto; }
    ScoresBoard > Static { width: auto; }
    ScoresBoard > .seat.-current { text-style: bold; }
    """

    def __init__(self, session: PlaySession) -> None:
        super().__init__(id="board")
        self.texts = session.texts
        self.session = session
        self.head = Static("", markup=False, id="target")
        self.rows = [Static("", markup=False, classes="seat", id=f"seat-{seat}") for seat in range(len(session.seats))]

    def compose(self) -> ComposeResult:
        yield self.head
        yield from self.rows

    def show(self, state: FiveThousandState) -> None:
        target, t = state.rules.target, self.texts.t
        self.head.update(t("Target: {target}", target=target))
        words = {True: t("In"), False: t("Out")}
        word_width = max(map(len, words.values()))
        for seat, (row, score) in enumerate(zip(self.rows, state.scores())):
            filled = min(BAR_WIDTH, round(BAR_WIDTH * score / target))
            marker = "▸" if seat == state.current_player else " "
            row.update(f"{marker}{self.session.short_name(seat, NAME_WIDTH):<{NAME_WIDTH}} {words[score > 0]:<{word_width}} {score:>5} "
                       + "█" * filled + "░" * (BAR_WIDTH - filled))
            row.set_class(seat == state.current_player, "-current")


class FamilyTable:
    def __init__(self, session: PlaySession, app: PlayApp) -> None:
        self.session = session
        self.app = app
        self.texts = session.texts
        t = self.texts.t
        self.choosing: set[int] = set()
        self.board = ScoresBoard(session)
        self.turn = Static("", markup=False, id="turn")
        self.dice = DiceRow(lambda index: app.action_table("toggle", index),
                            lambda values: self.texts.t("To set aside: {dice}", dice=values))
        self.roll_button = action_button("", "roll", "app.table('roll')")
        self.bank_button = action_button("", "bank", "app.table('bank')")
        self.set_aside_button = action_button(t("Set aside"), "set-aside", "app.table('set_aside')")
        self.hint_button = action_button(t("Hint"), "hint", "app.hint")
        self.reason = Static("", markup=False, id="reason")
        self.controls = Vertical(
            self.turn,
            self.dice,
            Horizontal(self.roll_button, self.set_aside_button, self.bank_button, self.hint_button, id="buttons"),
            self.reason,
            id="controls",
        )

    def keys(self) -> list[Key]:
        t = self.texts.t
        keys = [Key("r", "roll", None, t("Roll")), Key("b", "bank", None, t("Bank"))]
        if self.state.rules.free_set_aside:
            dice = [Key(str(n), "toggle", n - 1) for n in range(1, DICE_COUNT + 1)]
            dice[0] = Key("1", "toggle", 0, t("Choose a die"), f"1-{DICE_COUNT}")
            keys += [*dice, Key("s", "set_aside", None, t("Set aside")), Key("enter", "set_aside")]
        return keys

    @property
    def state(self) -> FiveThousandState:
        state: FiveThousandState = self.session.state
        return state

    def show(self) -> None:
        state, texts, human = self.state, self.texts, self.session.human_to_move
        if state.phase is not Phase.SET_ASIDE or not human:
            self.choosing.clear()
        self.board.show(state)
        dice = texts.tn("One die to roll", "{n} dice to roll", state.dice_left)
        self.turn.update(f"{texts.t('This turn')}: {state.turn_points} · {dice}")
        start = state.phase is Phase.ROLL and state.turn_points == 0
        scoring = () if start or state.phase is Phase.SET_ASIDE else self._kept(state)
        self.dice.show(state.last_roll, sorted(self.choosing), scoring, stale=start)
        relabel(self.roll_button, texts.tn("Roll one die", "Roll {n} dice", state.dice_left))
        relabel(self.bank_button, texts.t("Bank {points}", points=state.turn_points) if state.turn_points else texts.t("Bank"))
        legal = state.legal_actions()
        self.roll_button.set_class(not human or not (state.is_chance or Roll() in legal), "-unavailable")
        self.bank_button.set_class(not human or Bank() not in legal, "-unavailable")
        self.set_aside_button.display = state.phase is Phase.SET_ASIDE
        self.hint_button.set_class(not human or state.is_chance, "-unavailable")
        reason = state.must_roll_reason() if state.phase is Phase.DECIDE else None
        self.reason.update(texts.refusal(reason) if human and reason else "")

    def _kept(self, state: FiveThousandState) -> tuple[int, ...]:
        """The dice of the last roll that scored: those set aside, with free set-aside."""
        event = self.session.match.events[-1]
        if isinstance(event, ActionEvent) and isinstance(event.action, SetAside):
            return event.action.held
        return score_roll(state.last_roll, state.rules).positions

    def ready(self) -> None:
        state, t, session = self.state, self.texts.t, self.session
        if state.phase is Phase.ROLL:
            name = session.name(state.current)
            self.app.say(t("{name}, roll the dice", name=name) if session.humans > 1 else t("Roll the dice"))
        elif state.phase is Phase.SET_ASIDE:
            self.app.say(t("Choose the scoring dice to set aside (1-5 or a click), then press s"))
        elif state.must_roll_reason():
            self.app.say(t("Roll again"))
        else:
            self.app.say(t("Bank your points or roll again"))

    def idle(self) -> None:
        """Nothing waits for the player in 5000."""

    def do_roll(self) -> None:
        session = self.session
        self.app.perform(session.roll if self.state.is_chance else lambda: session.act(Roll()))

    def do_bank(self) -> None:
        self.app.perform(lambda: self.session.act(Bank()))

    def do_toggle(self, index: int) -> None:
        state = self.state
        if state.phase is not Phase.SET_ASIDE:
            raise IllegalAction("roll_first" if state.is_chance else "already_set_aside")
        if index < len(state.last_roll):  # not a die set aside before this roll
            self.choosing ^= {index}
        self.show()

    def do_set_aside(self) -> None:
        held = tuple(sorted(self.choosing))
        self.app.perform(lambda: self.session.act(SetAside(held)))

    def take_over(self, old: FamilyTable) -> None:
        self.choosing = old.choosing

    def take_hint(self, option: HintOption) -> None:
        if isinstance(option.action, SetAside):
            self.choosing = set(option.action.held)
            self.show()

    def cancel(self) -> bool:
        had = bool(self.choosing)
        self.choosing.clear()
        self.show()
        return had

