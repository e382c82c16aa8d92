"""The solver's tables under requests anyone can send (issue 25, item 1): creating a game builds none,
a build runs once at a time and off the request threads while every other route answers, and tables
past the process's budget are refused at once (503 tables_over_budget, Retry-After).

The builder is a stand-in given to the app's table gate (real duel tables take minutes and gigabytes);
the budget's test uses the players' real estimates of what each rule set's tables hold."""

from __future__ import annotations

import asyncio
import json
import logging
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from harness import Server, free_port, run_async

from cubilete.engine.games import GAMES, rules_for
from cubilete.players import player_levels, table_memory
from cubilete.solvers.cache_dir import CACHE_DIR_ENV
from cubilete.web import create_app
from cubilete.web.tables import RETRY_AFTER, TABLE_MEMORY_MB, ServerStopping, TableGate

SAFETY_SECONDS = 30  # a deadline for states that come at once when all is well
ANA = {"name": "Ana", "kind": "human"}
DUEL_BOT = {"name": "Bot", "kind": "bot", "level": "duel"}
PENTA_RULE_SETS = tuple(GAMES["penta"].variants)
HOST_BUDGET_MB = 2048  # a host's smaller budget (the default holds every rule set's): two Penta duels


class StandInBuilder:
    """Prepares nothing: records each job, and holds it until let go (`release`) when asked to."""

    def __init__(self, hold: bool = False) -> None:
        self.builds: list[tuple[str, str, str]] = []
        self.started = threading.Event()
        self.release = threading.Event()
        if not hold:
            self.release.set()

    def prepare(self, level, rules) -> None:
        self.builds.append((rules.game, rules.name, level))
        self.started.set()
        assert self.release.wait(SAFETY_SECONDS), "the test never let the build go"


def gate_client(database: str, gate: TableGate) -> TestClient:
    return TestClient(create_app(database, tables=gate))


def new_game(client: TestClient, rules: str = "seed", lang: str = "en") -> dict:
    body = {"game": "penta", "rules": rules, "players": [ANA, DUEL_BOT], "lang": lang}
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.text
    return response.json()


def chances_ahead(client: TestClient, game: dict):
    """The live bar's figures after 5 events of a new game: refused (chances_ahead) once the duel's
    tables are there, so that no real table is computed after the stand-in's build."""
    return client.get(f"/api/games/{game['id']}/chances", params={"at": 5})


def asking_chances(client: TestClient, game: dict, count: int, gate: TableGate) -> tuple[list, list]:
    """`count` live bars asking the game's figures at once, each in a thread; answers once all of them
    wait for the tables. The threads, and the list their answers go to."""
    answers: list = []
    threads = [threading.Thread(target=lambda: answers.append(chances_ahead(client, game))) for _ in range(count)]
    for thread in threads:
        thread.start()
    wait_for(lambda: gate.waiting == count, f"{count} requests waiting for the tables")
    return threads, answers


def wait_for(condition, what: str) -> None:
    deadline = time.monotonic() + SAFETY_SECONDS
    while not condition():
        assert time.monotonic() < deadline, f"never came: {what}"
        time.sleep(0.01)


@pytest.fixture
def held_build(database) -> Iterator[tuple[TestClient, StandInBuilder, TableGate]]:
    builder = StandInBuilder(hold=True)
    gate = TableGate(prepare=builder.prepare, memory=lambda level, rules: {(level, rules): 1})
    with gate_client(database, gate) as client:
        try:
            yield client, builder, gate
        finally:
            builder.release.set()


def test_creating_and_reading_games_with_duel_bots_builds_no_tables(database):
    builder = StandInBuilder()
    gate = TableGate(prepare=builder.prepare)
    with gate_client(database, gate) as client:
        games = [new_game(client, rules) for rules in PENTA_RULE_SETS]  # what the attacker sent
    with gate_client(database, gate) as restarted:  # a process that loads them from the database
        for game in games:
            assert restarted.get(f"/api/games/{game['id']}").status_code == 200
    assert builder.builds == [] and gate.held == 0


