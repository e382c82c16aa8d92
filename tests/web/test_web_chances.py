"""The live bar's figures (GET /api/games/{id}/chances) and hints in online games only by agreement.

Sheet games: each seat's expected final total is its total now plus the solver's expected
remaining score (the value alone, beside the chance to finish first with more seats: with two,
the duel's chance of the seat to move and the rest for the other). 5000: with two players, the
exact solver's chance to win; with more, estimates that add up to 1. Games of several seats
here are Generala's: the duel's laws of Penta take a gigabyte and seconds to compute. A game
with a friend's seat has hints, chances and the review in progress off unless its creator
allowed them; solo, hot-seat and bot games always have them.
"""

from __future__ import annotations

import pytest
from test_web_review import ANA, LUIS, OPTIMAL, act, create, roll

from cubilete.engine.games import rules_for
from cubilete.engine.sheet_scoring import sheet_total
from cubilete.solvers.five_thousand.advice import rank_five_thousand
from cubilete.solvers.sheet.advice import advise
from cubilete.solvers.sheet.cache import solution
from cubilete.solvers.sheet.duel import duel_chance, final_laws, first_place_chances
from cubilete.solvers.sheet.tables import state_key
from cubilete.solvers.sheet.turn import state_index
from cubilete.web.live_game import LiveGame

BETO = {"name": "Beto", "kind": "human", "invited": True}
FIRST_PLAYER_WINS = 0.5151204677228313  # cubilete solve 5000 (README)
PENTA_OPTIMUM = 254.4848458817  # cubilete solve penta (README)


def chances(client, created, **params) -> dict:
    response = client.get(f"/api/games/{created['id']}/chances", params=params)
    assert response.status_code == 200, response.text
    return response.json()


def served(client, created) -> LiveGame:
    """The server's game: two human seats take no chosen seed, so the figures are checked against its states."""
    return client.app.state.services.games.get(created["id"])


def values(answer) -> list[float]:
    return [seat["value"] for seat in answer["seats"]]


def expected(answer) -> list[float]:
    return [seat["expected"] for seat in answer["seats"]]


def remaining(rules, sheet) -> float:
    """The solver's expected score still to come from a turn start with this sheet (its table, read directly)."""
    solved = solution(rules)
    key = state_key(solved.tables, rules, sheet)
    return float(solved.values[state_index.py_func(solved.tables.shape, *key)])


# -- the figures ---------------------------------------------------------------------------------


def test_a_solo_penta_game_starts_at_the_optimal_expected_score(client):
    created = create(client)
    answer = chances(client, created)
    assert answer["events"] == 0 and answer["unit"] == "points" and not answer["estimate"]
    assert answer["seats"] == [{"seat": 0, "score": 0, "value": pytest.approx(PENTA_OPTIMUM, abs=1e-9)}]


def test_each_seat_expects_its_total_now_plus_the_solvers_remaining_score(client):
    created = create(client, game="generala", players=(ANA, LUIS))
    rules = rules_for("generala")
    match = served(client, created).match
    act(client, created, {"type": "roll"})
    mid_turn = chances(client, created)
    assert expected(mid_turn)[0] == pytest.approx(advise(match.state)[0].value)  # with the dice on the table
    assert expected(mid_turn)[1] == pytest.approx(remaining(rules, match.state.sheets[1]))

    box = next(option.box for option in reversed(advise(match.state)) if option.box is not None)  # the worst box
    act(client, created, {"type": "score", "box": box})
    answer = chances(client, created)
    assert answer["events"] == 2
    ana, luis = answer["seats"]
    sheet = match.state.sheets[0]
    assert ana["score"] == sheet_total(rules, sheet)
    assert ana["expected"] == pytest.approx(ana["score"] + remaining(rules, sheet), abs=1e-9)
    assert luis["score"] == 0 and luis["expected"] == pytest.approx(solution(rules).start_value, abs=1e-9)


