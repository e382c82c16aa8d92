"""Games played through the web API for tests of what comes after: a 5000 game of Ana against a
beginner bot, on secret dice, Ana playing as the beginner computer player would (no solver table)."""

from __future__ import annotations

from cubilete.engine.actions import action_to_json
from cubilete.players import make_player

ANA = {"name": "Ana", "kind": "human"}
BOT = {"name": "Bot", "kind": "bot", "level": "beginner"}


def create(client, lang="en") -> dict:
    response = client.post("/api/games", json={"game": "5000", "players": [ANA, BOT], "lang": lang})
    assert response.status_code == 201, response.text
    return response.json()


def play_to_the_end(client, created) -> None:
    live = client.app.state.services.games.get(created["id"])
    chooser = make_player("beginner", live.match.rules)
    token = created["seats"][0]["token"]
    while not live.state.is_over:
        state = live.state
        action = {"type": "roll"} if state.is_chance else action_to_json(chooser.choose(state))
        response = client.post(
            f"/api/games/{created['id']}/actions", json={"seat": 0, "token": token, "action": action}
        )
        assert response.status_code == 200, response.text
