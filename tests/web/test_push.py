"""Web Push with a real peer: the app sends each kind of push to a push service of the tests'
(tests/push_service.py), which checks its VAPID signature and claims and decrypts it with the keys of
the subscription it made, as a phone's browser would. Nothing is sent while the seat's page is in
sight; a subscription the push service says is gone is forgotten; a failed push is tried again."""

from __future__ import annotations

import base64
import time
from contextlib import ExitStack
from datetime import UTC, datetime, timedelta

import pytest
from fastapi.testclient import TestClient

from cubilete.web import create_app
from cubilete.web.push import PushSettings
from cubilete.web.push import outbox as outbox_module
from tests.push_service import PushService, SilentPushService

ANA = {"name": "Ana", "kind": "human"}
LUIS = {"name": "Luis", "kind": "human", "invited": True}
FCM = "https://fcm.googleapis.com/fcm/send/dXk1"


@pytest.fixture
def service():
    with PushService() as push_service:
        yield push_service


@pytest.fixture
def app_client(database, service):
    settings = PushSettings(services=(f"{service.url}/push/",), retry_delays=(0.05, 0.05))
    with TestClient(create_app(database, push=settings)) as client:
        service.server_key = client.get("/api/push/key").json()["public_key"]
        yield client


def create(client, claim=True, **extra) -> dict:
    response = client.post("/api/games", json={"game": "penta", "players": [ANA, LUIS], **extra})
    assert response.status_code == 201, response.text
    created = response.json()
    if claim:
        claim_invite(client, created)
    return created


def claim_invite(client, created) -> None:
    invite = created["seats"][1]["invite"]
    claimed = client.post(f"/api/games/{created['id']}/seats/1/claim", json={"invite": invite})
    assert claimed.status_code == 200, claimed.text
    created["seats"][1]["token"] = claimed.json()["token"]


def subscribe(client, created, seat, subscription, lang=None, method="POST"):
    body = {"token": created["seats"][seat]["token"], "subscription": subscription} | ({"lang": lang} if lang else {})
    return client.request(method, f"/api/games/{created['id']}/seats/{seat}/push", json=body)


def subscribed(client, created, seat, service, name, lang="en") -> None:
    response = subscribe(client, created, seat, service.subscribe(name), lang)
    assert response.status_code == 200, response.text


def act(client, created, action, seat):
    body = {"seat": seat, "token": created["seats"][seat]["token"], "action": action}
    response = client.post(f"/api/games/{created['id']}/actions", json=body)
    assert response.status_code == 200, response.text
    return response.json()


def play_a_turn(client, created, seat) -> dict:
    """Roll once and score the seat's first open box."""
    view = act(client, created, {"type": "roll"}, seat)
    filled = view["table"]["sheets"][seat]["boxes"]
    box = next(box["id"] for box in view["table"]["boxes"] if box["id"] not in filled)
    return act(client, created, {"type": "score", "box": box}, seat)


def wait_until(check, what: str) -> None:
    deadline = time.monotonic() + 10
    while not check():
        assert time.monotonic() < deadline, what
        time.sleep(0.01)


# -- the key and the subscriptions ------------------------------------------------------------


def test_the_key_is_a_p256_point_made_once_and_kept_with_the_data(database, app_client):
    key = app_client.get("/api/push/key").json()["public_key"]
    point = base64.urlsafe_b64decode(key + "=")
    assert len(point) == 65 and point[0] == 4 and "=" not in key
    with TestClient(create_app(database)) as again:  # another process, or the next start
        assert again.get("/api/push/key").json() == {"public_key": key}


def test_a_seat_holder_subscribes_and_unsubscribes_and_a_wrong_token_is_refused(app_client, service):
    created = create(app_client)
    subscription = service.subscribe("ana")
    assert subscribe(app_client, created, 0, subscription).json() == {"subscribed": True}
    assert subscribe(app_client, created, 0, subscription).status_code == 200  # again: kept once
    wrong = dict(created, seats=[dict(created["seats"][0], token="x" * 24), created["seats"][1]])
    refused = subscribe(app_client, wrong, 0, subscription)
    assert (refused.status_code, refused.json()["code"]) == (403, "wrong_token")
    assert subscribe(app_client, created, 0, subscription, method="DELETE").json() == {"subscribed": False}
    store = app_client.app.state.services.push.store
    assert store.recipients(created["id"], 0, None) == []


