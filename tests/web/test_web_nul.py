"""A NUL character anywhere a client puts text (a path's game id or name, a query, a JSON body's text)
is refused with a coded 400 before any route sees it, on SQLite as on PostgreSQL (which stores no NUL
in text); a live socket is closed with 4400. Text that merely spells \\u0000 is still text."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from cubilete.web import create_app

ANA = {"name": "Ana", "kind": "human"}


@pytest.fixture(params=["sqlite", "postgresql"])
def client(request, tmp_path):
    url = request.getfixturevalue("database" if request.param == "sqlite" else "postgres_url")
    with TestClient(create_app(url)) as client:
        yield client


PAGES = ["/game/x%00", "/rules/x%00", "/profile/Beto%00", "/player/Beto%00"]  # not in the API's schema


def routes_with_parameters(client) -> list[tuple[str, str]]:
    """(method, path) of every API route whose path takes a parameter, each filled with a NUL, and the pages'."""
    found = [("GET", page) for page in PAGES]
    for path, methods in client.app.openapi()["paths"].items():
        if "{" in path:
            filled = path.replace("{seat}", "0").replace("{game_id}", "x%00").replace("{name}", "Beto%00")
            filled = re.sub(r"\{\w+\}", "x%00", filled.replace("{lang}", "es%00"))  # a device's id, ...
            found += [(method.upper(), filled) for method in methods]
    return found


def test_a_nul_in_any_routes_path_is_refused(client):
    routes = routes_with_parameters(client)
    assert len(routes) >= 17  # every route taking a game id, a seat, a name or a language
    for method, path in routes:
        response = client.request(method, path, json={})
        assert (response.status_code, response.json()["code"]) == (400, "nul_character"), (method, path)


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/api/profiles", {"name": "Beto\u0000"}),
        ("/api/games", {"game": "penta", "players": [{"name": "A\u0000na", "kind": "human"}]}),
        ("/api/players/record", {"name": "Ana\u0000", "seats": []}),
        ("/api/games", {"game": "penta", "players": [ANA], "\u0000": 1}),  # a key
    ],
)
def test_a_nul_in_a_bodys_text_is_refused_and_nothing_is_made(client, path, body):
    response = client.post(path, json=body, headers={"accept-language": "es"})
    assert (response.status_code, response.json()["code"]) == (400, "nul_character")
    assert response.json()["message"] != response.json()["detail"]  # in Spanish, beside the English
    assert client.get("/api/profiles/Beto").status_code == 404


def test_a_nul_in_a_query_is_refused(client):
    response = client.get("/api/games/options?lang=es%00")
    assert (response.status_code, response.json()["code"]) == (400, "nul_character")


def test_a_live_socket_to_a_game_id_with_a_nul_is_closed_with_a_code(client):
    with client.websocket_connect("/api/games/x%00/live") as page, pytest.raises(WebSocketDisconnect) as closed:
        page.receive_text()
    assert (closed.value.code, closed.value.reason) == (4400, "nul_character")


def test_text_spelling_a_nul_escape_is_a_name_like_any_other(client):
    made = client.post("/api/profiles", json={"name": "\\u0000"})
    assert made.status_code == 201, made.text
    assert made.json()["name"] == "\\u0000"
