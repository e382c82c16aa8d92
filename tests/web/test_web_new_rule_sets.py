"""Issue 37's rule sets everywhere a game is, through the web API: a game against the computer played to
its end, the live bar at each of the person's decisions, the review, the player's record, the download and
`cubilete review` of it. Slow: each sheet game builds its duel's laws (10 to 20 s, docs/benchmarks.md)."""

from __future__ import annotations

import pytest

from cubilete.cli.main import main
from cubilete.engine.actions import action_to_json
from cubilete.players.table import advisor

ANA = {"name": "Ana", "kind": "human"}


@pytest.mark.slow
@pytest.mark.parametrize(
    ("game", "rules", "seats"),
    [
        ("yahtzee", "hasbro", 2),
        # the gate counts 850 bytes a state before the laws are saved (1,716 MB, twice the file's 778 MB):
        # the default budget holds it beside every other rule set's (web/tables.py)
        ("yatzy", "scandinavian", 2),
        ("kniffel", "schmidt", 2),
        ("generala", "traditional-double", 3),  # three seats: an opponent's totals may all lie below another's
        ("5000", "entry-750+free-set-aside", 2),
    ],
)
def test_a_game_of_each_new_rule_set_against_the_computer_ends_with_its_bar_review_and_record(
    client, tmp_path, capsys, game, rules, seats
):
    level = "optimal" if game == "5000" else "duel"
    bots = [{"name": f"Bot {seat}", "kind": "bot", "level": level} for seat in range(1, seats)]
    body = {"game": game, "rules": rules, "players": [ANA, *bots], "seed": 7, "lang": "en"}
    created = client.post("/api/games", json=body)
    assert created.status_code == 201, created.text
    game_id, token = created.json()["id"], created.json()["seats"][0]["token"]
    live = client.app.state.services.games.get(game_id)
    advice = advisor(live.match.rules)
    while not live.state.is_over:
        if live.state.current != 0:
            answer = client.post(f"/api/games/{game_id}/bots", json={"seat": 0, "token": token})
        else:
            bar = client.get(f"/api/games/{game_id}/chances")
            assert bar.status_code == 200, bar.text
            assert sum(seat["value"] for seat in bar.json()["seats"]) == pytest.approx(1)
            action = {"type": "roll"} if live.state.is_chance else action_to_json(advice.choose(live.state))
            answer = client.post(f"/api/games/{game_id}/actions", json={"seat": 0, "token": token, "action": action})
        assert answer.status_code == 200, answer.text
    scores = client.get(f"/api/games/{game_id}").json()["scores"]
    end = client.get(f"/api/games/{game_id}/chances").json()["seats"]
    assert sorted(seat["value"] for seat in end) in ([0.0] * (seats - 1) + [1.0], [0.0] * (seats - 2) + [0.5, 0.5])
    (ana,) = client.get(f"/api/games/{game_id}/review").json()["players"]
    assert ana["final"] == pytest.approx(scores[0] if game != "5000" else float(scores[0] >= 5000))
    assert ana["skill"] == pytest.approx(0, abs=1e-9)  # she played the advice
    record = client.post("/api/players/record", json={"name": "Ana", "seats": [{"game": game_id, "seat": 0, "token": token}]})
    assert [(row["game"], row["rules"], row["games"]) for row in record.json()["rule_sets"]] == [(game, rules, 1)]
    path = tmp_path / "game.json"
    path.write_bytes(client.get(f"/api/games/{game_id}/record").content)
    capsys.readouterr()
    assert main(["review", str(path)]) == 0
    assert capsys.readouterr().out.startswith(f"{game} ({rules}), finished")