def test_a_seats_devices_are_bounded_and_so_are_a_clients_requests(database, service):
    from cubilete.web import RateLimits
    from cubilete.web.push.routes import MOST_PER_OWNER

    settings = PushSettings(services=(f"{service.url}/push/",))
    with TestClient(create_app(database, push=settings, rate_limits=RateLimits(push=MOST_PER_OWNER + 2))) as client:
        created = create(client)
        for device in range(MOST_PER_OWNER):
            assert subscribe(client, created, 0, service.subscribe(f"phone-{device}")).status_code == 200
        refused = subscribe(client, created, 0, service.subscribe("one-more"))
        assert (refused.status_code, refused.json()["code"]) == (400, "push_too_many")
        assert subscribe(client, created, 0, service.subscribe("phone-0")).status_code == 200  # a device again
        assert subscribe(client, created, 0, service.subscribe("phone-1")).status_code == 429


@pytest.mark.parametrize(
    "endpoint",
    [
        "https://evil.example.com/push",
        "https://googleapis.com.evil.example/push",
        "http://fcm.googleapis.com/fcm/send/x",
        "https://user@fcm.googleapis.com/fcm/send/x",
        "http://127.0.0.1:1/push/x",  # this machine, but not the service allowed
        "http://169.254.169.254/latest/meta-data",
        "http://127.0.0.1:99999/push/x",  # no URL: a port beyond 65535, a port that is no number, a stray "["
        "http://127.0.0.1:abc/push/x",
        "http://[127.0.0.1/push/x",
    ],
)
def test_an_endpoint_outside_the_allowed_push_services_is_refused(app_client, service, endpoint):
    created = create(app_client)
    subscription = service.subscribe("ana") | {"endpoint": endpoint}
    refused = subscribe(app_client, created, 0, subscription)
    assert (refused.status_code, refused.json()["code"]) == (400, "push_service_not_allowed")


def test_the_known_push_services_are_allowed_by_default_and_bad_keys_refused(client):
    created = create(client)
    keys = PushService().subscribe("x")["keys"]
    assert subscribe(client, created, 0, {"endpoint": FCM, "keys": keys}).status_code == 200
    for bad in ({"p256dh": keys["auth"]}, {"auth": keys["p256dh"]}, {"p256dh": "!" + keys["p256dh"][1:]}, {"auth": 5}):
        refused = subscribe(client, created, 0, {"endpoint": FCM, "keys": keys | bad})
        assert (refused.status_code, refused.json()["code"]) == (400, "push_subscription"), bad
    not_on_curve = base64.urlsafe_b64encode(b"\x04" + b"\x01" * 64).rstrip(b"=").decode()
    refused = subscribe(client, created, 0, {"endpoint": FCM, "keys": keys | {"p256dh": not_on_curve}})
    assert refused.json()["code"] == "push_subscription"


# -- what is sent --------------------------------------------------------------------------------


def test_your_turn_reaches_the_seat_given_the_turn_in_its_language(app_client, service):
    created = create(app_client)
    subscribed(app_client, created, 1, service, "luis", lang="es")
    play_a_turn(app_client, created, 0)
    message = service.wait_for_kind("luis", "your_turn")
    assert message == {
        "kind": "your_turn",
        "title": "Tu turno",
        "body": "Luis, es tu turno en Penta.",
        "url": f"/game/{created['id']}",
        "tag": f"cubilete-{created['id']}",
        "game": created["id"],
    }
    assert service.problems == [] and service.received[0].headers["urgency"] == "high"


def test_a_friend_taking_the_invite_is_told_to_the_other_players(app_client, service):
    created = create(app_client, claim=False)
    subscribed(app_client, created, 0, service, "ana", lang="id")
    claim_invite(app_client, created)
    message = service.wait_for_kind("ana", "invite_taken")
    assert (message["title"], message["body"]) == ("Luis bergabung", "Luis mengambil kursinya di permainan Penta Anda.")


@pytest.mark.slow  # a whole game of Penta: about 1.5 s
def test_the_end_of_the_game_is_told_to_every_seat_then_its_subscriptions_dropped(app_client, service):
    created = create(app_client)
    subscribed(app_client, created, 0, service, "ana")
    subscribed(app_client, created, 1, service, "luis")
    view = app_client.get(f"/api/games/{created['id']}").json()
    while view["current_player"] is not None:
        view = play_a_turn(app_client, created, view["current_player"])
    for name in ("ana", "luis"):
        message = service.wait_for_kind(name, "game_over")
        assert message["title"] == "Game over" and message["body"].endswith(" won.")
    store = app_client.app.state.services.push.store
    wait_until(lambda: store.recipients(created["id"], 0, None) == [], "the subscriptions dropped")
    refused = subscribe(app_client, created, 0, service.subscribe("ana-again"))
    assert (refused.status_code, refused.json()["code"]) == (409, "game_over")


