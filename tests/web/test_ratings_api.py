"""Ratings and boards through the API (web/ratings.py, web/rating_routes.py): two profiles finish a game
of Generala (hot-seat moves by tests/harness.next_action: no bot, no table but the review's), both
ratings move the winner's way, a second process taking the same game in changes nothing, a profile
hidden from boards leaves them, a daily challenge's game counts for performance only, and two processes
taking in two games of the same profiles at once on PostgreSQL lose no update."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from fastapi.testclient import TestClient

from cubilete.storage import Storage
from cubilete.storage.ratings import StoredRating
from cubilete.web import create_app, rating_routes
from cubilete.web.ratings import RatingJob
from tests.harness import next_action
from tests.web.test_profiles import bearer, claim_name

WAIT_SECONDS = 20  # the job reviews a finished game in a worker thread: it is waited for this long at most


def play_between(client, ana: dict, beto: dict, hints_allowed: bool = True) -> tuple[str, dict]:
    """A game of Generala between Ana's profile and Beto's (he claims her invite), played to its end;
    its id and final view."""
    players = [{"name": "Ana", "kind": "human"}, {"name": "Beto", "kind": "human", "invited": True}]
    body = {"game": "generala", "players": players, "hints_allowed": hints_allowed}
    created = client.post("/api/games", json=body, headers=bearer(ana)).json()
    game_id = created["id"]
    claim = client.post(
        f"/api/games/{game_id}/seats/1/claim", json={"invite": created["seats"][1]["invite"]}, headers=bearer(beto)
    )
    assert claim.status_code == 200, claim.text
    tokens = [created["seats"][0]["token"], claim.json()["token"]]
    view = client.get(f"/api/games/{game_id}").json()
    while not view["is_over"]:
        seat = view["current_player"]
        body = {"seat": seat, "token": tokens[seat], "action": next_action(view), "at": view["events"]}
        answer = client.post(f"/api/games/{game_id}/actions", json=body)
        assert answer.status_code == 200, answer.text
        view = answer.json()
    return game_id, view


def profile_once(client, name: str, ready) -> dict:
    """The profile's public answer once `ready(answer)` holds (the job's work is waited for, with a bound)."""
    deadline = time.monotonic() + WAIT_SECONDS
    while not ready(answer := client.get(f"/api/profiles/{name}").json()):
        assert time.monotonic() < deadline, answer
        time.sleep(0.05)
    return answer


def rating_job(client) -> RatingJob:
    return next(watcher for watcher in client.app.state.services.games.watchers if isinstance(watcher, RatingJob))


@pytest.fixture
def players(client):
    return claim_name(client, "Ana"), claim_name(client, "Beto")


def test_a_finished_game_between_profiles_moves_both_ratings_and_a_replay_changes_nothing(client, database, players):
    ana, beto = players
    game_id, view = play_between(client, ana, beto)
    ana_after = profile_once(client, "Ana", lambda answer: "generala" in answer["ratings"])
    beto_after = profile_once(client, "Beto", lambda answer: "generala" in answer["ratings"])

    mine, theirs = ana_after["ratings"]["generala"], beto_after["ratings"]["generala"]
    assert mine["games"] == theirs["games"] == 1 and mine["provisional"] and not ana_after["hidden_from_boards"]
    assert mine["sigma"] < 25 / 3 and mine["ordinal"] == pytest.approx(mine["mu"] - 3 * mine["sigma"])
    ana_place, beto_place = view["ranking"]
    if ana_place == beto_place:
        assert mine["mu"] == pytest.approx(theirs["mu"]) == pytest.approx(25)
    else:
        winner, loser = (mine, theirs) if ana_place < beto_place else (theirs, mine)
        assert winner["mu"] > 25 > loser["mu"]
    assert [point["game_id"] for point in ana_after["rating_history"]["generala"]] == [game_id]
    assert ana_after["rating_history"]["generala"][0]["mu"] == mine["mu"]
    assert ana_after["performance"]["generala"]["games"] == 1 and 0 < ana_after["performance"]["generala"]["mean"] < 2500

    live = client.portal.call(client.app.state.services.games.find, game_id)
    assert client.portal.call(rating_job(client).take, live) is False  # this process again
    with TestClient(create_app(database)) as other:  # a second process on the same database
        other_live = other.portal.call(other.app.state.services.games.find, game_id)
        assert other.portal.call(rating_job(other).take, other_live) is False
    again = client.get("/api/profiles/Ana").json()
    assert again["ratings"] == ana_after["ratings"] and again["performance"] == ana_after["performance"]
    assert again["rating_history"] == ana_after["rating_history"]


def test_a_game_finished_by_a_process_that_stopped_first_is_taken_in_at_the_next_start(database, monkeypatch):
    """The job's notes are in memory: a process that stops before its turn (here: that never takes a game
    in) leaves the game to the next process to start."""
    monkeypatch.setattr(RatingJob, "stored", lambda job, live, first: None)  # this process notes nothing
    with TestClient(create_app(database)) as client:
        ana, beto = claim_name(client, "Ana"), claim_name(client, "Beto")
        game_id, _ = play_between(client, ana, beto)
        assert client.get("/api/profiles/Ana").json()["ratings"] == {}
    monkeypatch.undo()
    with TestClient(create_app(database)) as client:
        after = profile_once(client, "Ana", lambda answer: "generala" in answer["ratings"])
    assert [point["game_id"] for point in after["rating_history"]["generala"]] == [game_id]


def test_a_profile_hidden_from_boards_leaves_them(client, players, monkeypatch):
    monkeypatch.setattr(rating_routes, "MIN_BOARD_GAMES", 1)
    ana, beto = players
    play_between(client, ana, beto)
    profile_once(client, "Beto", lambda answer: "generala" in answer["ratings"])
    boards = client.get("/api/boards/generala").json()
    assert boards["game"] == "generala" and boards["min_games"] == 1
    assert sorted(row["name"] for row in boards["ratings"]) == ["Ana", "Beto"]
    assert [row["rank"] for row in boards["ratings"]] == [1, 2]
    assert boards["ratings"][0]["ordinal"] >= boards["ratings"][1]["ordinal"]
    assert sorted(row["name"] for row in boards["accuracy"]) == ["Ana", "Beto"]
    assert all(row["games"] == 1 and row["decisions"] > 0 for row in boards["accuracy"])

    hidden = client.put("/api/profiles/me/boards", json={"hidden": True}, headers=bearer(ana))
    assert hidden.status_code == 200 and hidden.json() == {"id": ana["id"], "name": "Ana", "hidden_from_boards": True}
    boards = client.get("/api/boards/generala").json()
    assert [row["name"] for row in boards["ratings"]] == [row["name"] for row in boards["accuracy"]] == ["Beto"]
    assert client.get("/api/profiles/Ana").json()["hidden_from_boards"] is True
    assert client.put("/api/profiles/me/boards", json={"hidden": True}).json()["code"] == "profile_needed"
    assert client.get("/api/boards/yacht").json()["code"] == "unknown_game"


def test_a_daily_challenges_game_counts_for_performance_not_ratings(client, players):
    """Ana's daily Generala try, played to its end: her performance counts, her rating does not (a solo
    try); a friends' game without hints is rated as any other."""
    from tests.web.test_daily import play, start

    ana, beto = players
    play(client, start(client, "generala", ana))
    after = profile_once(client, "Ana", lambda answer: "generala" in answer["performance"])
    assert after["ratings"] == {} and after["rating_history"] == {}
    assert after["performance"]["generala"]["games"] == 1
    play_between(client, ana, beto, hints_allowed=False)
    rated = profile_once(client, "Ana", lambda answer: "generala" in answer["ratings"])
    assert rated["ratings"]["generala"]["games"] == 1 and rated["performance"]["generala"]["games"] == 2


