"""Web Push as the app holds it (`Services.push`): the stored key pair and subscriptions, the push
services endpoints may be at, the outbox that sends, and the notifier the game service tells."""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlsplit

from ...storage import Storage
from ..presence import Presence
from .keys import VapidKeys
from .notifier import Notifier, SeatOwner
from .outbox import RETRY_DELAYS, Outbox
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


class WebPush:
    def __init__(
        self,
        storage: Storage,
        presence: Presence,
        settings: PushSettings,
        public_url: str | None = None,
        seat_owner: SeatOwner = lambda game_id, seat: None,
    ) -> None:
        self.store = storage.push
        self.keys = VapidKeys.of(self.store)
        self.services = PushServices(settings.services)
        https_url = public_url if public_url and urlsplit(public_url).scheme == "https" else None
        contact = settings.contact or https_url or FALLBACK_CONTACT
        self.outbox = Outbox(self.keys, self.store, contact.rstrip("/"), settings.retry_delays)
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
