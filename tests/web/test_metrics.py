"""GET /metrics, the host's figures (web/metrics.py): off unless the host gives a token, refused to whoever
does not bring it, and, for the host, Prometheus text whose counters a move and a push raise."""

from __future__ import annotations

import time

import pytest
from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families

from cubilete.cli.main import main
from cubilete.web import create_app
from cubilete.web.push import PushSettings
from cubilete.web.tables import TABLE_MEMORY_MB
from tests.push_service import PushService
from tests.web.test_push import act, claim_invite, create, play_a_turn, subscribed

TOKEN = "host-only-4f9c2a7e1b"
HOST = {"Authorization": f"Bearer {TOKEN}"}
ACTIONS = "/api/games/{game_id}/actions"


@pytest.fixture
def service():
    with PushService() as push_service:
        yield push_service


@pytest.fixture
def host_client(database, service):
    settings = PushSettings(services=(f"{service.url}/push/",))
    with TestClient(create_app(database, metrics_token=TOKEN, push=settings)) as client:
        service.server_key = client.get("/api/push/key").json()["public_key"]
        yield client


def figure(client: TestClient, name: str, **labels: str) -> float:
    """One sample of the host's figures (0 when the series has none yet)."""
    answer = client.get("/metrics", headers=HOST)
    assert answer.status_code == 200, answer.text
    for family in text_string_to_metric_families(answer.text):
        for sample in family.samples:
            if sample.name == name and sample.labels == labels:
                return sample.value
    return 0.0


# The outbox's worker counts a push once its service answered. It shares this process's interpreter with the
# test and the push service: on a loaded machine (CI, 2026-12-06) it once took over 10 s, while the test
# looked at /metrics, which runs the app here, every 0.01 s. Every 0.1 s leaves the worker more of it.
COUNTED_SECONDS = 30


def eventually(read, expected: float, what: str) -> None:
    """Wait, COUNTED_SECONDS at most, for a figure `read` gives to be `expected`."""
    deadline = time.monotonic() + COUNTED_SECONDS
    while (value := read()) != expected:
        assert time.monotonic() < deadline, f"{what}: {value}, not {expected}, after {COUNTED_SECONDS} s"
        time.sleep(0.1)


def test_without_a_token_there_are_no_metrics(client):
    assert client.get("/metrics").status_code == 404


def test_a_stranger_is_refused_with_a_code_in_their_language_and_the_host_served(host_client):
    for headers in ({}, {"Authorization": "Bearer wrong"}, {"Authorization": TOKEN}):
        refused = host_client.get("/metrics?lang=es", headers=headers)
        assert (refused.status_code, refused.json()["code"]) == (403, "metrics_refused")
        assert refused.json()["message"].startswith("las cifras de este servidor")
    served = host_client.get("/metrics", headers=HOST)
    assert served.status_code == 200 and served.headers["content-type"].startswith("text/plain; version=")
    assert figure(host_client, "cubilete_table_memory_budget_bytes") == TABLE_MEMORY_MB * 2**20
    assert figure(host_client, "cubilete_table_memory_bytes") == 0  # no request needed the solver
    assert figure(host_client, "process_resident_memory_bytes") > 0


def test_a_move_raises_the_moves_stored_and_its_route_is_counted_by_template(host_client):
    created = create(host_client)
    assert figure(host_client, "cubilete_games_in_memory") == 1
    moves, events = figure(host_client, "cubilete_moves_stored_total"), figure(host_client, "cubilete_events_stored_total")
    act(host_client, created, {"type": "roll"}, 0)
    assert figure(host_client, "cubilete_moves_stored_total") == moves + 1
    assert figure(host_client, "cubilete_events_stored_total") == events + 1  # the dice the table rolled
    assert figure(host_client, "cubilete_requests_total", route=ACTIONS, status="2xx") == 1
    refused = host_client.post(f"/api/games/{created['id']}/actions", json={"seat": 1, "token": "x" * 24,
                                                                            "action": {"type": "roll"}})
    assert refused.status_code == 403
    assert figure(host_client, "cubilete_moves_stored_total") == moves + 1  # a refused move stores nothing
    assert figure(host_client, "cubilete_requests_total", route=ACTIONS, status="4xx") == 1
    host_client.get(f"/no/such/{created['id']}")  # a stranger's guesses add no series per path
    assert figure(host_client, "cubilete_requests_total", route="unmatched", status="4xx") == 1


def test_a_push_sent_and_a_push_to_a_gone_subscription_raise_their_counters(host_client, service):
    def sent() -> float:
        return figure(host_client, "cubilete_pushes_sent_total")

    created = create(host_client, claim=False)
    # Ana subscribes before Luis takes her invite, so she is told of it whenever the notifier gets to it
    # (subscribed after, she would be told or not by how busy the machine is: CI once counted 2 sent).
    subscribed(host_client, created, 0, service, "ana")
    claim_invite(host_client, created)
    service.wait_for_kind("ana", "invite_taken")
    eventually(sent, 1, "the invite's push sent")
    subscribed(host_client, created, 1, service, "luis")
    service.answer("luis", 410)
    play_a_turn(host_client, created, 0)  # Luis's turn: his push service says his subscription is gone
    eventually(lambda: figure(host_client, "cubilete_pushes_failed_total", outcome="gone"), 1, "the gone push")
    play_a_turn(host_client, created, 1)  # Ana's turn: sent
    service.wait_for_kind("ana", "your_turn")
    eventually(sent, 2, "the pushes sent")
    assert figure(host_client, "cubilete_pushes_failed_total", outcome="unanswered") == 0


def test_a_short_token_is_refused_at_start(capsys):
    with pytest.raises(SystemExit) as stopped:
        main(["serve", "--metrics-token", "guessable"])
    assert stopped.value.code == 2 and "at least 16 characters" in capsys.readouterr().err