def test_two_generala_seats_have_the_duels_chance_to_finish_first_and_the_rest(client):
    created = create(client, game="generala", players=(ANA, LUIS))
    game = served(client, created)
    act(client, created, {"type": "roll"})  # Ana: a roll, a keep (and its roll), a box; Luis: a roll
    act(client, created, {"type": "keep", "held": [0, 1]})
    box = next(option.box for option in advise(game.state) if option.box is not None)
    act(client, created, {"type": "score", "box": box})
    act(client, created, {"type": "roll"}, seat=1)
    states = game.history
    assert len(states) == 6
    for at, state in enumerate(states):  # every moment of a turn, the bar played back
        answer = chances(client, created, at=at)
        assert answer["unit"] == "win_probability" and not answer["estimate"]
        duel, mover = duel_chance(state), state.current_player
        assert answer["seats"][mover]["value"] == pytest.approx(duel, abs=1e-12)
        assert answer["seats"][1 - mover]["value"] == pytest.approx(1 - duel, abs=1e-12)


def test_three_generala_seats_share_what_the_duel_leaves_by_their_chances_to_finish_first(client):
    created = create(client, game="generala", players=(ANA, LUIS, OPTIMAL))
    match = served(client, created).match
    act(client, created, {"type": "roll"})
    answer = chances(client, created)
    assert answer["unit"] == "win_probability" and answer["estimate"]
    ana, luis, bot = values(answer)
    assert ana == pytest.approx(duel_chance(match.state), abs=1e-12)
    assert ana + luis + bot == pytest.approx(1, abs=1e-12)
    assert luis == pytest.approx(bot, abs=1e-12)  # the same empty sheet
    independent = first_place_chances(final_laws(match.state))
    assert luis > 0 and luis / bot == pytest.approx(independent[1] / independent[2])


def test_a_finished_duel_gives_the_win_to_the_higher_total(client):
    created = create(client, game="generala", players=(OPTIMAL, {**OPTIMAL, "name": "Bot 2", "level": "duel"}))
    played = client.post(f"/api/games/{created['id']}/bots", json={"seat": 0, "token": "none"}).json()
    answer = chances(client, created)
    first, second = played["scores"]
    assert answer["is_over"] and values(answer) == [float(first > second) + 0.5 * (first == second),
                                                    float(second > first) + 0.5 * (first == second)]
    assert expected(answer) == [first, second]


def test_two_player_5000_chances_are_the_exact_solvers_at_every_step(client):
    created = create(client, game="5000", players=(ANA, LUIS))
    match = served(client, created).match
    start = chances(client, created)
    assert start["unit"] == "win_probability" and not start["estimate"]
    assert values(start) == pytest.approx([FIRST_PLAYER_WINS, 1 - FIRST_PLAYER_WINS], abs=1e-12)
    for _ in range(6):  # rolls of whoever is to move: decisions, busts and new turns
        roll(client, created, match)
        answer = chances(client, created)
        assert answer["events"] == len(match.events)
        mover = match.state.current_player
        exact = rank_five_thousand(match.state).value
        assert answer["seats"][mover]["value"] == pytest.approx(exact, abs=1e-12)
        assert sum(values(answer)) == pytest.approx(1, abs=1e-12)
        assert [seat["score"] for seat in answer["seats"]] == list(match.state.scores())
    assert chances(client, created, at=0) == start  # an earlier step, as the bar plays the steps back


def test_with_more_players_the_5000_chances_are_estimates_that_add_up_to_one(client):
    created = create(client, game="5000", players=(ANA, LUIS, OPTIMAL))
    answer = chances(client, created)
    assert answer["estimate"] and len(answer["seats"]) == 3
    assert sum(values(answer)) == pytest.approx(1, abs=1e-12)
    assert all(0 < value < 1 for value in values(answer))
    act(client, created, {"type": "roll"})
    assert sum(values(chances(client, created))) == pytest.approx(1, abs=1e-12)


