"""The game page's live stream (issue 29): Server-Sent Events that name the game's version.

An event says only that the game is now at version N (``id: N``, ``event: version``,
``data: N``) — what the page's ``data-version`` and its poll show anyway; the page then
fetches its own partial through the poll, under the poll's visibility rule. An open
game's page (its waiting room, ``?waiting=M``) hears ``event: seats`` with the room's
change marker instead (``Game.waiting_mark``: a seat taken or given up, the game closed),
and nothing of who. Nothing a viewer may not see is in the stream
(``tests/games/web/test_leaks.py`` reads it too).

Where a new version comes from, in each web process, for all its streams at once
(``VersionWatch``):

- with Redis (``settings.LIVE_REDIS_URL``): one pub/sub subscription per process hears
  ``games.core.live.publish`` from every process on every machine; the version column is
  read besides every ``LIVE_FALLBACK_SECONDS``, so a message lost while Redis restarts
  only delays. With rendering ahead, the committing process publishes the version as
  *ahead* and the worker publishes it again once the partials are stored: the streams
  announce it on the worker's message, or ``LIVE_AHEAD_WAIT_SECONDS`` after the first
  when the worker is late (``VersionWatch.heard``);
- without Redis (the embedded mode): the version column of the watched games is read
  every ``LIVE_POLL_SECONDS`` (0.25 s), one indexed query per process per tick, which sees
  the commits of every process sharing the database (``run_sweeps`` beside the server).

Under ASGI (``make run``: uvicorn) a stream is a coroutine costing no thread
(``stream_async``); under WSGI (``runserver``, the test server) it holds one thread and
reads the version itself (``stream_sync``). A stream ends after ``LIVE_STREAM_SECONDS``
and the browser reconnects with ``Last-Event-ID``; a comment line every
``LIVE_HEARTBEAT_SECONDS`` keeps proxies from closing an idle one.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import weakref
from collections.abc import AsyncGenerator, AsyncIterator, Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import redis.asyncio as aredis
from django.conf import settings
from django.db import close_old_connections, connection

from games.core.live import LIVE_CHANNEL, Heard, LiveKey, WaitingRoom, parse_heard
from games.selectors.visibility import game_versions, game_waiting_marks

log = logging.getLogger(__name__)

RETRY_MS = 2000  # the browser's wait before it reconnects a dropped stream
HEARTBEAT = ": keep-alive\n\n"


def version_event(version: int) -> str:
    """Return the Server-Sent Event announcing ``version``: its id is the version too."""
    return f"id: {version}\nevent: version\ndata: {version}\n\n"


def seats_event(mark: int) -> str:
    """Return the Server-Sent Event announcing a waiting room's change ``mark``."""
    return f"id: {mark}\nevent: seats\ndata: {mark}\n\n"


def key_event(key: LiveKey, mark: int) -> str:
    """Return the event announcing ``key`` (a game or its ``WaitingRoom``) at ``mark``."""
    return seats_event(mark) if isinstance(key, WaitingRoom) else version_event(mark)


Reader = Callable[[list[int]], dict[int, int]]


def read_marks(
    keys: list[LiveKey],
    versions: Reader = game_versions,
    waiting_marks: Reader = game_waiting_marks,
) -> dict[LiveKey, int]:
    """Return the current mark of each of ``keys`` that exists: games' versions, rooms' marks."""
    games = [k for k in keys if not isinstance(k, WaitingRoom)]
    rooms = [k.game_id for k in keys if isinstance(k, WaitingRoom)]
    found: dict[LiveKey, int] = {}
    if games:
        found.update(dict(versions(games).items()))
    if rooms:
        found.update({WaitingRoom(g): m for g, m in waiting_marks(rooms).items()})
    return found


def stream_start() -> str:
    """Return the stream's first lines: the reconnection delay and a comment (flushes proxies)."""
    return f"retry: {RETRY_MS}\n: live\n\n"


