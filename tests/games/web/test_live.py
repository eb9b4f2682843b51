"""The game page's live stream (issue 29): one event per new version, and nothing else.

The stream's two shapes (``games.web.live``): the WSGI one reads the version column
itself, the ASGI one waits on the process's ``VersionWatch``, woken by its own reads or by
Redis pub/sub (``games.core.live.publish``, called by ``games.play.effects`` after the
commit of every ply). The browser tests (``tests/e2e/test_live_browser.py``) run it under
uvicorn with real pages.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.test import Client

import engine
from games.core import live as core_live
from games.core.states import game_state
from games.play import lifecycle
from games.play.submit import game_submit_action
from games.web import live
from tests.games.factories import UserFactory, client_for, started_game

pytestmark = pytest.mark.django_db

FAST = live.StreamTimes(poll=0.01, heartbeat=0.05, lifetime=0.3)


@pytest.fixture(autouse=True)
def _fast_streams(settings: Any) -> None:
    """The streams' rhythm in these tests: a read every 10 ms, a heartbeat after 50 ms."""
    settings.LIVE_POLL_SECONDS, settings.LIVE_HEARTBEAT_SECONDS = 0.01, 0.05
    settings.LIVE_STREAM_SECONDS = 0.3


EVENT_LINE = re.compile(r"(retry: \d+|: [a-z-]+|id: \d+|event: (version|seats)|data: \d+|)")


def first_chunks(response: object, n: int) -> str:
    """Return the first ``n`` chunks of a streaming response (the rest is never read: closing
    it would send ``request_finished``, which closes the test's database connection)."""
    chunks: Iterator[bytes] = iter(response.streaming_content)  # type: ignore[attr-defined]
    return "".join(next(chunks).decode() for _ in range(n))


def play_one(game, seats):  # type: ignore[no-untyped-def]
    state = game_state(game)
    game_submit_action(
        game_id=game.pk,
        user=seats[state.to_act],
        action=str(engine.legal_actions(state)[0]),
        expected_version=game.version,
    )
    game.refresh_from_db()


def test_a_stale_page_hears_the_current_version_at_once_and_a_current_one_nothing() -> None:
    game, seats = started_game(2)
    play_one(game, seats)
    client = client_for(seats[1])
    response = client.get(f"/games/{game.pk}/live?version=0")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/event-stream"
    assert response["X-Accel-Buffering"] == "no" and "no-cache" in response["Cache-Control"]
    text = first_chunks(response, 2)
    assert text == f"retry: 2000\n: live\n\nid: {game.version}\nevent: version\ndata: 1\n\n"
    # Reconnecting with the last event's id: nothing to tell until the game moves.
    events = list(live.stream_sync(game.pk, 1, current=1, times=FAST))
    assert "event: version" not in "".join(events)
    assert events[0].startswith("retry:") and live.HEARTBEAT in events


def test_last_event_id_wins_over_the_pages_version() -> None:
    game, seats = started_game(2)
    play_one(game, seats)
    response = client_for(seats[2]).get(
        f"/games/{game.pk}/live?version=0", HTTP_LAST_EVENT_ID=str(game.version)
    )
    assert response.status_code == 200
    # The version heard (1) is the id the browser sends back: no event repeated, at once
    # a heartbeat (FAST's heartbeat is shorter than its life).
    assert first_chunks(response, 2) == live.stream_start() + live.HEARTBEAT


def test_the_sync_stream_announces_each_new_version_once() -> None:
    versions = iter([{7: 3}, {7: 3}, {7: 4}, {7: 4}, {7: 6}, {}])
    read = lambda ids: next(versions)  # noqa: E731
    events = list(live.stream_sync(7, 3, current=3, times=FAST, versions=read))
    told = [e for e in events if e.startswith("id:")]
    assert told == [live.version_event(4), live.version_event(6)]  # ends: the game is gone


def test_a_private_game_streams_to_no_stranger() -> None:
    creator, guest = UserFactory(), UserFactory()
    game = lifecycle.game_create(creator=creator, num_players=2, is_public=False)
    lifecycle.game_join(game_id=game.pk, user=guest, invite_token=game.invite_token)
    seats = {1: creator}
    assert Client().get(f"/games/{game.pk}/live").status_code == 404
    assert client_for(UserFactory()).get(f"/games/{game.pk}/live").status_code == 404
    assert Client().get("/games/999999/live").status_code == 404
    response = client_for(seats[1]).get(f"/games/{game.pk}/live?version=0")
    assert response.status_code == 200


