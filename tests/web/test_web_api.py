"""The web app's HTTP API: creating, reading and playing games, refusals, bots, resuming."""

from __future__ import annotations

import json
import re

import pytest
from fastapi.testclient import TestClient
from harness import chosen_seed, run_async
from sqlalchemy import create_engine, text

from cubilete.engine.games import rules_for
from cubilete.engine.runner import Match
from cubilete.players import default_level, make_player, player_levels
from cubilete.storage import Storage
from cubilete.web import create_app
from cubilete.web.i18n import refusal_message

ANA = {"name": "Ana", "kind": "human"}
LUIS = {"name": "Luis", "kind": "human"}


def bot(game: str) -> dict:
    """A new bot seat's level: the strongest (Penta's duel) would build tables no test here looks at."""
    return {"name": "Bot", "kind": "bot", "level": default_level(game)}


def stored_ids(database) -> list[str]:
    """The games stored and not finished."""
    engine = create_engine(database)
    try:
        with engine.connect() as connection:
            return list(connection.scalars(text("SELECT id FROM games WHERE NOT finished")))
    finally:
        engine.dispose()


def create(client, game="penta", players=(ANA,), **extra) -> dict:
    response = client.post("/api/games", json={"game": game, "players": list(players), **chosen_seed(players, 7), **extra})
    assert response.status_code == 201, response.text
    return response.json()


def act(client, created, action, seat=0, at=None, token=None):
    body = {"seat": seat, "token": token or created["seats"][seat]["token"], "action": action}
    if at is not None:
        body["at"] = at
    return client.post(f"/api/games/{created['id']}/actions", json=body)


def read(client, created, **params) -> dict:
    response = client.get(f"/api/games/{created['id']}", params=params)
    assert response.status_code == 200, response.text
    return response.json()


# -- creating and reading ---------------------------------------------------------------


def test_create_answers_the_id_the_url_and_a_token_per_human_seat(client):
    created = create(client, players=(ANA, bot("penta")), lang="es")
    assert created["url"] == f"/game/{created['id']}"
    human, robot = created["seats"]
    assert human["name"] == "Ana" and len(human["token"]) >= 20
    assert robot["kind"] == "bot" and robot["token"] is None
    view = read(client, created)
    assert view["game"] == "penta" and view["family"] == "sheet"
    assert view["rules"] == "seed" and view["lang"] == "es"
    assert view["events"] == 0 and view["current_player"] == 0 and view["to_roll"]
    assert [seat["name"] for seat in view["seats"]] == ["Ana", "Bot"]
    assert [box["id"] for box in view["table"]["boxes"]][:2] == ["ones", "twos"]


def test_the_example_of_the_issue_is_accepted(client):
    response = client.post(
        "/api/games",
        json={
            "game": "penta",
            "rules": "seed",
            "players": [{"name": "Ana", "kind": "human"}, {"name": "Bot", "kind": "bot", "level": "optimal"}],
            "seed": 7,
            "lang": "es",
        },
    )
    assert response.status_code == 201, response.text


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"game": "chess", "players": [ANA]}, 400, "unknown_game"),
        ({"game": "penta", "rules": "house", "players": [ANA]}, 400, "unknown_rules"),
        ({"game": "penta", "players": [{"name": "Bot", "kind": "bot", "level": "genius"}]}, 400, "bot_level"),
        ({"game": "penta", "players": [{"name": "Bot", "kind": "bot"}]}, 400, "bot_level"),
        ({"game": "generala", "players": [ANA] * 5}, 400, "player_count"),
        ({"game": "5000", "players": [ANA]}, 400, "player_count"),
        ({"game": "5000", "rules": "entry-600", "players": [ANA, LUIS]}, 400, "unknown_rules"),
        ({"game": "5000", "rules": "entry-0+entry-500", "players": [ANA, LUIS]}, 400, "rules_switch_twice"),
        ({"game": "penta", "players": [ANA] * 7}, 422, "players_count"),
        ({"game": "penta", "players": []}, 422, "players_count"),
        ({"game": "penta", "players": [{"name": "  ", "kind": "human"}]}, 422, "blank_name"),
        ({"game": "penta", "players": [{"name": "A" * 25, "kind": "human"}]}, 422, "name_too_long"),
        ({"game": "penta", "players": [{"name": "Ana", "kind": "alien"}]}, 422, "player_kind"),
        ({"game": "penta", "players": [ANA], "seed": -1}, 422, "bad_seed"),
        ({"game": "penta", "players": [ANA], "lang": "fr"}, 422, "language_choice"),
        ({"game": "penta", "players": [ANA], "colour": "red"}, 422, "invalid_request"),
        ({"players": [ANA]}, 422, "invalid_request"),
    ],
)
def test_bad_new_games_are_refused_with_a_code_a_clear_message_and_nothing_stored(
    client, database, body, status, code
):
    response = client.post("/api/games", json=body)
    assert response.status_code == status, response.text
    refusal = response.json()
    assert refusal["code"] == code and refusal["message"] and refusal["detail"]
    assert stored_ids(database) == []


def test_a_body_that_is_not_json_is_refused(client):
    response = client.post("/api/games", content=b"{nope", headers={"Content-Type": "application/json"})
    assert response.status_code == 422
    assert response.json()["code"] == "bad_json"
    assert response.json()["detail"] == "The request is not valid JSON (at character 1)"


