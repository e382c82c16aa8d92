"""Per-client budgets of costly requests: a client creating games or asking QR codes in a loop is refused
429 `too_many_requests` with Retry-After, in its language and with the security headers, while another
address goes on; each route class (games, QR codes, hints and chances, reviews) has its own budget."""

from __future__ import annotations

import time
import urllib.error
import urllib.request

import limits.storage.memory
import pytest
from fastapi.testclient import TestClient

from cubilete.cli.main import main
from cubilete.players import default_level
from cubilete.web import RateLimits, create_app
from cubilete.web.clients import client_key
from cubilete.web.rate_limits import RequestRates, RouteClass, TooManyRequests
from cubilete.web.unplayed_games import UNPLAYED_MAX_AGE

LOOP = ("203.0.113.7", 40000)  # documentation addresses (RFC 5737, RFC 3849)
PERSON = ("203.0.113.8", 40000)
NEW_GAME = {"game": "penta", "players": [{"name": "Ana", "kind": "human"}]}


def refused_after(budget: int, ask) -> tuple[list[int], object]:
    """The statuses of `budget` requests, then the answer of one more."""
    statuses = [ask().status_code for _ in range(budget)]
    return statuses, ask()


def assert_too_many(answer, message_start: str) -> None:
    assert answer.status_code == 429
    body = answer.json()
    assert body["code"] == "too_many_requests" and body["message"].startswith(message_start)
    seconds = int(answer.headers["retry-after"])
    assert 1 <= seconds <= 60 and body["params"] == {"seconds": seconds}
    assert answer.headers["x-content-type-options"] == "nosniff"  # the security headers are on


def test_a_loop_creating_games_is_refused_at_the_default_budget_while_another_address_creates(database):
    budget = RateLimits().games
    app = create_app(database)
    with TestClient(app, client=LOOP) as loop:
        person = TestClient(app, client=PERSON)
        spanish = {"Accept-Language": "es-MX,es;q=0.9"}
        created, refused = refused_after(budget, lambda: loop.post("/api/games", json=NEW_GAME, headers=spanish))
        assert created == [201] * budget
        assert_too_many(refused, "demasiadas solicitudes")
        bot_game = {
            "game": "5000",
            "players": [NEW_GAME["players"][0], {"name": "Bot", "kind": "bot", "level": default_level("5000")}],
        }
        assert loop.post("/api/games", json=bot_game).status_code == 429  # a game with bots counts the same
        assert person.post("/api/games", json=NEW_GAME).status_code == 201


def test_a_qr_code_flood_is_refused_in_the_readers_language_while_another_address_gets_its_codes(database):
    budget = RateLimits().qr_codes
    app = create_app(database)
    with TestClient(app, client=LOOP) as loop:
        person = TestClient(app, client=PERSON)
        drawn, refused = refused_after(
            budget, lambda: loop.get("/api/qr", params={"text": "http://x/game/1", "lang": "id"})
        )
        assert drawn == [200] * budget
        assert_too_many(refused, "terlalu banyak permintaan")
        assert person.get("/api/qr", params={"text": "http://x/game/1"}).status_code == 200


@pytest.mark.parametrize(
    ("limits", "paths", "status"),
    [
        (RateLimits(hints=2), ("/api/games/nope/chances", "/api/games/nope/chances?at=3"), 404),
        (RateLimits(reviews=2), ("/api/games/nope/review", "/api/games/nope/review/4"), 404),
        (RateLimits(boards=2), ("/api/boards/nope", "/api/daily/nope/board"), 400),
    ],
)
def test_hints_chances_reviews_and_boards_share_a_budget_per_class(database, limits, paths, status):
    """Requests for a game that does not exist cost no solver table nor query and still count."""
    with TestClient(create_app(database, rate_limits=limits), client=LOOP) as loop:
        assert [loop.get(path).status_code for path in paths] == [status, status]
        assert_too_many(loop.get(paths[0]), "too many requests")
        assert loop.get("/api/qr", params={"text": "t"}).status_code == 200  # another class's budget


def test_hints_beyond_their_budget_are_refused(database):
    with TestClient(create_app(database, rate_limits=RateLimits(hints=1)), client=LOOP) as loop:
        proof = {"seat": 0, "token": "x" * 20}
        assert loop.post("/api/games/nope/hint", json=proof).status_code == 404
        assert_too_many(loop.post("/api/games/nope/hint", json=proof), "too many requests")


def test_a_class_without_a_budget_is_not_limited(database):
    with TestClient(create_app(database, rate_limits=RateLimits(qr_codes=None)), client=LOOP) as loop:
        assert {loop.get("/api/qr", params={"text": "t"}).status_code for _ in range(RateLimits().qr_codes + 5)} == {
            200
        }


@pytest.mark.parametrize(
    ("address", "key"),
    [
        ("198.51.100.20", "198.51.100.20"),
        ("2001:db8:1:2:aaaa::1", "2001:db8:1:2::/64"),  # one host's /64 counts as one client
        ("::ffff:198.51.100.20", "198.51.100.20"),
        ("testclient", "testclient"),
    ],
)
def test_a_client_is_counted_by_its_address(address, key):
    assert client_key({"client": (address, 1)}) == key


