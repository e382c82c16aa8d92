"""Each change of a game (web/changes.py, web/seat_changes.py) refuses what it must and then changes
nothing, in memory or stored: made on the in-process app's event loop through the one change path,
`Games.change`. Human seats only, or refusals made before any wait for the solver's tables: no test
here needs a table."""

from __future__ import annotations

from datetime import timedelta

import pytest

from cubilete.engine.errors import CubileteError, IllegalAction, NotYourTurn
from cubilete.web.catch_up import StaleRequest
from cubilete.web.changes import BotsTurn, Change, ClockTurn, Move, Rematch
from cubilete.web.seat_changes import Claim, HandToBot, Join
from cubilete.web.seats import SeatRefused, SeatTaken, seat_token

ANA, LUIS = {"name": "Ana", "kind": "human"}, {"name": "Luis", "kind": "human"}
FRIEND = {"name": "Bea", "kind": "human", "invited": True}
BOT = {"name": "Bot", "kind": "bot", "level": "duel"}  # its tables take minutes: never built here
ROLL = {"type": "roll"}


class NeverReady:
    """Solver tables that are never ready: a change that waits for them fails the test."""

    async def ready(self, rules, levels=()):
        raise AssertionError("the change waited for the solver's tables")


def create(client, *players, **extra) -> dict:
    response = client.post("/api/games", json={"game": "penta", "players": list(players), **extra})
    assert response.status_code == 201, response.text
    return response.json()


def change(client, game_id: str, made: Change):
    """Make the change on the app's event loop, as a route does; answers the game."""
    return client.portal.call(client.app.state.services.games.change, game_id, made)


def snapshot(client, game_id: str) -> tuple:
    """The game as stored (its events, its seats and their version) and as served."""
    storage = client.app.state.services.games.storage
    served = client.get(f"/api/games/{game_id}").json()
    if served["clock"] is not None:
        del served["clock"]["now"]  # the server's time as it answered
    return storage.events_since(game_id, 0), storage.seats(game_id), served


def refused(client, game_id: str, made: Change, error: type[CubileteError], code: str) -> None:
    """The change is refused with `code`, and the game is as it was."""
    before = snapshot(client, game_id)
    with pytest.raises(error) as refusal:
        change(client, game_id, made)
    assert refusal.value.code == code
    assert snapshot(client, game_id) == before


def token(created: dict, seat: int) -> str:
    return created["seats"][seat]["token"]


def test_a_move_is_made_and_stored_only_with_its_seats_token_at_the_games_moment_on_its_turn(client):
    created = create(client, ANA, LUIS)
    game_id = created["id"]
    refused(client, game_id, Move(0, token(created, 1), ROLL, 0), SeatRefused, "wrong_token")
    refused(client, game_id, Move(1, token(created, 1), ROLL, 0), NotYourTurn, "not_your_turn")  # refused by `apply`
    refused(client, game_id, Move(0, token(created, 0), ROLL, 3), StaleRequest, "stale_request")
    live = change(client, game_id, Move(0, token(created, 0), ROLL, 0))
    assert len(live.match.events) == 1 and len(snapshot(client, game_id)[0]) == 1
    refused(client, game_id, Move(0, token(created, 0), ROLL, 0), StaleRequest, "stale_request")


def test_a_move_or_the_bots_turn_for_another_seat_is_refused_before_waiting_for_tables(client):
    client.app.state.services.games.tables = NeverReady()
    created = create(client, ANA, BOT)
    game_id = created["id"]
    refused(client, game_id, Move(0, "guess", ROLL, 0), SeatRefused, "wrong_token")
    refused(client, game_id, BotsTurn(0, "guess"), SeatRefused, "wrong_token")
    refused(client, game_id, BotsTurn(1, token(created, 0)), SeatRefused, "bot_seat")


def test_the_clocks_turn_is_refused_while_time_is_left_without_a_clock_or_for_another_moment(client):
    client.app.state.services.games.tables = NeverReady()
    timed, plain = create(client, ANA, LUIS, turn_clock=30), create(client, ANA, LUIS)
    refused(client, plain["id"], ClockTurn(0), IllegalAction, "no_turn_clock")
    refused(client, timed["id"], ClockTurn(0), IllegalAction, "no_turn_clock")  # none before the first move
    change(client, timed["id"], Move(0, token(timed, 0), ROLL, 0))
    refused(client, timed["id"], ClockTurn(1), IllegalAction, "clock_running")
    games = client.app.state.services.games
    later = games.now() + timedelta(seconds=60)
    games.now = lambda: later  # the clock ran out, but the game moved on since the browser's `at`
    refused(client, timed["id"], ClockTurn(0), StaleRequest, "stale_request")


def test_a_seat_change_is_refused_on_a_taken_seat_or_without_its_token(client):
    client.app.state.services.games.tables = NeverReady()
    public, private = create(client, ANA, FRIEND, public=True), create(client, ANA, FRIEND)
    joined = seat_token(None, public["id"], 1)
    refused(client, public["id"], Join(0, "Carla", joined), SeatTaken, "seat_taken")
    refused(client, private["id"], Join(1, "Carla", joined), SeatRefused, "game_not_open")
    refused(client, public["id"], HandToBot(0, "guess", leave=True), SeatRefused, "wrong_token")
    refused(client, private["id"], Claim(1, "guess", seat_token(None, private["id"], 1)), SeatRefused, "wrong_invite")
    live = change(client, public["id"], Join(1, "Carla", joined))
    live.check_seat(1, joined)  # the joiner's token is the seat's now, and stored with it
    assert snapshot(client, public["id"])[1][1] == 1
    refused(client, public["id"], Join(1, "Dani", seat_token(None, public["id"], 1)), SeatTaken, "seat_taken")
    refused(client, public["id"], Claim(1, public["seats"][1]["invite"], "t"), SeatTaken, "invite_claimed")


def test_a_rematch_is_refused_before_the_end_or_without_a_seats_token(client):
    created = create(client, ANA, LUIS)
    refused(client, created["id"], Rematch(0, token(created, 0)), IllegalAction, "rematch_not_over")
    refused(client, created["id"], Rematch(0, token(created, 1)), SeatRefused, "wrong_token")
    refused(client, created["id"], Rematch(None, None), SeatRefused, "seat_range")
