"""Fixtures of the push tests: a fake push service behind pywebpush's HTTP post, and browsers.

Only the HTTP post pywebpush makes (``Session.post`` of the pinned session it is given,
``games.push.sending``) is replaced: the encryption, the VAPID signature and our delivery
code all run (``test_a_push_connects_to_the_address_checked…`` lets the session connect).
Each browser is a real P-256 key pair and auth secret, so a test reads what the browser
would (``Pushes.payloads``).
"""

from __future__ import annotations

import base64
import json
import os
from dataclasses import dataclass, field
from typing import Any

import http_ece
import pytest
import requests
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from games.push import subscriptions
from games.webhooks import addresses


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


@dataclass
class Browser:
    """A browser's side of one subscription: its endpoint, keys and secret."""

    endpoint: str
    key: ec.EllipticCurvePrivateKey
    auth: bytes

    @property
    def p256dh(self) -> str:
        return _b64(
            self.key.public_key().public_bytes(
                serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
            )
        )

    def subscribe(self, user: Any) -> Any:
        """Save this browser's subscription for ``user`` through the service."""
        return subscriptions.subscription_save(
            user=user, endpoint=self.endpoint, p256dh=self.p256dh, auth=_b64(self.auth)
        )


@dataclass
class Pushes:
    """The push service: every post, answered by ``statuses`` in turn (then 201)."""

    browsers: dict[str, Browser] = field(default_factory=dict)
    posts: list[dict[str, Any]] = field(default_factory=list)
    statuses: list[int] = field(default_factory=list)

    def browser(self, name: str) -> Browser:
        endpoint = f"https://push.example.net/send/{name}"
        self.browsers[endpoint] = Browser(
            endpoint, ec.generate_private_key(ec.SECP256R1()), os.urandom(16)
        )
        return self.browsers[endpoint]

    def post(self, url: str, **kwargs: Any) -> requests.Response:
        self.posts.append({"url": url, **kwargs})
        response = requests.Response()
        response.status_code = self.statuses.pop(0) if self.statuses else 201
        response.reason = "test"
        response._content = b""
        return response

    def to(self, browser: Browser) -> list[dict[str, Any]]:
        """Return what ``browser`` received, decrypted: the payloads as the worker reads them."""
        out = []
        for post in self.posts:
            if post["url"] != browser.endpoint:
                continue
            clear = http_ece.decrypt(
                post["data"], private_key=browser.key, auth_secret=browser.auth, version="aes128gcm"
            )
            out.append(json.loads(clear))
        return out


@pytest.fixture
def pushes(monkeypatch: pytest.MonkeyPatch, settings: Any) -> Pushes:
    """The fake push service; push.example.net resolves to a public address, offline.

    Pushes are queued as with a broker (``PUSH_QUEUED``), the tasks running eagerly at the
    commit; ``test_the_embedded_mode_posts_from_the_sweep`` turns that off.
    """
    settings.PUSH_QUEUED = True
    service = Pushes()
    monkeypatch.setattr(
        requests.Session, "post", lambda _session, url, **kwargs: service.post(url, **kwargs)
    )
    monkeypatch.setattr(addresses, "resolve", lambda host, port: ["93.184.216.34"])
    return service
