"""A seat's page flipping its visibility as fast as it can (issue 32, item 3: 60 watching pages were
sent 26,209 whole views in 10 s): the watching pages are sent nothing for it, the other processes hear
of it at most once a second, and presence still takes the page's last word. A seat that leaves is told
to the watching pages as its away list alone, not the game again."""

from __future__ import annotations

import time
from contextlib import ExitStack

from test_web_presence import ANA, BETO, create, page

from cubilete.web.broker import SeatsPresent
from cubilete.web.page_visibility import VISIBILITY_INTERVAL

FLIPS = 50
SAFETY_SECONDS = 10  # what a broken server may cost a test at most


def test_visibility_flips_redraw_nothing_and_a_seat_leaving_sends_the_away_list_alone(client):
    created = create(client, players=(ANA, BETO))
    with ExitStack() as pages:
        spectator = page(pages, client, created)
        ana = page(pages, client, created, seats=[0])
        page(pages, client, created, seats=[1])
        while spectator.receive_json()["away"] != []:  # both seats' pages arrive
            pass
        for flip in range(FLIPS):
            ana.send_json({"type": "visible", "visible": flip % 2 == 1})  # hidden, shown, ..., shown
        ana.send_json({"type": "since", "since": 0})
        while ana.receive_json()["type"] != "view":  # its answer: every flip was read before it
            pass
        ana.__exit__(None, None, None)
        assert spectator.receive_json() == {"type": "away", "away": [0]}  # the first thing it is sent since


def test_a_page_flipping_its_visibility_is_passed_on_at_most_once_an_interval_and_its_last_word_counts(client):
    created = create(client, players=(ANA, BETO))
    services = client.app.state.services
    heard: list[SeatsPresent] = []
    with ExitStack() as pages:
        ana = page(pages, client, created, seats=[0])
        page(pages, client, created, seats=[1])
        while ana.receive_json()["away"] != []:
            pass
        pages.callback(services.broker.subscribe(created["id"], lambda news: heard.append(news)))
        started = time.monotonic()
        for flip in range(FLIPS):
            ana.send_json({"type": "visible", "visible": flip % 2 == 1})
        ana.send_json({"type": "visible", "visible": False})  # the last word: hidden
        deadline = time.monotonic() + SAFETY_SECONDS
        while services.presence.visible(created["id"]) != {1}:  # passed on within an interval
            assert time.monotonic() < deadline, "the page's last word was not passed on"
            time.sleep(0.01)
        elapsed = time.monotonic() - started
        presence_news = [news for news in heard if isinstance(news, SeatsPresent)]
    assert 1 <= len(presence_news) <= 2 + elapsed / VISIBILITY_INTERVAL