def test_the_reminder_of_a_quarter_left_is_sent_once_per_turn(app_client, service):
    created = create(app_client)
    subscribed(app_client, created, 0, service, "ana")
    subscribed(app_client, created, 1, service, "luis", lang="es")
    services = app_client.app.state.services
    live = services.games.get(created["id"])
    services.push.notifier.quarter_left(live)
    services.push.notifier.quarter_left(live)  # the sweeper again, or another process
    message = service.wait_for_kind("ana", "reminder")
    assert message["body"] == "Ana, a quarter of your time is left in Penta."
    play_a_turn(app_client, created, 0)  # then Luis's turn: his reminder is new
    services.push.notifier.quarter_left(services.games.get(created["id"]))
    assert service.wait_for_kind("luis", "reminder")["title"] == "Se te acaba el tiempo"
    assert service.kinds("ana").count("reminder") == 1


@pytest.mark.slow  # the computer's turn waits for the advice tables
def test_the_computer_playing_a_turn_for_the_clock_is_told_to_that_seat(app_client, service):
    created = create(app_client, turn_clock=30)
    subscribed(app_client, created, 1, service, "luis")
    at = play_a_turn(app_client, created, 0)["events"]
    service.wait_for_kind("luis", "your_turn")
    games = app_client.app.state.services.games
    games.now = lambda: datetime.now(UTC) + timedelta(seconds=31)
    response = app_client.post(f"/api/games/{created['id']}/clock", json={"at": at})
    assert response.status_code == 200, response.text
    message = service.wait_for_kind("luis", "clock_played")
    assert message["body"] == "Luis's time ran out in Penta: the computer played that turn."


def test_no_your_turn_while_the_seats_page_is_in_sight(app_client, service):
    created = create(app_client)
    subscribed(app_client, created, 0, service, "ana")
    subscribed(app_client, created, 1, service, "luis")
    presence = app_client.app.state.services.presence
    with ExitStack() as pages:
        socket = pages.enter_context(app_client.websocket_connect(f"/api/games/{created['id']}/live"))
        socket.receive_json()
        socket.send_json({"seats": {"1": created["seats"][1]["token"]}})
        wait_until(lambda: 1 in presence.visible(created["id"]), "Luis's page in sight")
        play_a_turn(app_client, created, 0)
        play_a_turn(app_client, created, 1)
        service.wait_for_kind("ana", "your_turn")  # sent after Luis's would have been, by the same worker
        assert service.kinds("luis") == []
        socket.send_json({"visible": False})  # Luis's phone locks
        wait_until(lambda: 1 not in presence.visible(created["id"]), "Luis's page hidden")
        assert 1 in presence.present(created["id"])  # still connected: not away
        play_a_turn(app_client, created, 0)
        service.wait_for_kind("luis", "your_turn")


def test_a_gone_subscription_is_forgotten_and_a_failed_push_tried_again(app_client, service):
    # Ana subscribes before Luis takes his invite, and hears it: the note that he took it would otherwise
    # race her subscription (on a loaded machine it came after it, a fourth try), and only her turn's
    # push is counted.
    created = create(app_client, claim=False)
    subscribed(app_client, created, 0, service, "ana")
    claim_invite(app_client, created)
    service.wait_for_kind("ana", "invite_taken")
    subscribed(app_client, created, 1, service, "luis")
    service.answer("luis", 410)
    service.answer("ana", 500, 503)
    tries_before = service.tries["ana"]
    play_a_turn(app_client, created, 0)
    store = app_client.app.state.services.push.store
    wait_until(lambda: store.recipients(created["id"], 1, None) == [], "Luis's subscription forgotten")
    play_a_turn(app_client, created, 1)
    service.wait_for_kind("ana", "your_turn")
    assert service.tries["ana"] - tries_before == 3 and service.tries["luis"] == 1


def test_a_push_service_that_never_answers_delays_no_push_to_another_service(database, service, monkeypatch):
    """The audit's attack (issue 32, item 9): a subscription at a service that holds every request; another
    game's push to another service arrived 99.9 s later. The silent service holds its request a minute
    here (its read timeout raised), so the other push must not wait for it."""
    monkeypatch.setattr(outbox_module, "SEND_TIMEOUT", (3.05, 60.0))
    with SilentPushService() as silent:
        settings = PushSettings(services=(f"{service.url}/push/", f"{silent.url}/"), retry_delays=(0.05,))
        with TestClient(create_app(database, push=settings)) as client:
            service.server_key = client.get("/api/push/key").json()["public_key"]
            held_game, other_game = create(client), create(client)
            held = service.subscribe("luis") | {"endpoint": f"{silent.url}/push/luis"}
            assert subscribe(client, held_game, 1, held).status_code == 200
            subscribed(client, other_game, 1, service, "eva")
            play_a_turn(client, held_game, 0)
            assert silent.asked.wait(10), "the push to the silent service was never sent"
            play_a_turn(client, other_game, 0)
            service.wait_for_kind("eva", "your_turn")  # while the silent service still holds its request