@dataclass(frozen=True)
class StreamTimes:
    """The stream's rhythm, in seconds (``settings.LIVE_*``)."""

    poll: float
    heartbeat: float
    lifetime: float

    @classmethod
    def from_settings(cls) -> StreamTimes:
        """Read ``LIVE_POLL_SECONDS``, ``LIVE_HEARTBEAT_SECONDS`` and ``LIVE_STREAM_SECONDS``."""
        return cls(
            poll=settings.LIVE_POLL_SECONDS,
            heartbeat=settings.LIVE_HEARTBEAT_SECONDS,
            lifetime=settings.LIVE_STREAM_SECONDS,
        )


def stream_sync(
    game_id: LiveKey,
    known: int,
    *,
    current: int,
    times: StreamTimes,
    versions: Reader = game_versions,
) -> Iterator[str]:
    """Yield the events of ``game_id`` after version ``known`` (WSGI: one thread per stream).

    ``game_id`` may be a ``WaitingRoom``: its marks are read and announced instead.

    ``current`` is the version read when the stream was asked for: announced at once when
    it is not ``known`` (a stale page, a reconnection after a move). Reads the version
    every ``times.poll`` seconds; a heartbeat after ``times.heartbeat`` seconds of silence;
    ends after ``times.lifetime`` seconds or when the game is gone.
    """
    yield stream_start()
    if current != known:
        known = current
        yield key_event(game_id, current)
    start = last = time.monotonic()
    while time.monotonic() - start < times.lifetime:
        version = read_marks([game_id], versions).get(game_id)
        if not connection.in_atomic_block:
            connection.close()  # not held between reads: a WSGI stream may idle for minutes
        if version is None:
            return
        if version != known:
            known = version
            last = time.monotonic()
            yield key_event(game_id, version)
        elif time.monotonic() - last >= times.heartbeat:
            last = time.monotonic()
            yield HEARTBEAT
        time.sleep(times.poll)