def test_a_build_runs_once_while_its_requests_wait_and_other_routes_answer(held_build):
    client, builder, gate = held_build
    game = new_game(client)
    waiting, answers = asking_chances(client, game, 2, gate)
    assert builder.started.wait(SAFETY_SECONDS)  # the build thread takes the job a moment after they wait
    assert builder.builds == [("penta", "seed", "duel")]  # one build for both
    assert client.get("/").status_code == 200
    new_game(client, rules="free")  # game creation answers while the build runs
    assert gate.waiting == 2 and builder.builds == [("penta", "seed", "duel")]  # the build still held
    builder.release.set()
    for thread in waiting:
        thread.join(SAFETY_SECONDS)
    assert [answer.json()["code"] for answer in answers] == ["chances_ahead"] * 2  # served after the build
    assert builder.builds == [("penta", "seed", "duel")]


def test_the_live_bar_asking_not_to_wait_is_told_at_once_that_the_tables_are_being_prepared(held_build):
    """What the page says while the first figures wait (issue 23, item 10): with wait=false the request
    starts the build and is answered at once, 202 preparing; once the tables are there it is served."""
    client, builder, gate = held_build
    game = new_game(client)
    answer = client.get(f"/api/games/{game['id']}/chances", params={"at": 5, "wait": "false"})
    assert (answer.status_code, answer.json()) == (202, {"preparing": True})
    assert builder.started.wait(SAFETY_SECONDS) and gate.waiting == 0  # the build runs; nobody waits on it
    builder.release.set()
    wait_for(lambda: gate.prepared(rules_for("penta"), ("duel",)), "the duel's tables prepared")
    answer = client.get(f"/api/games/{game['id']}/chances", params={"at": 5, "wait": "false"})
    assert answer.json()["code"] == "chances_ahead"  # past the tables: served
    assert builder.builds == [("penta", "seed", "duel")]


def test_fifty_requests_wait_for_a_build_without_holding_worker_threads(held_build):
    """Starlette runs plain routes on 40 worker threads: 50 requests waiting for a build would hold all
    of them if they waited there."""
    client, builder, gate = held_build
    game = new_game(client)
    waiting, answers = asking_chances(client, game, 50, gate)
    assert client.get("/api/games/options").status_code == 200  # a plain route, on a worker thread
    assert gate.waiting == 50  # answered while the build is still held
    builder.release.set()
    for thread in waiting:
        thread.join(SAFETY_SECONDS)
    assert len(answers) == 50 and builder.builds == [("penta", "seed", "duel")]


def test_tables_past_the_budget_are_refused_at_once_with_retry_after_in_the_game_s_language(database):
    """The attack on a host's smaller budget: five duel games, one per Penta rule set, and the live bar of
    each. With the players' estimates of the files they would map, 2048 MB holds two rule sets' duels (the
    seed's and a second); the other three are refused, unbuilt."""
    builder = StandInBuilder()
    gate = TableGate(HOST_BUDGET_MB, prepare=builder.prepare)
    with gate_client(database, gate) as client:
        games = [new_game(client, rules, lang="es") for rules in PENTA_RULE_SETS]
        answers = [chances_ahead(client, game) for game in games]
        assert [answer.json()["code"] for answer in answers[:2]] == ["chances_ahead"] * 2
        for refused in answers[2:]:
            assert refused.status_code == 503
            assert refused.headers["retry-after"] == str(RETRY_AFTER)
            assert refused.headers["x-content-type-options"] == "nosniff"
            body = refused.json()
            assert body["code"] == "tables_over_budget"
            assert body["message"].startswith("el servidor no tiene lugar")
        move = {"seat": 0, "token": games[2]["seats"][0]["token"], "action": {"type": "roll"}}
        refused_move = client.post(f"/api/games/{games[2]['id']}/actions", json=move)
        assert refused_move.status_code == 503 and refused_move.json()["code"] == "tables_over_budget"
        assert client.get(f"/api/games/{games[2]['id']}").json()["events"] == 0  # the move changed nothing
    second = PENTA_RULE_SETS[1]
    assert [build for build in builder.builds if build[2] == "duel"] == [
        ("penta", "seed", "duel"), ("penta", second, "duel")
    ]
    two_duels = sum(sum(table_memory("duel", rules_for("penta", name)).values()) for name in ("seed", second))
    assert two_duels <= gate.held <= HOST_BUDGET_MB * 2**20


