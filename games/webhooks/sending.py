"""POST one JSON body to a checked webhook URL, connecting to the address that was checked.

``urllib`` would resolve the host again after our check (and follow redirects anywhere);
``http.client`` with the socket opened to the checked address, TLS verified against the
host name (SNI and certificate), a timeout, and no redirects followed, does not.
"""

from __future__ import annotations

import http.client
import json
import socket
import ssl
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings

from games.webhooks.addresses import checked_target

USER_AGENT = "TigrisEuphrates-Webhooks/1"
MAX_ANSWER = 64 * 1024  # bytes of the answer read (and dropped)


class _PinnedHTTP(http.client.HTTPConnection):
    def __init__(self, host: str, port: int, address: str, timeout: float) -> None:
        super().__init__(host, port, timeout=timeout)
        self.address = address

    def connect(self) -> None:
        self.sock = socket.create_connection((self.address, self.port), self.timeout)


class _PinnedHTTPS(http.client.HTTPSConnection):
    def __init__(self, host: str, port: int, address: str, timeout: float) -> None:
        super().__init__(host, port, timeout=timeout, context=ssl.create_default_context())
        self.address = address

    def connect(self) -> None:
        sock = socket.create_connection((self.address, self.port), self.timeout)
        self.sock = self._context.wrap_socket(sock, server_hostname=self.host)  # type: ignore[attr-defined]


def post_json(url: str, body: dict[str, Any]) -> int:
    """POST ``body`` as JSON to ``url``; return the HTTP status of the answer.

    Raises ``WebhookURLError`` when the URL no longer passes the checks (DNS rebinding),
    ``OSError`` (including timeouts) or ``http.client.HTTPException`` when the connection
    fails.
    """
    host, port, addresses = checked_target(url)
    parts = urlsplit(url)
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    timeout = float(settings.WEBHOOK_TIMEOUT)
    connection: http.client.HTTPConnection
    if parts.scheme == "https":
        connection = _PinnedHTTPS(host, port, addresses[0], timeout)
    else:
        connection = _PinnedHTTP(host, port, addresses[0], timeout)
    data = json.dumps(body, ensure_ascii=False).encode()
    try:
        connection.request(
            "POST",
            path,
            body=data,
            headers={"Content-Type": "application/json", "User-Agent": USER_AGENT},
        )
        answer = connection.getresponse()
        answer.read(MAX_ANSWER)
        return answer.status
    finally:
        connection.close()