def test_two_processes_taking_in_two_games_of_the_same_profiles_at_once_lose_no_update(postgres_url):
    with TestClient(create_app(postgres_url)) as client:
        profiles = [claim_name(client, "Ana")["id"], claim_name(client, "Beto")["id"]]
        seats = [{"name": "Ana", "kind": "human"}, {"name": "Beto", "kind": "human"}]
        game_ids = [client.post("/api/games", json={"game": "generala", "players": seats}).json()["id"] for _ in range(2)]
    storages = [Storage(postgres_url) for _ in game_ids]  # a process each
    both_read = threading.Barrier(2, timeout=WAIT_SECONDS)
    calls = []

    def rate(before):
        """Ana wins; both processes' first reads (no rating yet) are made before either writes."""
        calls.append(before)
        if len(calls) <= 2:
            both_read.wait()
        ana, beto = (rating or StoredRating(25.0, 25 / 3, 0) for rating in before)
        return [StoredRating(ana.mu + 1, ana.sigma, ana.games + 1), StoredRating(beto.mu - 1, beto.sigma, beto.games + 1)]

    try:
        with ThreadPoolExecutor(2) as pool:
            taken = list(pool.map(
                lambda pair: pair[0].ratings.take_game(pair[1], "generala", [], profiles, rate), zip(storages, game_ids)
            ))
        assert taken == [True, True] and len(calls) == 3  # the second to insert a first rating tried again
        ratings = storages[0].ratings.ratings_of(profiles[0])
        assert ratings == {"generala": StoredRating(27.0, 25 / 3, 2)}
        assert sorted(point.game_id for point in storages[0].ratings.history_of(profiles[1])["generala"]) == sorted(game_ids)
    finally:
        for storage in storages:
            storage.close()
