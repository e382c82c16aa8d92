"""A `cubilete serve` process killed with SIGKILL in the middle of 50 games played flat out loses no
acknowledged move: restarted on the same database and port, it shows every event each client saw
acknowledged, with the same dice, and the games play on.

Each game has its own client thread (httpx2, one kept-alive connection each) playing random legal moves
for both hot-seat seats; the games roll secret dice (a key kept on the server: a game with two human seats
takes no client's seed).
"""

from __future__ import annotations

import random
import threading
from dataclasses import dataclass, field

import httpx2
import pytest
from test_server_processes import act, eventually

GAMES = 50
FAMILIES = ("penta", "generala", "5000")
PLAYERS = [{"name": "Ana", "kind": "human"}, {"name": "Beto", "kind": "human"}]
KILL_AFTER_EVENTS = GAMES * 12  # acknowledged events in all: every game is under way, none near its end
GAME_HISTORY = 100  # the server answers at most the last 100 steps (views.MAX_STEPS)


@dataclass
class Client:
    """One game's player, and what the server acknowledged to it: each step of each 200 answer."""

    created: dict = field(repr=False)
    steps: dict[int, dict] = field(default_factory=dict, repr=False)
    events: int = 0  # the event count of the last acknowledged answer
    ending: str = "playing"


def random_action(view: dict, choose: random.Random) -> dict:
    if view["to_roll"]:
        return {"type": "roll"}
    table = view["table"]
    if view["game"] == "5000":
        return {"type": "bank" if table["can_bank"] and choose.random() < 0.5 else "roll"}
    if table["can_reroll"] and choose.random() < 0.5:
        return {"type": "keep", "held": sorted(choose.sample(range(5), choose.randint(0, 4)))}
    return {"type": "score", "box": choose.choice(table["options"])["box"]}


def play(base_url: str, client: Client, choose: random.Random) -> None:
    """Random legal play until the game ends, the server refuses, or it is gone."""
    game = client.created
    tokens = [seat["token"] for seat in game["seats"]]
    with httpx2.Client(base_url=base_url, timeout=60) as http:
        try:
            view = http.get(f"/api/games/{game['id']}").json()
            while not view["is_over"]:
                seat = view["current_player"]
                action = random_action(view, choose)
                body = {"seat": seat, "token": tokens[seat], "action": action, "at": view["events"]}
                answer = http.post(f"/api/games/{game['id']}/actions", json=body)
                if answer.status_code != 200:
                    client.ending = f"refused {answer.status_code}: {answer.text}"
                    return
                view = answer.json()  # read whole: acknowledged
                client.steps.update((step["index"], step) for step in view["steps"])
                client.events = view["events"]
        except httpx2.TransportError:  # killed: this request's answer never came
            client.ending = "cut off"
            return
        except Exception as error:  # a test bug: shown by the test's assertion, not lost in a thread
            client.ending = f"failed: {error!r}"
            return
    client.ending = "finished"


@pytest.mark.parametrize("kind", ["sqlite", pytest.param("postgresql", marks=pytest.mark.slow)])
@pytest.mark.slow  # a long check (a whole scenario, a real fault or server): the slow step runs it
def test_a_process_killed_under_load_keeps_every_acknowledged_move_with_its_dice(kind, tmp_path, start_server, request):
    if kind == "sqlite":
        database = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    else:
        database = request.getfixturevalue("postgres_url")
    server = start_server(database, options=("--no-rate-limits",))  # 50 games at once from one address
    clients = [
        Client(server.api("POST", "/api/games", {"game": FAMILIES[number % 3], "players": PLAYERS}))
        for number in range(GAMES)
    ]
    players = [
        threading.Thread(target=play, args=(server.url, client, random.Random(number)))
        for number, client in enumerate(clients)
    ]
    for player in players:
        player.start()
    # Kill once every game has an acknowledged move and enough moves were made in all: a thread the
    # loaded machine has not scheduled yet would otherwise have nothing to check.
    eventually(
        lambda: [client.events for client in clients],
        lambda events: min(events) > 0 and sum(events) >= KILL_AFTER_EVENTS,
        120,
    )
    server.process.kill()  # SIGKILL: no shutdown, no flush
    for player in players:
        player.join()
    assert [client.ending for client in clients] == ["cut off"] * GAMES  # killed in the middle of every game
    assert all(client.events > 0 for client in clients)

    server.start()  # the same database and port
    for client in clients:
        game = client.created["id"]
        assert sorted(client.steps) == list(range(client.events))  # the answers carried every step
        view = server.api("GET", f"/api/games/{game}?since=0")
        # An action cut off may have been stored, unacknowledged: more events, never fewer.
        assert view["events"] >= client.events, (game, client)
        shown = {step["index"]: step for step in view["steps"]}
        assert min(shown) == 0 and view["events"] <= GAME_HISTORY  # the whole game shown
        for index, step in client.steps.items():
            # The stored event (a roll's event holds its dice) and the game after it, dice included.
            assert shown[index] == step, (game, index)
        assert act(server, client.created, random_action(view, random.Random()), at=view["events"],
                   seat=view["current_player"])[0] == 200