class VersionWatch:
    """The versions of the games this process's streams watch, for all of them at once.

    One per event loop (``for_loop``). ``wait(game_id, known, timeout)`` returns as soon
    as the game's version is known to differ from ``known``; a background task reads the
    watched games' versions (one query, in one thread of its own) every ``poll`` seconds,
    and another, with Redis, hears the published versions at once.
    """

    _by_loop: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, VersionWatch] = (
        weakref.WeakKeyDictionary()
    )
    KEPT_UNWATCHED = 10_000  # games' versions kept beyond the watched ones (``note``)

    def __init__(
        self,
        *,
        poll: float,
        redis_url: str = "",
        ahead_wait: float = 0.0,
        versions: Reader = game_versions,
        waiting_marks: Reader = game_waiting_marks,
    ) -> None:
        self.poll = poll
        self.redis_url = redis_url
        self.ahead_wait = ahead_wait
        self._versions_of = versions
        self._waiting_marks_of = waiting_marks
        self.versions: dict[LiveKey, int] = {}
        # versions heard as rendered ahead, not yet announced to every stream: (version, mover)
        self.committed: dict[LiveKey, tuple[int, int | None]] = {}
        self._events: dict[LiveKey, set[asyncio.Event]] = {}
        # streams following a key for their whole life (``follow``): between two of a
        # stream's waits the key stays watched, so a version published then is not missed
        self._followed: dict[LiveKey, int] = {}
        self._reading: asyncio.Task[None] | None = None
        self._listening: asyncio.Task[None] | None = None
        self._reader = ThreadPoolExecutor(max_workers=1, thread_name_prefix="live-versions")

    @classmethod
    def for_loop(cls) -> VersionWatch:
        """Return the running loop's watch, made from the settings on first use."""
        loop = asyncio.get_running_loop()
        watch = cls._by_loop.get(loop)
        if watch is None:
            url = settings.LIVE_REDIS_URL
            poll = settings.LIVE_FALLBACK_SECONDS if url else settings.LIVE_POLL_SECONDS
            watch = cls._by_loop[loop] = cls(
                poll=poll, redis_url=url, ahead_wait=settings.LIVE_AHEAD_WAIT_SECONDS
            )
        return watch

    @property
    def watched(self) -> int:
        """How many games have a stream waiting on them in this process."""
        return len(self._events.keys() | self._followed.keys())

    def _busy(self) -> bool:
        return bool(self._events or self._followed)

    @contextlib.contextmanager
    def follow(self, game_id: LiveKey) -> Iterator[None]:
        """Keep ``game_id`` watched (and the Redis subscription up) while the block runs.

        A stream follows its game for its whole life: without it, the game would be
        forgotten between two ``wait`` calls (while an event is being sent), the Redis
        listener could stop with it, and a version published in that gap would only come
        with the next read of the version column (``LIVE_FALLBACK_SECONDS`` later).
        """
        self._followed[game_id] = self._followed.get(game_id, 0) + 1
        self._start()
        try:
            yield
        finally:
            left = self._followed[game_id] - 1
            if left:
                self._followed[game_id] = left
            else:
                del self._followed[game_id]
                if game_id not in self._events:
                    self._forget(game_id)

    def _start(self) -> None:
        # Each task on its own: the listener stops within a second of the last stream
        # leaving, the reader only after its sleep (``poll``, 5 s with Redis); a stream
        # coming in between must get a listener even though the reader still runs.
        if self._reading is None or self._reading.done():
            self._reading = asyncio.create_task(self._read_loop())
        if self.redis_url and (self._listening is None or self._listening.done()):
            self._listening = asyncio.create_task(self._listen())

    def note(self, game_id: LiveKey, version: int) -> None:
        """Record ``game_id`` at ``version`` (versions only grow) and wake its streams.

        Every game announced on Redis is recorded, watched or not (a stream opening just
        after a move then knows of it at once); past ``KEPT_UNWATCHED`` games the ones no
        stream watches are forgotten, so a long-running process holds a bounded table.
        """
        if version > self.versions.get(game_id, -1):
            self.versions[game_id] = version
            for event in self._events.get(game_id, ()):
                event.set()
            if len(self.versions) > self.KEPT_UNWATCHED:
                self._prune()

    def _prune(self) -> None:
        watched = self._events.keys() | self._followed.keys()
        for key in [k for k in self.versions if k not in watched]:
            self._forget(key)

    def heard(self, heard: Heard) -> None:
        """Note a published version: at once, or held for the players it is rendered for.

        ``heard.ahead``: the version is committed and the partials of the seated players but
        ``heard.mover`` are being rendered ahead; the worker publishes it again once they
        are stored (``games.play.effects``), and the pages that fetch then find them. Those
        players' streams wait for it, ``ahead_wait`` seconds at most (a busy worker delays
        them by no more than that, never by its whole queue); the others' streams (the
        mover's other tabs, spectators) are woken at once (``wait``'s ``seat``).
        """
        if not heard.ahead or self.ahead_wait <= 0:
            self.note(heard.key, heard.version)
            return
        if heard.version > self.committed.get(heard.key, (-1, None))[0]:
            self.committed[heard.key] = (heard.version, heard.mover)
            for event in self._events.get(heard.key, ()):
                event.set()
        asyncio.get_running_loop().call_later(self.ahead_wait, self.note, heard.key, heard.version)

    def _forget(self, game_id: LiveKey) -> None:
        self.versions.pop(game_id, None)
        self.committed.pop(game_id, None)

    async def _read_loop(self) -> None:
        loop = asyncio.get_running_loop()
        while self._busy():
            ids = list(self._events.keys() | self._followed.keys())
            try:
                found = await loop.run_in_executor(self._reader, self._read, ids)
            except Exception:  # a database that does not answer: try again next tick
                log.exception("live: reading the versions of %d games failed", len(ids))
                found = {}
            for game_id, version in found.items():
                self.note(game_id, version)
            await asyncio.sleep(self.poll)

    def _read(self, ids: list[LiveKey]) -> dict[LiveKey, int]:
        close_old_connections()  # this thread's connection, as a request would
        return read_marks(ids, self._versions_of, self._waiting_marks_of)

    async def _listen(self) -> None:
        while self._busy():
            try:
                client = aredis.Redis.from_url(self.redis_url)
                async with client.pubsub() as pubsub:
                    await pubsub.subscribe(LIVE_CHANNEL)
                    while self._busy():
                        message = await pubsub.get_message(
                            ignore_subscribe_messages=True, timeout=1.0
                        )
                        heard = parse_heard(message["data"]) if message else None
                        if heard is not None:
                            self.heard(heard)
                await client.aclose()
            except aredis.RedisError as exc:  # the version column's reads carry on meanwhile
                log.warning("live: Redis pub/sub unavailable: %s", exc)
                await asyncio.sleep(1.0)

    async def wait(
        self, game_id: LiveKey, known: int, timeout: float, *, seat: int | None = None
    ) -> int | None:
        """Return ``game_id``'s version once it differs from ``known``; None after ``timeout`` s.

        ``seat``: the viewer's seat in the game (None: a spectator). A version heard as
        rendered ahead is returned at once unless it is being rendered for this seat.
        """
        event = asyncio.Event()
        self._events.setdefault(game_id, set()).add(event)
        self._start()
        try:
            deadline = asyncio.get_running_loop().time() + timeout
            while True:
                version = self.versions.get(game_id)
                if version is not None and version != known:
                    return version
                committed, mover = self.committed.get(game_id, (-1, None))
                rendered_for_me = seat is not None and seat != mover
                if committed > known and not rendered_for_me:
                    return committed
                remaining = deadline - asyncio.get_running_loop().time()
                if remaining <= 0:
                    return None
                try:
                    await asyncio.wait_for(event.wait(), remaining)
                except TimeoutError:
                    return None
                event.clear()
        finally:
            waiting = self._events.get(game_id)
            if waiting is not None:
                waiting.discard(event)
                if not waiting:
                    del self._events[game_id]
                    if game_id not in self._followed:
                        self._forget(game_id)


