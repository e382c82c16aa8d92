"""Who may use a server, as its host chose: a creation password (creating a game needs it; joining
by an invite link, watching and playing do not) and open tables switched off."""

from __future__ import annotations

import json
import re

import pytest
from fastapi.testclient import TestClient

from cubilete.storage import Storage
from cubilete.storage.admin import list_games
from cubilete.web import Access, create_app

ANA, LUIS = {"name": "Ana", "kind": "human"}, {"name": "Luis", "kind": "human", "invited": True}
PASSWORD = "amigos del jueves"


def new_game(**more) -> dict:
    return {"game": "penta", "players": [ANA, LUIS], **more}


@pytest.fixture
def guarded(database):
    with TestClient(create_app(database, access=Access(creation_password=PASSWORD))) as client:
        yield client


def boot_page(client: TestClient) -> dict:
    html = client.get("/").text
    return json.loads(re.search(r'<script id="boot" type="application/json">(.*?)</script>', html, re.S)[1])["page"]


@pytest.mark.parametrize(
    ("given", "code", "words"),
    [
        (None, "creation_password_needed", "Este servidor pide su contraseña"),
        ("", "creation_password_needed", "Este servidor pide su contraseña"),
        ("amigos", "creation_password_wrong", "Esa no es la contraseña"),  # read like a missing one
        (PASSWORD + " ", "creation_password_wrong", "Esa no es la contraseña"),
        ("AMIGOS DEL JUEVES", "creation_password_wrong", "Esa no es la contraseña"),
    ],
)
def test_creating_a_game_without_the_password_is_refused_and_stores_nothing(guarded, database, given, code, words):
    body = new_game(lang="es") if given is None else new_game(lang="es", creation_password=given)
    refused = guarded.post("/api/games", json=body)
    assert refused.status_code == 403
    assert refused.json()["code"] == code
    assert refused.json()["message"].startswith(words)
    storage = Storage(database)
    assert list_games(storage) == []
    storage.close()


def test_with_the_password_a_game_is_created_and_the_invited_friend_needs_none(guarded):
    created = guarded.post("/api/games", json=new_game(creation_password=PASSWORD, public=True))
    assert created.status_code == 201
    game = created.json()
    claimed = guarded.post(f"/api/games/{game['id']}/seats/1/claim", json={"invite": game["seats"][1]["invite"]})
    assert claimed.status_code == 200  # the invite link's holder takes the seat without the password
    view = guarded.get(f"/api/games/{game['id']}").json()  # watching: no password either
    assert view["seats"][1]["name"] == "Luis"
    roll = {"seat": 0, "token": game["seats"][0]["token"], "action": {"type": "roll"}, "at": view["events"]}
    assert guarded.post(f"/api/games/{game['id']}/actions", json=roll).status_code == 200


def test_the_home_page_says_whether_it_must_ask_the_password_and_never_gives_it(guarded, client):
    assert boot_page(guarded) == {"creation_password": True, "open_tables": True, "this_device_only": True}
    assert PASSWORD not in guarded.get("/").text
    assert boot_page(client) == {"creation_password": False, "open_tables": True, "this_device_only": True}
    assert client.post("/api/games", json=new_game()).status_code == 201  # no password set: open to all


def test_with_open_tables_off_none_are_listed_and_no_public_game_is_made(database):
    with TestClient(create_app(database)) as listing:  # a public game made while the tables were on
        public = listing.post("/api/games", json=new_game(public=True)).json()
        assert [table["id"] for table in listing.get("/api/open-tables").json()] == [public["id"]]
    with TestClient(create_app(database, access=Access(open_tables=False))) as client:
        assert client.get("/api/open-tables").json() == []
        assert boot_page(client)["open_tables"] is False
        refused = client.post("/api/games", json=new_game(public=True, lang="id"))
        assert refused.status_code == 403 and refused.json()["code"] == "open_tables_off"
        assert refused.json()["message"].startswith("Server ini tidak menampilkan meja terbuka")
        assert client.post("/api/games", json=new_game()).status_code == 201  # private games with invite links
        claimed = client.post(f"/api/games/{public['id']}/seats/1/claim", json={"invite": public["seats"][1]["invite"]})
        assert claimed.status_code == 200  # its invite link still works


def test_the_password_is_not_in_the_access_rules_repr():
    assert PASSWORD not in repr(Access(creation_password=PASSWORD))


def test_making_a_profile_asks_the_password_too(guarded):
    """The host's audit: strangers made 35 profiles in seconds on a password-protected server, squatting names."""
    refused = guarded.post("/api/profiles", json={"name": "Beto"}, headers={"accept-language": "en"})
    assert (refused.status_code, refused.json()["code"]) == (403, "profile_password_needed")
    assert "password field" in refused.json()["message"]
    wrong = guarded.post("/api/profiles", json={"name": "Beto", "creation_password": "amigos"})
    assert (wrong.status_code, wrong.json()["code"]) == (403, "creation_password_wrong")
    assert guarded.get("/api/profiles/Beto").status_code == 404  # nothing was made
    made = guarded.post("/api/profiles", json={"name": "Beto", "creation_password": PASSWORD})
    assert made.status_code == 201 and made.json()["name"] == "Beto"
