"""Who is at the table, as the players' pages are told over their live sockets: Beto's phone goes offline
and Ana's page hears that his seat is away, then back; nothing of it is stored. Also across two
processes sharing PostgreSQL and Redis, Ana's page on one and Beto's on the other."""

from __future__ import annotations

from contextlib import ExitStack

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import event
from starlette.websockets import WebSocketDisconnect

from cubilete.web import create_app

ANA = {"name": "Ana", "kind": "human"}
BETO = {"name": "Beto", "kind": "human", "invited": True}
BOT = {"name": "Bot", "kind": "bot", "level": "optimal"}
MOST_PUSHES = 10  # a page is pushed one view per change: a few at most before the one awaited


def create(client, players=(ANA, BETO)) -> dict:
    """A new game whose friends' invites are claimed (each seat then has its token), none of its pages open."""
    response = client.post("/api/games", json={"game": "penta", "players": list(players)})
    assert response.status_code == 201, response.text
    created = response.json()
    for seat, secret in enumerate(created["seats"]):
        if secret.get("invite"):
            claimed = client.post(f"/api/games/{created['id']}/seats/{seat}/claim", json={"invite": secret["invite"]})
            assert claimed.status_code == 200, claimed.text
            secret["token"] = claimed.json()["token"]
    return created


def page(pages: ExitStack, client, created, seats=()):
    """A page of the game, following it live and saying which seats it plays (a spectator: none); it
    closes with `pages` (or its own __exit__: the phone goes offline)."""
    socket = pages.enter_context(client.websocket_connect(f"/api/games/{created['id']}/live"))
    socket.receive_json()
    if seats:
        socket.send_json({"seats": {str(seat): created["seats"][seat]["token"] for seat in seats}})
    return socket


def away_becomes(socket, away: list[int]) -> dict:
    """The first view, or away list alone, pushed to the page that shows these seats away."""
    for _push in range(MOST_PUSHES):
        view = socket.receive_json()
        if view["away"] == away:
            return view
    raise AssertionError(f"no message with {away} away")


def test_a_seat_whose_page_disconnects_is_away_for_the_others_and_nothing_is_stored(client):
    with ExitStack() as pages:
        offline_and_back(pages, client)


def offline_and_back(pages: ExitStack, client) -> None:
    created = create(client, players=(ANA, BETO, BOT))
    writes: list[str] = []
    engine = client.app.state.services.games.storage.engine
    event.listen(engine, "before_cursor_execute", lambda *args: writes.append(args[2]))
    spectator = page(pages, client, created)
    ana = page(pages, client, created, seats=[0])
    away_becomes(ana, [1])  # Beto has not opened his link yet; a bot is never away
    beto = page(pages, client, created, seats=[1])
    away_becomes(ana, [])
    away_becomes(spectator, [])
    beto.__exit__(None, None, None)  # his phone goes offline
    assert away_becomes(ana, [1]) == {"type": "away", "away": [1]}  # the list alone: the game did not change
    away_becomes(spectator, [1])
    beto = page(pages, client, created, seats=[1])  # back
    away_becomes(ana, [])
    assert [sql for sql in writes if not sql.lstrip().upper().startswith("SELECT")] == []


def test_a_page_is_present_only_for_the_seats_whose_tokens_it_holds(client):
    created = create(client)
    with ExitStack() as pages:
        ana = page(pages, client, created, seats=[0])
        away_becomes(ana, [1])
        impostor = page(pages, client, created)
        impostor.send_json({"seats": {"1": created["seats"][0]["token"]}})  # Ana's token is not Beto's
        impostor.send_json({"since": 0})
        assert impostor.receive_json()["away"] == [1]
        claims = (
            (impostor, {"0": created["seats"][0]["token"]}),
            (ana, ["not", "a", "claim"]),
            (page(pages, client, created), {"\N{SUPERSCRIPT TWO}": "x"}),  # a digit to Python, no seat number
        )
        for socket, second in claims:
            socket.send_json({"seats": second})  # said again (each would be news to every page), or malformed
            with pytest.raises(WebSocketDisconnect) as closed:
                for _push in range(MOST_PUSHES):  # the views already on their way, then the close
                    socket.receive_json()
            assert closed.value.code == 4400 and "seats" in closed.value.reason


def test_presence_crosses_processes(postgres_url, redis_url):
    with ExitStack() as pages:
        first = pages.enter_context(TestClient(create_app(postgres_url, redis_url)))
        second = pages.enter_context(TestClient(create_app(postgres_url, redis_url)))
        created = create(first)
        ana = page(pages, first, created, seats=[0])
        away_becomes(ana, [1])
        beto = page(pages, second, created, seats=[1])  # Beto's phone reaches the other process
        away_becomes(ana, [])
        away_becomes(beto, [])  # and his page knows Ana's, which connected before it
        beto.__exit__(None, None, None)
        away_becomes(ana, [1])
