"""Text no UTF-8 can carry (a lone surrogate, sent as the JSON escape \\ud800 or as its raw bytes) in any field of a request:
a coded refusal in the request's language, never a 500; and an unexpected 500 still carries the
security headers."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from cubilete.web import create_app
from cubilete.web.i18n import refusal_json

LONE = "\\ud800"  # as it is written in the JSON body: the escape, not the character
HUMAN = '{"name": "Ana", "kind": "human"}'


def post_raw(client, path: str, body: str, lang: str = "es"):
    return client.post(
        path, content=body.encode(), headers={"content-type": "application/json", "accept-language": lang}
    )


@pytest.fixture
def game(client) -> tuple[str, str]:
    """A Penta game with one human seat whose dice are rolled: its id and the seat's token."""
    response = client.post("/api/games", json={"game": "penta", "players": [{"name": "Ana", "kind": "human"}]})
    created = response.json()
    token = created["seats"][0]["token"]
    rolled = client.post(f"/api/games/{created['id']}/actions", json={"seat": 0, "token": token, "action": {"type": "roll"}})
    assert rolled.status_code == 200, rolled.text
    return created["id"], token


FIELDS = {
    "game": lambda game_id, token: ("/api/games", f'{{"game": "{LONE}", "players": [{HUMAN}]}}'),
    "rules": lambda game_id, token: ("/api/games", f'{{"game": "penta", "rules": "{LONE}", "players": [{HUMAN}]}}'),
    "level": lambda game_id, token: (
        "/api/games", f'{{"game": "penta", "players": [{{"name": "Bot", "kind": "bot", "level": "{LONE}"}}]}}'
    ),
    "box": lambda game_id, token: (
        f"/api/games/{game_id}/actions",
        f'{{"seat": 0, "token": "{token}", "action": {{"type": "score", "box": "{LONE}"}}}}',
    ),
    "unknown key of an action": lambda game_id, token: (
        f"/api/games/{game_id}/actions", f'{{"seat": 0, "token": "{token}", "action": {{"type": "roll", "{LONE}": 1}}}}'
    ),
    "record's name": lambda game_id, token: ("/api/players/record", f'{{"name": "{LONE}", "seats": []}}'),
    "seat's game": lambda game_id, token: (
        "/api/players/record", f'{{"name": "Ana", "seats": [{{"game": "{LONE}", "seat": 0, "token": "{token}"}}]}}'
    ),
    "seat's token": lambda game_id, token: (
        "/api/players/record", f'{{"name": "Ana", "seats": [{{"game": "{game_id}", "seat": 0, "token": "{LONE}"}}]}}'
    ),
}


@pytest.mark.parametrize("field", FIELDS)
def test_a_lone_surrogate_in_any_field_is_refused_in_the_requests_language(client, game, field):
    path, body = FIELDS[field](*game)
    response = post_raw(client, path, body, lang="es")
    assert response.status_code == 400, response.text
    assert response.json()["code"] == "body_unreadable"
    assert response.json()["message"] != response.json()["detail"]  # in Spanish, beside the English
    assert response.headers["x-content-type-options"] == "nosniff"


@pytest.mark.parametrize("field", FIELDS)
def test_a_surrogates_raw_utf8_bytes_in_any_field_are_refused(client, game, field):
    """ED A0 80 is U+D800 encoded as UTF-8 would if it allowed surrogates: no UTF-8, yet Python's JSON
    reader decodes it."""
    path, body = FIELDS[field](*game)
    raw = body.encode().replace(LONE.encode(), b"\xed\xa0\x80")
    response = client.post(path, content=raw, headers={"content-type": "application/json"})
    assert (response.status_code, response.json()["code"]) == (400, "body_unreadable")


def test_the_same_fields_as_real_text_are_served(client, game):
    """The refusal is of lone surrogates only: a pair (an emoji escaped) and accents are text."""
    game_id, token = game
    named = post_raw(client, "/api/games", '{"game": "penta", "players": [{"name": "\\ud83c\\udfb2 Ana\\u00e9", "kind": "human"}]}')
    assert named.status_code == 201, named.text
    assert named.json()["seats"][0]["name"] == "\N{GAME DIE} Ana\N{LATIN SMALL LETTER E WITH ACUTE}"
    box = post_raw(client, f"/api/games/{game_id}/actions", f'{{"seat": 0, "token": "{token}", "action": {{"type": "score", "box": "\\u00e9"}}}}')
    assert (box.status_code, box.json()["code"]) == (400, "unknown_box")


def test_a_refusal_echoing_a_lone_surrogate_carries_a_replacement_character():
    refusal = refusal_json("es", "unknown_game", {"game": "\ud800x", "games": ["penta"]})
    assert refusal["params"]["game"] == "\N{REPLACEMENT CHARACTER}x"
    assert "\N{REPLACEMENT CHARACTER}x" in refusal["message"]
    assert "\N{REPLACEMENT CHARACTER}x" in refusal["detail"]


def test_an_unexpected_failure_answers_500_with_the_security_headers(database):
    app = create_app(database)

    @app.get("/api/failing")
    def failing() -> None:
        raise RuntimeError("a defect")

    with TestClient(app, raise_server_exceptions=False) as client:
        response = client.get("/api/failing")
    assert response.status_code == 500
    assert response.headers["x-frame-options"] == "DENY"
    assert response.headers["content-security-policy"].startswith("default-src 'self'")


def test_a_head_larger_than_16_kb_is_refused_whole_as_in_pieces(client):
    """h11 bounds a head only while it arrives in pieces: one sent whole is bounded by the app."""
    response = client.get("/api/games/options", headers={"x-padding": "a" * 17 * 1024, "accept-language": "es"})
    assert (response.status_code, response.json()["code"]) == (431, "head_too_large")
    assert response.json()["params"] == {"most": 16}
    assert response.headers["x-content-type-options"] == "nosniff"
    assert client.get("/api/games/options", headers={"x-padding": "a" * 15 * 1024}).status_code == 200
