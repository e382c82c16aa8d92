"""The rules engine: pure Python, frozen states, every rule of every game; the layers above ask it.

What a program that plays, records or checks games needs is importable from here; the modules
hold the rest. A two-player game of Penta with a chosen dice seed, its record, and its replay:

>>> from cubilete.engine import Keep, Match, Score, IllegalAction, rules_for, replay
>>> match = Match(rules_for("penta"), ["Ana", "Bo"], seed=42)
>>> match.roll().dice
(5, 6, 4, 4, 3)
>>> match.act(Keep((2, 3)), seat=0).is_chance
True
>>> match.roll().dice
(4, 6, 4, 4, 2)
>>> match.act(Score("fours")).scores()
(12, 0)
>>> try:
...     match.act(Score("fours"))
... except ValueError as refusal:  # every refusal of a value is also a ValueError
...     print(refusal.code, isinstance(refusal, IllegalAction))
roll_first True
>>> record = match.to_json()
>>> record["events"][1]
{'seat': 0, 'action': {'type': 'keep', 'held': [2, 3]}}
>>> Match.from_json(record).state == match.state == list(replay(match.initial, match.events))[-1]
True
"""

from .actions import Action, Bank, Keep, Roll, Score, SetAside, action_from_json, action_to_json
from .dice import Dice
from .errors import (
    CubileteError,
    IllegalAction,
    InvalidDice,
    InvalidRecord,
    NotYourTurn,
    UnknownBox,
    UnknownGame,
    UnknownVariant,
)
from .events import ActionEvent, Event, RollEvent, event_from_json, replay
from .five_thousand import FiveThousandState
from .five_thousand_scoring import FiveThousandRules
from .games import GAMES, Rules, game_info, new_state, rules_for, rules_from_json, state_from_json
from .protocol import GameState
from .runner import Match, Player, play
from .sheet import SheetState
from .sheet_rules import SheetRules

__all__ = [
    # rule sets and states
    "GAMES",
    "Rules",
    "SheetRules",
    "FiveThousandRules",
    "game_info",
    "rules_for",
    "rules_from_json",
    "GameState",
    "SheetState",
    "FiveThousandState",
    "Dice",
    "new_state",
    "state_from_json",
    # actions
    "Action",
    "Keep",
    "Score",
    "Roll",
    "Bank",
    "SetAside",
    "action_from_json",
    "action_to_json",
    # matches, records, events
    "Match",
    "Player",
    "play",
    "Event",
    "RollEvent",
    "ActionEvent",
    "event_from_json",
    "replay",
    # refusals
    "CubileteError",
    "IllegalAction",
    "NotYourTurn",
    "InvalidDice",
    "UnknownGame",
    "UnknownVariant",
    "InvalidRecord",
    "UnknownBox",
]