# -- across processes, profiles, the host's options ------------------------------------------------


@pytest.mark.slow  # two apps on PostgreSQL and Redis: about 2.5 s
def test_across_processes_on_postgresql_no_push_while_the_page_is_in_sight_in_the_other(
    postgres_url, redis_url, service
):
    """Luis's page is on one process, Ana's move stored by the other: its notifier hears his page's presence.
    Both processes made or read the same key, and the reminder is sent once of the two."""
    settings = PushSettings(services=(f"{service.url}/push/",))
    with ExitStack() as stack:
        first = stack.enter_context(TestClient(create_app(postgres_url, redis_url, push=settings)))
        second = stack.enter_context(TestClient(create_app(postgres_url, redis_url, push=settings)))
        service.server_key = first.get("/api/push/key").json()["public_key"]
        assert second.get("/api/push/key").json()["public_key"] == service.server_key
        created = create(first)
        subscribed(first, created, 0, service, "ana")
        subscribed(first, created, 1, service, "luis")
        socket = stack.enter_context(first.websocket_connect(f"/api/games/{created['id']}/live"))
        socket.receive_json()
        socket.send_json({"seats": {"1": created["seats"][1]["token"]}})
        wait_until(lambda: 1 in first.app.state.services.presence.visible(created["id"]), "Luis's page in sight")
        play_a_turn(second, created, 0)
        play_a_turn(second, created, 1)
        service.wait_for_kind("ana", "your_turn")
        assert service.kinds("luis") == []
        socket.send_json({"visible": False})
        second_presence = second.app.state.services.presence
        wait_until(lambda: 1 not in second_presence.visible(created["id"]), "the other process hears it hidden")
        play_a_turn(second, created, 0)
        service.wait_for_kind("luis", "your_turn")
        for app in (first, second):
            services = app.app.state.services
            services.push.notifier.quarter_left(services.games.get(created["id"]))
        service.wait_for_kind("luis", "reminder")
        play_a_turn(second, created, 1)  # then Ana's your_turn, after any second reminder would have come
        service.wait_for_kind("ana", "your_turn", count=2)
        assert service.kinds("luis").count("reminder") == 1


def test_a_profiles_subscription_hears_every_seat_it_owns(database, service):
    """A profile's device subscribes once (POST /api/profiles/me/push) and hears the seats the profile
    takes afterwards: here Luis's invite, claimed while signed in."""
    app = create_app(database, push=PushSettings(services=(f"{service.url}/push/",)))
    with TestClient(app) as client:
        service.server_key = client.get("/api/push/key").json()["public_key"]
        luis = client.post("/api/profiles", json={"name": "Luis"}).json()
        signed_in = {"Authorization": f"Bearer {luis['secret']}"}
        body = {"subscription": service.subscribe("luis-phone"), "lang": "es"}
        assert client.post("/api/profiles/me/push", json=body).status_code == 401  # no profile: refused
        answer = client.post("/api/profiles/me/push", json=body, headers=signed_in)
        assert answer.json() == {"subscribed": True}
        created = create(client, claim=False)
        invite = created["seats"][1]["invite"]
        claimed = client.post(f"/api/games/{created['id']}/seats/1/claim", json={"invite": invite}, headers=signed_in)
        assert claimed.status_code == 200, claimed.text
        created["seats"][1]["token"] = claimed.json()["token"]
        play_a_turn(client, created, 0)
        assert service.wait_for_kind("luis-phone", "your_turn")["body"] == "Luis, es tu turno en Penta."
        gone = client.request("DELETE", "/api/profiles/me/push", json=body, headers=signed_in)
        assert gone.json() == {"subscribed": False}
        assert client.app.state.services.push.store.recipients(created["id"], 1, luis["id"]) == []


def test_a_pages_visibility_travels_between_processes_and_only_as_a_boolean():
    from cubilete.web.broker import SeatsPresent
    from cubilete.web.live import BadRequest, Visible, request_of
    from cubilete.web.wire import decoded, encoded

    news = SeatsPresent("p1", (0, 2), (2,))
    assert decoded(encoded(news)) == news and decoded(encoded(SeatsPresent("p1", ()))) == SeatsPresent("p1", ())
    assert request_of('{"visible": false}') == Visible(False)
    with pytest.raises(BadRequest):
        request_of('{"visible": 0}')


