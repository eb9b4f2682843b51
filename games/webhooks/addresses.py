"""Which webhook URLs may be called: https to public addresses only (no SSRF into our network).

A URL is refused unless it is ``https`` (``WEBHOOKS_ALLOW_HTTP`` lets plain http through)
and every address its host resolves to is a public unicast one: no loopback, private
(RFC 1918, ULA), link-local (cloud metadata at 169.254.169.254), shared, reserved,
multicast or unspecified address (``WEBHOOKS_ALLOW_PRIVATE`` lets those through, for a
receiver on this machine or an intranet). The check runs when the player adds the URL
and again at every delivery, which then connects to the address it checked
(``games.webhooks.sending``), so a DNS answer changed in between (rebinding) reaches nothing.
"""

from __future__ import annotations

import ipaddress
import socket
from urllib.parse import urlsplit

from django.conf import settings
from django.utils.translation import gettext_lazy as _

MAX_URL_LENGTH = 500


class WebhookURLError(ValueError):
    """A webhook URL that may not be called; ``str(error)`` is the player-facing reason."""

    def __init__(self, message: object) -> None:
        self.message = message
        super().__init__(str(message))

    def __str__(self) -> str:
        return str(self.message)


def address_allowed(address: str) -> bool:
    """Return whether ``address`` (an IP in text) may be called without the operator's leave."""
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return ip.is_global and not ip.is_multicast


def resolve(host: str, port: int) -> list[str]:
    """Return the addresses ``host`` resolves to for TCP on ``port``; raise ``WebhookURLError``."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError) as exc:
        raise WebhookURLError(_("The webhook's host name does not resolve.")) from exc
    addresses = list(dict.fromkeys(str(info[4][0]) for info in infos))
    if not addresses:
        raise WebhookURLError(_("The webhook's host name does not resolve."))
    return addresses


def checked_target(url: str) -> tuple[str, int, list[str]]:
    """Return ``(host, port, addresses)`` of ``url`` once every check passes.

    Raises ``WebhookURLError`` naming the first reason: not https, no host, user and
    password in the URL, too long, a host that does not resolve, or any address it
    resolves to on a private, loopback or link-local network.
    """
    if len(url) > MAX_URL_LENGTH:
        raise WebhookURLError(_("The webhook URL is too long."))
    parts = urlsplit(url)
    allowed_schemes = ("https", "http") if settings.WEBHOOKS_ALLOW_HTTP else ("https",)
    if parts.scheme not in allowed_schemes:
        raise WebhookURLError(_("The webhook URL must start with https://."))
    if parts.username is not None or parts.password is not None:
        raise WebhookURLError(_("The webhook URL may not hold a user name or password."))
    host = parts.hostname
    if not host:
        raise WebhookURLError(_("The webhook URL names no host."))
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError as exc:
        raise WebhookURLError(_("The webhook URL's port is not valid.")) from exc
    addresses = resolve(host, port)
    if not settings.WEBHOOKS_ALLOW_PRIVATE and not all(address_allowed(a) for a in addresses):
        raise WebhookURLError(
            _("The webhook's host is on a private, loopback or link-local network.")
        )
    return host, port, addresses