def test_an_unknown_game_is_not_found(client):
    assert client.get("/api/games/nope").status_code == 404
    assert client.get("/game/nope").status_code == 404
    response = client.post("/api/games/nope/actions", json={"seat": 0, "token": "x", "action": {"type": "roll"}})
    assert response.status_code == 404
    assert "no game" in response.json()["detail"]


# -- playing ------------------------------------------------------------------------------------


def test_the_server_rolls_the_runners_dice_and_the_seat_scores(client):
    created = create(client)
    match = Match(rules_for("penta"), ["Ana"], seed=7)
    expected = match.roll().dice
    view = act(client, created, {"type": "roll"}, at=0).json()
    assert view["table"]["dice"] == list(expected)
    assert view["table"]["rolls_left"] == 2 and view["table"]["can_reroll"]
    options = {option["box"]: option["points"] for option in view["table"]["options"]}
    assert options["chance"] == sum(expected)

    view = act(client, created, {"type": "keep", "held": [0, 1]}, at=1).json()
    assert view["events"] == 3  # the keep, then the roll it asked for
    assert view["table"]["dice"][:2] == list(expected[:2])
    assert [step["event"] for step in view["steps"]][0] == {"seat": 0, "action": {"type": "keep", "held": [0, 1]}}

    view = act(client, created, {"type": "score", "box": "chance"}, at=3).json()
    assert view["table"]["sheets"][0]["boxes"] == {"chance": view["table"]["sheets"][0]["total"]}
    assert view["to_roll"] and view["table"]["dice"] == []


def test_the_same_seed_gives_the_same_dice(client):
    first, second = create(client), create(client)
    assert act(client, first, {"type": "roll"}).json()["table"]["dice"] == (
        act(client, second, {"type": "roll"}).json()["table"]["dice"]
    )


def test_steps_since_an_event_show_each_state(client):
    created = create(client)
    act(client, created, {"type": "roll"})
    act(client, created, {"type": "keep", "held": []})
    view = read(client, created, since=1)
    assert [step["index"] for step in view["steps"]] == [1, 2]
    assert view["steps"][0]["to_roll"] and view["steps"][1]["table"]["rolls_left"] == 1
    assert all(step["seat"] == 0 for step in view["steps"])


@pytest.mark.parametrize(
    ("action", "status", "words"),
    [
        ({"type": "score", "box": "chance"}, 409, "roll the dice first"),
        ({"type": "bank"}, 409, "roll the dice first"),
        ({"type": "dance"}, 400, "type must be keep, score, roll, bank or set_aside"),
        ({"box": "chance"}, 400, "type"),
        ({"type": "auto"}, 409, "after the last roll"),
    ],
)
def test_illegal_actions_before_the_roll_change_nothing(client, action, status, words):
    created = create(client)
    before = read(client, created)
    response = act(client, created, action)
    assert response.status_code == status, response.text
    assert words in response.json()["detail"]
    assert read(client, created) == before


@pytest.mark.parametrize(
    ("action", "status", "words"),
    [
        ({"type": "score", "box": "yahtzee"}, 400, "no box 'yahtzee'"),
        ({"type": "keep", "held": [0, 9]}, 400, "die position"),
        ({"type": "keep", "held": [0, 1, 2, 3, 4]}, 409, "holding all five"),
        ({"type": "keep", "held": "all"}, 400, "held"),
        ({"type": "roll"}, 409, "not an action"),
        ({"type": "bank"}, 409, "not an action"),
    ],
)
def test_illegal_actions_after_the_roll_change_nothing(client, action, status, words):
    created = create(client)
    act(client, created, {"type": "roll"})
    before = read(client, created)
    response = act(client, created, action)
    assert response.status_code == status, response.text
    assert words in response.json()["detail"]
    assert read(client, created) == before


def test_a_used_box_is_refused(client):
    created = create(client)
    act(client, created, {"type": "roll"})
    act(client, created, {"type": "score", "box": "chance"})
    act(client, created, {"type": "roll"})
    before = read(client, created)
    response = act(client, created, {"type": "score", "box": "chance"})
    assert response.status_code == 409
    assert "already used" in response.json()["detail"]
    assert read(client, created) == before


class NeverReady:
    """Solver tables that are never ready: a request that waits for them fails the test."""

    async def ready(self, rules, levels=()):
        raise AssertionError("the request waited for the solver's tables")


def test_requests_for_another_players_seat_are_refused_before_waiting_for_tables(client):
    client.app.state.services.games.tables = NeverReady()  # the duel's tables (minutes to build) never are here
    created = create(client, players=(ANA, LUIS, {"name": "Bot", "kind": "bot", "level": "duel"}))
    before = read(client, created)
    ana, luis = created["seats"][0]["token"], created["seats"][1]["token"]
    url = f"/api/games/{created['id']}"
    refusals = [
        (act(client, created, {"type": "roll"}, seat=0, token=luis), 403, "does not belong"),
        (act(client, created, {"type": "roll"}, seat=1, token=luis), 409, "Ana's turn"),
        (act(client, created, {"type": "roll"}, seat=2, token=ana), 403, "bot"),
        (act(client, created, {"type": "roll"}, seat=5, token=ana), 403, "seats 0 to 2"),
        (act(client, created, {"type": "roll"}, seat=0, token="guess"), 403, "does not belong"),
        (act(client, created, {"type": "auto"}, seat=0, token=luis), 403, "does not belong"),
        (client.post(f"{url}/bots", json={"seat": 0, "token": luis}), 403, "does not belong"),
        (client.post(f"{url}/hint", json={"seat": 0, "token": luis}), 403, "does not belong"),
        (client.post(f"{url}/seats/0/bot", json={"token": luis}), 403, "does not belong"),
        (client.post(f"{url}/seats/0/leave", json={"token": luis}), 403, "does not belong"),
        (client.post(f"{url}/clock", json={"at": 0}), 409, "no turn clock"),
    ]
    for response, status, words in refusals:
        assert response.status_code == status, response.text
        assert words in response.json()["detail"]
    assert read(client, created) == before