def test_the_help_gives_the_default_budgets_and_expiry(capsys):
    with pytest.raises(SystemExit):
        main(["serve", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    defaults = RateLimits()
    assert f"and rematches (default: {defaults.games})" in help_text
    assert f"QR codes of invite links (default: {defaults.qr_codes})" in help_text
    assert f"the live bar's chances (default: {defaults.hints})" in help_text
    assert f"finished games' records (default: {defaults.reviews})" in help_text
    assert f"players' reactions to the table (default: {defaults.reactions})" in help_text
    assert f"the list of open tables (default: {defaults.open_tables})" in help_text
    assert f"a game's boards and a day's board (default: {defaults.boards})" in help_text
    assert f"QR codes, all clients (default: {defaults.qr_codes_everyone})" in help_text
    assert f"hints and chances, all clients (default: {defaults.hints_everyone})" in help_text
    assert f"positions and records, all clients (default: {defaults.reviews_everyone})" in help_text
    assert f"open tables, all clients (default: {defaults.open_tables_everyone})" in help_text
    assert f"the boards, all clients (default: {defaults.boards_everyone})" in help_text
    assert f"0 keeps them (default: {UNPLAYED_MAX_AGE.total_seconds() / 3600:g})" in help_text


def test_cubilete_serve_takes_a_budget_from_its_option(start_server, database):
    server = start_server(database, options=("--qr-codes-per-minute", "3"))
    url = f"{server.url}/api/qr?text=invite"
    statuses = []
    for _ in range(4):
        try:
            with urllib.request.urlopen(url, timeout=30) as answer:
                statuses.append(answer.status)
        except urllib.error.HTTPError as refused:
            statuses.append(refused.code)
            retry_after = int(refused.headers["Retry-After"])
    assert statuses == [200, 200, 200, 429] and 1 <= retry_after <= 60


def test_the_counts_of_clients_whose_minute_is_over_are_forgotten(monkeypatch):
    """Memory holds the clients of the last minute only: a thousand addresses counted, then a minute on
    (the library's clock moved, not waited for), and the library's expiry forgets every one of them."""
    rates = RequestRates(RateLimits(qr_codes_everyone=None))  # a thousand addresses pass everyone's budget
    counts = rates._limiter.storage.storage  # the library's counters, one per client and class
    for number in range(1000):
        rates.count(RouteClass.QR_CODES, f"10.0.{number // 250}.{number % 250}")
    assert len(counts) == 1000
    a_minute_on = time.time() + 61
    monkeypatch.setattr(limits.storage.memory.time, "time", lambda: a_minute_on)
    rates.count(RouteClass.QR_CODES, "10.9.9.9")  # any request wakes the expiry, which runs in a thread
    deadline = time.monotonic() + 20
    while len(counts) > 1 and time.monotonic() < deadline:
        time.sleep(0.01)  # waiting for the expiry thread's state, not for a time
    assert len(counts) == 1


@pytest.mark.parametrize(
    ("limits", "path"),
    [
        (RateLimits(qr_codes=3, qr_codes_everyone=10), "/api/qr?text=invite"),
        (RateLimits(hints=3, hints_everyone=10), "/api/games/nope/chances"),
        (RateLimits(reviews=3, reviews_everyone=10), "/api/games/nope/review"),
        (RateLimits(open_tables=3, open_tables_everyone=10), "/api/open-tables"),
        (RateLimits(boards=3, boards_everyone=10), "/api/boards/penta"),
        (RateLimits(boards=3, boards_everyone=10), "/api/daily/generala/board"),
    ],
)
def test_many_addresses_each_within_its_budget_meet_everyone_s_budget_and_moves_go_on(database, limits, path):
    """The audit's attack (issue 32, item 6): 40 addresses, each within its QR budget, took a core. Here
    five addresses ask three times each; everyone's budget refuses past the tenth, a new address too,
    and a move is counted in no budget."""
    app = create_app(database, rate_limits=limits)
    with TestClient(app, client=LOOP) as first:
        addresses = [first] + [TestClient(app, client=(f"203.0.113.{n}", 40000)) for n in range(20, 24)]
        statuses = [client.get(path).status_code for client in addresses for _ in range(3)]
        assert statuses[:10] == [statuses[0]] * 10 and statuses[0] != 429
        assert statuses[10:] == [429] * 5
        assert_too_many(TestClient(app, client=PERSON).get(path), "too many requests")
        game = first.post("/api/games", json=NEW_GAME).json()
        roll = {"seat": 0, "token": game["seats"][0]["token"], "action": {"type": "roll"}}
        assert first.post(f"/api/games/{game['id']}/actions", json=roll).status_code == 200


def test_a_request_refused_by_everyone_s_budget_is_not_counted_in_its_address_s(database):
    limits = RateLimits(qr_codes=2, qr_codes_everyone=2)
    app = create_app(database, rate_limits=limits)
    with TestClient(app, client=LOOP) as loop:
        assert [loop.get("/api/qr", params={"text": "t"}).status_code for _ in range(2)] == [200, 200]
        assert TestClient(app, client=PERSON).get("/api/qr", params={"text": "t"}).status_code == 429
    rates = RequestRates(RateLimits(qr_codes=1, qr_codes_everyone=1))
    rates.count(RouteClass.QR_CODES, "a")
    with pytest.raises(TooManyRequests):
        rates.count(RouteClass.QR_CODES, "b")
    with pytest.raises(TooManyRequests):  # "a" is refused by its own budget, "b" had nothing counted
        rates.count(RouteClass.QR_CODES, "a")
