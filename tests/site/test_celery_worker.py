"""A real Celery worker answers through a real Redis broker."""

from __future__ import annotations

import time

from celery import Celery

from tests import services


def test_worker_answers_ping_over_redis(redis_url: str) -> None:
    client = Celery(broker=redis_url)
    with services.celery_worker(redis_url) as node:
        replies: list[dict[str, object]] = []
        deadline = time.monotonic() + 30
        while not replies and time.monotonic() < deadline:
            replies = client.control.ping(destination=[node], timeout=1.0) or []
    assert replies == [{node: {"ok": "pong"}}]