def test_a_request_made_for_an_earlier_moment_is_refused(client):
    created = create(client)
    act(client, created, {"type": "roll"}, at=0)
    before = read(client, created)
    response = act(client, created, {"type": "score", "box": "chance"}, at=0)
    assert response.status_code == 409
    assert "moved on" in response.json()["detail"]
    assert read(client, created) == before


def test_malformed_action_requests_are_refused(client):
    created = create(client)
    url = f"/api/games/{created['id']}/actions"
    token = created["seats"][0]["token"]
    for body in (
        {"seat": 0, "action": {"type": "roll"}},
        {"seat": "first", "token": token, "action": {"type": "roll"}},
        {"seat": 0, "token": token, "action": "roll"},
        {"seat": 0, "token": token, "action": {"type": "roll"}, "cheat": True},
    ):
        response = client.post(url, json=body)
        assert response.status_code == 422, body
        assert response.json()["detail"]
    assert read(client, created)["events"] == 0


# -- bots, the auto-score, hints ----------------------------------------------------------------


def test_the_bot_plays_its_turn_after_the_human(client):
    created = create(client, players=(ANA, bot("penta")))
    act(client, created, {"type": "roll"})
    view = act(client, created, {"type": "score", "box": "chance"}, at=1).json()
    assert view["current_player"] == 0 and view["to_roll"]
    bot_steps = [step for step in view["steps"] if step["seat"] == 1]
    assert bot_steps and bot_steps[-1]["event"]["action"]["type"] == "score"
    assert len(view["table"]["sheets"][1]["boxes"]) == 1


def test_a_bot_that_starts_plays_when_asked(client):
    created = create(client, players=(bot("penta"), ANA))
    assert read(client, created)["current_player"] == 0
    url = f"/api/games/{created['id']}/bots"
    assert client.post(url, params={"since": 0}, json={}).status_code == 422
    assert client.post(url, json={"seat": 1, "token": "guess"}).status_code == 403
    assert read(client, created)["events"] == 0
    response = client.post(url, params={"since": 0}, json={"seat": 1, "token": created["seats"][1]["token"]})
    view = response.json()
    assert view["current_player"] == 1 and view["steps"][0]["seat"] == 0
    refused = act(client, created, {"type": "roll"}, seat=0, token=created["seats"][1]["token"])
    assert refused.status_code == 403


def test_after_the_last_roll_auto_scores_the_optimal_box(client):
    created = create(client)
    act(client, created, {"type": "roll"})
    act(client, created, {"type": "keep", "held": []})
    act(client, created, {"type": "keep", "held": []})
    view = read(client, created)
    assert view["must_score"] and not view["table"]["can_reroll"]
    replay = Match(rules_for("penta"), ["Ana"], seed=7)
    replay.roll()
    for _ in range(2):
        replay.act(replay.state.keep_values([]))
        replay.roll()
    expected = make_player("optimal", rules_for("penta")).choose(replay.state)
    view = act(client, created, {"type": "auto"}).json()
    assert list(view["table"]["sheets"][0]["boxes"]) == [expected.box]


def test_hints_rank_the_choices_by_expected_final_total(client):
    created = create(client)
    url, seat = f"/api/games/{created['id']}/hint", {"seat": 0, "token": created["seats"][0]["token"]}
    assert client.post(url, json=seat).status_code == 409
    act(client, created, {"type": "roll"})
    options = client.post(url, json=seat).json()["options"]
    assert 1 <= len(options) <= 3
    values = [option["value"] for option in options]
    assert values == sorted(values, reverse=True)
    assert all(option["kind"] in ("score", "keep") for option in options)


def test_five_thousand_refuses_a_bank_with_the_rules_reason_translated(client):
    created = create(client, game="5000", players=(ANA, bot("5000")), lang="es")
    view = act(client, created, {"type": "roll"}).json()
    while view["current_player"] == 0 and not view["table"]["can_bank"]:
        if view["table"]["phase"] == "decide":
            reason = view["table"]["must_roll_reason"]
            assert reason["code"] in ("must_roll_points", "must_roll_entry")
            assert reason["message"].startswith(("tienes que seguir lanzando", "aún no has entrado en el juego"))
            before = read(client, created)
            refused = act(client, created, {"type": "bank"}, at=view["events"])
            assert refused.status_code == 409
            assert refused.json()["detail"].startswith(("you must roll again", "you are not in the game"))
            assert refused.json()["code"] == reason["code"] and refused.json()["message"] == reason["message"]
            assert read(client, created) == before
            return
        view = act(client, created, {"type": "roll"}).json()
    pytest.skip("this seed never forced a roll on the first turn")