def test_the_stream_carries_nothing_but_versions() -> None:
    """The leak scan of the stream: every line is one of the five kinds an event has."""
    game, seats = started_game(3)
    for _ in range(3):
        play_one(game, seats)
    for client in [client_for(u) for u in seats.values()] + [Client()]:
        text = first_chunks(client.get(f"/games/{game.pk}/live?version=-1"), 2)
        assert all(EVENT_LINE.fullmatch(line) for line in text.split("\n")), text
        assert f"data: {game.version}\n" in text


def test_every_ply_publishes_its_version_after_the_commit(
    monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: object
) -> None:
    game, seats = started_game(2)
    published: list[tuple[int, int]] = []
    monkeypatch.setattr(core_live, "publish", lambda g, v: published.append((g, v)))
    with django_capture_on_commit_callbacks(execute=False) as callbacks:  # type: ignore[operator]
        play_one(game, seats)
    assert published == []  # nothing before the commit
    for callback in callbacks:
        callback()
    assert published == [(game.pk, 1)]


def test_a_published_version_reaches_a_waiting_stream_through_redis(
    redis_url: str, settings: object
) -> None:
    settings.LIVE_REDIS_URL = redis_url  # type: ignore[attr-defined]

    async def scenario() -> list[str]:
        watch = live.VersionWatch(poll=60.0, redis_url=redis_url, versions=lambda ids: {})
        stream = live.stream_async(
            5, 2, current=2, times=live.StreamTimes(poll=60, heartbeat=5, lifetime=5), watch=watch
        )
        got = [await anext(stream)]
        waiting = asyncio.ensure_future(anext(stream))
        await asyncio.sleep(0.5)  # the subscription is up
        await asyncio.to_thread(core_live.publish, 5, 3)
        got.append(await asyncio.wait_for(waiting, 3))
        await stream.aclose()
        return got

    got = asyncio.run(scenario())
    assert got[1] == live.version_event(3)


@pytest.mark.parametrize("worker_on_time", [True, False])
def test_a_version_rendered_ahead_is_announced_on_the_workers_message_or_when_it_is_late(
    redis_url: str, settings: object, worker_on_time: bool
) -> None:
    """Issue 29: a move's version comes first as *ahead* (partials being rendered for the
    seated players but the mover); a waiting player's stream announces it when the worker
    says they are stored, or ``ahead_wait`` seconds on; a spectator's stream at once."""
    settings.LIVE_REDIS_URL = redis_url  # type: ignore[attr-defined]
    heard = core_live.parse_heard(core_live.message(5, 3, ahead=True, mover=2))
    assert heard == core_live.Heard(5, 3, ahead=True, mover=2)
    assert core_live.parse_message(core_live.message(5, 3, ahead=True, mover=2)) == (5, 3)
    assert core_live.parse_heard(b"5:3:ahead:x") is None

    async def scenario() -> tuple[bool, str, float, str, float]:
        watch = live.VersionWatch(
            poll=60.0, redis_url=redis_url, ahead_wait=3.0, versions=lambda ids: {}
        )
        times = live.StreamTimes(poll=60, heartbeat=9, lifetime=9)
        player = live.stream_async(5, 2, current=2, times=times, watch=watch, seat=1)
        spectator = live.stream_async(5, 2, current=2, times=times, watch=watch)
        await anext(player)
        await anext(spectator)
        waiting = asyncio.ensure_future(anext(player))
        watching = asyncio.ensure_future(anext(spectator))
        await asyncio.sleep(0.5)  # the subscription is up
        loop = asyncio.get_running_loop()
        start = loop.time()
        await asyncio.to_thread(core_live.publish, 5, 3, ahead=True, mover=2)
        seen = await asyncio.wait_for(watching, 2.5)
        seen_after = loop.time() - start
        await asyncio.sleep(0.3)
        held = not waiting.done()  # not announced to seat 1 on the committer's word alone
        if worker_on_time:
            await asyncio.to_thread(core_live.publish, 5, 3)  # the partials are stored
        event = await asyncio.wait_for(waiting, 5)
        took = loop.time() - start
        await player.aclose()
        await spectator.aclose()
        return held, event, took, seen, seen_after

    held, event, took, seen, seen_after = asyncio.run(scenario())
    assert seen == live.version_event(3) and seen_after < 2.5  # the spectator: at once
    assert held and event == live.version_event(3)
    if worker_on_time:
        assert took < 2.9  # the worker's message, before the wait ran out
    else:
        assert took >= 3.0  # the wait ran out: announced all the same


