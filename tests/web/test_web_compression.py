"""gzip on the text the server sends (pages, styles, scripts, JSON, the QR code), for the browsers
that ask; small answers, images, sounds, a move's own answer and the live socket as they are."""

from __future__ import annotations

import pytest
from harness import chosen_seed

from cubilete.web.compression import ACTION_MINIMUM_SIZE


def start_game(client, *others: dict) -> dict:
    players = [{"name": "Ana", "kind": "human"}, *others]
    response = client.post("/api/games", json={"game": "penta", "players": players, **chosen_seed(players, 7)})
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
    for path in ("/healthz", "/static/icons/icon-512.png", "/static/sounds/dice.wav"):
        response = client.get(path, headers={"Accept-Encoding": "gzip"})
        assert response.status_code == 200 and "content-encoding" not in response.headers, path
    assert len(client.get("/healthz").content) < 1400


def test_a_move_answers_plain_but_a_bots_turn_and_the_game_read_are_gzipped(client):
    bot = {"name": "Bot", "kind": "bot", "level": "optimal"}
    created = start_game(client, bot)
    url, token = f"/api/games/{created['id']}/actions", created["seats"][0]["token"]
    gzip_please = {"Accept-Encoding": "gzip"}
    rolled = client.post(url, json={"seat": 0, "token": token, "at": 0, "action": {"type": "roll"}}, headers=gzip_please)
    assert rolled.status_code == 200 and 1400 < len(rolled.content) < ACTION_MINIMUM_SIZE
    assert "content-encoding" not in rolled.headers  # one round trip either way: not worth the CPU
    box, at = rolled.json()["table"]["options"][0]["box"], rolled.json()["events"]
    score = {"seat": 0, "token": token, "at": at, "action": {"type": "score", "box": box}}
    scored = client.post(url, json=score, headers=gzip_please)
    assert scored.status_code == 200 and len(scored.content) >= ACTION_MINIMUM_SIZE  # with the bot's whole turn
    assert scored.headers["content-encoding"] == "gzip" and scored.num_bytes_downloaded < len(scored.content) / 4
    assert any(step["seat"] == 1 for step in scored.json()["steps"])
    read = client.get(f"/api/games/{created['id']}?since=0", headers=gzip_please)
    assert read.headers["content-encoding"] == "gzip" and read.json()["events"] == scored.json()["events"]


def test_the_qr_code_and_the_live_socket_still_work_with_compression(client):
    link = "http://192.168.1.20:8000/game/abc#seat=1&token=" + "x" * 40
    response = client.get("/api/qr", params={"text": link}, headers={"Accept-Encoding": "gzip"})
    assert response.status_code == 200 and response.headers["content-type"] == "image/svg+xml"
    assert response.headers["content-encoding"] == "gzip"
    assert response.text.startswith("<svg") and response.text.rstrip().endswith("</svg>")
    created = start_game(client)
    with client.websocket_connect(f"/api/games/{created['id']}/live?since=0", headers={"Accept-Encoding": "gzip"}) as socket:
        assert socket.receive_json()["id"] == created["id"]