def test_a_request_for_another_rule_set_cannot_take_the_budget_from_the_default_rule_set(database):
    """The audit's attack (issue 32, item 5): one anonymous live bar of a `no-bonus` duel game took the
    budget, and every `seed` duel game was refused until a restart. The budget keeps the seed's room:
    another rule set's duel fits beside it (`no-bonus`), a third does not, and the seed's still does."""
    builder = StandInBuilder()
    gate = TableGate(HOST_BUDGET_MB, prepare=builder.prepare)
    with gate_client(database, gate) as client:
        assert chances_ahead(client, new_game(client, "no-bonus")).json()["code"] == "chances_ahead"
        refused = chances_ahead(client, new_game(client, "forced"))
        assert (refused.status_code, refused.json()["code"]) == (503, "tables_over_budget")
        assert chances_ahead(client, new_game(client, "seed")).json()["code"] == "chances_ahead"
        optimal = {"name": "Bot", "kind": "bot", "level": "optimal"}
        body = {"game": "penta", "rules": "no-bonus", "players": [ANA, optimal]}
        game = client.post("/api/games", json=body).json()
        move = {"seat": 0, "token": game["seats"][0]["token"], "action": {"type": "roll"}}
        assert client.post(f"/api/games/{game['id']}/actions", json=move).status_code == 200  # its solution fits
    assert ("penta", "seed", "duel") in builder.builds and ("penta", "forced", "duel") not in builder.builds


def test_the_default_budget_holds_every_table_of_every_rule_set_offered(tmp_path, monkeypatch):
    """Issue 36: one server serves the live bar, and every level, of every rule set it offers, on a fresh
    install too, where the gate counts its estimates (larger than the files: Yatzy's duel 1,716 MB against
    a 778 MB file). A rule set whose tables would not fit fails this test."""
    monkeypatch.setenv(CACHE_DIR_ENV, str(tmp_path))  # nothing saved: the estimates
    builder = StandInBuilder()
    gate = TableGate(prepare=builder.prepare)
    offered = [rules for info in GAMES.values() for rules in info.variants.values()]
    try:
        for rules in offered:
            run_async(gate.ready(rules, player_levels(rules.game)))
    finally:
        gate.close()
    assert len({(game, name) for game, name, _ in builder.builds}) == len(offered)
    every_table = {key: size for rules in offered for level in player_levels(rules.game)
                   for key, size in table_memory(level, rules).items()}
    assert gate.held == sum(every_table.values()) > 5 * 2**30  # the classics' duels and every Penta one


def test_a_hint_whose_tables_load_quickly_never_waits_behind_a_long_build(database):
    """The audit's attack (issue 32, item 5): a solo Generala hint waited 70.7 s behind a stranger's build
    of the Penta duel. Here the Penta build is held until the Generala hint is answered."""
    builder = StandInBuilder(hold=True)

    def hold_penta(level, rules) -> None:
        if rules.game == "penta":
            builder.prepare(level, rules)

    gate = TableGate(prepare=hold_penta)
    with gate_client(database, gate) as client:
        try:
            waiting, _ = asking_chances(client, new_game(client), 1, gate)  # the Penta duel's build, held
            body = {"game": "generala", "players": [ANA]}
            solo = client.post("/api/games", json=body).json()
            seat = {"seat": 0, "token": solo["seats"][0]["token"]}
            assert client.post(f"/api/games/{solo['id']}/actions", json=seat | {"action": {"type": "roll"}}).status_code == 200
            answers: list = []
            hint = threading.Thread(target=lambda: answers.append(client.post(f"/api/games/{solo['id']}/hint", json=seat)))
            hint.start()
            hint.join(SAFETY_SECONDS)
            assert not hint.is_alive(), "the hint waited behind the Penta build"
            assert answers[0].status_code == 200 and answers[0].json()["options"]
            assert builder.builds == [("penta", "seed", "duel")] and not builder.release.is_set()
        finally:
            builder.release.set()
        for thread in waiting:
            thread.join(SAFETY_SECONDS)