def test_a_finished_game_shows_the_result(client):
    created = create(client, players=(OPTIMAL,))
    played = client.post(f"/api/games/{created['id']}/bots", json={"seat": 0, "token": "none"}).json()
    answer = chances(client, created)
    assert answer["is_over"] and answer["seats"] == [{"seat": 0, "score": played["scores"][0], "value": played["scores"][0]}]


def test_a_step_not_reached_yet_or_an_unknown_game_is_refused(client):
    created = create(client)
    ahead = client.get(f"/api/games/{created['id']}/chances", params={"at": 3})
    assert ahead.status_code == 409 and ahead.json()["code"] == "chances_ahead"
    assert client.get(f"/api/games/{created['id']}/chances", params={"at": -1}).status_code == 422
    assert client.get("/api/games/nothing/chances").status_code == 404


# -- hints only by agreement ---------------------------------------------------------------------


def hint(client, created, seat, token_of=None):
    token = created["seats"][seat if token_of is None else token_of]["token"]
    return client.post(f"/api/games/{created['id']}/hint", json={"seat": seat, "token": token})


def test_a_game_with_a_friend_has_no_hints_nor_chances_unless_its_creator_allowed_them(client):
    created = create(client, players=(ANA, BETO), lang="es")
    assert client.get(f"/api/games/{created['id']}").json()["hints"] == "off"
    act(client, created, {"type": "roll"})
    assert hint(client, created, 0, token_of=1).status_code == 403  # the seat's token first, as ever
    assert hint(client, created, 0, token_of=1).json()["code"] == "wrong_token"
    refused = hint(client, created, 0)
    assert refused.status_code == 403 and refused.json()["code"] == "hints_off"
    assert refused.json()["message"].startswith("las pistas y las probabilidades de ganar están desactivadas")
    assert refused.json()["detail"].startswith("hints and win chances are off in this game")
    for url in ("chances", "review", "review/1"):  # nor a live bar, nor a review of the game in progress
        answer = client.get(f"/api/games/{created['id']}/{url}")
        assert answer.status_code == 403 and answer.json()["code"] == "hints_off", url


def test_a_creator_who_allows_hints_gives_them_to_everyone_at_the_table(client):
    created = create(client, game="generala", players=(ANA, BETO), hints_allowed=True)
    assert client.get(f"/api/games/{created['id']}").json()["hints"] == "agreed"
    act(client, created, {"type": "roll"})
    assert hint(client, created, 0).status_code == 200
    assert hint(client, created, 1).status_code == 409  # Beto's token, but it is Ana's turn
    assert hint(client, created, 1, token_of=0).status_code == 403
    assert chances(client, created)["events"] == 1  # no token: anyone who follows the game


@pytest.mark.parametrize("players", [(ANA,), (ANA, LUIS), (ANA, OPTIMAL)], ids=["solo", "hot-seat", "bot"])
def test_games_without_friends_always_have_hints(client, players):
    created = create(client, game="generala", players=players, hints_allowed=False)
    assert client.get(f"/api/games/{created['id']}").json()["hints"] == "always"
    act(client, created, {"type": "roll"})
    assert hint(client, created, 0).status_code == 200
    assert chances(client, created)["events"] >= 1


def test_a_game_without_hints_is_reviewed_once_over(client):
    created = create(client, game="5000", players=(ANA, BETO))
    view = client.get(f"/api/games/{created['id']}").json()
    while not view["is_over"]:  # both bank whenever they may
        seat = view["current_player"]
        view = act(client, created, {"type": "bank"} if view["table"]["can_bank"] else {"type": "roll"}, seat=seat)
    assert client.get(f"/api/games/{created['id']}/review").status_code == 200
    assert client.get(f"/api/games/{created['id']}/chances").status_code == 403  # the bar stays off


def test_open_tables_say_whether_hints_are_on(client):
    created = create(client, players=(ANA, BETO), public=True, hints_allowed=True)
    (table,) = client.get("/api/open-tables").json()
    assert table["id"] == created["id"] and table["hints"] == "agreed"