def test_a_public_url_with_a_port_still_signs_its_pushes(database, service):
    """The host's audit: behind https://host:8443 every push failed ("Missing 'sub' from claims") and was lost;
    the contact is now the URL's host alone."""
    settings = PushSettings(services=(f"{service.url}/push/",))
    with TestClient(create_app(database, push=settings, public_url="https://cubilete.example:8443/")) as client:
        service.server_key = client.get("/api/push/key").json()["public_key"]
        created = create(client)
        subscribed(client, created, 1, service, "luis")
        play_a_turn(client, created, 0)
        service.wait_for_kind("luis", "your_turn")
    assert service.received[0].claims["sub"] == "https://cubilete.example"


def test_a_push_contact_the_signing_library_would_refuse_is_refused_at_start():
    from cubilete.cli.main import build_parser

    parser = build_parser()
    for accepted in ("mailto:host@example.org", "https://example.org"):
        assert parser.parse_args(["serve", "--push-contact", accepted]).push_contact == accepted
    for refused in ("https://example.org:8443", "https://example.org/admin", "host@example.org", "mailto:host"):
        with pytest.raises(SystemExit) as exit_info:
            parser.parse_args(["serve", "--push-contact", refused])
        assert exit_info.value.code == 2


def test_the_host_chooses_the_push_services_by_option_or_environment(monkeypatch):
    from cubilete.cli.main import build_parser

    parser = build_parser()
    args = parser.parse_args(["serve", "--push-services", "https://push.example.org/,http://127.0.0.1:9/push/"])
    assert args.push_services == ("https://push.example.org/", "http://127.0.0.1:9/push/")
    for refused in ("http://push.example.org/", "ftp://x/", ","):
        with pytest.raises(SystemExit):
            parser.parse_args(["serve", "--push-services", refused])
    monkeypatch.setenv("CUBILETE_PUSH_SERVICES", "https://*.push.example.org/")
    monkeypatch.setenv("CUBILETE_PUSH_CONTACT", "mailto:host@example.org")
    args = build_parser().parse_args(["serve"])
    assert (args.push_services, args.push_contact) == (("https://*.push.example.org/",), "mailto:host@example.org")


@pytest.fixture(params=["sqlite", "postgresql"])
def any_database(request, database):
    return database if request.param == "sqlite" else request.getfixturevalue("postgres_url")


def test_subscriptions_arriving_at_once_keep_the_seats_cap(any_database):
    """40 devices subscribe one seat at the same moment: at most 10 are kept, the others refused."""
    from concurrent.futures import ThreadPoolExecutor

    from cubilete.web import RateLimits
    from cubilete.web.push.routes import MOST_PER_OWNER

    keys = PushService().subscribe("any")["keys"]
    settings = PushSettings(services=("https://push.example/",))
    with TestClient(create_app(any_database, push=settings, rate_limits=RateLimits(push=100))) as client:
        created = create(client)
        subscriptions = [{"endpoint": f"https://push.example/{device}", "keys": keys} for device in range(40)]
        with ThreadPoolExecutor(len(subscriptions)) as threads:
            answers = list(threads.map(lambda subscription: subscribe(client, created, 0, subscription), subscriptions))
        store = client.app.state.services.push.store
        kept = store.recipients(created["id"], 0, None)
    assert sorted({answer.status_code for answer in answers}) == [200, 400]
    assert len(kept) == MOST_PER_OWNER == sum(answer.status_code == 200 for answer in answers)
    assert {answer.json()["code"] for answer in answers if answer.status_code == 400} == {"push_too_many"}


@pytest.mark.parametrize(
    ("lang", "one", "two"),
    [("es", "Penta: ganó Ana.", "Penta: ganaron Ana y Beto."), ("en", "Penta: Ana won.", "Penta: Ana and Beto won."),
     ("id", "Penta: Ana menang.", "Penta: Ana dan Beto menang.")],
)
def test_the_game_over_push_agrees_with_the_number_of_winners(lang, one, two):
    """Issue 34 item 14: a shared win read «ganó Ana y Beto»."""
    from cubilete.web.push.messages import GAME_OVER, Note, rendered

    def body(*winners: str) -> str:
        return rendered(Note(GAME_OVER, "g1", "penta", "Ana", winners), lang)["body"]

    assert (body("Ana"), body("Ana", "Beto")) == (one, two)