async def stream_async(
    game_id: LiveKey,
    known: int,
    *,
    current: int,
    times: StreamTimes,
    watch: VersionWatch | None = None,
    seat: int | None = None,
) -> AsyncGenerator[str]:
    """Yield the events of ``game_id`` after version ``known`` (ASGI: no thread per stream).

    ``current`` as in ``stream_sync``; ``seat`` the viewer's (``VersionWatch.wait``). The
    process's ``VersionWatch`` wakes it; a heartbeat
    after ``times.heartbeat`` seconds of silence; ends after ``times.lifetime`` seconds (the
    browser reconnects).
    """
    watch = watch or VersionWatch.for_loop()
    yield stream_start()
    if current != known:
        known = current
        yield key_event(game_id, current)
    loop = asyncio.get_running_loop()
    end = loop.time() + times.lifetime
    with watch.follow(game_id):
        while (remaining := end - loop.time()) > 0:
            version = await watch.wait(game_id, known, min(times.heartbeat, remaining), seat=seat)
            if version is None:
                yield HEARTBEAT
            else:
                known = version
                yield key_event(game_id, version)


HANDOFF_HEADER = "X-Live-Stream"
SCOPE_KEY = "tigris.live_streams"


class LiveStreams:
    """ASGI middleware that streams the live events outside Django's request handler.

    Django's ASGI handler runs the sync middleware and views of a request in a thread kept
    for the request's whole life, so a stream it served would hold one thread (and about
    0.4 MiB) while the page stays open. Around the app (``tigris_site.asgi``), this
    middleware marks the scope (``SCOPE_KEY``); the view then checks visibility as always
    and answers at once with an empty 200 carrying ``X-Live-Stream: <game> <known>
    <current>`` (``handoff``); the middleware drops that header and body and streams
    ``stream_async`` itself, after the handler (and its thread) is done, until the browser
    leaves (``http.disconnect``) or the stream's life ends. Any other answer (404…) and any
    other path pass through untouched.
    """

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        """Serve ``scope`` (ASGI 3)."""
        if scope["type"] != "http" or not scope["path"].endswith("/live"):
            await self.app(scope, receive, send)
            return
        held: dict[str, Any] = {}
        header = HANDOFF_HEADER.lower().encode()

        async def capture(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                headers = [(k, v) for k, v in message.get("headers", []) if k.lower() != header]
                handoff = [v for k, v in message.get("headers", []) if k.lower() == header]
                if message["status"] == 200 and handoff:
                    held["handoff"] = handoff[0].decode("ascii")
                    held["start"] = {**message, "headers": headers}
                    return
            elif "handoff" in held:
                return  # the view's empty body: the stream follows
            await send(message)

        async with _opening():  # a burst of streams opening runs a few views at a time
            await self.app({**scope, SCOPE_KEY: True}, receive, capture)
        if "handoff" not in held:
            return
        game, known, current, *rest = held["handoff"].split()
        key: LiveKey = WaitingRoom(int(game[1:])) if game.startswith("w") else int(game)
        seat = int(rest[0]) if rest and rest[0].isdigit() else None
        await send(held["start"])
        stream = stream_async(
            key, int(known), current=int(current), times=StreamTimes.from_settings(), seat=seat
        )
        gone = asyncio.ensure_future(_disconnected(receive))
        try:
            while True:
                chunk = asyncio.ensure_future(anext(stream))
                await asyncio.wait({chunk, gone}, return_when=asyncio.FIRST_COMPLETED)
                if gone.done():
                    chunk.cancel()
                    with contextlib.suppress(asyncio.CancelledError, StopAsyncIteration):
                        await chunk
                    return
                try:
                    text = chunk.result()
                except StopAsyncIteration:
                    break
                await send({"type": "http.response.body", "body": text.encode(), "more_body": True})
            await send({"type": "http.response.body", "body": b"", "more_body": False})
        finally:
            gone.cancel()
            await stream.aclose()


_OPENING: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Semaphore] = (
    weakref.WeakKeyDictionary()
)


