"""The live socket's messages say their type both ways, so that a page and a server one release apart
understand each other: every message the page is sent has a `type`, and the page's requests are read
with a `type` (as pages send them from 0.3.0) or without one (as pages loaded before the upgrade do)."""

from __future__ import annotations

from contextlib import ExitStack

import pytest
from test_reactions import react
from test_web_presence import ANA, BETO, BOT, MOST_PUSHES, create, page

from cubilete.web.live import SeatClaim, Visible, request_of


def test_every_message_the_page_is_sent_says_its_type(client):
    created = create(client, players=(ANA, BETO, BOT))
    received: list[dict] = []
    with ExitStack() as pages:
        ana = pages.enter_context(client.websocket_connect(f"/api/games/{created['id']}/live"))
        received.append(ana.receive_json())
        ana.send_json({"type": "seats", "seats": {"0": created["seats"][0]["token"]}})
        ana.send_json({"type": "visible", "visible": False})
        page(pages, client, created, seats=[1])  # Beto's page, loaded before the upgrade: untyped
        assert react(client, created, 1, "wow").status_code == 204
        for _push in range(MOST_PUSHES):  # the away lists of the pages' presence, then the reaction
            received.append(ana.receive_json())
            if received[-1]["type"] == "reaction":
                break
        ana.send_json({"type": "since", "since": 0})
        received.append(ana.receive_json())
        assert client.app.state.services.presence.visible(created["id"]) == {1}  # Ana's page said it is hidden
    assert [message["type"] for message in received[1:-2]] == ["away"] * (len(received) - 3)
    assert received[-2] == {"type": "reaction", "reaction": {"seat": 1, "key": "wow"}}
    assert (received[0]["type"], received[-1]["type"]) == ("view", "view")
    assert received[-1]["away"] == [] and received[-1]["steps"] == []  # both seats present; no move yet


@pytest.mark.parametrize(
    ("typed", "untyped", "read"),
    [
        ('{"type": "since", "since": 3}', '{"since": 3}', 3),
        ('{"type": "seats", "seats": {"0": "t"}}', '{"seats": {"0": "t"}}', SeatClaim({0: "t"})),
        ('{"type": "visible", "visible": false}', '{"visible": false}', Visible(False)),
    ],
)
def test_a_pages_request_reads_alike_with_or_without_its_type(typed, untyped, read):
    assert request_of(typed) == request_of(untyped) == read