def test_five_thousand_against_a_bot_to_the_end(client, database):
    created = create(client, game="5000", players=(ANA, bot("5000")))
    view = read(client, created)
    assert view["family"] == "five_thousand"
    for _ in range(1000):  # banking whenever allowed ends a game in about a hundred actions
        if view["is_over"]:
            break
        action = {"type": "bank"} if view["table"]["can_bank"] else {"type": "roll"}
        response = act(client, created, action, at=view["events"])
        assert response.status_code == 200, response.text
        view = response.json()
    assert view["is_over"] and view["table"]["winner"] in (0, 1)
    assert view["scores"][view["table"]["winner"]] == 5000
    assert view["ranking"][view["table"]["winner"]] == 1
    assert stored_ids(database) == []


def test_five_thousand_with_free_set_aside_lets_the_player_choose_the_dice(client):
    created = create(client, game="5000", rules="free-set-aside", players=(ANA, LUIS))
    view = act(client, created, {"type": "roll"}).json()
    while view["table"]["phase"] != "set_aside":  # a bust passes the turn: roll for whoever is to move
        seat = view["current_player"]
        view = act(client, created, {"type": "roll"}, seat=seat).json()
    seat, table = view["current_player"], view["table"]
    choice = table["set_aside_choices"][0]
    held = []
    for value in choice:
        held.append(next(i for i, die in enumerate(table["last_roll"]) if die == value and i not in held))
    refused = act(client, created, {"type": "set_aside", "held": [9]}, seat=seat)
    assert refused.status_code == 400
    view = act(client, created, {"type": "set_aside", "held": held}, seat=seat).json()
    assert view["table"]["phase"] == "decide" and view["table"]["turn_points"] > 0


# -- the end, rematch, resuming -------------------------------------------------------------------


def play_solo_penta(client, created) -> dict:
    view = read(client, created)
    while not view["is_over"]:
        act(client, created, {"type": "roll"})
        view = act(client, created, {"type": "score", "box": first_open(view)}).json()
    return view


def first_open(view) -> str:
    filled = view["table"]["sheets"][0]["boxes"]
    return next(box["id"] for box in view["table"]["boxes"] if box["id"] not in filled)


def test_a_whole_solo_game_then_a_rematch_with_the_same_tokens(client):
    created = create(client)
    view = play_solo_penta(client, created)
    assert view["is_over"] and view["ranking"] == [1]
    assert len(view["table"]["sheets"][0]["boxes"]) == 13
    assert view["scores"][0] == view["table"]["sheets"][0]["total"]
    refused = act(client, created, {"type": "roll"})
    assert refused.status_code == 409 and "over" in refused.json()["detail"]

    stranger = client.post(f"/api/games/{created['id']}/rematch", json={"seat": 0, "token": "nope"})
    assert stranger.status_code == 403
    token = created["seats"][0]["token"]
    rematch = client.post(f"/api/games/{created['id']}/rematch", json={"seat": 0, "token": token}).json()
    again = client.post(f"/api/games/{created['id']}/rematch", json={"seat": 0, "token": token}).json()
    assert rematch == again and rematch["id"] != created["id"]
    assert read(client, created)["rematch"] == rematch["id"]
    assert act(client, {"id": rematch["id"], "seats": created["seats"]}, {"type": "roll"}).status_code == 200


def test_a_rematch_waits_for_the_end(client):
    created = create(client)
    response = client.post(
        f"/api/games/{created['id']}/rematch", json={"seat": 0, "token": created["seats"][0]["token"]}
    )
    assert response.status_code == 409


def test_a_new_server_on_the_same_database_resumes_every_game(database):
    with TestClient(create_app(database)) as first:
        created = create(first, players=(ANA, bot("penta")))
        act(first, created, {"type": "roll"})
        act(first, created, {"type": "keep", "held": [0]})
        before = read(first, created)
    with TestClient(create_app(database)) as second:
        assert read(second, created) == before
        resumed = act(second, created, {"type": "keep", "held": []}, at=before["events"]).json()

    uninterrupted = Match(rules_for("penta"), ["Ana", "Bot"], seed=7)
    uninterrupted.roll()
    for held in ([0], []):
        uninterrupted.act(uninterrupted.state.keep_values([uninterrupted.state.dice[i] for i in held]))
        uninterrupted.roll()
    assert resumed["table"]["dice"] == list(uninterrupted.state.dice)


# -- pages, languages, documentation -----------------------------------------------------------------


def test_pages_speak_the_language_asked_for(client):
    assert 'lang="id"' in client.get("/", headers={"Accept-Language": "id-ID,id;q=0.9,en;q=0.5"}).text
    assert 'lang="en"' in client.get("/", headers={"Accept-Language": "fr-FR"}).text
    client.cookies.set("lang", "es")  # the language switcher's choice
    assert 'lang="es"' in client.get("/", headers={"Accept-Language": "id"}).text
    assert 'lang="en"' in client.get("/?lang=en").text
    client.cookies.clear()
    created = create(client, lang="es")  # a friend who opens the game reads it in their own language
    assert 'lang="id"' in client.get(created["url"], headers={"Accept-Language": "id-ID,id"}).text
    assert "Validar el turno" in client.get("/api/i18n/es").json().values()
    assert "Validasi giliran" in client.get("/api/i18n/id").json().values()


