"""The server's VAPID key pair (RFC 8292): a P-256 key made on the server's first start and kept in its
database, so that every process signs with it and the browsers' subscriptions outlive restarts. Its
public half, as an uncompressed point in base64url, is the applicationServerKey browsers subscribe with."""

from __future__ import annotations

import base64

from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from py_vapid import Vapid02
from py_vapid import _check_sub as _signable_sub  # the library's own rule for a JWT's sub; it has no public one

from ...storage.push import PushStore


def b64url(data: bytes) -> str:
    """Base64url without padding, as Web Push writes keys."""
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def from_b64url(text: str) -> bytes:
    """The bytes of base64url text with or without padding (a ValueError if it is not base64url)."""
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class VapidKeys:
    """The key pair that signs every push request of this server."""

    def __init__(self, private_key: str, public_key: str) -> None:
        self.public_key = public_key  # the applicationServerKey
        self.signer = Vapid02.from_raw(private_key.encode("ascii"))

    @classmethod
    def of(cls, store: PushStore) -> VapidKeys:
        """The stored key pair, made and stored first if this is the server's first start."""
        return cls(*store.key_pair(_new_pair))

    def headers(self, endpoint_origin: str, contact: str, expires: int) -> dict[str, str]:
        """The Authorization header of a push request to this push service (`vapid t=JWT, k=key`)."""
        claims = {"aud": endpoint_origin, "sub": contact, "exp": expires}
        return dict(self.signer.sign(claims))


def signable_contact(contact: str) -> bool:
    """Whether the signing library accepts this contact as the JWT's `sub`: a mailto: address, or an https:
    host without a port or path (it refuses `https://host:8443` with "Missing 'sub' from claims")."""
    return bool(_signable_sub(contact))


def _new_pair() -> tuple[str, str]:
    key = ec.generate_private_key(ec.SECP256R1())
    private = key.private_numbers().private_value.to_bytes(32, "big")
    public = key.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
    return b64url(private), b64url(public)
