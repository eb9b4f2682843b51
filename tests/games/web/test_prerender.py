"""A waiting player's poll answered from the partial rendered for them after the move.

``games.prerender``: what the cache serves is what the poll would have rendered, only to the
player it was rendered for, with the polling browser's own CSRF token, and never for a game
row that changed since.
"""

from __future__ import annotations

import random
import re
import time
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client, RequestFactory
from django.utils import translation
from kombu.exceptions import OperationalError

from games import tasks
from games.accounts import profiles, vacations
from games.core import live as core_live
from games.models import Game
from games.play import submit, timeouts
from games.web import prerender
from games.web.views import game as game_views
from tests.games.factories import (
    UserFactory,
    client_for,
    page_actions,
    play_random_plies,
    started_game,
)

pytestmark = pytest.mark.django_db

SENTINEL = "<!-- served from the cache -->"
CSRF_VALUE = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


@pytest.fixture(autouse=True)
def prerendering(settings: Any) -> None:
    settings.PRERENDER_PARTIALS = True
    cache.clear()


def _move(client: Client, game: Game, capture: Any, rng: random.Random) -> None:
    """Play one random offered action as ``client``, running the after-commit tasks."""
    page = client.get(f"/games/{game.pk}/", HTTP_HX_REQUEST="true")
    game.refresh_from_db()
    with capture(execute=True):
        reply = client.post(
            f"/games/{game.pk}/act",
            {"action": rng.choice(page_actions(page.content)), "version": game.version},
            HTTP_HX_REQUEST="true",
        )
    assert reply.status_code == 200, reply.content[:300]
    game.refresh_from_db()


def _mark_cached(game: Game, user: Any, language: str = "en") -> None:
    """Put ``SENTINEL`` in front of the partial cached for ``user``, to see who serves it."""
    key = prerender.partial_key(game.pk, game.version, game.updated_at, user.pk, language)
    value = cache.get(key)
    assert value is not None, "nothing was rendered ahead for this player"
    stamp, _newline, html = value.partition("\n")
    cache.set(key, f"{stamp}\n{SENTINEL}{html}", prerender.TTL)


def _poll(user: Any, game: Game) -> bytes:
    reply = client_for(user).get(f"/games/{game.pk}/poll?version=0", HTTP_HX_REQUEST="true")
    assert reply.status_code == 200, reply.status_code
    return bytes(reply.content)


def _one_move(capture: Any, seed: int) -> tuple[Game, dict[int, Any], Any]:
    """Start a 2-player game, play one move with rendering ahead; return the waiting user."""
    game, seats = started_game(2)
    mover = game.to_act_seat
    assert mover is not None
    _move(client_for(seats[mover]), game, capture, random.Random(seed))
    waiting = seats[3 - mover]
    _mark_cached(game, waiting)
    return game, seats, waiting


def _turn_passed(capture: Any, seed: int) -> tuple[Game, Any, Any]:
    """Start a 2-player game and play its first turn with rendering ahead.

    Returns the game, the first player and the next one, whose partial is marked cached.
    """
    game, seats = started_game(2)
    first = game.to_act_seat
    assert first is not None
    rng = random.Random(seed)
    while game.to_act_seat == first:
        _move(client_for(seats[first]), game, capture, rng)
    nxt = seats[game.to_act_seat]
    _mark_cached(game, nxt)
    return game, seats[first], nxt


def _without_csrf(body: bytes) -> str:
    return CSRF_VALUE.sub("csrf", body.decode().replace(SENTINEL, ""))


