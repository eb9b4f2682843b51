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


# Ranges that Python 3.12.1's ``is_global`` still calls global but that no public receiver
# lives in (IANA's special-purpose registries, RFC 6890 and its updates).
_NOT_GLOBAL = tuple(
    ipaddress.ip_network(n)
    for n in (
        "0.0.0.0/8",  # "this network"
        "100.64.0.0/10",  # shared address space (carrier-grade NAT)
        "192.0.0.0/24",  # IETF protocol assignments (192.0.0.8/29 among them)
        "192.88.99.0/24",  # 6to4 relay anycast (deprecated, RFC 7526)
        "198.18.0.0/15",  # benchmarking
        "240.0.0.0/4",  # reserved
        "::/96",  # IPv4-compatible (deprecated); its inner address is judged too
        "64:ff9b:1::/48",  # NAT64 for local use (RFC 8215): a site's own translator
        "100::/64",  # discard-only
        "2001::/23",  # IETF protocol assignments (Teredo's 2001::/32 among them)
        "2001:db8::/32",  # documentation
        "3fff::/20",  # documentation (RFC 9637)
        "5f00::/16",  # segment routing (SRv6) SIDs (RFC 9602)
        "fc00::/7",  # unique local
        "fe80::/10",  # link-local
        "fec0::/10",  # site-local (deprecated)
    )
)
_NAT64 = ipaddress.ip_network("64:ff9b::/96")


def embedded_ipv4(ip: ipaddress.IPv6Address) -> list[ipaddress.IPv4Address]:
    """Return the IPv4 addresses ``ip`` carries inside it: [] for a plain IPv6 address.

    Unwraps IPv4-mapped (``::ffff:a.b.c.d``), IPv4-compatible (``::a.b.c.d``), NAT64's
    well-known prefix (``64:ff9b::a.b.c.d``, RFC 6052), 6to4 (``2002:AABB:CCDD::``,
    RFC 3056) and Teredo (``2001::/32``: its server and its client, RFC 4380).
    """
    inner: list[ipaddress.IPv4Address] = []
    if ip.ipv4_mapped is not None:
        inner.append(ip.ipv4_mapped)
    packed = ip.packed
    if packed[:12] == bytes(12) and int(ip) > 1:  # :: and ::1 are not IPv4 in disguise
        inner.append(ipaddress.IPv4Address(packed[12:]))
    if ip in _NAT64:
        inner.append(ipaddress.IPv4Address(packed[12:]))
    if ip.sixtofour is not None:
        inner.append(ip.sixtofour)
    if ip.teredo is not None:
        inner.extend(ip.teredo)
    return inner


def address_allowed(address: str) -> bool:
    """Return whether ``address`` (an IP in text) may be called without the operator's leave.

    Allowed: a global unicast address outside every special-purpose range (``_NOT_GLOBAL``);
    an IPv6 address carrying an IPv4 one (``embedded_ipv4``) is judged by what it carries as
    well, so ``64:ff9b::a00:1`` (NAT64 to 10.0.0.1) is refused like 10.0.0.1. Raises
    ``ValueError`` for text that is no IP address.
    """
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    candidates: list[ipaddress.IPv4Address | ipaddress.IPv6Address] = [ip]
    if isinstance(ip, ipaddress.IPv6Address):
        inner = embedded_ipv4(ip)
        candidates.extend(inner)
        if inner and (ip.ipv4_mapped is not None or ip in _NAT64 or ip.packed[:12] == bytes(12)):
            # these prefixes only say "translate me": the inner address is the target
            # (6to4 and Teredo are judged by both: Teredo's 2001::/32 is refused as such)
            del candidates[0]
    return all(
        c.is_global
        and not c.is_multicast
        and not any(c in net for net in _NOT_GLOBAL if net.version == c.version)
        for c in candidates
    )


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