def test_rules_pages_are_served_in_each_language(client):
    page = client.get("/rules/penta", params={"lang": "es"})
    assert page.status_code == 200
    assert "<table>" in page.text and "Validar el turno" in page.text
    assert "Straight kecil" in client.get("/rules/penta", params={"lang": "id"}).text
    assert "Dua pasang" in client.get("/rules/yatzy", params={"lang": "id"}).text  # a game without a seed
    assert "Doble Generala" in client.get("/rules/generala", params={"lang": "es"}).text  # the traditional rule sets
    assert client.get("/rules/chess").status_code == 400


@pytest.mark.parametrize("path", ["/daily", "/boards"])
def test_the_daily_and_boards_pages_boot_with_each_games_loss_unit(client, path):
    """Their boards write a mean loss as the review does: points in the sheet games, a chance to win in 5000. The boards
    list every game, the daily page only the games with a daily challenge."""
    page = client.get(path, params={"lang": "id"})
    assert page.status_code == 200 and '<html lang="id">' in page.text
    boot = json.loads(re.search(r'<script id="boot" type="application/json">(.*?)</script>', page.text, re.S)[1])
    seeds = [
        {"id": "penta", "unit": "points", "daily": True}, {"id": "generala", "unit": "points", "daily": True},
        {"id": "5000", "unit": "win_probability", "daily": True},
    ]
    classics = [{"id": game, "unit": "points", "daily": False} for game in ("yahtzee", "yatzy", "kniffel")]
    assert boot["page"]["games"] == (seeds if path == "/daily" else seeds + classics)


def test_serve_is_a_command():
    from cubilete.cli.main import build_parser

    args = build_parser().parse_args(["serve", "--port", "8123", "--database", "sqlite://", "--open"])
    assert (args.host, args.port, args.database, args.open) == ("127.0.0.1", 8123, "sqlite://", True)
    assert build_parser().parse_args(["serve", "--public-url", "https://dice.example"]).public_url == "https://dice.example"


def test_serve_says_every_address_it_listens_on():
    from cubilete.cli.commands.serve import listening_addresses
    from cubilete.web.addresses import lan_addresses

    assert listening_addresses("127.0.0.1", 8000) == ["http://127.0.0.1:8000/"]
    everywhere = listening_addresses("0.0.0.0", 8000)
    lan_ipv4 = [address for address in lan_addresses() if ":" not in address]
    assert everywhere == ["http://127.0.0.1:8000/", *(f"http://{address}:8000/" for address in lan_ipv4)]


def test_a_server_process_collects_young_objects_rarely_and_leaves_its_start_out_of_full_passes():
    import gc

    from cubilete.cli.commands.serve import YOUNG_COLLECTION_THRESHOLD, tune_collector

    threshold, frozen = gc.get_threshold(), gc.get_freeze_count()
    try:
        tune_collector()
        assert gc.get_threshold() == (YOUNG_COLLECTION_THRESHOLD, *threshold[1:])
        assert gc.get_freeze_count() > frozen
    finally:
        gc.unfreeze()
        gc.set_threshold(*threshold)


def test_the_api_is_documented(client):
    paths = client.get("/openapi.json").json()["paths"]
    assert {"/api/games", "/api/games/{game_id}", "/api/games/{game_id}/actions"} <= set(paths)
    assert client.get("/docs").status_code == 200


# -- online play: links, real time, security -------------------------------------------------------


def test_create_answers_invite_links_and_a_watch_link_from_the_address_asked(client):
    created = create(client, players=(ANA, {**LUIS, "invited": True}, bot("penta")), turn_clock=60, public=True)
    ana, luis, robot = created["seats"]
    base = f"http://testserver/game/{created['id']}"
    assert created["watch"] == base
    assert luis["link"] == f"{base}#seat=1&invite={luis['invite']}" and luis["token"] is None  # never the friend's
    assert ana["link"] == f"{base}#seat=0&token={ana['token']}" and ana["invite"] is None
    assert robot["link"] is robot["token"] is robot["invite"] is None
    view = read(client, created)
    assert "token" not in str(view) and ana["token"] not in str(view) and "sha256" not in str(view)
    assert luis["invite"] not in str(view)
    refused = client.post("/api/games", json={"game": "penta", "players": [ANA], "turn_clock": 45})
    assert refused.status_code == 422


def test_links_point_to_the_public_url_or_away_from_loopback(database):
    from cubilete.web.addresses import LinkBase, lan_addresses

    with TestClient(create_app(database, public_url="https://dice.example/")) as proxied:
        assert create(proxied)["watch"].startswith("https://dice.example/game/")
    assert LinkBase(None, "127.0.0.1").for_request("http", "localhost:8000", 8000) == "http://localhost:8000"
    assert LinkBase(None, "0.0.0.0").for_request("http", "192.168.1.9:8000", 8000) == "http://192.168.1.9:8000"
    lan = lan_addresses()
    if not lan:
        pytest.skip("this machine has no LAN address")
    assert LinkBase(None, "0.0.0.0").for_request("http", "127.0.0.1:8000", 8000) == f"http://{lan[0]}:8000"


def test_the_game_list_is_not_public(client):
    create(client)
    assert client.get("/api/games").status_code == 405


def test_a_hint_needs_the_token_of_the_seat_to_move(client):
    created = create(client, players=(ANA, LUIS))
    act(client, created, {"type": "roll"})
    url = f"/api/games/{created['id']}/hint"
    assert client.get(url).status_code == 405
    assert client.post(url, json={}).status_code == 422
    assert client.post(url, json={"seat": 0, "token": created["seats"][1]["token"]}).status_code == 403
    assert client.post(url, json={"seat": 1, "token": created["seats"][1]["token"]}).status_code == 409
    assert client.post(url, json={"seat": 0, "token": created["seats"][0]["token"]}).status_code == 200


