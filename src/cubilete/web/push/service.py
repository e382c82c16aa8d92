"""Web Push as the app holds it (`Services.push`): the stored key pair and subscriptions, the push
services endpoints may be at, the outbox that sends, and the notifier the game service tells."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import urlsplit

from ...storage import Storage
from ..presence import Presence
from .keys import VapidKeys, signable_contact
from .notifier import Notifier
from .outbox import RETRY_DELAYS, Outbox
from .reachable import SeatOwner
from .subscriptions import KNOWN_PUSH_SERVICES, PushServices

FALLBACK_CONTACT = "mailto:cubilete@localhost"  # RFC 8292's contact when the host gave none


@dataclass(frozen=True)
class PushSettings:
    """`services`: the prefixes endpoints may start with (--push-services); `contact`: the VAPID `sub`,
    a mailto: or https: address the push services may write to (--push-contact; default: the public
    URL if https, else FALLBACK_CONTACT); `retry_delays`: the waits before each new try."""

    services: tuple[str, ...] = KNOWN_PUSH_SERVICES
    contact: str | None = None
    retry_delays: tuple[float, ...] = RETRY_DELAYS


def public_url_contact(public_url: str | None) -> str:
    """The contact when the host chose none: the public URL's https host, without the port or path the
    signing library refuses (`signable_contact`); else FALLBACK_CONTACT."""
    url = urlsplit(public_url or "")
    host_contact = f"https://{url.hostname}" if url.scheme == "https" and url.hostname else ""
    return host_contact if signable_contact(host_contact) else FALLBACK_CONTACT


class WebPush:
    def __init__(
        self,
        storage: Storage,
        presence: Presence,
        settings: PushSettings,
        public_url: str | None = None,
        seat_owner: SeatOwner = lambda game_id, seat: None,
        tally: Callable[[str], None] | None = None,
    ) -> None:
        """`tally` is told each push's outcome (web/push/outbox.py; web/metrics.py counts them)."""
        self.store = storage.push
        self.keys = VapidKeys.of(self.store)
        self.services = PushServices(settings.services)
        contact = settings.contact or public_url_contact(public_url)
        self.outbox = Outbox(self.keys, self.store, contact, settings.retry_delays, tally=tally)
        self.notifier = Notifier(self.store, presence, self.outbox, seat_owner)

    def start(self) -> None:
        """(By the app's lifespan.) Start the outbox's and the notifier's workers."""
        self.outbox.start()
        self.notifier.start()

    def close(self) -> None:
        try:
            self.notifier.close()
        finally:
            self.outbox.close()
