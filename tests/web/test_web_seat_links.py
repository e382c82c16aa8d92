"""The links to a game and its seats, as a player meets them: the home and game pages know whether friends
can reach this server at all, every link of a game starts from the one address other devices reach, the
game view says which friends' seats are still waiting for their friend, and a seat taken meanwhile
answers its invite with `invite_claimed` (the page then says "you are watching")."""

from __future__ import annotations

import json
import re

import pytest
from fastapi.testclient import TestClient
from test_web_clock_and_seats import claim, create, read

from cubilete.web import create_app
from cubilete.web.reactions import REACTIONS
from cubilete.web.seats import HUMAN, Seat

ANA = {"name": "Ana", "kind": "human"}
LUIS = {"name": "Luis", "kind": "human", "invited": True}
LAN = "192.168.1.20"


def boot_page(client: TestClient, path: str) -> dict:
    html = client.get(path).text
    return json.loads(re.search(r'<script id="boot" type="application/json">(.*?)</script>', html, re.S)[1])["page"]


@pytest.mark.parametrize(
    ("options", "this_device_only"),
    [
        ({}, True),  # `cubilete serve` as the README starts it
        ({"listen_host": "::1"}, True),
        ({"listen_host": "0.0.0.0"}, False),
        ({"public_url": "https://dice.example"}, False),  # behind a proxy on this machine
    ],
)
def test_the_home_and_game_pages_know_whether_only_this_device_reaches_the_server(database, options, this_device_only):
    with TestClient(create_app(database, **options)) as client:
        assert boot_page(client, "/")["this_device_only"] is this_device_only
        created = client.post("/api/games", json={"game": "penta", "players": [ANA, LUIS]}).json()
        assert boot_page(client, created["url"])["this_device_only"] is this_device_only  # ⚙'s invites warn too


def test_the_watch_link_of_the_game_page_is_the_invite_pages_lan_address(database, monkeypatch):
    monkeypatch.setattr("cubilete.web.addresses.lan_addresses", lambda: [LAN])
    with TestClient(create_app(database, listen_host="0.0.0.0"), base_url="http://127.0.0.1:8000") as client:
        created = client.post("/api/games", json={"game": "penta", "players": [ANA, LUIS]}).json()
        assert created["watch"] == f"http://{LAN}:8000/game/{created['id']}"
        assert created["seats"][1]["link"].startswith(f"{created['watch']}#seat=1&invite=")
        page = boot_page(client, created["url"])
    assert page == {  # what ⚙'s watch link and invites start from, and the players' reactions' keys
        "id": created["id"],
        "link": created["watch"],
        "reactions": list(REACTIONS),
        "this_device_only": False,
    }


def test_the_view_says_which_friends_seats_wait_for_their_friend(client):
    created = client.post("/api/games", json={"game": "penta", "players": [ANA, LUIS]}).json()
    assert [seat["unclaimed"] for seat in read(client, created)["seats"]] == [False, True]
    assert claim(client, created, 1, created["seats"][1]["invite"]).status_code == 200
    assert [seat["unclaimed"] for seat in read(client, created)["seats"]] == [False, False]


def test_an_invite_whose_friend_handed_the_seat_to_the_computer_is_taken(client):
    created = client.post("/api/games", json={"game": "penta", "players": [ANA, LUIS], "lang": "id"}).json()
    invite = created["seats"][1]["invite"]
    token = claim(client, created, 1, invite).json()["token"]
    assert client.post(f"/api/games/{created['id']}/seats/1/bot", json={"token": token}).status_code == 200
    again = claim(client, created, 1, invite)
    assert again.status_code == 409 and again.json()["code"] == "invite_claimed"
    assert read(client, created)["seats"][1]["kind"] == "bot"  # what an old token link of the seat is checked by


def test_an_open_seat_taken_from_the_open_tables_answers_its_invite_as_taken(client):
    created = create(client, players=(ANA, LUIS), public=True)
    assert read(client, created)["seats"][1]["unclaimed"]
    assert client.post(f"/api/games/{created['id']}/seats/1/join", json={"name": "Dani"}).status_code == 200
    late = claim(client, created, 1, created["seats"][1]["invite"])
    assert late.status_code == 409 and late.json()["code"] == "invite_claimed"
    assert not read(client, created)["seats"][1]["unclaimed"]


def test_a_handed_seat_stores_when_the_computer_took_it_and_is_the_computers_from_the_start_of_a_rematch():
    handed = Seat("Luis", HUMAN, token_sha256="0" * 64).to_bot(left=False, events=9)
    assert Seat.from_json(handed.to_json()) == handed and handed.computer_from == 9
    assert handed.in_rematch().computer_from == 0
    assert Seat.from_json({"name": "Ana", "kind": HUMAN}).computer_from is None  # stored before hand-overs were
