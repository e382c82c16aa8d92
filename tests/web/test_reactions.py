"""Reactions, not chat: a seat holder shows the table a preset reaction, and every page of the game (the
other player's, a spectator's, in any process) is told over its live socket; nothing is stored. Only a
seat's token reacts, only with a preset, and not in a flood."""

from __future__ import annotations

from contextlib import ExitStack

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import event
from test_web_presence import ANA, BETO, BOT, away_becomes, create, page

from cubilete.web import RateLimits, create_app

MOST_PUSHES = 10  # views pushed before the reaction (the pages' presence): a few at most


def react(client, created, seat: int, reaction: str, token: str | None = None, lang: str = "en"):
    body = {"seat": seat, "token": created["seats"][seat]["token"] if token is None else token, "reaction": reaction}
    return client.post(f"/api/games/{created['id']}/reactions?lang={lang}", json=body)


def reaction_heard(socket) -> dict:
    """The first reaction pushed to the page, after the views and away lists on their way before it."""
    for _push in range(MOST_PUSHES):
        message = socket.receive_json()
        if message["type"] == "reaction":
            return message["reaction"]
        assert message["type"] in ("view", "away")
    raise AssertionError("no reaction pushed")


def test_a_seat_reacts_and_every_page_of_the_game_is_told_without_storing_it(client):
    created = create(client, players=(ANA, BETO, BOT))
    writes: list[str] = []
    engine = client.app.state.services.games.storage.engine
    event.listen(engine, "before_cursor_execute", lambda *args: writes.append(args[2]))
    with ExitStack() as pages:
        ana = page(pages, client, created, seats=[0])
        beto = page(pages, client, created, seats=[1])
        spectator = page(pages, client, created)
        away_becomes(ana, [])
        answer = react(client, created, 0, "well_played")
        assert answer.status_code == 204 and answer.content == b""
        for socket in (beto, spectator, ana):  # Ana's own page shows it too
            assert reaction_heard(socket) == {"seat": 0, "key": "well_played"}
    assert [sql for sql in writes if not sql.lstrip().upper().startswith("SELECT")] == []


def test_only_a_seat_holder_reacts_and_only_with_a_preset(client):
    created = create(client, players=(ANA, BETO, BOT))
    wrong = react(client, created, 1, "wow", token=created["seats"][0]["token"])  # Ana's token is not Beto's
    assert wrong.status_code == 403 and wrong.json()["code"] == "wrong_token"
    bot = react(client, created, 2, "wow", token=created["seats"][0]["token"])
    assert bot.status_code == 403 and bot.json()["code"] == "bot_seat"
    spectator = client.post(f"/api/games/{created['id']}/reactions", json={"seat": 0, "reaction": "wow"})
    assert spectator.status_code == 422  # no token: a spectator has nothing to react with
    unknown = react(client, created, 0, "you_lost", lang="es")
    assert unknown.status_code == 400
    assert unknown.json()["code"] == "unknown_reaction"
    assert unknown.json()["message"].startswith("no hay ninguna reacción «you_lost»")
    assert react(client, created, 0, "x" * 33).status_code == 422  # a key is short: the refusal echoes it
    missing = client.post("/api/games/nope/reactions", json={"seat": 0, "token": "t", "reaction": "wow"})
    assert missing.status_code == 404
    assert react(client, created, 0, "thanks").status_code == 204  # none of the refusals held the seat back


def test_a_seat_reacts_at_most_once_every_two_seconds(client):
    created = create(client)
    assert react(client, created, 0, "wow").status_code == 204
    again = react(client, created, 0, "oops", lang="es")
    assert again.status_code == 429 and again.json()["code"] == "reaction_too_soon"
    assert again.headers["Retry-After"] == "2"
    assert again.json()["message"] == "una reacción a la vez: inténtalo de nuevo en 2 s"
    assert react(client, created, 1, "oops").status_code == 204  # another seat's pause is its own


def test_a_client_has_a_budget_of_reactions_per_minute(database):
    with TestClient(create_app(database, rate_limits=RateLimits(reactions=2))) as client:
        created = create(client)
        answers = [react(client, created, seat, "thumbs_up") for seat in (0, 1, 0)]
    assert [answer.status_code for answer in answers] == [204, 204, 429]
    assert answers[2].json()["code"] == "too_many_requests" and "Retry-After" in answers[2].headers


@pytest.mark.slow  # two apps on PostgreSQL and Redis: over a second
def test_a_reaction_crosses_processes(postgres_url, redis_url):
    with ExitStack() as pages:
        first = pages.enter_context(TestClient(create_app(postgres_url, redis_url)))
        second = pages.enter_context(TestClient(create_app(postgres_url, redis_url)))
        created = create(first)
        ana = page(pages, first, created, seats=[0])
        beto = page(pages, second, created, seats=[1])  # Beto's phone reaches the other process
        away_becomes(ana, [])
        assert react(first, created, 0, "good_luck").status_code == 204
        assert reaction_heard(beto) == {"seat": 0, "key": "good_luck"}
