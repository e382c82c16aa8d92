"""Passkeys at the API (web/passkeys.py): a signed-in device registers one, another device signs in
with it and gets its own secret; each challenge answers once; an unknown or forged passkey is refused.
The authenticator is played here with an EC P-256 key (attestation "none", as phones send)."""

from __future__ import annotations

import hashlib
import json
import struct

import pytest
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from fastapi.testclient import TestClient
from webauthn.helpers import base64url_to_bytes, bytes_to_base64url, encode_cbor, parse_cbor

from cubilete.web import create_app

ORIGIN, RP_ID = "http://testserver", "testserver"  # the TestClient's address


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.slow)])
def client(request, tmp_path):
    url = request.getfixturevalue("database" if request.param == "sqlite" else "postgres_url")
    with TestClient(create_app(url)) as client:
        yield client


class Authenticator:
    """One passkey: its key pair, id and signature counter."""

    def __init__(self) -> None:
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.id = hashlib.sha256(b"passkey").digest()
        self.count = 0

    def _client_data(self, kind: str, challenge: str) -> bytes:
        return json.dumps({"type": kind, "challenge": challenge, "origin": ORIGIN}).encode()

    def _auth_data(self, attested: bytes = b"") -> bytes:
        self.count += 1
        flags = 0x45 if attested else 0x05  # user present and verified (+ attested credential data)
        return hashlib.sha256(RP_ID.encode()).digest() + bytes([flags]) + struct.pack(">I", self.count) + attested

    def register(self, options: dict) -> dict:
        numbers = self.key.public_key().public_numbers()
        cose = {1: 2, 3: -7, -1: 1, -2: numbers.x.to_bytes(32, "big"), -3: numbers.y.to_bytes(32, "big")}
        attested = bytes(16) + struct.pack(">H", len(self.id)) + self.id + encode_cbor(cose)
        attestation = encode_cbor({"fmt": "none", "attStmt": {}, "authData": self._auth_data(attested)})
        client_data = self._client_data("webauthn.create", options["challenge"])
        response = {
            "clientDataJSON": bytes_to_base64url(client_data),
            "attestationObject": bytes_to_base64url(attestation),
        }
        return self._credential(response)

    def assert_(self, options: dict) -> dict:
        client_data = self._client_data("webauthn.get", options["challenge"])
        auth_data = self._auth_data()
        signature = self.key.sign(auth_data + hashlib.sha256(client_data).digest(), ec.ECDSA(hashes.SHA256()))
        response = {
            "clientDataJSON": bytes_to_base64url(client_data),
            "authenticatorData": bytes_to_base64url(auth_data),
            "signature": bytes_to_base64url(signature),
        }
        return self._credential(response)

    def _credential(self, response: dict) -> dict:
        credential_id = bytes_to_base64url(self.id)
        return {"id": credential_id, "rawId": credential_id, "type": "public-key", "response": response}


def test_a_passkey_added_on_one_device_signs_in_another(client):
    beto = client.post("/api/profiles", json={"name": "Beto"}).json()
    signed_in = {"Authorization": f"Bearer {beto['secret']}"}
    passkey = Authenticator()
    options = client.post("/api/profiles/me/passkeys/options", headers=signed_in).json()
    assert options["rp"]["id"] == RP_ID and options["authenticatorSelection"]["residentKey"] == "required"
    added = client.post("/api/profiles/me/passkeys", json={"credential": passkey.register(options)}, headers=signed_in)
    assert added.status_code == 201, added.text

    options = client.post("/api/passkeys/options").json()
    assert options["rpId"] == RP_ID and options.get("allowCredentials", []) == []
    assertion = passkey.assert_(options)
    answer = client.post("/api/passkeys/sign-in", json={"credential": assertion})
    assert answer.status_code == 200, answer.text
    device = answer.json()
    assert (device["id"], device["name"]) == (beto["id"], "Beto") and device["secret"] != beto["secret"]
    assert client.get("/api/profiles/me", headers={"Authorization": f"Bearer {device['secret']}"}).status_code == 200

    replayed = client.post("/api/passkeys/sign-in", json={"credential": assertion})
    assert replayed.status_code == 401 and replayed.json()["code"] == "passkey_expired"


def test_an_unknown_or_forged_passkey_signs_no_one_in(client):
    beto = client.post("/api/profiles", json={"name": "Beto"}).json()
    signed_in = {"Authorization": f"Bearer {beto['secret']}"}
    passkey, stranger = Authenticator(), Authenticator()
    options = client.post("/api/profiles/me/passkeys/options", headers=signed_in).json()
    assert (
        client.post(
            "/api/profiles/me/passkeys", json={"credential": passkey.register(options)}, headers=signed_in
        ).status_code
        == 201
    )

    unknown = stranger.assert_(client.post("/api/passkeys/options").json())
    unknown["id"] = unknown["rawId"] = "c29tZW9uZSBlbHNl"
    assert client.post("/api/passkeys/sign-in", json={"credential": unknown}).json()["code"] == "passkey_unknown"
    forged = stranger.assert_(client.post("/api/passkeys/options").json())  # the right id, the wrong key
    refused = client.post("/api/passkeys/sign-in", json={"credential": forged})
    assert refused.status_code == 401 and refused.json()["code"] == "passkey_refused"
    no_challenge = passkey.assert_({"challenge": "bm90IGdpdmVu"})
    assert client.post("/api/passkeys/sign-in", json={"credential": no_challenge}).json()["code"] == "passkey_expired"
    anonymous = client.post("/api/profiles/me/passkeys/options")
    assert anonymous.status_code == 401 and anonymous.json()["code"] == "profile_needed"


