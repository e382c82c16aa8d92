"""The live WebSocket under hostile browsers: what it reads is bounded and checked, and each refusal is a
close with a code and a reason; how many sockets follow one game or come from one address is bounded.
(A real `cubilete serve` process holds the same bounds: tests/web/test_web_connection_limits.py.)"""

from __future__ import annotations

from contextlib import ExitStack

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from cubilete.web import SocketLimits, create_app
from cubilete.web.live import BAD_REQUEST, GAME_FULL
from cubilete.web.socket_limits import MESSAGE_TOO_BIG, TOO_MANY

ANA = {"name": "Ana", "kind": "human"}


def new_game(client) -> str:
    response = client.post("/api/games", json={"game": "penta", "players": [ANA], "seed": 7})
    assert response.status_code == 201, response.text
    return response.json()["id"]


def closed_after_sending(client, game_id: str, send) -> WebSocketDisconnect:
    """The close the server answers a frame with."""
    with client.websocket_connect(f"/api/games/{game_id}/live") as socket:
        assert socket.receive_json()["events"] == 0
        send(socket)
        with pytest.raises(WebSocketDisconnect) as closed:
            socket.receive_json()
    return closed.value


@pytest.mark.parametrize(
    ("frame", "reason"),
    [
        ("hello", "not JSON"),
        ('{"since": Infinity}', "not JSON"),
        ('{"since": NaN}', "not JSON"),
        ('{"since": 1e400}', 'not {"since": n} with n a whole number'),
        ('{"since": 1.5}', 'not {"since": n} with n a whole number'),
        ('{"since": true}', 'not {"since": n} with n a whole number'),
        ('{"since": "0"}', 'not {"since": n} with n a whole number'),
        ("[0]", 'not {"since": n} with n a whole number'),
        ('{"type": "since", "since": 1.5}', 'not {"since": n} with n a whole number'),
        ('{"type": "visible", "visible": 0}', 'not {"visible": true} or {"visible": false}'),
        ('{"type": "seats", "seats": []}', 'not {"seats": {"0": token}} with a few seats'),
        ('{"type": "chat", "since": 0}', "a type is one of since, seats, visible"),
        ('{"type": ["since"], "since": 0}', "a type is one of since, seats, visible"),
        ('{"since": ' + "[" * 20_000 + "]" * 20_000 + "}", "nested too deeply"),
    ],
)
def test_a_frame_that_is_not_a_catch_up_request_closes_the_socket_with_a_reason(client, frame, reason):
    closed = closed_after_sending(client, new_game(client), lambda socket: socket.send_text(frame))
    assert (closed.code, closed.reason) == (BAD_REQUEST, reason)


def test_a_binary_frame_closes_the_socket(client):
    closed = closed_after_sending(client, new_game(client), lambda socket: socket.send_bytes(b'{"since": 0}'))
    assert closed.code == BAD_REQUEST and closed.reason.startswith("not text")


@pytest.mark.parametrize("size", [64 * 1024 + 1, 1024 * 1024])
def test_a_frame_larger_than_a_request_body_closes_the_socket(client, size):
    closed = closed_after_sending(client, new_game(client), lambda socket: socket.send_text(" " * size))
    assert (closed.code, closed.reason) == (MESSAGE_TOO_BIG, "a message has at most 64 KB")


def test_a_catch_up_request_up_to_the_bound_is_served(client):
    game_id = new_game(client)
    with client.websocket_connect(f"/api/games/{game_id}/live") as socket:
        assert socket.receive_json()["events"] == 0
        frame = '{"since": 0}'
        socket.send_text(frame + " " * (64 * 1024 - len(frame)))
        assert socket.receive_json()["events"] == 0  # answered, still open


@pytest.fixture
def bounded(database):
    """The app allowing 2 sockets per game and 3 per client address (the test client is one address)."""
    with TestClient(create_app(database, socket_limits=SocketLimits(per_game=2, per_client=3))) as client:
        yield client


def refused(client, game_id: str) -> WebSocketDisconnect:
    with client.websocket_connect(f"/api/games/{game_id}/live") as socket:
        with pytest.raises(WebSocketDisconnect) as closed:
            socket.receive_json()
    return closed.value


def test_sockets_beyond_the_bound_of_a_game_are_closed_with_a_code(bounded):
    game_id = new_game(bounded)
    with bounded.websocket_connect(f"/api/games/{game_id}/live") as first, bounded.websocket_connect(
        f"/api/games/{game_id}/live"
    ) as second:
        assert first.receive_json()["events"] == second.receive_json()["events"] == 0
        closed = refused(bounded, game_id)
        assert (closed.code, closed.reason) == (TOO_MANY, "too many live connections to this game")
    with bounded.websocket_connect(f"/api/games/{game_id}/live") as again:  # the two left: room again
        assert again.receive_json()["events"] == 0


def test_sockets_beyond_the_bound_of_a_client_address_are_closed_with_a_code(bounded):
    games = [new_game(bounded) for _ in range(4)]
    sockets = [bounded.websocket_connect(f"/api/games/{game_id}/live") for game_id in games[:3]]
    try:
        for socket in sockets:
            assert socket.__enter__().receive_json()["events"] == 0
        closed = refused(bounded, games[3])
        assert (closed.code, closed.reason) == (TOO_MANY, "too many live connections from this address")
    finally:
        for socket in sockets:
            socket.__exit__(None, None, None)
    with bounded.websocket_connect(f"/api/games/{games[3]}/live") as again:
        assert again.receive_json()["events"] == 0


def test_spectators_filling_a_game_do_not_lock_its_seats_pages_out(database):
    """As the audit did, at a smaller scale: spectators' pages fill the game; the seat's page, whose first
    message proves its seat, still follows it, up to the seats' own share; no other page does."""
    limits = SocketLimits(per_game=2, seat_pages=1, per_client=10)
    with TestClient(create_app(database, socket_limits=limits)) as client:
        response = client.post("/api/games", json={"game": "penta", "players": [ANA, ANA]})
        assert response.status_code == 201, response.text
        game_id, seats = response.json()["id"], response.json()["seats"]
        proof = {"type": "seats", "seats": {"0": seats[0]["token"]}}
        with ExitStack() as pages:
            for _spectator in range(limits.per_game):
                assert pages.enter_context(client.websocket_connect(f"/api/games/{game_id}/live")).receive_json()["events"] == 0
            for first in ({"type": "since", "since": 0}, {"type": "seats", "seats": {"1": seats[0]["token"]}}):
                with client.websocket_connect(f"/api/games/{game_id}/live") as beyond:  # a spectator, an impostor
                    beyond.send_json(first)
                    with pytest.raises(WebSocketDisconnect) as closed:
                        beyond.receive_json()
                assert (closed.value.code, closed.value.reason) == (TOO_MANY, GAME_FULL)
            player = pages.enter_context(client.websocket_connect(f"/api/games/{game_id}/live"))
            player.send_json(proof)
            view = player.receive_json()
            assert (view["type"], view["events"]) == ("view", 0)
            assert client.app.state.services.presence.present(game_id) == {0}
            with client.websocket_connect(f"/api/games/{game_id}/live") as another:  # beyond the seats' share
                another.send_json(proof)
                with pytest.raises(WebSocketDisconnect) as closed:
                    another.receive_json()
            assert (closed.value.code, closed.value.reason) == (TOO_MANY, GAME_FULL)
