"""What a browser may ask to be sent pushes at: its PushSubscription.toJSON(), checked strictly. The
server POSTs to the endpoint, so an endpoint is only ever an https address of a known push service
(or of the services the host allows with --push-services): the route cannot make the server call
anything else. Keys must be what RFC 8291 needs: p256dh a P-256 point, auth 16 bytes."""

from __future__ import annotations

import binascii
import re
from collections.abc import Sequence
from typing import Any
from urllib.parse import urlsplit

from cryptography.hazmat.primitives.asymmetric import ec

from ...engine.errors import CubileteError
from ...storage.push import Subscription
from ..i18n import LANGUAGES
from .keys import from_b64url

# The push services of Chrome/Android (FCM), Firefox, Safari and Edge: a host equal to or under one.
KNOWN_PUSH_SERVICES = (
    "https://*.googleapis.com/",
    "https://*.push.services.mozilla.com/",
    "https://*.push.apple.com/",
    "https://*.notify.windows.com/",
)
MOST_ENDPOINT_LENGTH = 1024
MOST_KEY_LENGTH = 100  # base64url of a 65-byte point is 87 characters
AUTH_BYTES = 16
POINT_BYTES = 65  # an uncompressed P-256 point: 0x04, then x and y
BASE64URL = re.compile(r"[A-Za-z0-9_-]+={0,2}")


class PushRefused(CubileteError):
    """A push subscription the server will not keep (its shape, its keys, its push service, too many)."""


class PushServices:
    """The push services endpoints may be at: prefixes such as https://fcm.googleapis.com/, where a host
    starting with "*." stands for any host under that domain."""

    def __init__(self, prefixes: Sequence[str] = KNOWN_PUSH_SERVICES) -> None:
        self.prefixes = tuple(urlsplit(prefix) for prefix in prefixes)

    def allows(self, endpoint: str) -> bool:
        try:
            url = urlsplit(endpoint)
            if url.username is not None or url.password is not None or not url.hostname:
                return False
            return any(_under(url, prefix) for prefix in self.prefixes)
        except ValueError:  # no URL: a stray "[", a port that is no number or beyond 65535
            return False


def _under(url: Any, prefix: Any) -> bool:
    if url.scheme != prefix.scheme or url.port != prefix.port or not url.path.startswith(prefix.path or "/"):
        return False
    host, allowed = url.hostname, prefix.hostname or ""
    if allowed.startswith("*."):
        return bool(host.endswith(allowed[1:]) and len(host) > len(allowed) - 1)
    return bool(host == allowed)


def checked_subscription(data: Any, lang: str, services: PushServices) -> Subscription:
    """The subscription in `data` ({endpoint, keys: {p256dh, auth}}), or PushRefused."""
    if not isinstance(data, dict) or not isinstance(data.get("keys"), dict):
        raise PushRefused("push_subscription", detail="not {endpoint, keys: {p256dh, auth}}")
    endpoint, keys = data.get("endpoint"), data["keys"]
    if not isinstance(endpoint, str) or not endpoint.isascii() or len(endpoint) > MOST_ENDPOINT_LENGTH:
        raise PushRefused("push_subscription", detail="endpoint")
    if not services.allows(endpoint):
        raise PushRefused("push_service_not_allowed", endpoint=endpoint[:80])
    p256dh, auth = _key_bytes(keys.get("p256dh"), "p256dh"), _key_bytes(keys.get("auth"), "auth")
    if len(auth) != AUTH_BYTES:
        raise PushRefused("push_subscription", detail="auth")
    try:
        if len(p256dh) != POINT_BYTES or p256dh[0] != 4:
            raise ValueError("not an uncompressed point")
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), p256dh)
    except ValueError:
        raise PushRefused("push_subscription", detail="p256dh") from None
    if lang not in LANGUAGES:
        raise PushRefused("push_subscription", detail="lang")
    return Subscription(endpoint, keys["p256dh"].rstrip("="), keys["auth"].rstrip("="), lang)


def _key_bytes(text: Any, name: str) -> bytes:
    if not isinstance(text, str) or len(text) > MOST_KEY_LENGTH or not BASE64URL.fullmatch(text):
        raise PushRefused("push_subscription", detail=name)
    try:
        return from_b64url(text.rstrip("="))
    except (binascii.Error, ValueError):
        raise PushRefused("push_subscription", detail=name) from None
