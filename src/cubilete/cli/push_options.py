"""`cubilete serve`'s Web Push options: the push services the server may send notifications to (it
POSTs to the addresses browsers give, so only these: never a way to make it call any other host),
and the contact its pushes are signed with (web/push/)."""

from __future__ import annotations

import argparse
import ipaddress
from typing import Any
from urllib.parse import urlsplit

from .output import Parser


def add_push_options(parser: Parser) -> None:
    push = parser.add_argument_group("notifications (Web Push)")
    push.add_argument(
        "--push-services",
        type=push_services,
        metavar="PREFIXES",
        help="the addresses notifications may be sent to, separated by commas: https:// prefixes, where"
        " a host *.example.com is any host under example.com; http:// only for this machine (tests)"
        " (default: the push services of Chrome, Firefox, Safari and Edge)",
    )
    push.add_argument(
        "--push-contact",
        type=push_contact,
        metavar="ADDRESS",
        help="a mailto: or https: address where push services can reach the host, sent with each"
        " notification (default: --public-url's host if it is https, else mailto:cubilete@localhost)",
    )


def push_settings(args: argparse.Namespace) -> Any:
    """The app's PushSettings for the options given."""
    from ..web.push import PushSettings

    chosen = {"services": args.push_services, "contact": args.push_contact}
    return PushSettings(**{name: value for name, value in chosen.items() if value is not None})


def push_services(text: str) -> tuple[str, ...]:
    prefixes = tuple(prefix.strip() for prefix in text.split(",") if prefix.strip())
    for prefix in prefixes:
        url = urlsplit(prefix)
        host = (url.hostname or "").removeprefix("*.")
        if not host or not (url.scheme == "https" or (url.scheme == "http" and _loopback(host))):
            raise argparse.ArgumentTypeError(f"https:// prefixes (http:// for this machine only), not {prefix!r}")
    if not prefixes:
        raise argparse.ArgumentTypeError("at least one prefix")
    return prefixes


def push_contact(text: str) -> str:
    """Refused at start unless the signing library accepts it: every push would fail otherwise."""
    from ..web.push import signable_contact

    if not signable_contact(text):
        raise argparse.ArgumentTypeError(f"a mailto: address or an https:// host without port or path, not {text!r}")
    return text


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False
