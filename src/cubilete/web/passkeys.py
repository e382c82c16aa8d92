"""Passkeys (WebAuthn, with the `webauthn` library): a signed-in device adds one to its profile, and
another device signs in with it (a discoverable credential: the browser offers the passkeys it holds
for this server, no name asked) and is given a device secret of its own (profiles.py).

A ceremony's challenge is kept in the database (`passkey_challenges`), not in a process's memory, so
that its answer may reach any server process: it lasts CHALLENGE_SECONDS, is used once, and each new
challenge clears the expired ones (the routes are rate-limited per client, which bounds the rest).
The relying party is this server's host name and the expected origin the address its pages are
served at (Services.link_base).

`webauthn` is imported by the methods that use it, not with this module: it weighs about 24 MB of a
process's memory, and a server may see no passkey for hours, or ever (benchmarks/import_memory.py)."""

from __future__ import annotations

import json
import secrets
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import Column, ForeignKey, String, Table, delete, insert, select, update

from ..engine.errors import CubileteError
from ..storage import Storage
from ..storage.tables import UtcDateTime, metadata
from .profiles import Profile, Profiles, passkeys_table, profiles_table

CHALLENGE_SECONDS = 300
MAX_CREDENTIAL_ID = 1400  # characters of base64url; WebAuthn's credential ids are at most 1023 bytes
RP_NAME = "cubilete"

passkey_challenges_table = Table(
    "passkey_challenges",
    metadata,
    Column("challenge", String(64), primary_key=True),  # base64url
    Column("profile_id", String(32), ForeignKey("profiles.id", ondelete="CASCADE"), nullable=True),  # None: a sign-in
    Column("expires", UtcDateTime, nullable=False, index=True),
)


class PasskeyRefused(CubileteError):
    """A passkey's answer that does not verify, whose challenge expired, or that no profile holds."""


def _now() -> datetime:
    return datetime.now(UTC)


class Passkeys:
    """The passkeys of the profiles (sync methods: routes call them from worker threads)."""

    def __init__(self, storage: Storage, profiles: Profiles) -> None:
        self.engine = storage.engine
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

        held = select(passkeys_table.c.credential_id).where(passkeys_table.c.profile_id == profile.id)
        with self.engine.connect() as connection:
            known = connection.execute(held).scalars().all()
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
        except WebAuthnException as error:
            raise PasskeyRefused("passkey_refused", reason=str(error)) from None
        row = {
            "credential_id": bytes_to_base64url(verified.credential_id),
            "profile_id": profile.id,
            "public_key": verified.credential_public_key,
            "sign_count": verified.sign_count,
            "created": _now(),
        }
        with self.engine.begin() as connection:
            connection.execute(insert(passkeys_table).values(row))

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
        credential_id = str(credential.get("id", ""))[:MAX_CREDENTIAL_ID]
        query = (
            select(passkeys_table, profiles_table.c.name)
            .join(profiles_table, profiles_table.c.id == passkeys_table.c.profile_id)
            .where(passkeys_table.c.credential_id == credential_id)
        )
        with self.engine.connect() as connection:
            row = connection.execute(query).first()
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
        except WebAuthnException as error:
            raise PasskeyRefused("passkey_refused", reason=str(error)) from None
        bump = update(passkeys_table).where(passkeys_table.c.credential_id == credential_id)
        with self.engine.begin() as connection:
            connection.execute(bump.values(sign_count=verified.new_sign_count))
        return Profile(row.profile_id, row.name), self.profiles.add_device(row.profile_id)

    def _new_challenge(self, profile_id: str | None) -> bytes:
        """A new challenge, kept CHALLENGE_SECONDS for its answer (the expired ones are cleared)."""
        from webauthn.helpers import bytes_to_base64url

        challenge = secrets.token_bytes(32)  # 43 characters of base64url, well within the column
        now, columns = _now(), passkey_challenges_table.c
        with self.engine.begin() as connection:
            connection.execute(delete(passkey_challenges_table).where(columns.expires < now))
            expires = now + timedelta(seconds=CHALLENGE_SECONDS)
            row = {"challenge": bytes_to_base64url(challenge), "profile_id": profile_id, "expires": expires}
            connection.execute(insert(passkey_challenges_table).values(row))
        return challenge

    def _take_challenge(self, credential: dict[str, Any], profile_id: str | None) -> bytes:
        """The challenge the credential answers, used up; refused unless this server gave it (to this
        profile, or to a sign-in) and it has not expired."""
        from webauthn.helpers import base64url_to_bytes

        try:
            client_data = json.loads(base64url_to_bytes(credential["response"]["clientDataJSON"]))
            challenge = str(client_data["challenge"])
        except (KeyError, TypeError, ValueError):
            raise PasskeyRefused("passkey_refused", reason="no client data") from None
        columns = passkey_challenges_table.c
        owner = columns.profile_id.is_(None) if profile_id is None else columns.profile_id == profile_id
        used = delete(passkey_challenges_table).where(
            columns.challenge == challenge[:64], owner, columns.expires >= _now()
        )
        with self.engine.begin() as connection:
            if connection.execute(used).rowcount != 1:
                raise PasskeyRefused("passkey_expired")
        return base64url_to_bytes(challenge)
