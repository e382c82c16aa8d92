"""Deleting a profile (DELETE /api/profiles/me) forgets it: its device secrets, passkeys, seat links
and push subscriptions are deleted (foreign keys ON DELETE CASCADE, migration 0009), and their bytes
leave the SQLite file (secure_delete); its seats stay in their games, under their names."""

from __future__ import annotations

from pathlib import Path

from fastapi.testclient import TestClient
from sqlalchemy import create_engine, func, select
from sqlalchemy.pool import NullPool
from webauthn.helpers import bytes_to_base64url

from cubilete.storage.tables import metadata
from cubilete.web import create_app
from tests.push_service import PushService
from tests.web.test_passkeys import Authenticator

ENDPOINT = "https://fcm.googleapis.com/fcm/send/forgotten-phone-0123456789"  # a known push service's
PROFILE_TABLES = ("profiles", "profile_keys", "passkeys", "profile_seats", "passkey_challenges", "push_subscriptions")


def rows(url: str) -> dict[str, int]:
    engine = create_engine(url, poolclass=NullPool)
    try:
        with engine.connect() as connection:
            return {
                name: connection.execute(select(func.count()).select_from(metadata.tables[name])).scalar_one()
                for name in PROFILE_TABLES
            }
    finally:
        engine.dispose()


def file_bytes(database: Path) -> bytes:
    """The database's bytes, with its write-ahead log's if one is left (the app checkpoints it on closing)."""
    return b"".join(path.read_bytes() for path in (database, database.with_name(database.name + "-wal")) if path.exists())


def test_a_deleted_profile_leaves_no_secret_passkey_or_push_subscription_not_even_their_bytes(tmp_path):
    database = tmp_path / "games.sqlite3"
    url = f"sqlite:///{database}"
    keys = PushService().subscribe("phone")["keys"]
    passkey = Authenticator()
    with TestClient(create_app(url)) as client:
        ana = client.post("/api/profiles", json={"name": "Ana"}).json()
        signed_in = {"Authorization": f"Bearer {ana['secret']}"}
        options = client.post("/api/profiles/me/passkeys/options", headers=signed_in).json()
        added = client.post("/api/profiles/me/passkeys", json={"credential": passkey.register(options)}, headers=signed_in)
        assert added.status_code == 201, added.text
        client.post("/api/profiles/me/passkeys/options", headers=signed_in)  # a challenge never answered
        body = {"subscription": {"endpoint": ENDPOINT, "keys": keys}, "lang": "es"}
        assert client.post("/api/profiles/me/push", json=body, headers=signed_in).json() == {"subscribed": True}
        players = [{"name": "Ana", "kind": "human"}, {"name": "Luis", "kind": "human"}]
        game = client.post("/api/games", json={"game": "penta", "players": players}, headers=signed_in).json()
        assert set(rows(url).values()) == {1}  # one row of each

        assert client.delete("/api/profiles/me", headers=signed_in).status_code == 204

        assert rows(url) == dict.fromkeys(PROFILE_TABLES, 0)
        assert client.get("/api/profiles/me", headers=signed_in).status_code == 401
        seats = client.get(f"/api/games/{game['id']}").json()["seats"]
        assert [seat["name"] for seat in seats] == ["Ana", "Luis"]  # its seat stays, under its name
    stored = file_bytes(database)
    for kept in (ENDPOINT, keys["p256dh"], keys["auth"], bytes_to_base64url(passkey.id), ana["id"]):
        assert kept.encode() not in stored, kept
