"""The review in the web app (its API and page) and the 5000 hints: optimal play loses nothing, a
bad choice shows with the solver's loss, any reader sees it, and 5000 hints rank by chance to win."""

from __future__ import annotations

import pytest
from harness import chosen_seed
from test_web_clock_and_seats import claim_invites

from cubilete.engine.actions import Bank, SetAside
from cubilete.engine.games import rules_for
from cubilete.engine.runner import Match
from cubilete.solvers.five_thousand.advice import rank_five_thousand
from cubilete.solvers.sheet.advice import advise

ANA = {"name": "Ana", "kind": "human"}
LUIS = {"name": "Luis", "kind": "human"}
OPTIMAL = {"name": "Bot", "kind": "bot", "level": "optimal"}
SEED = 7


def create(client, game="penta", players=(ANA,), **extra) -> dict:
    """A new game, its dice from SEED unless it has more than one human seat (no seed is accepted then); its
    friends open their invite links at once, unless it is public (their seats stay open)."""
    body = {"game": game, "players": list(players), **chosen_seed(players, SEED), **extra}
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.text
    return response.json() if extra.get("public") else claim_invites(client, response.json())


def act(client, created, action, seat=0) -> dict:
    body = {"seat": seat, "token": created["seats"][seat]["token"], "action": action}
    response = client.post(f"/api/games/{created['id']}/actions", json=body)
    assert response.status_code == 200, response.text
    return response.json()


def review(client, created) -> dict:
    response = client.get(f"/api/games/{created['id']}/review")
    assert response.status_code == 200, response.text
    return response.json()


def test_a_game_of_the_optimal_bot_reviews_with_no_loss_and_luck_and_skill_add_up(client):
    created = create(client, players=(OPTIMAL,))
    played = client.post(f"/api/games/{created['id']}/bots", json={"seat": 0, "token": "none"})
    assert played.json()["is_over"]
    result = review(client, created)
    assert result["finished"] and result["unit"] == "points" and not result["estimate"]
    assert result["events"] == played.json()["events"] and result["seats"] == [
        {"name": "Bot", "kind": "bot", "computer_from_turn": None}
    ]
    assert len(result["decisions"]) >= 13
    assert all(decision["loss"] == 0 and decision["class"] == "best" for decision in result["decisions"])
    assert {decision["turn"] for decision in result["decisions"]} <= set(range(1, 14))
    (player,) = result["players"]
    assert player["total_loss"] == 0 and player["skill"] == 0
    assert player["final"] == played.json()["scores"][0]
    assert player["start"] + player["luck"] + player["skill"] == pytest.approx(player["final"], abs=1e-6)


def test_a_bad_choice_shows_with_the_solvers_loss_and_its_position_ranks_the_options(client):
    created = create(client, players=(ANA, OPTIMAL))
    act(client, created, {"type": "roll"})
    act(client, created, {"type": "score", "box": "chance"})  # on the first roll: a waste of the chance box
    replay = Match(rules_for("penta"), ["Ana", "Bot"], seed=SEED)
    replay.roll()
    expected = next(option for option in advise(replay.state) if option.box == "chance")
    assert expected.regret > 1

    result = review(client, created)
    assert not result["finished"]
    assert [player["seat"] for player in result["players"]] == [0]  # the human seat only
    (decision,) = result["decisions"]
    assert decision["index"] == 1 and decision["turn"] == 1 and decision["seat"] == 0
    assert decision["chosen"] == {"type": "score", "box": "chance"}
    assert decision["loss"] == pytest.approx(expected.regret)
    assert decision["class"] in ("mistake", "blunder")
    assert result["players"][0]["total_loss"] == pytest.approx(expected.regret)

    position = client.get(f"/api/games/{created['id']}/review/1").json()  # no token: spectators see it too
    assert position["seat"] == 0 and position["turn"] == 1 and position["chosen"] == decision["chosen"]
    assert position["position"]["table"]["dice"] == list(replay.state.dice)
    options = position["options"]
    assert [option["value"] for option in options] == sorted((option["value"] for option in options), reverse=True)
    assert options[0]["loss"] == 0
    (chosen,) = [option for option in options if option["chosen"]]
    assert chosen["box"] == "chance" and chosen["loss"] == pytest.approx(expected.regret)


def test_only_past_decisions_have_a_position(client):
    created = create(client)
    act(client, created, {"type": "roll"})
    url = f"/api/games/{created['id']}/review"
    for index in (0, 1, 5):  # a roll, the decision still to be made (a hint, for its seat alone), beyond
        refused = client.get(f"{url}/{index}")
        assert refused.status_code == 409 and refused.json()["code"] == "review_no_decision"
    assert client.get(f"{url}/-1").status_code == 422
    assert client.get("/api/games/nothing/review").status_code == 404