def test_a_stream_opened_as_the_listener_stopped_gets_a_listener_again(
    redis_url: str, settings: object
) -> None:
    """The last stream left: the Redis listener stops within a second, the version reader
    only after its sleep. A stream opened in between hears published versions at once —
    not only at the reader's next read (found by bench/live_latency.py: a new page missed
    every pushed move for a whole game)."""
    settings.LIVE_REDIS_URL = redis_url  # type: ignore[attr-defined]

    async def scenario() -> str:
        watch = live.VersionWatch(poll=60.0, redis_url=redis_url, versions=lambda ids: {})
        times = live.StreamTimes(poll=60, heartbeat=9, lifetime=9)
        first = live.stream_async(5, 2, current=2, times=times, watch=watch)
        await anext(first)
        waiting = asyncio.ensure_future(anext(first))
        await asyncio.sleep(0.5)
        waiting.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await waiting
        await first.aclose()  # the page left: nobody watches
        await asyncio.sleep(2.0)  # the listener stopped; the reader sleeps its 60 s
        second = live.stream_async(5, 2, current=2, times=times, watch=watch)
        await anext(second)
        heard = asyncio.ensure_future(anext(second))
        await asyncio.sleep(0.5)  # the subscription is up again
        await asyncio.to_thread(core_live.publish, 5, 3)
        event = await asyncio.wait_for(heard, 3)
        await second.aclose()
        return event

    assert asyncio.run(scenario()) == live.version_event(3)


def test_without_redis_the_watch_reads_the_versions_for_all_its_streams_at_once() -> None:
    reads: list[list[int]] = []
    table = {1: 0, 2: 0}

    def versions(ids: list[int]) -> dict[int, int]:
        reads.append(sorted(ids))
        return {i: table[i] for i in ids}

    async def scenario() -> tuple[int | None, int | None, int | None]:
        watch = live.VersionWatch(poll=0.02, versions=versions)
        one = asyncio.ensure_future(watch.wait(1, 0, 2.0))
        two = asyncio.ensure_future(watch.wait(2, 0, 0.2))
        await asyncio.sleep(0.1)
        table[1] = 1
        return await one, await two, await watch.wait(1, 1, 0.05)

    assert asyncio.run(scenario()) == (1, None, None)  # moved; silent (a heartbeat); silent
    assert [1, 2] in reads  # one read for both games


def test_a_game_in_progress_listens_to_its_stream_and_a_finished_one_does_not() -> None:
    game, seats = started_game(2)
    page = client_for(seats[1]).get(f"/games/{game.pk}/").content.decode()
    root = re.search(r'<div id="game"[^>]*>', page)
    assert root is not None
    assert f'data-live="/games/{game.pk}/live"' in root.group(0)
    assert f'data-poll="/games/{game.pk}/poll"' in root.group(0)
    assert "hx-trigger" not in root.group(0)  # no blind polling while the stream works
    game.status = game.Status.FINISHED
    game.save(update_fields=["status"])
    page = client_for(seats[1]).get(f"/games/{game.pk}/").content.decode()
    root = re.search(r'<div id="game"[^>]*>', page)
    assert root is not None and "data-live" not in root.group(0)


def test_the_asgi_middleware_streams_a_handed_off_answer_and_passes_the_rest() -> None:
    """``LiveStreams`` (tigris_site.asgi): the view's hand-off header never reaches the
    browser, the stream follows it until the browser leaves; a 404 passes untouched."""

    def app_answering(status: int, headers: list[tuple[bytes, bytes]]) -> Any:
        async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
            assert scope[live.SCOPE_KEY] is True
            await send({"type": "http.response.start", "status": status, "headers": headers})
            await send({"type": "http.response.body", "body": b"", "more_body": False})

        return app

    async def serve(app: Any, leave_after: float) -> list[dict[str, Any]]:
        sent: list[dict[str, Any]] = []
        messages = [{"type": "http.request", "body": b""}]

        async def receive() -> dict[str, Any]:
            if messages:
                return messages.pop()
            await asyncio.sleep(leave_after)
            return {"type": "http.disconnect"}

        async def send(message: dict[str, Any]) -> None:
            sent.append(message)

        watch = live.VersionWatch(poll=0.01, versions=lambda ids: {42: 8})
        live.VersionWatch._by_loop[asyncio.get_running_loop()] = watch
        scope = {"type": "http", "path": "/games/42/live"}
        await asyncio.wait_for(live.LiveStreams(app)(scope, receive, send), 5)
        return sent

    name, value = live.handoff(42, 6, 7)
    handed = [(name.lower().encode(), value.encode()), (b"content-type", b"text/event-stream")]
    sent = asyncio.run(serve(app_answering(200, handed), leave_after=0.3))
    assert sent[0]["status"] == 200
    assert sent[0]["headers"] == [(b"content-type", b"text/event-stream")]  # no hand-off
    body = "".join(m.get("body", b"").decode() for m in sent[1:])
    assert body.startswith(live.stream_start() + live.version_event(7))
    assert live.version_event(8) in body  # the watch's read, before the browser left
    refused = asyncio.run(serve(app_answering(404, [(b"content-type", b"text/html")]), 0.1))
    assert [m["type"] for m in refused] == ["http.response.start", "http.response.body"]
    assert refused[0]["status"] == 404


