"""Games played through the web API for tests of what comes after: a 5000 game of Ana against a
beginner bot, on secret dice, Ana playing as the beginner computer player would (no solver table); and a
traditional Generala that the bot wins at once with a Generala servida, on a chosen seed."""

from __future__ import annotations

from itertools import count

from cubilete.engine.actions import action_to_json
from cubilete.engine.dice import DICE_COUNT
from cubilete.engine.dice_seeds import ChosenSeed
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


def serving_seed(roll: int) -> int:
    """The least chosen seed whose roll number `roll` (from 0) shows five equal dice and no roll before it
    does: a Generala servida there when every turn before it takes one roll. About one seed in 1296 has
    five equal at a given roll, so the search hashes a few thousand rolls (well under a second)."""
    def five_equal(seed: int, number: int) -> bool:
        return len(set(ChosenSeed(seed).roll(number, DICE_COUNT))) == 1

    return next(
        seed for seed in count()
        if five_equal(seed, roll) and not any(five_equal(seed, before) for before in range(roll))
    )


def won_at_once(client, lang="en") -> dict:
    """Traditional Generala, Ana against a beginner bot: Ana scores her first roll in the box that pays
    most, then the bot's first roll is a Generala servida and wins the game at once (docs/rules.md#
    generala-servida-wins), Ana ahead on points. Answers the game as created (its id and seats' tokens)."""
    players = [ANA, BOT]
    body = {"game": "generala", "rules": "traditional", "players": players, "seed": serving_seed(1), "lang": lang}
    created = client.post("/api/games", json=body)
    assert created.status_code == 201, created.text
    created = created.json()
    live = client.app.state.services.games.get(created["id"])
    token = created["seats"][0]["token"]

    def act(action) -> None:
        response = client.post(f"/api/games/{created['id']}/actions", json={"seat": 0, "token": token, "action": action})
        assert response.status_code == 200, response.text

    act({"type": "roll"})
    best = max(live.state.score_options(), key=lambda option: option.points)
    act({"type": "score", "box": best.box})
    response = client.post(f"/api/games/{created['id']}/bots", json={"seat": 0, "token": token})
    assert response.status_code == 200 and live.state.winner == 1, response.text
    return created