def test_the_review_follows_the_game_as_it_moves_on(client):
    created = create(client)
    act(client, created, {"type": "roll"})
    assert review(client, created)["decisions"] == []
    act(client, created, {"type": "keep", "held": []})
    first = review(client, created)
    assert [decision["index"] for decision in first["decisions"]] == [1] and first["events"] == 3
    assert review(client, created) == first


def play_a_turn(client, created, seat) -> None:
    """Roll, roll again keeping nothing, then score the first box offered: two decisions of the seat's own."""
    act(client, created, {"type": "roll"}, seat)
    view = act(client, created, {"type": "keep", "held": []}, seat)
    act(client, created, {"type": "score", "box": view["table"]["options"][0]["box"]}, seat)


def test_a_seat_handed_to_the_computer_keeps_its_players_decisions_and_marks_the_computers(client):
    created = create(client, players=(ANA, {**LUIS, "invited": True}), hints_allowed=True)  # reviewed mid-game
    play_a_turn(client, created, 0)
    play_a_turn(client, created, 1)
    handed = client.post(f"/api/games/{created['id']}/seats/1/bot", json={"token": created["seats"][1]["token"]})
    assert handed.status_code == 200, handed.text
    before = review(client, created)
    assert before["seats"][1] == {"name": "Luis", "kind": "bot", "computer_from_turn": None}  # nothing played yet
    play_a_turn(client, created, 0)  # then the computer plays Luis's second turn
    result = review(client, created)
    assert [player["seat"] for player in result["players"]] == [0, 1]
    luis = [decision for decision in result["decisions"] if decision["seat"] == 1]
    assert [decision["turn"] for decision in luis] == [1, 1]  # his own; none of the computer's turn 2
    assert result["players"][1]["decisions"] == 2 and result["players"][0]["decisions"] == 4
    assert result["seats"][1] == {"name": "Luis", "kind": "bot", "computer_from_turn": 2}


def test_the_review_page_is_served_in_the_readers_language(client):
    created = create(client)
    page = client.get(f"/game/{created['id']}/review", headers={"Accept-Language": "id"})
    assert page.status_code == 200 and 'lang="id"' in page.text and "/static/js/review.js" in page.text
    assert client.get("/game/nothing/review").status_code == 404


def five_thousand_decision(client, rules="seed"):
    """A two-player 5000 game whose first seat has rolled, and the server's match of it (two human seats take
    no chosen seed: the hints are checked against the state the server holds)."""
    created = create(client, game="5000", players=(ANA, LUIS), rules=rules)
    act(client, created, {"type": "roll"})
    return created, client.app.state.services.games.get(created["id"]).match


def roll(client, created, match) -> None:
    """The seat to move rolls."""
    act(client, created, {"type": "roll"}, seat=match.state.current_player)


def test_a_5000_hint_ranks_roll_and_bank_by_chance_to_win_and_needs_the_seats_token(client):
    created, match = five_thousand_decision(client)
    while not any(isinstance(action, Bank) for action in match.state.legal_actions()):
        roll(client, created, match)
    url = f"/api/games/{created['id']}/hint"
    seat = match.state.current_player
    assert client.post(url, json={"seat": seat}).status_code == 422
    assert client.post(url, json={"seat": seat, "token": created["seats"][1 - seat]["token"]}).status_code == 403
    hint = client.post(url, json={"seat": seat, "token": created["seats"][seat]["token"]}).json()
    assert hint["unit"] == "win_probability" and not hint["estimate"]
    assert {option["kind"] for option in hint["options"]} == {"roll", "bank"}
    expected = rank_five_thousand(match.state).options
    assert [option["value"] for option in hint["options"]] == pytest.approx([o.win_probability for o in expected])
    assert hint["options"][0]["value"] >= hint["options"][1]["value"]
    assert hint["options"][1]["loss"] == pytest.approx(hint["options"][0]["value"] - hint["options"][1]["value"])


@pytest.mark.slow  # solves the free-set-aside 5000 table for it alone: the slow step runs it
def test_a_5000_hint_with_free_set_aside_ranks_each_choice_of_dice(client):
    created, match = five_thousand_decision(client, rules="free-set-aside")
    while not any(isinstance(action, SetAside) for action in match.state.legal_actions()):  # a bust: the next seat
        roll(client, created, match)
    seat = match.state.current_player
    proof = {"seat": seat, "token": created["seats"][seat]["token"]}
    options = client.post(f"/api/games/{created['id']}/hint", json=proof).json()["options"]
    assert {option["kind"] for option in options} == {"set_aside"}
    assert len(options) == len(match.state.legal_actions())
    assert all(sorted(option["keep"]) == option["keep"] and option["points"] > 0 for option in options)
    values = [option["value"] for option in options]
    assert values == sorted(values, reverse=True)