def test_streams_opening_at_once_run_their_views_a_few_at_a_time(settings: Any) -> None:
    """A burst of pages opening their streams: at most ``LIVE_OPEN_CONCURRENCY`` views (each a
    thread and a database connection) run at once in a process; every stream opens."""
    settings.LIVE_OPEN_CONCURRENCY = 3
    running = {"now": 0, "most": 0}

    async def view(scope: dict[str, Any], receive: Any, send: Any) -> None:
        running["now"] += 1
        running["most"] = max(running["most"], running["now"])
        await asyncio.sleep(0.02)  # the view's queries
        running["now"] -= 1
        await send({"type": "http.response.start", "status": 404, "headers": []})
        await send({"type": "http.response.body", "body": b"", "more_body": False})

    async def burst() -> int:
        answered: list[int] = []

        async def one() -> None:
            async def receive() -> dict[str, Any]:
                return {"type": "http.request", "body": b""}

            async def send(message: dict[str, Any]) -> None:
                if message["type"] == "http.response.start":
                    answered.append(message["status"])

            await live.LiveStreams(view)({"type": "http", "path": "/games/1/live"}, receive, send)

        await asyncio.wait_for(asyncio.gather(*(one() for _n in range(20))), 10)
        return len(answered)

    assert asyncio.run(burst()) == 20
    assert running["most"] == 3


def _root(client: Client, game_id: int) -> str:
    page = client.get(f"/games/{game_id}/").content.decode()
    root = re.search(r'<div id="game"[^>]*>', page)
    assert root is not None
    return root.group(0)


def test_a_waiting_room_hears_each_join_and_leave_as_a_mark_and_nothing_else() -> None:
    creator, guest, third = UserFactory(), UserFactory(), UserFactory()
    game = lifecycle.game_create(creator=creator, num_players=3)
    watcher = client_for(UserFactory())  # a stranger looking at a public open game
    root = _root(watcher, game.pk)
    assert f'data-live="/games/{game.pk}/live"' in root and 'data-live-mark="waiting"' in root
    mark = int(re.search(r'data-waiting="(\d+)"', root).group(1))  # type: ignore[union-attr]
    assert "hx-trigger" not in root  # no blind polling while the stream works
    poll = f"/games/{game.pk}/poll?waiting={mark}"
    assert watcher.get(poll, HTTP_HX_REQUEST="true").status_code == 204
    lifecycle.game_join(game_id=game.pk, user=guest)
    lifecycle.game_leave(game_id=game.pk, user=guest)
    lifecycle.game_join(game_id=game.pk, user=third)  # as many seats as before: still news
    response = watcher.get(f"/games/{game.pk}/live?waiting={mark}")
    text = first_chunks(response, 2)
    assert text == live.stream_start() + live.seats_event(mark + 3)
    assert all(EVENT_LINE.fullmatch(line) for line in text.split("\n")), text
    assert guest.username not in text and third.username not in text
    # the page's poll brings the room as it is now
    changed = watcher.get(poll, HTTP_HX_REQUEST="true")
    assert changed.status_code == 200 and f'data-waiting="{mark + 3}"' in changed.content.decode()


def test_a_join_publishes_the_rooms_mark_after_the_commit_and_the_start_the_version(
    monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: object
) -> None:
    creator, guest = UserFactory(), UserFactory()
    game = lifecycle.game_create(creator=creator, num_players=2)
    published: list[tuple[object, int]] = []
    monkeypatch.setattr(core_live, "publish", lambda g, v: published.append((g, v)))
    with django_capture_on_commit_callbacks(execute=False) as callbacks:  # type: ignore[operator]
        lifecycle.game_join(game_id=game.pk, user=guest)
    assert published == []  # nothing before the commit
    for callback in callbacks:
        callback()
    game.refresh_from_db()
    assert published == [(core_live.WaitingRoom(game.pk), game.waiting_mark), (game.pk, 0)]