def test_a_build_that_fails_fails_its_requests_and_the_next_request_tries_again(database):
    attempts = []

    def fail_once(level, rules) -> None:
        attempts.append(level)
        if len(attempts) == 1:
            raise MemoryError("the stand-in ran out")

    gate = TableGate(prepare=fail_once, memory=lambda level, rules: {(level, rules): 2**20})
    with TestClient(create_app(database, tables=gate), raise_server_exceptions=False) as client:
        game = new_game(client)
        assert chances_ahead(client, game).status_code == 500
        assert gate.held == 0  # the failed job's tables are no longer counted
        assert chances_ahead(client, game).json()["code"] == "chances_ahead"
    assert attempts == ["duel", "duel"]


def test_closing_the_gate_fails_every_job_not_prepared_and_logs_the_tables_abandoned(caplog):
    """A stopping process (issue 31, point 1): the requests waiting for the build under way and for the one
    queued behind it are refused (server_stopping), not left waiting; the queued one never starts."""
    builder = StandInBuilder(hold=True)
    gate = TableGate(prepare=builder.prepare, memory=lambda level, rules: {(level, rules): 1})
    building, queued, later = (rules_for("penta", name) for name in PENTA_RULE_SETS[:3])

    async def wait_then_close() -> list:
        requests = [asyncio.create_task(gate.ready(rules, ("duel",))) for rules in (building, queued)]
        assert await asyncio.to_thread(builder.started.wait, SAFETY_SECONDS)
        gate.close()
        return await asyncio.wait_for(asyncio.gather(*requests, return_exceptions=True), SAFETY_SECONDS)

    try:
        with caplog.at_level(logging.WARNING, "cubilete.web.tables"):
            answers = run_async(wait_then_close())
        assert [(type(answer), answer.code) for answer in answers] == [(ServerStopping, "server_stopping")] * 2
        with pytest.raises(ServerStopping):  # nothing new starts either
            gate.prepared(later, ("duel",))
        abandoned = f"abandoned the tables of penta/{building.name} duel (being built), penta/{queued.name} duel (queued)"
        assert abandoned in caplog.text
    finally:
        builder.release.set()
    wait_for(lambda: "solver-tables" not in {thread.name for thread in threading.enumerate()}, "the build thread ended")
    assert builder.builds == [("penta", building.name, "duel")]


def test_the_help_gives_the_table_memory_default(capsys):
    """serve.py writes it out, not to import the web app for every command."""
    from cubilete.cli.main import main

    with pytest.raises(SystemExit):
        main(["serve", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert f"tables_over_budget (default: {TABLE_MEMORY_MB})" in help_text


def test_a_server_started_with_a_small_table_budget_refuses_a_bot_s_move_unbuilt(tmp_path):
    """`cubilete serve --table-memory-mb 1`: Penta's solution alone (8 MB) passes it."""
    server = Server(
        f"sqlite:///{tmp_path / 'games.sqlite3'}",
        free_port(),
        tmp_path / "server.log",
        env={"CUBILETE_CACHE_DIR": str(tmp_path / "cache")},
        options=("--table-memory-mb", "1"),
    ).start()
    try:
        body = {"game": "penta", "players": [ANA, {"name": "Bot", "kind": "bot", "level": "optimal"}]}
        game = server.api("POST", "/api/games", body)
        move = {"seat": 0, "token": game["seats"][0]["token"], "action": {"type": "roll"}}
        with pytest.raises(urllib.error.HTTPError) as refused:
            server.api("POST", f"/api/games/{game['id']}/actions", move)
        assert refused.value.code == 503 and refused.value.headers["Retry-After"] == str(RETRY_AFTER)
        assert json.load(refused.value)["code"] == "tables_over_budget"
        assert server.api("GET", f"/api/games/{game['id']}")["events"] == 0
    finally:
        server.stop()
    assert not (tmp_path / "cache").exists()  # nothing solved, nothing saved
