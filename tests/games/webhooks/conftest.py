"""A local HTTP receiver for the webhook tests: a thread on 127.0.0.1, answers as told."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest


@dataclass
class Receiver:
    """What the receiver got (``bodies``, decoded JSON) and will answer (``statuses``)."""

    url: str
    bodies: list[Any] = field(default_factory=list)
    headers: list[dict[str, str]] = field(default_factory=list)
    statuses: list[int] = field(default_factory=list)  # answered in turn, then 204
    lock: threading.Lock = field(default_factory=threading.Lock)


@pytest.fixture
def receiver(settings: Any) -> Iterator[Receiver]:
    """Serve a webhook receiver on a free port of 127.0.0.1 (plain http, allowed here)."""
    settings.WEBHOOKS_ALLOW_PRIVATE = True
    settings.WEBHOOKS_ALLOW_HTTP = True
    settings.WEBHOOK_TIMEOUT = 2.0
    got: Receiver

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 (http.server's name)
            length = int(self.headers.get("Content-Length") or 0)
            body = json.loads(self.rfile.read(length) or b"null")
            with got.lock:
                got.bodies.append(body)
                got.headers.append(dict(self.headers))
                status = got.statuses.pop(0) if got.statuses else 204
            self.send_response(status)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, format: str, *args: Any) -> None:
            return  # quiet

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    got = Receiver(url=f"http://127.0.0.1:{server.server_address[1]}/hook?x=1")
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield got
    finally:
        server.shutdown()
        server.server_close()
