"""gzip on the text the server sends (pages, styles, scripts, JSON, the QR code), for the browsers
that ask; small answers, images, sounds, the action route's answers and the live socket as they are."""

from __future__ import annotations

import pytest


def start_game(client) -> dict:
    response = client.post("/api/games", json={"game": "penta", "players": [{"name": "Ana", "kind": "human"}], "seed": 7})
    assert response.status_code == 201
    return response.json()


@pytest.mark.parametrize(
    ("path", "media_type"),
    [
        ("/", "text/html"),
        ("/rules/penta", "text/html"),
        ("/static/css/app.css", "text/css"),
        ("/static/js/game.js", "text/javascript"),
        ("/api/i18n/es", "application/json"),
        ("/sw.js", "text/javascript"),
    ],
)
def test_text_is_gzipped_for_browsers_that_ask(client, path, media_type):
    plain = client.get(path, headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in plain.headers
    response = client.get(path, headers={"Accept-Encoding": "gzip, deflate, br"})
    assert response.headers["content-type"].startswith(media_type)
    assert response.headers["content-encoding"] == "gzip"
    assert "accept-encoding" in response.headers["vary"].lower()
    assert response.content == plain.content  # the client unzipped it
    assert response.num_bytes_downloaded < len(plain.content) / 2


def test_small_answers_images_and_sounds_are_sent_as_they_are(client):
    for path in ("/api/games/options", "/static/icons/icon-512.png", "/static/sounds/dice.wav"):
        response = client.get(path, headers={"Accept-Encoding": "gzip"})
        assert response.status_code == 200 and "content-encoding" not in response.headers, path
    assert len(client.get("/api/games/options").content) < 1400


def test_the_action_answers_are_not_compressed_and_the_game_read_is(client):
    created = start_game(client)
    body = {"seat": 0, "token": created["seats"][0]["token"], "action": {"type": "roll"}}
    answer = client.post(f"/api/games/{created['id']}/actions", json=body, headers={"Accept-Encoding": "gzip"})
    assert answer.status_code == 200 and len(answer.content) > 1400
    assert "content-encoding" not in answer.headers
    read = client.get(f"/api/games/{created['id']}?since=0", headers={"Accept-Encoding": "gzip"})
    assert read.headers["content-encoding"] == "gzip" and read.json()["events"] == answer.json()["events"]


def test_the_qr_code_and_the_live_socket_still_work_with_compression(client):
    link = "http://192.168.1.20:8000/game/abc#seat=1&token=" + "x" * 40
    response = client.get("/api/qr", params={"text": link}, headers={"Accept-Encoding": "gzip"})
    assert response.status_code == 200 and response.headers["content-type"] == "image/svg+xml"
    assert response.headers["content-encoding"] == "gzip"
    assert response.text.startswith("<svg") and response.text.rstrip().endswith("</svg>")
    created = start_game(client)
    with client.websocket_connect(f"/api/games/{created['id']}/live?since=0", headers={"Accept-Encoding": "gzip"}) as socket:
        assert socket.receive_json()["id"] == created["id"]
