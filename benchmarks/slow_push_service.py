"""How long a push to one push service waits behind pushes to another that never answers: one `cubilete
serve` allowed two push services of the tests' (tests/push_service.py), a silent one (it takes each
request and never answers) and a working one; `--held` games' seats subscribed at the silent service are
given the turn, then one seat at the working service; prints the seconds from that last move until its
push arrived, for this checkout and, in the same run, for another checkout's code (the peer).

    PYTHONPATH=src python benchmarks/slow_push_service.py [--held 3] [--peer-src OLD_CHECKOUT/src]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from harness import Server, free_port  # noqa: E402
from peers import add_peer_option, sources  # noqa: E402
from push_service import PushService, SilentPushService  # noqa: E402

PLAYERS = [{"name": "Ana", "kind": "human"}, {"name": "Luis", "kind": "human", "invited": True}]
GIVE_UP = 300.0  # seconds to wait for the working service's push


def game_with_subscriber(server: Server, subscription: dict) -> dict:
    """A two-seat Penta game whose second seat (claimed) is subscribed with `subscription`."""
    game = server.api("POST", "/api/games", {"game": "penta", "players": PLAYERS})
    claimed = server.api("POST", f"/api/games/{game['id']}/seats/1/claim", {"invite": game["seats"][1]["invite"]})
    server.api("POST", f"/api/games/{game['id']}/seats/1/push", {"token": claimed["token"], "subscription": subscription})
    return game


def give_the_turn(server: Server, game: dict) -> None:
    """Ana rolls and scores her first box: the turn goes to the subscribed seat."""
    token = game["seats"][0]["token"]
    view = server.api("POST", f"/api/games/{game['id']}/actions", {"seat": 0, "token": token, "action": {"type": "roll"}})
    box = view["table"]["boxes"][0]["id"]
    server.api("POST", f"/api/games/{game['id']}/actions", {"seat": 0, "token": token, "action": {"type": "score", "box": box}})


def one_run(src: Path, held: int) -> float:
    with tempfile.TemporaryDirectory(prefix="slow-push-") as folder_name, PushService() as working, SilentPushService() as silent:
        folder = Path(folder_name)
        env = {"CUBILETE_CACHE_DIR": str(folder / "cache"), "PYTHONPATH": str(src.resolve())}
        services = f"{working.url}/push/,{silent.url}/"
        server = Server(f"sqlite:///{folder / 'games.sqlite3'}", free_port(), folder / "server.log", env=env,
                        options=("--push-services", services, "--no-rate-limits")).start()
        try:
            with urllib.request.urlopen(f"{server.url}/api/push/key", timeout=30) as answer:
                working.server_key = json.load(answer)["public_key"]
            held_games = [
                game_with_subscriber(server, working.subscribe(f"held{n}") | {"endpoint": f"{silent.url}/push/held{n}"})
                for n in range(held)
            ]
            other = game_with_subscriber(server, working.subscribe("eva"))
            for game in held_games:
                give_the_turn(server, game)
            assert silent.asked.wait(30), "no push reached the silent service"
            began = time.monotonic()
            give_the_turn(server, other)
            deadline = began + GIVE_UP
            while "your_turn" not in working.kinds("eva"):
                assert time.monotonic() < deadline, f"no push within {GIVE_UP:.0f} s"
                time.sleep(0.01)
            return time.monotonic() - began
        finally:
            server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--held", type=int, default=3, help="games whose push goes to the silent service first")
    add_peer_option(parser)
    args = parser.parse_args()
    for label, src in sources(args).items():
        seconds = one_run(src, args.held)
        print(f"{label} ({src}): a push to a working service behind {args.held} to a silent one: {seconds:.2f} s")


if __name__ == "__main__":
    main()