def test_bodies_are_bounded_and_bad_characters_refused_cleanly(client):
    created = create(client)
    huge = {"game": "penta", "players": [ANA], "padding": "x" * 70_000}
    response = client.post("/api/games", json=huge, headers={"Accept-Language": "es"})
    assert response.status_code == 413
    assert response.json() == {
        "code": "body_too_large", "params": {"most": 64},
        "message": "el cuerpo de la solicitud pasa de 64 KB", "detail": "the request body is larger than 64 KB",
    }
    chunks = (b"x" * 1024 for _ in range(80))  # no Content-Length: counted as it arrives
    response = client.post("/api/games?lang=id", content=chunks, headers={"Content-Type": "application/json"})
    assert response.status_code == 413 and response.json()["message"] == "isi permintaan lebih besar dari 64 KB"
    body = '{"seat": 0, "token": "\\ud800", "action": {"type": "roll"}}'
    response = client.post(f"/api/games/{created['id']}/actions", content=body, headers={"Content-Type": "application/json"})
    assert (response.status_code, response.json()["code"]) == (400, "body_unreadable")  # tests/web/test_web_hostile_input.py
    body = '{"game": "penta", "players": [{"name": "A\\udfff", "kind": "human"}]}'
    response = client.post("/api/games", content=body, headers={"Content-Type": "application/json"})
    assert (response.status_code, response.json()["code"]) == (400, "body_unreadable")
    assert client.post("/api/games", json={"game": "penta", "players": [{"name": "x" * 25, "kind": "human"}]}).status_code == 422


@pytest.mark.parametrize("body", [b'{"game": "penta", "players": [{"name": "\xff"}]}', b"[" * 5_000 + b"]" * 5_000])
def test_a_body_that_cannot_be_read_is_refused_in_the_players_language(client, body):
    """Not UTF-8, or nested past what the JSON parser takes: on the action route (served by
    ModelBodyRoute) and on a route FastAPI serves alike, in the game's language, else the request's."""
    created = create(client, lang="id")
    json_body = {"Content-Type": "application/json", "Accept-Language": "es"}
    for path, message in (
        ("/api/games", "no se puede leer el cuerpo de la solicitud: no es texto UTF-8 o está anidado demasiado hondo"),
        (f"/api/games/{created['id']}/actions", "isi permintaan tidak dapat dibaca: bukan teks UTF-8, atau bersarang terlalu dalam"),
    ):
        response = client.post(path, content=body, headers=json_body)
        assert response.status_code == 400
        assert response.json()["code"] == "body_unreadable" and response.json()["message"] == message
    assert client.get(f"/api/games/{created['id']}").json()["events"] == 0
    assert client.get("/api/nowhere").json() == {"detail": "Not Found"}  # FastAPI answers the rest


def test_a_body_that_does_not_arrive_in_time_is_refused_while_others_are_served():
    """Half-sent requests are not held open (one timer watches every body being read, on each event loop)."""
    import asyncio

    from cubilete.web.security import Protections

    async def echo(scope, receive, send):
        message = await receive()
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": message["body"]})

    protected = Protections(echo, body_timeout=0.2)

    async def request(body_arrives: bool) -> list[dict]:
        sent: list[dict] = []

        async def receive():
            if not body_arrives:
                await asyncio.sleep(3600)
            return {"type": "http.request", "body": b"{}", "more_body": False}

        async def send(message):
            sent.append(message)

        scope = {"type": "http", "path": "/api/games", "query_string": b"", "headers": [(b"accept-language", b"es")]}
        await protected(scope, receive, send)
        return sent

    async def slow_and_quick() -> list[list[dict]]:
        return await asyncio.wait_for(asyncio.gather(request(False), request(True)), 5)

    for _loop in range(2):
        slow, quick = run_async(slow_and_quick())
        assert slow[0]["status"] == 408 and json.loads(slow[1]["body"]) == {
            "code": "body_too_slow", "params": {"seconds": "0.2"},
            "message": "el cuerpo de la solicitud no llegó en 0.2 s", "detail": "the request body did not arrive within 0.2 s",
        }
        assert quick[0]["status"] == 200 and quick[1]["body"] == b"{}"
        assert (b"x-frame-options", b"DENY") in slow[0]["headers"] and (b"x-frame-options", b"DENY") in quick[0]["headers"]


@pytest.mark.parametrize("path", ["/", "/rules/penta", "/game/nope", "/api/games/options", "/static/js/game.js", "/docs"])
def test_every_response_carries_the_security_headers(client, path):
    headers = client.get(path).headers
    policy = headers["content-security-policy"]
    assert "frame-ancestors 'none'" in policy and "object-src 'none'" in policy
    if path != "/docs":
        assert "script-src 'self';" in policy and "unsafe-inline" not in policy
    assert headers["x-frame-options"] == "DENY"
    assert headers["referrer-policy"] == "no-referrer"
    assert headers["x-content-type-options"] == "nosniff"


def test_pages_have_no_inline_script():
    import re
    from importlib.resources import files

    for page in files("cubilete.web").joinpath("static").iterdir():
        if page.name.endswith(".html"):
            html = page.read_text()
            for attributes in re.findall(r"<script([^>]*)>", html):
                assert "src=" in attributes or 'type="application/json"' in attributes, page.name
            assert not re.search(r"\son\w+=", html), page.name


