"""`cubilete play` in a terminal: a Textual app around a PlaySession.

The family's table (tui/sheet.py, tui/five_thousand.py) draws the board and the dice and acts on
the keys; the app runs the turns (bots at a readable pace), says each step in the message line
and the log, and shows the hint.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from textual.app import App, ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Footer, Header, OptionList, Static
from textual.widgets.option_list import Option

from ...engine.errors import CubileteError
from ...rules_texts import LANGUAGES
from ..families.hints import HintOption
from ..play_session import PlaySession, Told
from . import make_table
from .widgets import MoveLog

LOG_LINES = 200
BOT_PACE_SECONDS = 0.7  # between a bot's steps, as the web app's default pace
SIDE_WIDTH = 37  # the five dice and the padding; a narrower terminal shows them under the board


class PlayApp(App[None]):
    ENABLE_COMMAND_PALETTE = False
    AUTO_FOCUS = None  # the keys are the game's; only the hint list takes the focus, while it is shown
    CSS = """
    #main { height: 1fr; }
    #main.-stacked { layout: vertical; overflow-y: auto; }
    #board { width: auto; padding: 0 1; }
    #side { width: 1fr; padding: 0 1; }
    #main.-stacked #side { height: auto; }
    #status { text-style: bold; height: 1; }
    #prompt { height: auto; min-height: 1; margin: 1 0 0 0; }
    #prompt.-warning { color: $warning; text-style: bold; }
    #controls { height: auto; }
    #buttons { height: auto; margin: 0 0 1 0; }
    #buttons > Button { margin-right: 1; min-width: 0; }
    #buttons > Button.-unavailable { text-style: dim; }
    #hints, #hints:focus { height: auto; max-height: 8; display: none; border: none; }  /* no border: room for the log at 80x24 */
    #hints.-shown { display: block; }
    #log { height: 1fr; min-height: 4; border-top: solid $foreground 30%; }
    """

    def __init__(
        self, session: PlaySession, auto_score_seconds: float = 3.0, bot_pace_seconds: float = BOT_PACE_SECONDS
    ) -> None:
        super().__init__()
        self.session = session
        self.texts = session.texts
        self.auto_score_seconds = auto_score_seconds
        self.bot_pace_seconds = bot_pace_seconds
        self.hint_options: list[HintOption] = []
        self.said = ("", False)  # the prompt's message and whether it warns
        self.said_before_hint = self.said  # said again when the hint list closes
        self.told: list[Told] = []  # the log's steps, said again when the language changes
        self.standings_told = False
        self.table = make_table(session, self)
        self.class_bindings = self._bindings.copy()
        self.bind_keys()

    def bind_keys(self) -> None:
        """The table's keys and the app's, described in the player's language. App.bind adds and
        never replaces, so a language switch starts again from the app class's own bindings."""
        self._bindings = self.class_bindings.copy()
        t = self.texts.t
        for key in self.table.keys():
            self.bind(key.key, f"table({key.action!r}, {key.argument!r})", description=key.description,
                      show=bool(key.description), key_display=key.display)
        self.bind("h", "hint", description=t("Hint"))
        self.bind("l", "language", description=t("Language"))
        self.bind("escape", "cancel", show=False)
        self.bind("q", "quit", description=t("Quit"))
        self.refresh_bindings()

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="main"):
            yield self.table.board
            with Vertical(id="side"):
                yield Static("", markup=False, id="status")
                yield self.table.controls
                yield Static("", markup=False, id="prompt")
                yield OptionList(markup=False, id="hints")
                yield MoveLog(LOG_LINES, id="log")
        yield Footer()

    def on_mount(self) -> None:
        self.name_game()
        self.advance()
        self.call_after_refresh(self.fit)

    def name_game(self) -> None:
        rules, texts = self.session.rules, self.texts
        self.title = f"{texts.game(rules.game)} ({texts.rules(rules.game, rules.name)})"
        self.sub_title = texts.t("seed {seed}", seed=self.session.match.seed)

    async def action_language(self) -> None:
        """The next language (es, id, en): the table and the log are drawn again in it, with the player's picks."""
        self.texts.lang = LANGUAGES[(LANGUAGES.index(self.texts.lang) + 1) % len(LANGUAGES)]
        old, self.table = self.table, make_table(self.session, self)
        old.idle()
        self.table.take_over(old)
        await old.board.remove()
        await old.controls.remove()
        await self.query_one("#main").mount(self.table.board, before="#side")
        await self.query_one("#side").mount(self.table.controls, after="#status")
        self.query_one("#log", MoveLog).show([told() for told in self.told])
        self.bind_keys()
        self.name_game()
        self.advance()
        self.call_after_refresh(self.fit)

    def on_resize(self) -> None:
        self.call_after_refresh(self.fit)

    def fit(self) -> None:
        """The dice beside the board when the terminal is wide enough, else under it."""
        board = self.table.board.outer_size.width
        self.query_one("#main").set_class(self.size.width < board + SIDE_WIDTH, "-stacked")

    # -- the turns ------------------------------------------------------------------------

    def advance(self) -> None:
        """Draw the new state, then wait for the human to move or let the bot to move play."""
        session, t = self.session, self.texts.t
        self.hide_hints()
        self.table.show()
        seat = session.seat_to_move
        if seat is None:
            self.query_one("#status", Static).update(t("Game over"))
            if not self.standings_told:  # once: a redraw in another language rewrites the log's lines
                self.standings_told = True
                for line in range(len(session.seats)):
                    self.tell(partial(self.standing, line))
            self.say(t("Game over") + ". " + t("Press q to quit"))
        elif session.human_to_move:
            turn = t("Your turn") if session.is_you(seat) else t("{name}'s turn", name=session.name(seat))
            self.query_one("#status", Static).update(turn)
            self.table.ready()
        else:
            self.query_one("#status", Static).update(t("{name} is playing", name=session.name(seat)))
            self.say("")
            if self.bot_pace_seconds:
                self.set_timer(self.bot_pace_seconds, self.bot_step_after(len(session.match.events)))
            else:
                self.call_later(self.bot_step_after(len(session.match.events)))

    def standing(self, line: int) -> str:
        return self.session.standings()[line]

    def bot_step_after(self, events: int) -> Callable[[], None]:
        """The bot's next step, taken only if nothing else was played meanwhile (a redraw in another
        language asks again)."""

        def step() -> None:
            if len(self.session.match.events) == events:
                self.perform(self.session.bot_step)

        return step

    def perform(self, step: Callable[[], Told | list[Told]]) -> bool:
        """Run a step of the game and tell it; a refusal is said and changes nothing."""
        try:
            told = step()
        except CubileteError as error:
            self.say(self.texts.refusal(error), warning=True)
            return False
        self.table.idle()
        for line in told if isinstance(told, list) else [told]:
            self.tell(line)
        self.advance()
        return True

    def say(self, message: str, warning: bool = False) -> None:
        """The prompt: what the player can do, or why not (a warning)."""
        self.said = (message, warning)
        line = self.query_one("#prompt", Static)
        line.update(message)
        line.set_class(warning, "-warning")

    def tell(self, step: Told) -> None:
        """A step of the game, into the log (its last lines stay in sight under the prompt)."""
        self.told = [*self.told[1 - LOG_LINES :], step]
        self.query_one("#log", MoveLog).write_line(step())

    # -- the keys -------------------------------------------------------------------------

    def action_table(self, action: str, argument: int | str | None = None) -> None:
        """A key, a button or a click of the family's table: only for the human to move."""
        if not self._human_may_act():
            return
        try:
            method = getattr(self.table, f"do_{action}")
            method() if argument is None else method(argument)
        except CubileteError as error:
            self.say(self.texts.refusal(error), warning=True)

    def action_hint(self) -> None:
        """Show the best choices (or hide them); one is taken with Enter or a click."""
        hints = self.query_one("#hints", OptionList)
        if hints.has_class("-shown"):
            self.hide_hints()
            return
        if not self._human_may_act():
            return
        try:
            hint = self.session.hint()
        except CubileteError as error:
            self.say(self.texts.refusal(error), warning=True)
            return
        self.hint_options = list(hint.options)
        hints.clear_options()
        hints.add_options(
            Option(f"{number}. {option.text}", id=f"hint-{number}", disabled=not option.preselect)
            for number, option in enumerate(hint.options, start=1)
        )
        hints.highlighted = 0
        hints.add_class("-shown")
        hints.focus()
        self.said_before_hint = self.said
        self.say(hint.title + " · " + self.texts.t("Enter or a click takes a choice, Escape closes"))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        option = self.hint_options[event.option_index]
        self.hide_hints()
        if self._human_may_act():
            self.table.take_hint(option)

    def hide_hints(self) -> None:
        hints = self.query_one("#hints", OptionList)
        if hints.has_class("-shown"):
            hints.remove_class("-shown")
            self.set_focus(None)
            self.say(*self.said_before_hint)  # the list's help line goes with it

    def action_cancel(self) -> None:
        hints = self.query_one("#hints", OptionList)
        if hints.has_class("-shown"):
            self.hide_hints()
        elif self.session.human_to_move:
            self.table.cancel()

    def _human_may_act(self) -> bool:
        session = self.session
        if session.human_to_move:
            return True
        seat = session.seat_to_move
        if seat is None:
            self.say(self.texts.t("Game over"), warning=True)
        else:
            self.say(self.texts.t("{name} is playing", name=session.name(seat)), warning=True)
        return False
