"""A requests session that connects only to the address a push endpoint was checked at.

pywebpush posts with ``requests``, which would resolve the endpoint's host again after our
check (``games.webhooks.addresses.checked_target``): a DNS answer changed in between
(rebinding) would send the post into our own network. ``pinned_session(address)`` gives
pywebpush (its ``requests_session``) a session whose connections go to ``address`` only,
TLS still verified against the endpoint's host name (SNI and certificate: urllib3 takes
them from the URL, not from the socket), and which follows no redirect (a 3xx answer is
the push service's answer, not a new place to post to). The webhooks do the same with
``http.client`` (``games.webhooks.sending``); here the library's own hook is used.
"""

from __future__ import annotations

import socket
from typing import Any

import requests
from requests.adapters import HTTPAdapter
from urllib3.connection import HTTPConnection, HTTPSConnection
from urllib3.connectionpool import HTTPConnectionPool, HTTPSConnectionPool


def _pinned_classes(address: str) -> dict[str, type[HTTPConnectionPool]]:
    """Connection pools (http, https) whose sockets open to ``address``, whatever the host."""

    def connect_to_address(connection: HTTPConnection) -> socket.socket:
        # urllib3 resolves ``_dns_host``; the TLS layer reads ``host`` only after the socket
        # is open, so the certificate is still checked against the endpoint's name.
        name = connection._dns_host
        connection._dns_host = address
        try:
            return HTTPConnection._new_conn(connection)
        finally:
            connection._dns_host = name

    class PinnedHTTP(HTTPConnection):
        def _new_conn(self) -> socket.socket:
            return connect_to_address(self)

    class PinnedHTTPS(HTTPSConnection):
        def _new_conn(self) -> socket.socket:
            return connect_to_address(self)

    class PinnedHTTPPool(HTTPConnectionPool):
        ConnectionCls = PinnedHTTP

    class PinnedHTTPSPool(HTTPSConnectionPool):
        ConnectionCls = PinnedHTTPS

    return {"http": PinnedHTTPPool, "https": PinnedHTTPSPool}


class _PinnedAdapter(HTTPAdapter):
    def __init__(self, address: str) -> None:
        self.address = address
        super().__init__(max_retries=0)

    def init_poolmanager(self, *args: Any, **kwargs: Any) -> None:
        super().init_poolmanager(*args, **kwargs)
        self.poolmanager.pool_classes_by_scheme = _pinned_classes(self.address)


class _NoRedirects(requests.Session):
    def request(self, *args: Any, **kwargs: Any) -> requests.Response:
        kwargs["allow_redirects"] = False
        return super().request(*args, **kwargs)


def pinned_session(address: str) -> requests.Session:
    """Return a session for one post whose every connection opens to ``address`` (an IP).

    No proxy from the environment (``trust_env`` off: the checked address is the one
    reached) and no redirect followed. Close it after use.
    """
    session = _NoRedirects()
    session.trust_env = False
    adapter = _PinnedAdapter(address)
    session.mount("https://", adapter)
    session.mount("http://", adapter)
    return session