def test_a_qr_code_of_a_link_is_drawn_as_svg(client):
    response = client.get("/api/qr", params={"text": "http://192.168.1.9:8000/game/abc#seat=1&token=x"})
    assert response.status_code == 200 and response.headers["content-type"].startswith("image/svg+xml")
    assert response.text.startswith("<svg") and "<path" in response.text
    assert client.get("/api/qr", params={"text": "x" * 513}).status_code == 422


def test_the_live_socket_pushes_each_step_to_every_follower(client):
    created = create(client, players=(ANA, LUIS))
    url = f"/api/games/{created['id']}/live"
    with client.websocket_connect(f"{url}?since=0&lang=es") as player, client.websocket_connect(url) as spectator:
        assert player.receive_json()["events"] == 0 and spectator.receive_json()["steps"] == []
        act(client, created, {"type": "roll"}, at=0)
        for follower in (player, spectator):
            pushed = follower.receive_json()
            assert pushed["events"] == 1 and [step["index"] for step in pushed["steps"]] == [0]
            assert len(pushed["table"]["dice"]) == 5
        act(client, created, {"type": "keep", "held": []}, at=1)
        assert [step["index"] for step in player.receive_json()["steps"]] == [1, 2]
        player.send_json({"since": 0})  # after a sleep: everything since event 0 again
        assert [step["index"] for step in player.receive_json()["steps"]] == [0, 1, 2]
    with client.websocket_connect(f"{url}?since=1") as late:
        assert [step["index"] for step in late.receive_json()["steps"]] == [1, 2]


def test_the_live_socket_of_an_unknown_game_closes(client):
    from starlette.websockets import WebSocketDisconnect

    with client.websocket_connect("/api/games/nope/live") as socket:
        with pytest.raises(WebSocketDisconnect) as closed:
            socket.receive_json()
    assert closed.value.code == 4404


# -- refusals in the reader's language ------------------------------------------------------------

def test_a_spanish_game_refuses_in_spanish_with_the_code_and_its_parameters(client):
    created = create(client, players=(ANA, LUIS), lang="es")
    url = f"/api/games/{created['id']}/actions"
    ana, luis = created["seats"][0]["token"], created["seats"][1]["token"]

    # a reader who chose no language (an English Accept-Language is no choice) gets the game's
    def refused(body, **extra):
        headers = {"Accept-Language": "en", **extra.pop("headers", {})}
        return client.post(url, json=body, headers=headers, **extra)

    roll_first = refused({"seat": 0, "token": ana, "action": {"type": "score", "box": "chance"}})
    assert act(client, created, {"type": "roll"}, at=0).status_code == 200
    act(client, created, {"type": "score", "box": "chance"})
    act(client, created, {"type": "roll"}, seat=1)
    act(client, created, {"type": "score", "box": "chance"}, seat=1)
    act(client, created, {"type": "roll"})
    events = read(client, created)["events"]
    answers = {
        "roll_first": (roll_first, 409, {}, "primero lanza los dados"),
        "not_your_turn": (
            refused({"seat": 1, "token": luis, "action": {"type": "roll"}}),
            409, {"seat": 0, "name": "Ana"}, "es el turno de Ana",
        ),
        "box_used": (
            refused({"seat": 0, "token": ana, "action": {"type": "score", "box": "chance"}}),
            409, {"game": "penta", "box": "chance"}, "la casilla Chance ya está usada",
        ),
        "wrong_token": (
            refused({"seat": 0, "token": luis, "action": {"type": "roll"}}),
            403, {"seat": 0, "number": 1, "name": "Ana"}, "este enlace no es el del puesto 1 (Ana)",
        ),
        "stale_request": (
            refused({"seat": 0, "token": ana, "at": 0, "action": {"type": "roll"}}),
            409, {"events": events, "at": 0}, f"la partida ha avanzado (jugada {events}, no 0): recárgala",
        ),
        "bad_json": (
            refused(None, content=b'{"seat": 0,', headers={"Content-Type": "application/json"}),
            422, {"position": 11}, "La solicitud no es JSON válido (en el carácter 11)",
        ),
    }
    for code, (response, status, params, spanish) in answers.items():
        assert response.status_code == status, response.text
        assert response.json()["code"] == code
        assert response.json()["params"] == params
        assert response.json()["message"] == spanish
        assert response.json()["detail"] != spanish


def test_a_friend_reading_indonesian_in_a_spanish_game_is_refused_in_indonesian(client):
    """The page sends its language (`?lang=`), the cookie keeps the one chosen: every refusal of a game
    route answers in it, not in the game's."""
    created = create(client, players=(ANA, LUIS), lang="es")
    game = f"/api/games/{created['id']}"
    luis = {"seat": 1, "token": created["seats"][1]["token"]}
    answers = [
        client.post(f"{game}/actions", json={**luis, "action": {"type": "roll"}}, params={"lang": "id"}),
        client.post(f"{game}/hint", json=luis, params={"lang": "id"}),
        client.post(f"{game}/clock", json={"at": 0}, params={"lang": "id"}),
        client.post(f"{game}/seats/1/bot", json={"token": "not-his"}, headers={"Cookie": "lang=id"}),
    ]
    assert [answer.json()["code"] for answer in answers] == ["not_your_turn", "not_your_turn", "no_turn_clock", "wrong_token"]
    assert answers[0].json()["message"] == "sekarang giliran Ana"
    for answer in answers:
        assert answer.json()["message"] == refusal_message("id", answer.json()["code"], answer.json()["params"])
    spanish = client.post(f"{game}/actions", json={**luis, "action": {"type": "roll"}})
    assert spanish.json()["message"] == "es el turno de Ana"  # no choice: the game's language


