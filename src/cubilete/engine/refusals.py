"""Every refusal the engine and the apps can give: a stable code and its English template.

An error carries a code and parameters (`IllegalAction("box_used", game="penta", box="chance")`);
the English text is this table's template filled with the parameters, and the apps translate
the same code into the player's language (translations.py). Parameters are plain JSON values;
a list is shown as its items separated by commas. Parameters that name things with a
translation (game, box, rules, level, and their plurals) keep the stable id.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .game_words import COMMON_WORDS, GameWords, game_words

REFUSALS: dict[str, str] = {
    # -- records and command lines ---------------------------------------------------
    "invalid_record": "not a valid {what}: {detail}",
    "command_line": "{message}",
    "not_an_integer": "{what} must be an integer, not {value}",
    "below_minimum": "{what} must be at least {low}, not {value}",
    "out_of_range": "{what} must be between {low} and {high}, not {value}",
    "turn_start_dice": "a turn starts by rolling all {dice} dice: with 0 turn points dice_left is {dice}, not {dice_left}",
    "score_below_entry": "no game reaches seat {seat}'s score of {score}: a player enters the game with at least {entry} points",
    "equal_scores": "no game reaches seats {first} and {second} both at {score}: reaching a player's score knocks that player out",
    # -- games, rule sets, players -----------------------------------------------------
    "unknown_game": "unknown game '{game}'; cubilete plays {games}",
    "unknown_rules": "{game} has no rule set '{rules}'; choose one of {rule_sets}",
    "rules_switch_twice": "{game}: {rule_sets} set the same rule; keep one of them",
    "unknown_level": "no {game} player level '{level}'; choose one of {levels}",
    "unknown_level_typed": "no {game} player level '{typed}'; write one of {words}",  # as typed, not a level's name
    "unknown_rules_typed": "{game} has no rule set '{rules}'; write one of {words}, or a rule set's name in any language: {rule_sets}",
    "unknown_language": "no rules in '{lang}'; choose one of {languages}",
    "player_count": "{game} is played by {low} to {high} players: the number of players cannot be {count}",
    # -- dice --------------------------------------------------------------------------
    "dice_count": "expected {expected} dice, got {count}",
    "die_face": "a die shows 1 to 6, not {value}",
    "roll_size": "can roll 0 to {most} dice, not {count}",
    "too_many_dice": "a roll has at most {most} dice, not {count}",
    "die_position": "die position {position} is not one of 0 to {last}",
    "die_positions": "die positions are 0 to {last}, not {positions}",
    # -- turns -------------------------------------------------------------------------
    "game_over": "the game is over",
    "not_seat_turn": "it is seat {number}'s turn, not seat {asked_number}'s",
    "not_your_turn": "it is {name}'s turn",
    "roll_first": "roll the dice first",
    "no_roll_pending": "no roll is pending",
    "no_roll_pending_keep_or_score": "no roll is pending: choose dice to keep or a box to score",
    "no_roll_pending_roll_or_bank": "no roll is pending: roll again or bank",
    "wrong_action": "{action} is not an action of {game}",
    # -- score-sheet games ---------------------------------------------------------------
    "cannot_keep": "cannot keep {values}: the dice are {dice}",
    "no_rolls_left": "no rolls left this turn: choose a box to score",
    "held_twice": "a die can be held only once",
    "hold_all": "holding all five dice rolls nothing: choose a box to score",
    "unknown_box": "{game} has no box '{box}'; its boxes are {boxes}",
    "box_used": "the box {box} is already used",
    "joker_forces": "the joker rule forces this roll into: {boxes}",
    "sheet_full": "every box of this sheet is filled: the game is over",
    "rolls_left_range": "rolls_left is 0 to {last}, not {value}",
    "advice_needs_dice": "the dice must be rolled before any advice",
    # -- 5000 ----------------------------------------------------------------------------
    "must_roll_points": "you must roll again: your turn's points end in {rest}",
    "must_roll_entry": "you are not in the game yet: you need {entry} points in one turn to bank",
    "set_aside_first": "choose which scoring dice to set aside first",
    "already_set_aside": "the scoring dice are already set aside: roll again or bank",
    "set_aside_scoring": "set aside a non-empty group of dice that all score together in this roll",
    "set_aside_twice": "a die can be set aside only once, got positions {positions}",
    # -- the command line ----------------------------------------------------------------
    "unknown_command": "unknown command '{command}': {help}",
    "dice_numbered": "the dice are numbered 1 to {last}, not '{text}'",
    "dice_text": "dice are numbers 1 to 6 separated by commas, not '{text}'",
    "nothing_to_score": "every box of this sheet is filled: nothing can be scored",
    "roll_dice_count": "a {game} roll has 1 to {most} dice, not {count}",
    "seat_without_name": "seat {seat} of '{text}' has no name: give every human player a name, or write bot:LEVEL for a computer player",
    # -- the web app -----------------------------------------------------------------------
    "game_not_found": "there is no game '{id}'",
    "seat_range": "this game has seats 0 to {last}, not {seat}",
    "bot_seat": "seat {number} ({name}) is played by a bot",
    "wrong_token": "the token does not belong to seat {number} ({name})",
    "stale_request": "the game has moved on (event {events}, not {at}): reload it",
    "bot_level": "a {game} bot plays at one of the levels {levels}, not '{level}'",
    "auto_score_last_roll": "the computer scores for you only after the last roll of a turn",
    "rematch_not_over": "a rematch starts once the game is over",
    "record_not_over": "the game's record can be taken once the game is over: until then it holds the secret its dice come from",
    "hint_roll_first": "roll the dice first: a hint is about the dice on the table",
    "no_turn_clock": "this game has no turn clock",
    "clock_running": "the turn clock still has {seconds} s left",
    "game_not_open": "this game is not open to join: ask its players for an invite link",
    "seat_taken": "seat {number} was taken by someone else",
    "seat_unclaimed": "nobody has taken seat {number} ({name}) yet: its invite link gives it",
    "wrong_invite": "this is not the invite link of seat {number}",
    "invite_claimed": "seat {number} ({name}) has been taken: this invite link was already used",
    "push_subscription": "not a push subscription this server can use ({detail})",
    "push_service_not_allowed": "this server sends notifications only through the known push services, not to {endpoint}",
    "push_too_many": "too many notification subscriptions here already (at most {most})",
    "review_no_decision": "event {index} is not a decision made so far (the game has {events} events)",
    "record_too_many_seats": "a player's record is built from at most {most} seats at once, not {count}",
    "hints_off": "hints and win chances are off in this game: a game with friends has them only if its creator allowed them",
    "chances_ahead": "the game has {events} events so far, not {at}",
    "daily_secret": "this daily challenge stays its player's own until the day ends ({ends_at}): open it from the seat that plays it",
    "daily_already_started": "you already started today's {game} challenge: one ranked try per day; continue it from your games",
    "daily_not_finished": "the others' choices are shown once your daily challenge is finished",
    "daily_not_a_try": "game {id} is no ranked try of a daily {game} challenge",
    "daily_no_rematch": "a daily challenge has no rematch: come back tomorrow for new dice",
    "daily_seat_kept": "a daily challenge is played to its end by its player: the seat cannot be handed to the computer",
    # -- web requests that are not what the API expects (HTTP 422) ----------------------------
    "blank_name": "Every player needs a name",
    "name_too_long": "A player's name has at most {most} characters",
    "players_count": "A game has {low} to {high} players",
    "player_kind": "A player is a human or a bot",
    "bad_seed": "The dice seed is a whole number from 0 to {most}",
    "language_choice": "The language is one of {languages}",
    "bad_json": "The request is not valid JSON (at character {position})",
    "invalid_request": "The request is not valid: {detail}",
    # -- web requests whose body cannot be read --------------------------------------------
    "body_too_large": "the request body is larger than {most} KB",
    "body_too_slow": "the request body did not arrive within {seconds} s",
    "body_cut_short": "the client left before sending the whole body",
    "body_unreadable": "the request body cannot be read: it is not UTF-8 text, or is nested too deeply",
    "nul_character": "the request holds a NUL character, which no text here may hold",
    "head_too_large": "the request's line and headers are larger than {most} KB",
    "save_failed": "could not save the move, try again",
    "new_game_not_saved": "could not save the new game, try again",
    "database_unavailable": "the games' database is not answering: try again in a few seconds",
    "database_read_only": "the games' database takes no writes: no move could be saved (is its file owned by the server's user?)",
    "tables_over_budget": "the server has no room now for the computer's tables these rules need: try again in {minutes} minutes",
    "server_stopping": "the server is stopping: try again in a moment",
    "stale": "another move was made at the same moment: reload the game",
    "too_many_requests": "too many requests of this kind from your address: try again in {seconds} s",
    "seed_one_human": "a dice seed can be chosen only in a game with one human seat (alone, or against bots)",
    # -- a server that cannot start, or is not ready to serve ---------------------------
    "data_dir_unwritable": "cannot make the data directory {path}: {reason} (give --database a URL, or set STATE_DIRECTORY)",
    "database_unusable": "cannot use the database {url}: {reason}",
    "database_not_migrated": (
        "the database {url} is at migration {current}, this release needs {newest}: stop the older release's"
        " processes, then `cubilete admin migrate` (or start `cubilete serve`) brings it forward"
    ),
    "broker_unreachable": "cannot reach the broker {url}: {reason}",
    "broker_unavailable": "the broker (Redis) does not answer",
    "foreign_message_version": (
        "another cubilete process of this install speaks messages v{theirs} (cubilete {release}, process {pid} on"
        " {host}), which this one (messages v{ours}, cubilete {version}) neither reads nor is read by: stop it"
        " first (a process that died is forgotten within {seconds} s), or upgrade through a release whose"
        " messages are one version apart (docs/hosting.md, Upgrades)"
    ),
    # -- backups -------------------------------------------------------------------------
    "backup_needs_sqlite": "cubilete backup copies SQLite databases; back up PostgreSQL with pg_dump (docs/hosting.md)",
    "backup_exists": "{path} already exists: give the backup a new file name",
    "backup_failed": "cannot back up {url} to {path}: {reason}",
    "restore_needs_sqlite": "cubilete restore copies into SQLite databases; restore PostgreSQL with pg_restore into a new database (docs/hosting.md)",
    "restore_not_a_backup": "{path} is not a backup of cubilete's games",
    "restore_failed": "cannot restore {path} into {url}: {reason}",
    # -- who may use a server (its host's choice) -------------------------------------------
    "creation_password_needed": "This server asks its password to create a game: ask its host for it",
    "creation_password_wrong": "That is not this server's password: check it, or ask its host for it",
    "profile_password_needed": "This server asks its password to make a profile: write it in the new game's password field, or ask its host for it",
    "open_tables_off": "This server lists no open tables: invite your friends with their links instead",
    "correspondence_games_too_many": "you already have {most} unfinished games with days per turn on this server: finish one before starting another",
    "metrics_refused": "this server's figures are for its host: ask with its metrics token",
    # -- players' reactions to the table ------------------------------------------------------
    "unknown_reaction": "there is no reaction '{reaction}'; choose one of {reactions}",
    "reaction_too_soon": "one reaction at a time: try again in {seconds} s",
    # -- profiles and passkeys ------------------------------------------------------------
    "name_taken": "the name {name} is already taken on this server: choose another",
    "profile_needed": "sign in to your profile first: this device's profile key or recovery code is not valid",
    "profile_not_found": "no profile is called {name} on this server",
    "profile_seat_kind": "a seat kept for a profile is a player's seat, not the computer's",
    "profile_seat_stranger": "you have not played with {name} on this server yet: send them an invite link instead",
    "passkey_expired": "the passkey request expired or was already used: try again",
    "passkey_unknown": "this passkey belongs to no profile on this server",
    "passkey_refused": "this passkey could not be checked: try again, or sign in with your recovery code",
    "device_not_found": "your profile has no device {device}",
    "passkey_known": "this passkey is already kept on this server",
    "passkey_host": "a passkey needs the server's host name, and this request's address has none: open the app at its usual address",
    "name_look_alike": "the name {name} looks like a name already taken on this server: choose another",
    "name_characters": "a profile name may not hold invisible or control characters, nor /",
}


def game_worded(code: str, params: Mapping[str, Any]) -> GameWords | None:
    """The words of the game that words this refusal its own way (its `game` parameter), if any."""
    game = params.get("game")
    words = game_words(game) if isinstance(game, str) else COMMON_WORDS
    return words if code in words.refusals else None


def template(code: str, params: Mapping[str, Any]) -> str:
    """The refusal's English template: its game's own (engine/game_words.py), else the common one."""
    words = game_worded(code, params)
    return REFUSALS[code] if words is None else words.refusals[code]


def plain(value: Any) -> str:
    """A parameter as text: a list shows its items separated by commas."""
    if isinstance(value, (list, tuple)):
        return ", ".join(plain(item) for item in value)
    return str(value)


def english(code: str, params: Mapping[str, Any]) -> str:
    """The English text of a refusal; an unknown code is a programming error (KeyError)."""
    return template(code, params).format(**{name: plain(value) for name, value in params.items()})


@dataclass(frozen=True)
class Refusal:
    """A reason given as data (code and parameters), for states that explain a refusal ahead."""

    code: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def __str__(self) -> str:
        return english(self.code, self.params)
