"""A push service for the tests (RFC 8030's side that phones' browsers trust): a local HTTP server
that, for each push the app sends, checks its VAPID authorization (RFC 8292: the JWT's ES256
signature by the app's public key, its aud, exp and sub claims), then decrypts its aes128gcm body
(RFC 8291) with the private key and auth secret of the subscription it made for the test, and keeps
the message. It can be told to answer an endpoint with 404, 410 or 500 a number of times."""

from __future__ import annotations

import base64
import contextlib
import json
import os
import socket
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from harness import Server, free_port
from py_vapid.jwt import decode

WAIT_SECONDS = 15  # the longest wait for a push (the app sends from a worker thread)


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


@dataclass
class Received:
    """A push that passed every check: for which subscription, its decrypted message, its headers."""

    name: str
    message: dict[str, Any]
    claims: dict[str, Any]
    headers: dict[str, str]  # their names in lower case


@dataclass
class Subscriber:
    """A browser's side of one subscription: the keys only it holds."""

    private_key: ec.EllipticCurvePrivateKey
    auth: bytes
    answers: list[int] = field(default_factory=list)  # statuses to answer first, before 201


class PushService:
    def __init__(self) -> None:
        self.server_key: str | None = None  # the app's public key (GET /api/push/key)
        self.received: list[Received] = []
        self.problems: list[str] = []  # pushes that failed a check
        self.tries: dict[str, int] = {}  # requests per subscription, answered or not
        self._subscribers: dict[str, Subscriber] = {}
        self._changed = threading.Condition()
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server's name)
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                status = service.take(
                    self.path.rsplit("/", 1)[-1], {key.lower(): value for key, value in self.headers.items()}, body
                )
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    def __enter__(self) -> PushService:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()

    def subscribe(self, name: str, answers: tuple[int, ...] = ()) -> dict[str, Any]:
        """A new subscription, as PushSubscription.toJSON() gives it to the page."""
        key = ec.generate_private_key(ec.SECP256R1())
        auth = os.urandom(16)
        self._subscribers[name] = Subscriber(key, auth, list(answers))
        point = key.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
        return {
            "endpoint": f"{self.url}/push/{name}",
            "expirationTime": None,
            "keys": {"p256dh": b64url(point), "auth": b64url(auth)},
        }

    def answer(self, name: str, *statuses: int) -> None:
        """Answer the subscription's next pushes with these statuses (then 201 again)."""
        self._subscribers[name].answers.extend(statuses)

    def take(self, name: str, headers: dict[str, str], body: bytes) -> int:
        with self._changed:
            self.tries[name] = self.tries.get(name, 0) + 1
            self._changed.notify_all()
        subscriber = self._subscribers.get(name)
        if subscriber is None:
            return 404
        if subscriber.answers:
            return subscriber.answers.pop(0)
        try:
            received = Received(name, self._decrypted(subscriber, headers, body), self._claims(headers), headers)
        except Exception as problem:  # any check failed: the test sees why
            with self._changed:
                self.problems.append(f"{name}: {problem!r}")
                self._changed.notify_all()
            return 400
        with self._changed:
            self.received.append(received)
            self._changed.notify_all()
        return 201

    def _claims(self, headers: dict[str, str]) -> dict[str, Any]:
        """The VAPID JWT's claims, once its signature by the app's key and its claims are checked."""
        scheme, _, rest = headers["authorization"].partition(" ")
        assert scheme.lower() == "vapid", scheme
        parts = dict(part.strip().split("=", 1) for part in rest.split(","))
        assert parts["k"] == self.server_key, "not the app's public key"
        header = json.loads(base64.urlsafe_b64decode(parts["t"].split(".")[0] + "=="))
        assert header["alg"] == "ES256", header
        claims = decode(parts["t"], parts["k"])  # raises InvalidSignature
        assert claims["aud"] == self.url, claims
        assert time.time() < claims["exp"] <= time.time() + 24 * 3600, claims
        assert claims["sub"].startswith(("mailto:", "https:")), claims
        return claims

    @staticmethod
    def _decrypted(subscriber: Subscriber, headers: dict[str, str], body: bytes) -> dict[str, Any]:
        assert headers["content-encoding"] == "aes128gcm", headers
        assert int(headers["ttl"]) > 0 and headers["urgency"] in ("high", "normal"), headers
        plain = http_ece.decrypt(
            body, private_key=subscriber.private_key, auth_secret=subscriber.auth, version="aes128gcm"
        )
        message: dict[str, Any] = json.loads(plain)
        return message

    def wait_for(self, check: Callable[[PushService], bool], what: str) -> None:
        """Wait until `check(self)` holds (a push arrived, a try was made); fails after WAIT_SECONDS."""
        deadline = time.monotonic() + WAIT_SECONDS
        with self._changed:
            while not check(self):
                left = deadline - time.monotonic()
                assert left > 0, (
                    f"no {what}; received {[(r.name, r.message['kind']) for r in self.received]}, problems {self.problems}"
                )
                self._changed.wait(left)

    def messages(self, name: str) -> list[dict[str, Any]]:
        return [received.message for received in self.received if received.name == name]

    def kinds(self, name: str) -> list[str]:
        return [message["kind"] for message in self.messages(name)]

    def wait_for_kind(self, name: str, kind: str, count: int = 1) -> dict[str, Any]:
        """The `count`-th push of this kind to the subscription, once it arrived."""
        self.wait_for(lambda service: service.kinds(name).count(kind) >= count, f"{kind} for {name}")
        return [message for message in self.messages(name) if message["kind"] == kind][count - 1]


class SilentPushService:
    """A push service that takes each request and never answers it (until the test ends)."""

    def __init__(self) -> None:
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self._listener.getsockname()[1]}"
        self.held: list[socket.socket] = []
        self.asked = threading.Event()
        self._thread = threading.Thread(target=self._hold_all, daemon=True)

    def _hold_all(self) -> None:
        with contextlib.suppress(OSError):  # the listener closed: the test ended
            while True:
                connection, _ = self._listener.accept()
                self.held.append(connection)
                self.asked.set()

    def __enter__(self) -> SilentPushService:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._listener.close()
        for connection in self.held:
            connection.close()


@contextmanager
def server_and_push_service(folder, env: dict[str, str] | None = None) -> Iterator[tuple[Server, PushService]]:
    """A `cubilete serve` on SQLite in `folder` whose pushes may go to a push service of the tests' (which
    knows the server's key); `env`: the server's environment."""
    with PushService() as service:
        server = Server(
            f"sqlite:///{folder / 'games.sqlite3'}",
            free_port(),
            folder / "server.log",
            env=env,
            options=("--push-services", f"{service.url}/push/"),
        ).start()
        try:
            with urllib.request.urlopen(f"{server.url}/api/push/key", timeout=30) as answer:
                service.server_key = json.load(answer)["public_key"]
            yield server, service
        finally:
            server.stop()
