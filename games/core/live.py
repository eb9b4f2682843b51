"""Tell the open game pages that a game moved (issue 29): ``publish(game_id, version)``.

An open game's page (its waiting room) hears of a seat taken or given up the same way:
``publish(WaitingRoom(game_id), mark)``, the mark being ``Game.waiting_mark`` — a
counter of the room's changes, nothing about who joined.

The message says only *which* game is now at *which* version — what the game page already
shows in ``data-version`` and what its poll answers —, never what changed: each page then
asks for its own partial, through the same visibility rule as a poll.

Across processes and machines it goes through Redis pub/sub (``settings.LIVE_REDIS_URL``,
channel ``LIVE_CHANNEL``, payload ``"<game_id>:<version>"``, or ``"…:ahead"`` while the
version's partials are rendered ahead: ``publish(…, ahead=True)``), which the streams of every web
process hear (``games.web.live``). Without Redis (the embedded mode) nothing is sent: the
streams read the version column of the games they watch every ``LIVE_POLL_SECONDS``, one
query per process, which sees the commits of every process (``run_sweeps`` included).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from functools import cache, partial

import redis
from django.conf import settings
from django.db import transaction

log = logging.getLogger(__name__)

LIVE_CHANNEL = "tigris:game-version"


@dataclass(frozen=True)
class WaitingRoom:
    """The waiting room of open game ``game_id``: watched for its ``Game.waiting_mark``."""

    game_id: int


LiveKey = int | WaitingRoom  # a game's id (its version is watched) or its waiting room
WAITING_PREFIX = "w"
AHEAD_SUFFIX = ":ahead"


@cache
def _client(url: str) -> redis.Redis:
    return redis.Redis.from_url(url, socket_timeout=1.0, socket_connect_timeout=1.0)


def message(
    game_id: LiveKey, version: int, *, ahead: bool = False, mover: int | None = None
) -> str:
    """Return the pub/sub payload for ``game_id`` at ``version``: ``"12:34"``.

    A waiting room's mark: ``"w12:3"`` (``WaitingRoom(12)`` at mark 3). ``ahead``: the
    version is committed and the partials of the seated players but ``mover`` are being
    rendered ahead (``"12:34:ahead:2"``, or ``"12:34:ahead"`` without a mover): their
    streams hold it back until the worker's own message comes, at most
    ``LIVE_AHEAD_WAIT_SECONDS``; the others' streams announce it at once.
    """
    key = f"{WAITING_PREFIX}{game_id.game_id}" if isinstance(game_id, WaitingRoom) else game_id
    if not ahead:
        return f"{key}:{version}"
    return f"{key}:{version}{AHEAD_SUFFIX}" + ("" if mover is None else f":{mover}")


@dataclass(frozen=True)
class Heard:
    """A payload read: ``key`` at ``version``; ``ahead`` and its ``mover`` as in ``message``."""

    key: LiveKey
    version: int
    ahead: bool = False
    mover: int | None = None


def parse_heard(data: bytes | str) -> Heard | None:
    """Return what a payload says (``Heard``), or None for a payload of no known shape."""
    text = data.decode("ascii", "replace") if isinstance(data, bytes) else data
    text, ahead, mover = text.partition(AHEAD_SUFFIX)
    mover = mover.removeprefix(":")
    game, _sep, version = text.partition(":")
    waiting = game.startswith(WAITING_PREFIX)
    game = game.removeprefix(WAITING_PREFIX)
    if not (game.isdigit() and version.isdigit()) or (mover and not mover.isdigit()):
        return None
    key: LiveKey = WaitingRoom(int(game)) if waiting else int(game)
    return Heard(key, int(version), bool(ahead), int(mover) if mover else None)


def parse_message(data: bytes | str) -> tuple[LiveKey, int] | None:
    """Return ``(game_id or WaitingRoom, version or mark)`` from a payload, or None."""
    heard = parse_heard(data)
    return None if heard is None else (heard.key, heard.version)


def publish(
    game_id: LiveKey, version: int, *, ahead: bool = False, mover: int | None = None
) -> None:
    """Publish that ``game_id`` is at ``version`` now, when Redis is configured.

    ``game_id`` may be a ``WaitingRoom``: then ``version`` is its ``Game.waiting_mark``.
    ``ahead``: the partials of ``version`` (every seated player's but ``mover``'s) are
    being rendered ahead; the worker publishes again (without ``ahead``) once they are
    stored, and those players' streams wait for that, or for ``LIVE_AHEAD_WAIT_SECONDS``
    when the worker is late (``games.web.live``).

    Robust: a Redis that does not answer is logged in one line; the streams' own check of
    the version column (every ``LIVE_FALLBACK_SECONDS`` with Redis) and the pages' polls
    make up for it.
    """
    url = settings.LIVE_REDIS_URL
    if not url:
        return
    try:
        _client(url).publish(LIVE_CHANNEL, message(game_id, version, ahead=ahead, mover=mover))
    except redis.RedisError as exc:
        log.warning("live event for game %s v%s not published: %s", game_id, version, exc)


def publish_on_commit(game_id: LiveKey, version: int) -> None:
    """``publish`` once the current transaction commits (at once outside of one)."""
    transaction.on_commit(partial(publish, game_id, version), robust=True)