def test_a_blank_name_is_refused_in_the_language_asked_for_the_new_game(client):
    body = {"game": "penta", "players": [{"name": "   ", "kind": "human"}], "lang": "es"}
    response = client.post("/api/games", json=body, headers={"Accept-Language": "en"})
    assert response.status_code == 422
    assert response.json() == {
        "code": "blank_name",
        "params": {},
        "message": "Cada jugador necesita un nombre",
        "detail": "Every player needs a name",
    }
    indonesian = client.post("/api/games", json={**body, "lang": None}, headers={"Accept-Language": "id"})
    assert indonesian.json()["message"] == "Setiap pemain perlu nama"


def test_a_missing_game_is_refused_in_the_requests_language(client):
    response = client.get("/api/games/nope", headers={"Accept-Language": "es-AR,es;q=0.9"})
    assert response.status_code == 404
    assert response.json()["code"] == "game_not_found" and response.json()["params"] == {"id": "nope"}
    assert response.json()["message"] == "no existe la partida «nope»"


def test_a_bot_level_refusal_names_the_levels_in_the_new_games_language(client):
    body = {"game": "penta", "players": [{"name": "Bot", "kind": "bot", "level": "genius"}], "lang": "es"}
    response = client.post("/api/games", json=body)
    assert response.status_code == 400
    assert response.json()["params"] == {"game": "penta", "levels": list(player_levels("penta")), "level": "genius"}
    assert response.json()["message"] == (
        "un bot de Penta juega en uno de los niveles Principiante, Intermedio, Óptimo y Duelo, no «genius»"
    )


def test_a_client_chosen_seed_is_refused_with_more_than_one_human_seat_invited_or_not(client, database):
    friend = {"name": "Beto", "kind": "human", "invited": True}
    for players in ([ANA, friend], [ANA, LUIS], [ANA, bot("penta"), LUIS]):  # a plain seat's link plays elsewhere too
        refused = client.post("/api/games", json={"game": "penta", "players": players, "seed": 243, "lang": "es"})
        assert refused.status_code == 400 and refused.json()["code"] == "seed_one_human"
        assert refused.json()["message"].startswith("solo se puede elegir la semilla de los dados en una partida")
    assert stored_ids(database) == []
    assert client.post("/api/games", json={"game": "penta", "players": [ANA, friend]}).status_code == 201
    for players in ([ANA], [ANA, bot("penta")], [bot("penta")]):
        assert client.post("/api/games", json={"game": "penta", "players": players, "seed": 243}).status_code == 201


def test_a_server_chosen_secret_keys_the_dice_and_never_leaves_the_server(client, database):
    friend = {"name": "Beto", "kind": "human", "invited": True}
    created = client.post("/api/games", json={"game": "penta", "players": [ANA, friend]}).json()
    record = Storage(database).load(created["id"]).record
    secret = record["dice"]["secret"]
    assert record["format"] == 2 and len(secret) == 64
    view = act(client, created, {"type": "roll"}).text
    assert secret not in view and secret not in json.dumps(created)


def test_a_new_bot_seat_gets_the_optimal_level_of_every_game(client):
    games = client.get("/api/games/options").json()["games"]
    assert {game["id"]: game["default_level"] for game in games} == dict.fromkeys(
        ("penta", "generala", "5000", "yahtzee", "yatzy", "kniffel"), "optimal"
    )
    assert all(game["default_level"] in game["levels"] for game in games)


def test_a_game_id_never_starts_with_a_dash_which_the_command_line_would_read_as_an_option(monkeypatch):
    from cubilete.web import live_game

    drawn = iter(["-Bx9kQ2mZpL1", "Xy3_aB9kQ-ab"])
    monkeypatch.setattr(live_game.secrets, "token_urlsafe", lambda _bytes: next(drawn))
    assert live_game.new_game_id() == "Xy3_aB9kQ-ab"


def test_5000s_rules_are_offered_switch_by_switch_and_a_game_is_played_under_its_choices(client):
    """docs/rules.md#5000-switches: the form's switches make a rule set's name, which the server names canonically."""
    five_thousand = next(game for game in client.get("/api/games/options").json()["games"] if game["id"] == "5000")
    assert [(switch["id"], switch["default"]) for switch in five_thousand["switches"]] == [
        ("entry", "entry-500"),
        ("three_ones", "three-ones-1100"),
        ("set_aside", "auto-set-aside"),
    ]
    assert five_thousand["switches"][0]["choices"] == ["entry-0", "entry-350", "entry-500", "entry-750", "entry-1000"]
    created = create(client, "5000", [ANA, LUIS], rules="three-ones-1000+entry-750+auto-set-aside")
    view = read(client, created)
    assert view["rules"] == "entry-750+three-ones-1000"
    assert read(client, created, lang="es")["rules"] == "entry-750+three-ones-1000"  # an id; the client names it
    penta = next(game for game in client.get("/api/games/options").json()["games"] if game["id"] == "penta")
    assert penta["switches"] == []
