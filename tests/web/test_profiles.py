"""Profiles (web/profiles.py, web/profile_routes.py): claiming a name, the device secret as a bearer
key, rename and delete, seats that belong to a profile (on create, claim and join) with tokens any of
its devices can be given, seats reserved for a friend's profile, and what anyone sees of a profile."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from cubilete.engine.actions import action_to_json
from cubilete.players import make_player
from cubilete.web import create_app
from cubilete.web.push.messages import YOUR_TURN, Note, rendered
from cubilete.web.seat_summaries import SUMMARY_VERSION, SeatSummary

ANA = {"name": "Ana", "kind": "human"}
FRIEND = {"name": "Friend", "kind": "human", "invited": True}
LUIS = {"name": "Luis", "kind": "human"}  # a hot seat: no bot, so no solver tables


@pytest.fixture
def postgres_client(postgres_url):
    with TestClient(create_app(postgres_url)) as client:
        yield client


def bearer(profile: dict) -> dict:
    return {"Authorization": f"Bearer {profile['secret']}"}


def claim_name(client, name: str) -> dict:
    response = client.post("/api/profiles", json={"name": name})
    assert response.status_code == 201, response.text
    return response.json()


def new_game(client, players, profile=None, **extra) -> dict:
    body = {"game": "penta", "players": list(players), **extra}
    response = client.post("/api/games", json=body, headers=bearer(profile) if profile else {})
    assert response.status_code == 201, response.text
    return response.json()


def my_seats(client, profile) -> list[dict]:
    response = client.get("/api/profiles/me/seats", headers=bearer(profile))
    assert response.status_code == 200, response.text
    return response.json()


def roll(client, game_id: str, seat: int, token: str) -> int:
    body = {"seat": seat, "token": token, "action": {"type": "roll"}}
    return client.post(f"/api/games/{game_id}/actions", json=body).status_code


def test_a_profile_is_a_name_held_by_its_device_secret(client):
    beto = claim_name(client, "  Beto ")
    assert beto["name"] == "Beto" and len(beto["secret"]) >= 40
    assert client.get("/api/profiles/me", headers=bearer(beto)).json() == {"id": beto["id"], "name": "Beto"}

    taken = client.post("/api/profiles?lang=es", json={"name": "BETO"})
    assert taken.status_code == 409 and taken.json()["code"] == "name_taken"
    assert "BETO" in taken.json()["message"] and taken.json()["message"] != taken.json()["detail"]
    for name, code in (("   ", "blank_name"), ("x" * 25, "name_too_long")):
        refused = client.post("/api/profiles", json={"name": name})
        assert refused.status_code == 422 and refused.json()["code"] == code
    assert client.post("/api/profiles", json={"name": "me"}).json()["code"] == "name_taken"


@pytest.mark.parametrize("headers", [{}, {"Authorization": "Bearer wrong-secret"}, {"Authorization": "Basic abc"}])
def test_a_route_that_needs_a_profile_refuses_a_missing_or_wrong_secret(client, headers):
    claim_name(client, "Beto")
    for method, path in (
        ("GET", "/api/profiles/me"),
        ("GET", "/api/profiles/me/seats"),
        ("DELETE", "/api/profiles/me"),
    ):
        refused = client.request(method, path, headers=headers)
        assert refused.status_code == 401 and refused.json()["code"] == "profile_needed"


@pytest.mark.parametrize("app_client", ["client", pytest.param("postgres_client", marks=pytest.mark.slow)])
def test_a_profile_is_renamed_then_deleted_and_its_seats_stay_in_the_game(request, app_client):
    client = request.getfixturevalue(app_client)
    beto, ana = claim_name(client, "Beto"), claim_name(client, "Ana")
    assert client.patch("/api/profiles/me", json={"name": "ana"}, headers=bearer(beto)).json()["code"] == "name_taken"
    renamed = client.patch("/api/profiles/me", json={"name": "Roberto"}, headers=bearer(beto))
    assert renamed.json() == {"id": beto["id"], "name": "Roberto"}
    assert client.get("/api/profiles/Beto").status_code == 404
    created = new_game(client, [{"name": "Roberto", "kind": "human"}, LUIS], beto)
    token = created["seats"][0]["token"]

    assert client.delete("/api/profiles/me", headers=bearer(beto)).status_code == 204
    assert client.get("/api/profiles/me", headers=bearer(beto)).status_code == 401
    assert client.get("/api/profiles/Roberto").json()["code"] == "profile_not_found"
    seats = client.get(f"/api/games/{created['id']}").json()["seats"]
    assert seats[0]["name"] == "Roberto"
    assert roll(client, created["id"], 0, token) == 200  # the device keeps playing the seat
    assert client.get("/api/profiles/me", headers=bearer(ana)).status_code == 200
    assert claim_name(client, "Roberto")["name"] == "Roberto"  # the name is free again


def test_the_first_seat_played_on_a_signed_in_device_belongs_to_its_profile(client):
    beto = claim_name(client, "Beto")
    created = new_game(client, [{"name": "Beto", "kind": "human"}, LUIS], beto)
    first, second = (seat["token"] for seat in created["seats"])
    assert my_seats(client, beto) == [{"game": created["id"], "seat": 0, "token": first}]
    services = client.app.state.services
    assert services.profiles.owner(created["id"], 0) == beto["id"] and services.profiles.owner(created["id"], 1) is None
    # the token another device of the profile is given plays the seat; the hot seat's own token plays too
    assert roll(client, created["id"], 0, first) == 200
    anonymous = new_game(client, [ANA, LUIS])
    assert my_seats(client, beto) == [{"game": created["id"], "seat": 0, "token": first}]
    assert services.profiles.owner(anonymous["id"], 0) is None and second != first


def test_a_seat_claimed_or_joined_on_a_signed_in_device_belongs_to_its_profile(client):
    beto, luis = claim_name(client, "Beto"), claim_name(client, "Luis")
    invited = new_game(client, [ANA, FRIEND])
    claim = client.post(
        f"/api/games/{invited['id']}/seats/1/claim",
        json={"invite": invited["seats"][1]["invite"]},
        headers=bearer(beto),
    )
    assert claim.status_code == 200, claim.text
    public = new_game(client, [ANA, FRIEND], public=True)
    join = client.post(f"/api/games/{public['id']}/seats/1/join", json={"name": "Luis"}, headers=bearer(luis))
    assert join.status_code == 200, join.text

    assert my_seats(client, beto) == [{"game": invited["id"], "seat": 1, "token": claim.json()["token"]}]
    assert my_seats(client, luis) == [{"game": public["id"], "seat": 1, "token": join.json()["token"]}]
    assert roll(client, invited["id"], 0, invited["seats"][0]["token"]) == 200
    assert client.get(f"/api/games/{invited['id']}").json()["events"] == 1
    assert roll(client, public["id"], 1, join.json()["token"]) == 409  # not Luis's turn: the token was accepted


def test_the_view_names_the_profile_of_each_seat_held_by_one_as_stored_with_the_game(database):
    """Issue 34, item 5b: the table links a profile's seat to its page; the view says whose it is, from the
    seats kept with the game (no query per view), on create, claim, join and reservation, and after a restart."""
    with TestClient(create_app(database)) as client:
        ana, beto, luis = claim_name(client, "Ana"), claim_name(client, "Beto"), claim_name(client, "Luis")
        invited = new_game(client, [ANA, FRIEND, LUIS], ana)  # Luis's hot seat on Ana's device is no profile's
        client.post(f"/api/games/{invited['id']}/seats/1/claim", json={"invite": invited["seats"][1]["invite"]},
                    headers=bearer(beto)).raise_for_status()
        public = new_game(client, [ANA, FRIEND], public=True)
        client.post(f"/api/games/{public['id']}/seats/1/join", json={"name": "L"}, headers=bearer(luis)).raise_for_status()
        reserved = new_game(client, [ANA, {"name": "Beto", "kind": "human", "profile": "beto"}], ana)
    expected = {invited["id"]: ["Ana", "Beto", None], public["id"]: [None, "Luis"], reserved["id"]: ["Ana", "Beto"]}
    with TestClient(create_app(database)) as restarted:
        for game_id, profiles in expected.items():
            assert [seat["profile"] for seat in restarted.get(f"/api/games/{game_id}").json()["seats"]] == profiles


def test_a_renamed_profiles_seats_follow_its_name_and_a_deleted_ones_are_nobodys(database):
    """The link at the table goes to the profile's page under its name now; once the profile is gone, to no
    page (its name may be someone else's later): in this process at once, and in a process started after."""
    with TestClient(create_app(database)) as client:
        ana, beto = claim_name(client, "Ana"), claim_name(client, "Beto")
        created = played_together(client, ana, beto)
        path = f"/api/games/{created['id']}"
        client.get(path).raise_for_status()  # the game in this process's memory
        assert client.patch("/api/profiles/me", json={"name": "Roberto"}, headers=bearer(beto)).status_code == 200
        assert [seat["profile"] for seat in client.get(path).json()["seats"]] == ["Ana", "Roberto"]
        assert client.delete("/api/profiles/me", headers=bearer(ana)).status_code == 204
        seats = client.get(path).json()["seats"]
        assert [(seat["name"], seat["profile"]) for seat in seats] == [("Ana", None), ("Beto", "Roberto")]
    with TestClient(create_app(database)) as restarted:
        assert [seat["profile"] for seat in restarted.get(path).json()["seats"]] == [None, "Roberto"]


def played_together(client, creator: dict, friend: dict) -> dict:
    """A game of the creator's whose invite the friend claimed on a signed-in device."""
    created = new_game(client, [ANA, FRIEND], creator)
    claim = client.post(
        f"/api/games/{created['id']}/seats/1/claim", json={"invite": created["seats"][1]["invite"]}, headers=bearer(friend)
    )
    assert claim.status_code == 200, claim.text
    return created


def test_a_signed_in_creator_reserves_a_seat_for_a_friends_profile(client):
    ana, beto = claim_name(client, "Ana"), claim_name(client, "Beto")
    first = played_together(client, ana, beto)
    reserved = {"name": "Beto", "kind": "human", "profile": "beto"}
    created = new_game(client, [ANA, reserved], ana)
    assert created["seats"][1]["token"] is None and created["seats"][1]["invite"] is None

    held = [seat for seat in my_seats(client, beto) if seat["game"] != first["id"]]
    assert [(seat["game"], seat["seat"]) for seat in held] == [(created["id"], 1)]
    [held] = held
    view = client.get(f"/api/games/{created['id']}").json()
    assert not view["seats"][1]["open"] and not view["seats"][1]["unclaimed"]
    assert roll(client, created["id"], 0, created["seats"][0]["token"]) == 200
    assert roll(client, created["id"], 1, held["token"]) == 409  # Beto's token is accepted; it is Ana's turn

    anonymous = client.post("/api/games", json={"game": "penta", "players": [ANA, reserved]})
    assert anonymous.status_code == 401 and anonymous.json()["code"] == "profile_needed"
    unknown = client.post(
        "/api/games", json={"game": "penta", "players": [ANA, {**reserved, "profile": "Nadie"}]}, headers=bearer(ana)
    )
    assert unknown.status_code == 404 and unknown.json()["code"] == "profile_not_found"


def test_a_seat_is_reserved_only_for_a_profile_the_creator_played_with(client):
    """The audit's attack: a signed-in stranger reserved seats for Beto, whose devices then got its turns."""
    beto, stranger = claim_name(client, "Beto"), claim_name(client, "Mallory")
    reserved = {"name": "Beto", "kind": "human", "profile": "Beto"}
    refused = client.post(
        "/api/games", json={"game": "penta", "players": [ANA, reserved], "turn_clock": "1d"}, headers=bearer(stranger)
    )
    assert (refused.status_code, refused.json()["code"]) == (403, "profile_seat_stranger")
    assert "Beto" in refused.json()["message"]
    assert my_seats(client, beto) == [] and my_seats(client, stranger) == []  # nothing was stored
    spanish = client.post(
        "/api/games", json={"game": "penta", "players": [ANA, reserved], "lang": "es"}, headers=bearer(stranger)
    )
    assert spanish.json()["message"].startswith("todavía no jugaste con Beto")

    assert client.get("/api/profiles/Beto", headers=bearer(stranger)).json()["played_with_you"] is False
    played_together(client, stranger, beto)  # once Beto took a seat of the creator's, the creator may reserve one
    assert client.get("/api/profiles/Beto", headers=bearer(stranger)).json()["played_with_you"] is True
    assert client.get("/api/profiles/Beto").json()["played_with_you"] is False  # nobody signed in
    assert client.get("/api/profiles/Mallory", headers=bearer(stranger)).json()["played_with_you"] is False  # oneself
    assert new_game(client, [ANA, reserved], stranger)["seats"][1]["name"] == "Beto"
    mine = {"name": "Me", "kind": "human", "profile": "Mallory"}  # one's own profile needs no game together
    assert new_game(client, [LUIS, mine], stranger)["seats"][1]["name"] == "Mallory"  # under the profile's name


def play_to_the_end(client, created) -> None:
    """Both hot seats play as the casual computer player would."""
    live = client.app.state.services.games.get(created["id"])
    chooser = make_player("casual", live.match.rules)
    while not live.state.is_over:
        state = live.state
        action = {"type": "roll"} if state.is_chance else action_to_json(chooser.choose(state))
        seat = state.current_player
        body = {"seat": seat, "token": created["seats"][seat]["token"], "action": action}
        assert client.post(f"/api/games/{created['id']}/actions", json=body).status_code == 200


@pytest.mark.slow  # a finished game's review needs the solver's tables
def test_anyone_sees_a_profiles_finished_games_and_record_and_a_rematch_is_the_profiles_too(client):
    beto = claim_name(client, "Beto")
    finished = new_game(client, [{"name": "Betito", "kind": "human"}, LUIS], beto)
    unfinished = new_game(client, [{"name": "Beto", "kind": "human"}, LUIS], beto)
    play_to_the_end(client, finished)
    assert roll(client, unfinished["id"], 0, unfinished["seats"][0]["token"]) == 200

    answer = client.get("/api/profiles/BETO")
    assert answer.status_code == 200, answer.text
    public = answer.json()
    assert set(public) == {
        "name", "rule_sets", "games", "played_with_you", "ratings", "performance", "rating_history", "hidden_from_boards",
    } and public["name"] == "Beto"  # nothing of its unfinished games, devices or seats' tokens
    [game] = public["games"]  # the seat's name is not the profile's: it counts all the same
    assert (game["id"], game["seat"], game["players"]) == (finished["id"], 0, 2)
    assert public["rule_sets"][0]["games"] == 1
    assert beto["secret"] not in answer.text and finished["seats"][0]["token"] not in answer.text
    page = client.get("/profile/Beto")
    assert page.status_code == 200 and '"profile": true' in page.text

    token = finished["seats"][0]["token"]
    rematch = client.post(f"/api/games/{finished['id']}/rematch", json={"seat": 0, "token": token}).json()
    client.post(f"/api/games/{finished['id']}/rematch", json={"seat": 0, "token": token})  # asked again: linked once
    held = {(seat["game"], seat["seat"]): seat["token"] for seat in my_seats(client, beto)}
    assert held[rematch["id"], 0] == token  # a rematch keeps the seats' tokens, and the profile its seat
    assert roll(client, rematch["id"], 0, token) == 200


def test_a_profile_lists_its_devices_and_revokes_one_without_deleting_itself(client):
    beto = claim_name(client, "Beto")
    lost_phone = {"secret": client.app.state.services.profiles.add_device(beto["id"])}  # a passkey's sign-in
    devices = client.get("/api/profiles/me/devices", headers=bearer(beto)).json()
    assert len(devices) == 2 and [device["current"] for device in devices] == [True, False]
    assert all(len(device["id"]) == 16 and lost_phone["secret"] not in str(device) for device in devices)

    revoked = client.delete(f"/api/profiles/me/devices/{devices[1]['id']}", headers=bearer(beto))
    assert revoked.status_code == 204
    assert client.get("/api/profiles/me", headers=bearer(lost_phone)).json()["code"] == "profile_needed"
    assert client.get("/api/profiles/me", headers=bearer(beto)).json()["name"] == "Beto"
    assert [device["id"] for device in client.get("/api/profiles/me/devices", headers=bearer(beto)).json()] == [
        devices[0]["id"]
    ]
    for unknown in (devices[1]["id"], "%25" * 16, "0" * 15):  # gone, a LIKE pattern, too short
        refused = client.delete(f"/api/profiles/me/devices/{unknown}", headers=bearer(beto))
        assert (refused.status_code, refused.json()["code"]) == (404, "device_not_found"), unknown
    stranger = claim_name(client, "Luis")
    refused = client.delete(f"/api/profiles/me/devices/{devices[0]['id']}", headers=bearer(stranger))
    assert refused.status_code == 404  # another profile's device is none of its own
    assert client.get("/api/profiles/me", headers=bearer(beto)).status_code == 200


@pytest.mark.parametrize(
    "name",
    ["Be\u200bto", "Be\u00adto", "\u202eoteB", "Beto\u0007", "Be/to"],  # zero-width, soft hyphen, RTL override, bell
)
def test_a_name_with_invisible_or_control_characters_or_a_slash_is_refused(client, name):
    claim_name(client, "Beto")
    refused = client.post("/api/profiles", json={"name": name})
    assert (refused.status_code, refused.json()["code"]) == (400, "name_characters")
    luis = claim_name(client, "Luis")
    renamed = client.patch("/api/profiles/me", json={"name": name}, headers=bearer(luis))
    assert (renamed.status_code, renamed.json()["code"]) == (400, "name_characters")
    assert client.get("/api/profiles/me", headers=bearer(luis)).json()["name"] == "Luis"


@pytest.mark.parametrize(
    ("name", "code"),
    [
        ("ＢＥＴＯ", "name_taken"),  # full-width: NFKC makes it Beto
        ("Beto\u0301", "name_taken"),  # o and a combining acute: NFKC makes it Betó
        ("B\u0435to", "name_look_alike"),  # a Cyrillic е
        ("\u0412\u0415\u0422\u041e", "name_look_alike"),  # ВЕТО, all Cyrillic capitals
        ("PauI", "name_look_alike"),  # a capital I for the l of Paul
    ],
)
def test_a_name_that_normalizes_or_looks_like_a_taken_one_is_refused(client, name, code):
    for taken in ("Beto", "Betó", "Paul"):
        claim_name(client, taken)
    refused = client.post("/api/profiles", json={"name": name})
    assert (refused.status_code, refused.json()["code"]) == (409, code), refused.text
    luis = claim_name(client, "Luis")
    renamed = client.patch("/api/profiles/me", json={"name": name}, headers=bearer(luis))
    assert (renamed.status_code, renamed.json()["code"]) == (409, code)
    assert client.get("/api/profiles/me", headers=bearer(luis)).json()["name"] == "Luis"
    assert client.get("/api/profiles/ｂｅｔｏ").json()["name"] == "Beto"  # looked up by the same key
    renamed = client.patch("/api/profiles/me", json={"name": "LUIS"}, headers=bearer(luis))  # its own look-alike
    assert renamed.status_code == 200, renamed.text


LOOK_ALIKES_OF_BETO = ["Beto", "B\u0435to", "\u0412\u0415\u0422\u041e", "Bet\u043e", "B\u0435t\u043e", "\u0412eto"]


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_look_alike_names_claimed_at_the_same_moment_give_one_profile(kind, tmp_path, request):
    """Six devices claim six look-alikes of Beto at once (Latin and Cyrillic letters mixed), then six rename
    themselves so: one name is taken each time, the others are refused name_look_alike. Checked then
    written, two claims at once both passed the check."""
    from concurrent.futures import ThreadPoolExecutor

    from cubilete.web import RateLimits

    url = f"sqlite:///{tmp_path / 'games.sqlite3'}" if kind == "sqlite" else request.getfixturevalue("postgres_url")
    with TestClient(create_app(url, rate_limits=RateLimits(profiles=None))) as client:
        with ThreadPoolExecutor(len(LOOK_ALIKES_OF_BETO)) as threads:
            created = list(threads.map(lambda name: client.post("/api/profiles", json={"name": name}), LOOK_ALIKES_OF_BETO))
        others = [claim_name(client, f"Player {number}") for number in range(len(LOOK_ALIKES_OF_BETO))]
        client.delete("/api/profiles/me", headers=bearer(next(answer.json() for answer in created if answer.status_code == 201)))
        with ThreadPoolExecutor(len(others)) as threads:
            renamed = list(threads.map(
                lambda pair: client.patch("/api/profiles/me", json={"name": pair[1]}, headers=bearer(pair[0])),
                zip(others, LOOK_ALIKES_OF_BETO),
            ))
    for answers in (created, renamed):
        statuses = sorted(answer.status_code for answer in answers)
        assert statuses == [200 if answers is renamed else 201] + [409] * (len(answers) - 1), statuses
        assert {answer.json()["code"] for answer in answers if answer.status_code == 409} <= {"name_look_alike", "name_taken"}


def test_a_game_whose_seat_took_no_decision_of_its_own_stays_out_of_the_profiles_record(client):
    """The audit's second half: the clock played every turn of a seat reserved for Beto, and the game landed in
    his public record. Its review found no decision of the seat's own (stored here as the review stores it:
    the test needs no solver tables), so it stays out; a game Beto played is in."""
    ana, beto = claim_name(client, "Ana"), claim_name(client, "Beto")
    played_together(client, ana, beto)
    reserved = {"name": "Beto", "kind": "human", "profile": "Beto"}
    games = [new_game(client, [ANA, reserved], ana) for _ in range(2)]
    tokens = {seat["game"]: seat["token"] for seat in my_seats(client, beto)}
    for created in games:
        created["seats"][1]["token"] = tokens[created["id"]]
        play_to_the_end(client, created)
    clock_played, played = games
    client.app.state.services.games.storage.summaries.store(
        [SeatSummary(clock_played["id"], 1, 80, 2, 0, 0.0, "points"), SeatSummary(played["id"], 1, 90, 1, 12, 3.5, "points")],
        SUMMARY_VERSION,
    )
    public = client.get("/api/profiles/Beto").json()
    assert [game["id"] for game in public["games"]] == [played["id"]]
    assert public["rule_sets"][0]["games"] == 1


def test_a_name_longer_than_its_key_may_be_once_normalized_is_refused(client):
    """NFKC makes one «ﷺ» 18 letters: six of them (6 characters) would not fit the key's 96."""
    refused = client.post("/api/profiles", json={"name": "\ufdfa" * 6})
    assert (refused.status_code, refused.json()["code"]) == (400, "name_too_long")


def test_a_profiles_seat_takes_its_name_and_default_names_read_in_the_readers_language(client):
    """Issue 34, item 1: Ana, signed in, leaves the form's default names ("Jugador 1"); her seat, Beto's claim,
    Luis's join and a seat reserved for Beto all read as the profiles' names, and a seat nobody named reads
    in each reader's language, in the game's view, the open tables and a push."""
    ana, beto, luis = claim_name(client, "Ana"), claim_name(client, "Beto"), claim_name(client, "Luis")
    defaults = [{"name": "Jugador 1", "kind": "human"}, {"name": "Jugador 2", "kind": "human", "invited": True}]
    invited = new_game(client, defaults, ana, lang="es")
    claim = client.post(
        f"/api/games/{invited['id']}/seats/1/claim", json={"invite": invited["seats"][1]["invite"]}, headers=bearer(beto)
    )
    assert claim.status_code == 200, claim.text
    names = lambda game, lang: [seat["name"] for seat in client.get(f"/api/games/{game['id']}?lang={lang}").json()["seats"]]  # noqa: E731
    assert names(invited, "id") == ["Ana", "Beto"]

    public = new_game(client, [*defaults, {"name": "Bot 3", "kind": "bot", "level": "beginner"}], public=True, lang="es")
    assert names(public, "id") == ["Pemain 1", "Pemain 2", "Bot 3"] and names(public, "en")[0] == "Player 1"
    [table] = [table for table in client.get("/api/open-tables?lang=en").json() if table["id"] == public["id"]]
    assert table["players"] == ["Player 1", "Bot 3"]
    join = client.post(f"/api/games/{public['id']}/seats/1/join", json={"name": "Pemain 2"}, headers=bearer(luis))
    assert join.status_code == 200, join.text
    assert names(public, "en") == ["Player 1", "Luis", "Bot 3"]

    reserved = new_game(client, [defaults[0], {**defaults[1], "invited": False, "profile": "beto"}], ana, lang="es")
    assert names(reserved, "es") == ["Ana", "Beto"]
    assert "Pemain 1" in rendered(Note(YOUR_TURN, public["id"], "penta", "Jugador 1"), "id")["body"]


def test_a_profile_lists_whom_it_played_with_lately_with_their_last_games_options(client):
    """Issue 34, item 5: the home page's "played lately" and its "play again" come from this answer."""
    ana, beto, carla = claim_name(client, "Ana"), claim_name(client, "Beto"), claim_name(client, "Carla")
    played_together(client, ana, beto)
    generala = new_game(client, [ANA, FRIEND], ana, game="generala", turn_clock="3d", hints_allowed=True)
    claim = client.post(
        f"/api/games/{generala['id']}/seats/1/claim", json={"invite": generala["seats"][1]["invite"]}, headers=bearer(beto)
    )
    assert claim.status_code == 200, claim.text
    played_together(client, carla, ana)  # Carla's game, whose invite Ana took
    rules = client.get(f"/api/games/{generala['id']}").json()["rules"]

    answer = client.get("/api/profiles/me/played-with", headers=bearer(ana)).json()
    assert [partner["name"] for partner in answer] == ["Carla", "Beto"]  # the latest first, each once
    assert answer[1] == {"name": "Beto", "game": "generala", "rules": rules, "turn_clock": "3d", "hints_allowed": True}
    assert answer[0]["turn_clock"] == 0 and not answer[0]["hints_allowed"]
    assert client.get("/api/profiles/me/played-with").status_code == 401
