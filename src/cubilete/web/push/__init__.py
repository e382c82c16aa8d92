"""Web Push (RFC 8030, RFC 8291 encryption, RFC 8292 VAPID): "your turn" on the phone, sent by this
server to the phone's own push service. storage/push.py keeps the key pair and subscriptions, keys.py the
VAPID keys, subscriptions.py checks what a browser sends, notes.py and messages.py say who is told
what, notifier.py and outbox.py do it off the event loop, routes.py is the API, service.py holds it all."""

from .keys import signable_contact
from .notifier import Notifier
from .routes import profile_push_router, push_router
from .service import PushSettings, WebPush
from .subscriptions import KNOWN_PUSH_SERVICES

__all__ = ["KNOWN_PUSH_SERVICES", "Notifier", "PushSettings", "WebPush", "profile_push_router", "push_router", "signable_contact"]