def test_the_waiting_player_gets_what_the_poll_would_render(
    django_capture_on_commit_callbacks: Any,
    django_assert_max_num_queries: Any,
    settings: Any,
) -> None:
    game, _seats, waiting = _one_move(django_capture_on_commit_callbacks, 1)
    poller = client_for(waiting)
    # session, the poll's facts, the user, and the games waiting on them (the next game and
    # the navigation's count are never cached with the partial: other games change them)
    with django_assert_max_num_queries(4):
        cached = poller.get(f"/games/{game.pk}/poll?version=0", HTTP_HX_REQUEST="true")
    assert cached.status_code == 200
    assert cached.content.startswith(SENTINEL.encode())

    settings.PRERENDER_PARTIALS = False
    rendered = poller.get(f"/games/{game.pk}/poll?version=0", HTTP_HX_REQUEST="true")
    assert SENTINEL.encode() not in rendered.content
    assert _without_csrf(cached.content) == _without_csrf(rendered.content)
    # An unchanged poll is still 204, cache or not.
    settings.PRERENDER_PARTIALS = True
    same = poller.get(f"/games/{game.pk}/poll?version={game.version}", HTTP_HX_REQUEST="true")
    assert same.status_code == 204


def test_the_next_player_acts_from_the_cached_partial_with_their_own_csrf_token(
    django_capture_on_commit_callbacks: Any,
) -> None:
    game, _first, nxt = _turn_passed(django_capture_on_commit_callbacks, 4)

    browser = Client(enforce_csrf_checks=True)
    browser.force_login(nxt)
    browser.get(f"/games/{game.pk}/")  # the page sets the browser's CSRF cookie
    served = browser.get(f"/games/{game.pk}/poll?version=0", HTTP_HX_REQUEST="true")
    body = served.content.decode()
    assert body.startswith(SENTINEL)
    assert prerender.CSRF_MARK not in body
    token = CSRF_VALUE.search(body)
    assert token is not None
    actions = page_actions(served.content)
    assert actions, "the next player's cached partial offers no action"
    reply = browser.post(
        f"/games/{game.pk}/act",
        {"action": actions[0], "version": game.version, "csrfmiddlewaretoken": token.group(1)},
        HTTP_HX_REQUEST="true",
    )
    assert reply.status_code == 200, reply.content[:300]
    game.refresh_from_db()
    assert game.moves.order_by("-ply").first().action == actions[0]  # type: ignore[union-attr]


def test_nobody_else_is_served_a_players_cached_partial(
    django_capture_on_commit_callbacks: Any,
) -> None:
    game, seats, waiting = _one_move(django_capture_on_commit_callbacks, 2)
    key = prerender.partial_key(game.pk, game.version, game.updated_at, waiting.pk, "en")
    seat = next(n for n, u in seats.items() if u == waiting)
    assert f'data-seat="{seat}"' in cache.get(key) and 'data-hand="' in cache.get(key)

    mover = seats[3 - seat]
    for who in (client_for(mover), client_for(UserFactory()), Client()):
        body = who.get(f"/games/{game.pk}/poll?version=0", HTTP_HX_REQUEST="true").content
        assert SENTINEL.encode() not in body
        assert f'data-seat="{seat}"'.encode() not in body


def test_a_changed_game_row_or_another_language_is_rendered_afresh(
    django_capture_on_commit_callbacks: Any,
) -> None:
    game, _seats, waiting = _one_move(django_capture_on_commit_callbacks, 3)
    request = RequestFactory().get("/")
    request.user = waiting
    facts = {"game_id": game.pk, "version": game.version, "updated_at": game.updated_at}
    assert prerender.partial_cached(request, **facts) is not None
    with translation.override("zh-hans"):
        assert prerender.partial_cached(request, **facts) is None

    game.save(update_fields=["deadline", "updated_at"])  # e.g. a vacation moved the clock
    assert SENTINEL.encode() not in _poll(waiting, game)


def test_the_task_renders_only_the_current_state_of_a_game_in_progress(
    django_capture_on_commit_callbacks: Any,
) -> None:
    game, seats = started_game(3)
    _move(
        client_for(seats[game.to_act_seat]),  # type: ignore[index]
        game,
        django_capture_on_commit_callbacks,
        random.Random(5),
    )
    mover = game.moves.get(ply=1).seat
    cache.clear()
    assert tasks.prerender_partials(game.pk, game.version - 1, mover) == 0
    assert tasks.prerender_partials(game.pk, game.version, mover) == 2
    stored = [
        cache.get(prerender.partial_key(game.pk, game.version, game.updated_at, u.pk, "en"))
        for u in seats.values()
    ]
    assert [s is not None for s in stored] == [n != mover for n in seats]
    Game.objects.filter(pk=game.pk).update(status=Game.Status.ABORTED)
    assert tasks.prerender_partials(game.pk, game.version, mover) == 0