def _opening() -> asyncio.Semaphore:
    """The running loop's bound on stream views run at once (``LIVE_OPEN_CONCURRENCY``).

    Each runs Django's sync view in a thread with a database connection of its own: a
    thousand pages opening their streams at once (a restart, a popular game) would open a
    thousand of each. The streams themselves, once handed over, are not counted.
    """
    loop = asyncio.get_running_loop()
    bound = _OPENING.get(loop)
    if bound is None:
        bound = _OPENING[loop] = asyncio.Semaphore(settings.LIVE_OPEN_CONCURRENCY)
    return bound


async def _disconnected(receive: Any) -> None:
    while (await receive())["type"] != "http.disconnect":
        pass


async def empty_body() -> AsyncIterator[str]:
    """The handed-off response's body: nothing (and no ``Content-Length``)."""
    nothing: tuple[str, ...] = ()
    for chunk in nothing:
        yield chunk


def handoff(game_id: LiveKey, known: int, current: int, seat: int | None = None) -> tuple[str, str]:
    """The header by which a view hands a stream to ``LiveStreams`` (a room's id: ``w12``).

    ``seat``: the viewer's seat in the game, None for a spectator (``-``).
    """
    game = f"w{game_id.game_id}" if isinstance(game_id, WaitingRoom) else str(game_id)
    return HANDOFF_HEADER, f"{game} {known} {current} {'-' if seat is None else seat}"