def test_a_waiting_rooms_mark_travels_through_redis_apart_from_versions(
    redis_url: str, settings: object
) -> None:
    settings.LIVE_REDIS_URL = redis_url  # type: ignore[attr-defined]
    room = core_live.WaitingRoom(5)
    assert core_live.parse_message(core_live.message(room, 4)) == (room, 4)
    assert core_live.parse_message(b"5:4") == (5, 4)
    assert core_live.parse_message(b"w5:x") is None and core_live.parse_message(b"ww5:1") is None

    async def scenario() -> list[str]:
        watch = live.VersionWatch(
            poll=60.0, redis_url=redis_url, versions=lambda ids: {}, waiting_marks=lambda ids: {}
        )
        stream = live.stream_async(
            room,
            2,
            current=2,
            times=live.StreamTimes(poll=60, heartbeat=5, lifetime=5),
            watch=watch,
        )
        got = [await anext(stream)]
        waiting = asyncio.ensure_future(anext(stream))
        await asyncio.sleep(0.5)  # the subscription is up
        await asyncio.to_thread(core_live.publish, 5, 9)  # the game's version: not the room's
        await asyncio.to_thread(core_live.publish, room, 3)
        got.append(await asyncio.wait_for(waiting, 3))
        await stream.aclose()
        return got

    assert asyncio.run(scenario())[1] == live.seats_event(3)


def test_the_asgi_hand_off_names_a_waiting_room() -> None:
    name, value = live.handoff(core_live.WaitingRoom(42), 1, 2)
    assert value == "w42 1 2 -"
    assert live.handoff(42, 1, 2)[1] == "42 1 2 -"  # a spectator
    assert live.handoff(42, 1, 2, 3)[1] == "42 1 2 3"  # seat 3's stream


def test_a_stream_knows_its_viewers_seat_and_a_spectator_has_none() -> None:
    """What the hand-off names: the viewer's seat (their partial is rendered ahead), else -."""
    from django.contrib.auth.models import AnonymousUser

    from games.selectors.games import seat_position_of

    game, seats = started_game(3)
    assert [seat_position_of(game.pk, seats[n]) for n in (1, 2, 3)] == [1, 2, 3]
    assert seat_position_of(game.pk, UserFactory()) is None
    assert seat_position_of(game.pk, AnonymousUser()) is None


def test_a_version_published_between_two_events_of_a_stream_is_not_missed(
    redis_url: str, settings: object
) -> None:
    """While a stream sends one event its game stays watched and Redis heard: the next
    version, published in that gap, comes at once (not with a read seconds later)."""
    settings.LIVE_REDIS_URL = redis_url  # type: ignore[attr-defined]

    async def scenario() -> list[str]:
        watch = live.VersionWatch(poll=60.0, redis_url=redis_url, versions=lambda ids: {})
        stream = live.stream_async(
            5, 2, current=2, times=live.StreamTimes(poll=60, heartbeat=5, lifetime=5), watch=watch
        )
        got = [await anext(stream)]
        waiting = asyncio.ensure_future(anext(stream))
        await asyncio.sleep(0.5)  # the subscription is up
        await asyncio.to_thread(core_live.publish, 5, 3)
        got.append(await asyncio.wait_for(waiting, 3))
        await asyncio.sleep(1.5)  # the event is being sent: the stream is not waiting
        await asyncio.to_thread(core_live.publish, 5, 4)
        await asyncio.sleep(0.5)
        got.append(await asyncio.wait_for(anext(stream), 1.5))
        await stream.aclose()
        assert watch.watched == 0  # forgotten once its stream ends
        return got

    got = asyncio.run(scenario())
    assert got[1:] == [live.version_event(3), live.version_event(4)]


def test_the_versions_of_games_no_stream_watches_are_kept_bounded() -> None:
    """A process hears every game's moves on Redis; past ``KEPT_UNWATCHED`` games it keeps
    only the watched ones, so its table does not grow for as long as it runs."""

    async def scenario() -> tuple[int, int | None]:
        watch = live.VersionWatch(poll=60.0, versions=lambda ids: {})
        watch.KEPT_UNWATCHED = 5
        waiting = asyncio.ensure_future(watch.wait(1, 0, 1.0))
        await asyncio.sleep(0)
        for game_id in range(2, 10):
            watch.note(game_id, 3)
        kept = len(watch.versions)
        watch.note(1, 4)
        return kept, await waiting

    kept, heard = asyncio.run(scenario())
    assert kept <= 5 + 1  # bounded (8 games announced), the watched one among them
    assert heard == 4  # the watched game still hears its move