def test_the_worker_publishes_the_version_once_the_waiting_players_partial_is_stored(
    django_capture_on_commit_callbacks: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 29: the live event follows the rendering ahead, so the page's fetch hits it.

    The committing process only queues the task (the mover's answer and a bot's next
    action wait for no render); the task stores the partials, then publishes.
    """
    queued: list[tuple[Any, ...]] = []
    monkeypatch.setattr(tasks.prerender_partials, "delay", lambda *args: queued.append(args))
    heard: list[tuple[int, int, bool, bool]] = []

    def publish(game_id: int, version: int, *, ahead: bool = False, mover: Any = None) -> None:
        row = Game.objects.get(pk=game_id)
        key = prerender.partial_key(game_id, version, row.updated_at, waiting.pk, "en")
        heard.append((game_id, version, ahead, cache.get(key) is not None))

    monkeypatch.setattr(core_live, "publish", publish)
    game, seats = started_game(2)
    mover = game.to_act_seat
    assert mover is not None
    waiting = seats[3 - mover]
    _move(client_for(seats[mover]), game, django_capture_on_commit_callbacks, random.Random(8))
    # after the commit: announced as rendered ahead (the streams hold it back), and queued
    assert heard == [(game.pk, 1, True, False)] and queued == [(game.pk, 1, mover, True)]
    tasks.prerender_partials(*queued[0])  # the worker
    assert heard[1:] == [(game.pk, 1, False, True)]


def test_a_broker_that_does_not_answer_publishes_the_version_at_once(
    django_capture_on_commit_callbacks: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    def down(*args: Any) -> None:
        raise OperationalError("broker unreachable")

    monkeypatch.setattr(tasks.prerender_partials, "delay", down)
    heard: list[tuple[int, int, bool]] = []
    monkeypatch.setattr(
        core_live, "publish", lambda g, v, *, ahead=False, mover=None: heard.append((g, v, ahead))
    )
    game, seats = started_game(2)
    mover = game.to_act_seat
    assert mover is not None
    _move(client_for(seats[mover]), game, django_capture_on_commit_callbacks, random.Random(9))
    assert heard == [(game.pk, 1, True), (game.pk, 1, False)]  # the second at once


@pytest.mark.parametrize(
    ("where", "name"),
    [
        (prerender, "partials_store"),  # the worker's rendering fails
        (tasks.prerender_partials, "delay"),  # the broker does not answer
    ],
)
def test_rendering_ahead_that_breaks_never_fails_the_move(
    where: Any,
    name: str,
    django_capture_on_commit_callbacks: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def broken(*args: Any, **kwargs: Any) -> Any:
        raise ConnectionError("rendering ahead broke")

    monkeypatch.setattr(where, name, broken)
    game, seats = started_game(2)
    mover = game.to_act_seat
    assert mover is not None
    _move(client_for(seats[mover]), game, django_capture_on_commit_callbacks, random.Random(6))
    assert game.version == 1
    assert b'data-version="1"' in _poll(seats[3 - mover], game)


def test_a_cache_that_does_not_answer_renders_the_poll(
    django_capture_on_commit_callbacks: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    game, _seats, waiting = _one_move(django_capture_on_commit_callbacks, 7)

    def down(*args: Any, **kwargs: Any) -> Any:
        raise ConnectionError("cache unreachable")

    monkeypatch.setattr(prerender.cache, "get_many", down)
    body = _poll(waiting, game)
    assert SENTINEL.encode() not in body and b'data-version="1"' in body


def test_only_the_csrf_field_is_filled_in_never_a_name_that_reads_like_the_mark(
    django_capture_on_commit_callbacks: Any,
) -> None:
    game, seats = started_game(2)
    mover = game.to_act_seat
    assert mover is not None
    profile = profiles.profile_get(seats[mover])
    profile.display_name = prerender.CSRF_MARK
    profile.save(update_fields=["display_name"])
    _move(client_for(seats[mover]), game, django_capture_on_commit_callbacks, random.Random(9))
    _mark_cached(game, seats[3 - mover])
    body = _poll(seats[3 - mover], game).decode()
    assert body.startswith(SENTINEL)
    assert f"({prerender.CSRF_MARK}, " in body  # the name, as written
    assert f'value="{prerender.CSRF_MARK}"' not in body  # the field, filled in


@pytest.mark.parametrize("change", ["settings", "vacation"])
def test_a_change_shown_outside_the_game_row_drops_the_kept_partials(
    change: str, django_capture_on_commit_callbacks: Any
) -> None:
    game, seats, waiting = _one_move(django_capture_on_commit_callbacks, 10)
    mover = next(u for u in seats.values() if u != waiting)
    with django_capture_on_commit_callbacks(execute=True):
        if change == "settings":  # the waiting player now wants every action confirmed … off
            profiles.profile_update(
                user=waiting,
                display_name="Renamed",
                language="en",
                time_zone="UTC",
                preferences={},
                confirm_actions=False,
            )
        else:
            vacations.vacation_start(user_id=mover.pk, days=3)
    game.refresh_from_db()
    body = (
        client_for(waiting).get(f"/games/{game.pk}/poll?version=0", HTTP_HX_REQUEST="true").content
    )
    assert SENTINEL.encode() not in body
    if change == "settings":
        assert b'data-confirm="0"' in body and b"Renamed" in body
    else:
        assert b"is on vacation until" in body


def test_a_resignation_drops_the_kept_partials(django_capture_on_commit_callbacks: Any) -> None:
    game, first, nxt = _turn_passed(django_capture_on_commit_callbacks, 11)
    with django_capture_on_commit_callbacks(execute=True):
        timeouts.game_resign(game_id=game.pk, user=first)
    assert Game.objects.get(pk=game.pk).version == game.version  # nothing autoplayed yet
    body = _poll(nxt, game)
    assert SENTINEL.encode() not in body
    assert b"played automatically" in body


def _moved_without_rendering_ahead(seed: int) -> tuple[Game, Any, Any]:
    """Start a 2-player game and play one action through the submit service, running no
    after-commit task: nothing is rendered ahead. Returns the game, the mover and the other."""
    game, seats = started_game(2)
    mover = game.to_act_seat
    assert mover is not None
    state_page = client_for(seats[mover]).get(f"/games/{game.pk}/", HTTP_HX_REQUEST="true")
    action = random.Random(seed).choice(page_actions(state_page.content))
    submit.game_submit_action(
        game_id=game.pk, user=seats[mover], action=action, expected_version=game.version
    )
    game.refresh_from_db()
    return game, seats[mover], seats[3 - mover]


def _key(game: Game, user: Any) -> str:
    return prerender.partial_key(game.pk, game.version, game.updated_at, user.pk, "en")


def _served_from_the_cache(
    tab: Client, game: Game, kept: bytes, settings: Any, django_assert_max_num_queries: Any
) -> None:
    """Assert ``tab``'s fetch is the ``kept`` partial (marked), served in 4 queries at most,
    and the same, but for the CSRF token, as a render with rendering ahead off."""
    with django_assert_max_num_queries(4):
        served = tab.get(f"/games/{game.pk}/poll?version=0", HTTP_HX_REQUEST="true")
    assert served.content.startswith(SENTINEL.encode())
    assert _without_csrf(served.content) == _without_csrf(kept)
    settings.PRERENDER_PARTIALS = False
    fresh = tab.get(f"/games/{game.pk}/poll?version=0", HTTP_HX_REQUEST="true")
    assert _without_csrf(fresh.content) == _without_csrf(kept)


def test_a_players_fetch_renders_once_and_their_other_tab_is_served_it(
    django_assert_max_num_queries: Any, settings: Any
) -> None:
    """Issue 29: a seated player's fetch keeps what it rendered; their second tab's fetch
    of the same version reads it (no second render), and it is what the poll renders."""
    game, mover, _other = _moved_without_rendering_ahead(11)
    assert cache.get(_key(game, mover)) is None
    first, second = client_for(mover), client_for(mover)
    # session, user, the poll's facts, the game with the viewer's facts, seats, moves
    with django_assert_max_num_queries(6):
        rendered = first.get(f"/games/{game.pk}/poll?version=0", HTTP_HX_REQUEST="true")
    assert rendered.status_code == 200
    assert cache.get(_key(game, mover)) is not None
    assert cache.get(prerender.render_key(_key(game, mover))) is None  # the claim released
    _mark_cached(game, mover)
    _served_from_the_cache(second, game, rendered.content, settings, django_assert_max_num_queries)


def test_a_spectators_fetch_is_rendered_as_before_and_kept_for_nobody(
    django_assert_max_num_queries: Any,
) -> None:
    game, mover, other = _moved_without_rendering_ahead(12)
    stranger = UserFactory()
    watcher = client_for(stranger)
    watcher.get(f"/games/{game.pk}/", HTTP_HX_REQUEST="true")  # the session's language
    # session, user, the poll's facts, the game (who may see it, read once), seats, moves
    with django_assert_max_num_queries(6):
        reply = watcher.get(f"/games/{game.pk}/poll?version=0", HTTP_HX_REQUEST="true")
    assert reply.status_code == 200 and 'data-seat=""' in reply.content.decode()
    assert not any(cache.get(_key(game, u)) for u in (mover, other, stranger))
    assert 'data-hand="' not in reply.content.decode()
    assert cache.get(prerender.render_key(_key(game, stranger))) is None  # the claim released


def test_a_strangers_fetch_of_a_private_game_is_no_game() -> None:
    game, _mover, _other = _moved_without_rendering_ahead(17)
    Game.objects.filter(pk=game.pk).update(is_public=False)
    stranger = UserFactory()
    reply = client_for(stranger).get(f"/games/{game.pk}/poll?version=0", HTTP_HX_REQUEST="true")
    assert reply.status_code == 404
    assert cache.get(prerender.render_key(_key(game, stranger))) is None  # the claim released


def test_the_worker_leaves_a_partial_the_players_page_is_rendering(
    django_capture_on_commit_callbacks: Any,
) -> None:
    game, mover, other = _moved_without_rendering_ahead(13)
    mover_seat = game.moves.get(ply=1).seat
    assert cache.add(prerender.render_key(_key(game, other)), 1, 5)  # the page's fetch
    assert tasks.prerender_partials(game.pk, game.version, mover_seat) == 0
    assert cache.get(_key(game, other)) is None
    cache.delete(prerender.render_key(_key(game, other)))  # its render ended, and kept it
    _poll(other, game)
    assert tasks.prerender_partials(game.pk, game.version, mover_seat) == 0  # kept: no render


def test_a_fetch_waits_for_the_partial_the_worker_is_rendering(
    monkeypatch: pytest.MonkeyPatch, settings: Any
) -> None:
    """The page's fetch and the worker render the same board once: the fetch that finds the
    worker's claim waits for its partial instead of rendering beside it."""
    settings.RENDER_WAIT_SECONDS = 0.5  # the setting for saturated web processes (default 0)
    game, mover, other = _moved_without_rendering_ahead(14)
    mover_seat = game.moves.get(ply=1).seat
    claim = prerender.render_key(_key(game, other))
    assert cache.add(claim, 1, 5)  # the worker took it
    naps: list[float] = []

    def worker_ends(seconds: float) -> None:  # the worker keeps the partial while we wait
        naps.append(seconds)
        if len(naps) == 3:
            cache.delete(claim)
            assert tasks.prerender_partials(game.pk, game.version, mover_seat) == 1
            _mark_cached(game, other)

    monkeypatch.setattr(prerender.time, "sleep", worker_ends)
    renders: list[str] = []
    real_render = prerender._partial_render

    def counted(*args: Any, **kwargs: Any) -> str:
        renders.append("partial")
        return str(real_render(*args, **kwargs))

    monkeypatch.setattr(prerender, "_partial_render", counted)
    monkeypatch.setattr(game_views, "_render_game", lambda *a, **k: renders.append("poll"))
    body = _poll(other, game)
    assert body.startswith(SENTINEL.encode()) and len(naps) == 3
    assert renders == ["partial"]  # the worker's; none in the fetch


def test_a_fetch_whose_wait_runs_out_renders_the_partial_itself(settings: Any) -> None:
    settings.RENDER_WAIT_SECONDS = 0.05
    game, _mover, other = _moved_without_rendering_ahead(15)
    assert cache.add(prerender.render_key(_key(game, other)), 1, 5)  # a worker that stalled
    body = _poll(other, game).decode()
    assert f'data-version="{game.version}"' in body and 'data-hand="' in body


def test_a_fetch_after_a_render_that_kept_nothing_renders_at_once(
    monkeypatch: pytest.MonkeyPatch, settings: Any
) -> None:
    settings.RENDER_WAIT_SECONDS = 30
    game, _mover, other = _moved_without_rendering_ahead(16)
    claim = prerender.render_key(_key(game, other))
    assert cache.add(claim, 1, 5)
    monkeypatch.setattr(prerender.time, "sleep", lambda seconds: cache.delete(claim))
    started = time.monotonic()
    body = _poll(other, game).decode()
    assert time.monotonic() - started < 5  # not the 30 s wait
    assert f'data-version="{game.version}"' in body


def test_a_kept_fetch_is_dropped_when_a_chat_line_joins_since_your_last_move(
    django_capture_on_commit_callbacks: Any,
) -> None:
    """The chat's lines since the viewer's last move are in the log of the partial: a line
    posted after a fetch kept it is shown by the next tab's fetch (the stamp renewed)."""
    game, seats = started_game(2)
    game = play_random_plies(game, seats, 4, random.Random(2))
    mover, other = seats[1], seats[2]
    first = client_for(mover).get(f"/games/{game.pk}/poll?version=0", HTTP_HX_REQUEST="true")
    assert b"well played" not in first.content
    assert cache.get(_key(game, mover)) is not None  # kept for the other tabs
    with django_capture_on_commit_callbacks(execute=True):
        posted = client_for(other).post(
            f"/games/{game.pk}/chat/send", {"text": "well played"}, HTTP_HX_REQUEST="true"
        )
    assert posted.status_code == 200
    page = client_for(mover).get(f"/games/{game.pk}/poll?version=0", HTTP_HX_REQUEST="true")
    body = page.content.decode()
    since = body[body.index('<ol class="since">') :]
    assert "well played" in since[: since.index("</ol>")]


def test_a_submits_answer_is_kept_for_the_movers_other_tabs(
    django_capture_on_commit_callbacks: Any,
    django_assert_max_num_queries: Any,
    settings: Any,
) -> None:
    game, seats = started_game(2)
    mover = seats[game.to_act_seat]  # type: ignore[index]
    tab = client_for(mover)
    page = tab.get(f"/games/{game.pk}/", HTTP_HX_REQUEST="true")
    action = random.Random(18).choice(page_actions(page.content))
    with django_capture_on_commit_callbacks(execute=True):
        answer = tab.post(
            f"/games/{game.pk}/act",
            {"action": action, "version": game.version},
            HTTP_HX_REQUEST="true",
        )
    assert answer.status_code == 200
    game.refresh_from_db()
    assert cache.get(prerender.render_key(_key(game, mover))) is None  # the claim released
    _mark_cached(game, mover)  # kept by the answer (the worker renders only the other's)
    other_tab = client_for(mover)
    other_tab.get("/")  # the session's language filled in once
    _served_from_the_cache(other_tab, game, answer.content, settings, django_assert_max_num_queries)


def test_a_finished_games_fetch_is_rendered_when_asked_and_never_kept() -> None:
    game, mover, other = _moved_without_rendering_ahead(19)
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    body = _poll(other, game).decode()
    assert f'data-version="{game.version}"' in body
    assert cache.get(_key(game, other)) is None
    assert cache.get(prerender.render_key(_key(game, other))) is None
