"""Behind a proxy: `cubilete serve` believes X-Forwarded-Proto and X-Forwarded-For only from the proxies
--forwarded-allow-ips names. From them, invite links read https:// (the scheme the players used) and
the bounds per client count each player's own address; from anyone else, or without the option, the
headers change nothing, so a stranger cannot pass for many clients or choose the links' scheme."""

from __future__ import annotations

import argparse
import json
import urllib.request
from collections.abc import Iterator

import pytest
from harness import Server, free_port
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from cubilete.cli.proxies import believed_proxies, trusted_proxies
from cubilete.web.socket_limits import TOO_MANY

SAFETY_SECONDS = 20  # what a broken server may cost a test at most; no test waits for it to pass
PROXIED = {"Host": "dice.example", "X-Forwarded-Proto": "https"}


class Proxied(Server):
    def create(self, headers: dict[str, str]) -> dict:
        body = json.dumps({"game": "penta", "players": [{"name": "Ana", "kind": "human"}]}).encode()
        request = urllib.request.Request(
            f"{self.url}/api/games", data=body, method="POST", headers={"Content-Type": "application/json", **headers}
        )
        with urllib.request.urlopen(request, timeout=SAFETY_SECONDS) as response:
            return json.load(response)

    def follow(self, game_id: str, client: str) -> ClientConnection:
        """A live socket, through a proxy that says it comes from `client`."""
        url = f"ws://127.0.0.1:{self.port}/api/games/{game_id}/live"
        return connect(url, additional_headers={"X-Forwarded-For": client}, open_timeout=SAFETY_SECONDS)


@pytest.fixture(scope="module")
def servers(tmp_path_factory) -> Iterator[dict[str, Proxied]]:
    """One server per setting, each allowing one live socket per client."""
    folder = tmp_path_factory.mktemp("proxied")
    trusts = {
        "this proxy": ("--forwarded-allow-ips", "127.0.0.1"),
        "another proxy": ("--forwarded-allow-ips", "10.9.8.7"),
        "none": (),
    }
    started: dict[str, Proxied] = {}
    try:
        for name, options in trusts.items():
            database = f"sqlite:///{folder / (name.replace(' ', '-') + '.sqlite3')}"
            log = folder / f"{name.replace(' ', '-')}.log"
            started[name] = Proxied(
                database, free_port(), log, options=(*options, "--max-sockets-per-client", "1")
            ).start()
        yield started
    finally:
        for server in started.values():
            server.stop()


def test_from_a_believed_proxy_links_take_its_scheme_and_host(servers):
    created = servers["this proxy"].create(PROXIED)
    assert created["watch"] == f"https://dice.example/game/{created['id']}"
    assert created["seats"][0]["link"].startswith(f"https://dice.example/game/{created['id']}#seat=0&token=")


@pytest.mark.parametrize("trust", ["another proxy", "none"])
def test_from_anyone_else_the_forwarded_scheme_is_ignored(servers, trust):
    created = servers[trust].create(PROXIED)
    assert created["watch"] == f"http://dice.example/game/{created['id']}"


def opened(socket: ClientConnection) -> bool:
    """Whether the server kept the socket: it sends the game first, or closes a refused one with a code."""
    try:
        return json.loads(socket.recv(timeout=SAFETY_SECONDS))["events"] == 0
    except ConnectionClosed as closed:
        assert closed.rcvd is not None and closed.rcvd.code == TOO_MANY
        return False


def test_from_a_believed_proxy_each_player_is_counted_by_their_own_address(servers):
    server = servers["this proxy"]
    game = server.create({})["id"]
    with server.follow(game, "203.0.113.5") as ana, server.follow(game, "203.0.113.6") as luis:
        assert opened(ana) and opened(luis)  # two players behind one proxy: one socket each
        with server.follow(game, "203.0.113.5") as again:
            assert not opened(again)  # Ana's second, beyond the bound of one


def test_from_anyone_else_the_forwarded_address_is_ignored(servers):
    server = servers["another proxy"]
    game = server.create({})["id"]
    with server.follow(game, "203.0.113.5") as first, server.follow(game, "203.0.113.6") as second:
        assert opened(first) and not opened(second)  # both counted as 127.0.0.1, whatever they claim


def test_the_proxies_are_addresses_or_networks():
    assert trusted_proxies("127.0.0.1, 10.0.0.0/8,::1") == "127.0.0.1,10.0.0.0/8,::1"
    assert trusted_proxies("*") == "*"
    for wrong in ("proxy.example", "10.0.0.1/8", "127.0.0.1,", "300.1.1.1"):
        with pytest.raises(argparse.ArgumentTypeError, match="IP addresses or networks"):
            trusted_proxies(wrong)
    assert believed_proxies(None, None) is None  # by default no one's headers are read
    assert believed_proxies(None, "https://dice.example") == "127.0.0.1,::1"  # behind --public-url, this machine
    assert believed_proxies("10.0.0.2", "https://dice.example") == "10.0.0.2"
