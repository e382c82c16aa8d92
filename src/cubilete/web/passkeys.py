"""Passkeys (WebAuthn, with the `webauthn` library): a signed-in device adds one to its profile, and
another device signs in with it (a discoverable credential: the browser offers the passkeys it holds
for this server, no name asked) and is given a device secret of its own (profiles.py).

A ceremony's challenge is kept in the database (storage/passkeys.py), not in a process's memory, so
that its answer may reach any server process: it lasts CHALLENGE_SECONDS, is used once, and each new
challenge clears the expired ones (the routes are rate-limited per client, which bounds the rest).
The relying party is this server's host name and the expected origin the address its pages are
served at (Services.link_base).

`webauthn` is imported by the methods that use it, not with this module: it weighs about 24 MB of a
process's memory, and a server may see no passkey for hours, or ever (benchmarks/import_memory.py)."""

from __future__ import annotations

import json
import logging
import secrets
from datetime import UTC, datetime, timedelta
from typing import Any

from ..engine.errors import CubileteError
from ..storage import Storage
from ..storage.passkeys import CredentialKnown
from .profiles import Profile, Profiles

log = logging.getLogger(__name__)

CHALLENGE_SECONDS = 300
MAX_CREDENTIAL_ID = 1400  # characters of base64url; WebAuthn's credential ids are at most 1023 bytes
RP_NAME = "cubilete"


class PasskeyRefused(CubileteError):
    """A passkey's answer that does not verify, whose challenge expired, or that no profile holds."""


def _unverified(why: object) -> PasskeyRefused:
    """The refusal of an answer that does not verify: the player reads our words in their language; the
    library's own text ("Response sign count of 2 was not greater than current count of 2") goes to the log."""
    log.warning("a passkey was refused: %s", why)
    return PasskeyRefused("passkey_refused")


class PasskeyKnown(CubileteError):
    """A passkey registered again: a credential belongs to one profile, once."""


class PasskeyHostRefused(CubileteError):
    """The request's address names no host a passkey can belong to (an empty or malformed Host)."""


def _now() -> datetime:
    return datetime.now(UTC)


class Passkeys:
    """The passkeys of the profiles (sync methods: routes call them from worker threads)."""

    def __init__(self, storage: Storage, profiles: Profiles) -> None:
        self.store = storage.passkeys
        self.profiles = profiles

    def registration_options(self, profile: Profile, rp_id: str) -> str:
        """The options (JSON) for the browser to make a passkey for the profile."""
        import webauthn  # on first use (see the module's docstring)
        from webauthn.helpers import base64url_to_bytes
        from webauthn.helpers.structs import (
            AuthenticatorSelectionCriteria,
            PublicKeyCredentialDescriptor,
            ResidentKeyRequirement,
            UserVerificationRequirement,
        )

        known = self.store.credential_ids(profile.id)
        options = webauthn.generate_registration_options(
            rp_id=rp_id,
            rp_name=RP_NAME,
            user_id=profile.id.encode(),
            user_name=profile.name,
            challenge=self._new_challenge(profile.id),
            exclude_credentials=[PublicKeyCredentialDescriptor(id=base64url_to_bytes(c)) for c in known],
            authenticator_selection=AuthenticatorSelectionCriteria(
                resident_key=ResidentKeyRequirement.REQUIRED, user_verification=UserVerificationRequirement.PREFERRED
            ),
        )
        return webauthn.options_to_json(options)

    def register(self, profile: Profile, credential: dict[str, Any], rp_id: str, origin: str) -> None:
        """Verify the browser's new credential and keep it for the profile."""
        import webauthn
        from webauthn.helpers import bytes_to_base64url
        from webauthn.helpers.exceptions import WebAuthnException

        challenge = self._take_challenge(credential, profile.id)
        try:
            verified = webauthn.verify_registration_response(
                credential=credential, expected_challenge=challenge, expected_rp_id=rp_id, expected_origin=origin
            )
        # beside its own errors, `webauthn` lets out those of the certificates and encodings it parses
        # (junk `fido-u2f` or `android-safetynet` attestations)
        except (WebAuthnException, ValueError, KeyError, TypeError) as error:
            raise _unverified(error) from None
        credential_id = bytes_to_base64url(verified.credential_id)
        if len(credential_id) > MAX_CREDENTIAL_ID:  # longer than WebAuthn allows: no column would keep it whole
            raise _unverified("credential id too long")
        try:
            self.store.add(profile.id, credential_id, verified.credential_public_key, verified.sign_count)
        except CredentialKnown:
            raise PasskeyKnown("passkey_known") from None

    def sign_in_options(self, rp_id: str) -> str:
        """The options (JSON) for the browser to offer the passkeys it holds for this server."""
        import webauthn
        from webauthn.helpers.structs import UserVerificationRequirement

        options = webauthn.generate_authentication_options(
            rp_id=rp_id, challenge=self._new_challenge(None), user_verification=UserVerificationRequirement.PREFERRED
        )
        return webauthn.options_to_json(options)

    def sign_in(self, credential: dict[str, Any], rp_id: str, origin: str) -> tuple[Profile, str]:
        """Verify the browser's assertion: answers its profile and a new device secret for this device."""
        import webauthn
        from webauthn.helpers.exceptions import WebAuthnException

        challenge = self._take_challenge(credential, None)
        credential_id = str(credential.get("id", ""))
        row = self.store.find(credential_id) if len(credential_id) <= MAX_CREDENTIAL_ID else None
        if row is None:
            raise PasskeyRefused("passkey_unknown")
        try:
            verified = webauthn.verify_authentication_response(
                credential=credential,
                expected_challenge=challenge,
                expected_rp_id=rp_id,
                expected_origin=origin,
                credential_public_key=row.public_key,
                credential_current_sign_count=row.sign_count,
            )
        # beside its own errors, `webauthn` lets out those of the certificates and encodings it parses
        # (junk `fido-u2f` or `android-safetynet` attestations)
        except (WebAuthnException, ValueError, KeyError, TypeError) as error:
            raise _unverified(error) from None
        self.store.count_signature(credential_id, verified.new_sign_count)
        return Profile(row.profile_id, row.profile_name), self.profiles.add_device(row.profile_id)

    def _new_challenge(self, profile_id: str | None) -> bytes:
        """A new challenge, kept CHALLENGE_SECONDS for its answer (the expired ones are cleared)."""
        from webauthn.helpers import bytes_to_base64url

        challenge = secrets.token_bytes(32)  # 43 characters of base64url, well within the column
        now = _now()
        self.store.keep_challenge(bytes_to_base64url(challenge), profile_id, now, now + timedelta(seconds=CHALLENGE_SECONDS))
        return challenge

    def _take_challenge(self, credential: dict[str, Any], profile_id: str | None) -> bytes:
        """The challenge the credential answers, used up; refused unless this server gave it (to this
        profile, or to a sign-in) and it has not expired."""
        from webauthn.helpers import base64url_to_bytes

        try:
            client_data = json.loads(base64url_to_bytes(credential["response"]["clientDataJSON"]))
            challenge = str(client_data["challenge"])
        except (KeyError, TypeError, ValueError):
            raise _unverified("no client data") from None
        if not self.store.take_challenge(challenge[:64], profile_id, _now()):
            raise PasskeyRefused("passkey_expired")
        return base64url_to_bytes(challenge)
