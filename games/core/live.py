"""Tell the open game pages that a game moved (issue 29): ``publish(game_id, version)``.

The message says only *which* game is now at *which* version — what the game page already
shows in ``data-version`` and what its poll answers —, never what changed: each page then
asks for its own partial, through the same visibility rule as a poll.

Across processes and machines it goes through Redis pub/sub (``settings.LIVE_REDIS_URL``,
channel ``LIVE_CHANNEL``, payload ``"<game_id>:<version>"``), which the streams of every web
process hear (``games.web.live``). Without Redis (the embedded mode) nothing is sent: the
streams read the version column of the games they watch every ``LIVE_POLL_SECONDS``, one
query per process, which sees the commits of every process (``run_sweeps`` included).
"""

from __future__ import annotations

import logging
from functools import cache, partial

import redis
from django.conf import settings
from django.db import transaction

log = logging.getLogger(__name__)

LIVE_CHANNEL = "tigris:game-version"


@cache
def _client(url: str) -> redis.Redis:
    return redis.Redis.from_url(url, socket_timeout=1.0, socket_connect_timeout=1.0)


def message(game_id: int, version: int) -> str:
    """Return the pub/sub payload for ``game_id`` at ``version``: ``"12:34"``."""
    return f"{game_id}:{version}"


def parse_message(data: bytes | str) -> tuple[int, int] | None:
    """Return ``(game_id, version)`` from a payload, or None for anything else."""
    text = data.decode("ascii", "replace") if isinstance(data, bytes) else data
    game, _sep, version = text.partition(":")
    if not (game.isdigit() and version.isdigit()):
        return None
    return int(game), int(version)


def publish(game_id: int, version: int) -> None:
    """Publish that ``game_id`` is at ``version`` now, when Redis is configured.

    Robust: a Redis that does not answer is logged in one line; the streams' own check of
    the version column (every ``LIVE_FALLBACK_SECONDS`` with Redis) and the pages' polls
    make up for it.
    """
    url = settings.LIVE_REDIS_URL
    if not url:
        return
    try:
        _client(url).publish(LIVE_CHANNEL, message(game_id, version))
    except redis.RedisError as exc:
        log.warning("live event for game %s v%s not published: %s", game_id, version, exc)


def publish_on_commit(game_id: int, version: int) -> None:
    """``publish`` once the current transaction commits (at once outside of one)."""
    transaction.on_commit(partial(publish, game_id, version), robust=True)