class OddAuthenticator(Authenticator):
    """A passkey with an attestation of its choosing (`fmt`, `statement`) and an id of `id_bytes` bytes."""

    def __init__(self, fmt: str = "none", statement: dict | None = None, id_bytes: int = 32) -> None:
        super().__init__()
        self.fmt, self.statement = fmt, statement or {}
        self.id = bytes(index % 251 for index in range(id_bytes))

    def register(self, options: dict) -> dict:
        credential = super().register(options)
        attestation = parse_cbor(base64url_to_bytes(credential["response"]["attestationObject"]))
        attestation.update(fmt=self.fmt, attStmt=self.statement)
        credential["response"]["attestationObject"] = bytes_to_base64url(encode_cbor(attestation))
        return credential


def signed_in_as_beto(client) -> dict:
    return {"Authorization": f"Bearer {client.post('/api/profiles', json={'name': 'Beto'}).json()['secret']}"}


def add_passkey(client, signed_in: dict, passkey: Authenticator):
    options = client.post("/api/profiles/me/passkeys/options", headers=signed_in).json()
    return client.post("/api/profiles/me/passkeys", json={"credential": passkey.register(options)}, headers=signed_in)


def test_a_passkey_registered_twice_is_refused_as_known(client):
    signed_in, passkey = signed_in_as_beto(client), Authenticator()
    assert add_passkey(client, signed_in, passkey).status_code == 201
    again = add_passkey(client, signed_in, passkey)
    assert (again.status_code, again.json()["code"]) == (409, "passkey_known")


@pytest.mark.parametrize(
    ("fmt", "statement"),
    [
        ("fido-u2f", {"sig": b"x", "x5c": [b"junk"]}),  # a certificate of random bytes
        ("android-safetynet", {"ver": "1", "response": b"a.b.c"}),  # a JWS whose parts are no base64
        ("packed", {"alg": -7, "sig": b"x", "x5c": [b"junk"]}),
    ],
)
def test_a_junk_attestation_is_refused(client, fmt, statement):
    refused = add_passkey(client, signed_in_as_beto(client), OddAuthenticator(fmt, statement))
    assert (refused.status_code, refused.json()["code"]) == (401, "passkey_refused")


def test_a_credential_id_longer_than_webauthn_allows_is_refused_and_signs_no_one_in(client):
    passkey = OddAuthenticator(id_bytes=1100)  # WebAuthn's ids are at most 1023 bytes
    refused = add_passkey(client, signed_in_as_beto(client), passkey)
    assert (refused.status_code, refused.json()["code"]) == (401, "passkey_refused")
    assertion = passkey.assert_(client.post("/api/passkeys/options").json())
    assert client.post("/api/passkeys/sign-in", json={"credential": assertion}).json()["code"] == "passkey_unknown"


@pytest.mark.parametrize("host", ["", "[", "a b", "[::1"])
def test_a_passkey_needs_the_requests_host_name(client, host):
    refused = client.post("/api/passkeys/options", headers={"host": host})
    assert (refused.status_code, refused.json()["code"]) == (400, "passkey_host")


@pytest.mark.parametrize(
    ("lang", "text"),
    [
        ("es", "no se pudo comprobar esta llave de acceso: inténtalo de nuevo o entra con tu código de recuperación"),
        ("id", "kunci sandi ini tidak dapat diperiksa: coba lagi, atau masuk dengan kode pemulihan Anda"),
        ("en", "this passkey could not be checked: try again, or sign in with your recovery code"),
    ],
    ids=["es", "id", "en"],
)
def test_a_passkey_whose_count_went_back_is_refused_in_our_words_and_the_library_text_logged(
    client, caplog, lang, text
):
    """Issue 34, item 7: a copy of a passkey (its signature count not above the one kept) is refused in the
    reader's language; the webauthn library's English goes to the server's log, not to the player."""
    passkey = Authenticator()
    assert add_passkey(client, signed_in_as_beto(client), passkey).status_code == 201
    first = passkey.assert_(client.post("/api/passkeys/options").json())
    signed_in = client.post("/api/passkeys/sign-in", json={"credential": first})
    assert signed_in.status_code == 200, signed_in.text
    passkey.count -= 1  # the copy's counter: the count the server has already seen
    copy = passkey.assert_(client.post("/api/passkeys/options").json())
    with caplog.at_level("WARNING", logger="cubilete.web.passkeys"):
        refused = client.post(f"/api/passkeys/sign-in?lang={lang}", json={"credential": copy})
    assert (refused.status_code, refused.json()["code"], refused.json()["params"]) == (401, "passkey_refused", {})
    assert refused.json()["message"] == text
    assert "sign count" in caplog.text  # the library's words, for the host
