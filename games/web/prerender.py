"""Render a waiting player's ``#game`` partial before their poll asks for it.

After a move commits, ``games.tasks.prerender_partials`` (a Celery worker, off the mover's
request) renders the partial of every other seated player and keeps it in the shared cache
for ``TTL`` seconds. When that player's poll finds the game moved on, it answers from the
cache instead of reading and rendering the game again: four queries instead of six (the
fourth reads the games waiting on the player: the next game and the navigation's count are
rendered fresh, never cached), and no rendering of the board (bench/page_cost.py,
bench/web_load.py).

What a cached partial may show is exactly what the poll would render. The key names the
game, its version and last update, the player and the language, so any change to the game
row (a move, a deadline shifted by a vacation, an abort) or another language misses and
renders as before; what a partial shows from outside the game row (names, time zones,
confirm settings, vacations, dropped seats) renews the game's stamp
(``games.core.stamps``), and a partial stored under another stamp is not served. Only the
player it was rendered for can hit it: the key holds their user id, read from the request.
The CSRF field, whose token belongs to the browser and not to the player, is written with
``CSRF_MARK`` and filled in when served. Only the clock's "due in" wording may lag, by at
most ``TTL``; full page loads are never cached. A cache that does not answer is skipped.

The live event of the move (``games.core.live``) is published by this task once the
partials are stored (``partials_prerender(…, publish=True)``), so the open pages' fetches
that follow it are answered from the cache.

Off unless ``settings.PRERENDER_PARTIALS`` (on by default when ``CACHE_URL`` names a shared
cache and a broker runs the tasks): a per-process memory cache would keep the partial in the
worker, where no poll could read it.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from datetime import datetime
from typing import NamedTuple

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest
from django.middleware.csrf import get_token
from django.template.loader import render_to_string
from django.utils import translation

from games.core import live
from games.core.stamps import PARTIAL_TTL, stamp_key
from games.models import Game, Profile, Seat
from games.selectors.games import with_seats
from games.web.game_page import game_context
from games.web.viewer import viewer_at_seat

TTL = PARTIAL_TTL  # seconds: bounds how stale the clock's "due in" wording can be
CSRF_MARK = "csrf-token-of-the-browser-that-polls"
# Only the CSRF field is filled in: a display name may read like the mark, never like this.
_CSRF_FIELD = f'name="csrfmiddlewaretoken" value="{CSRF_MARK}"'

LOCK_SECONDS = 5  # the longest a render claims its partial (released when it is kept)
RENDER_WAIT_STEP = 0.01  # seconds between a waiting fetch's looks at the cache

log = logging.getLogger(__name__)


class FetchedPartial(NamedTuple):
    """What ``partial_fetched`` found for a page's fetch: the ``#game`` partial's ``html``
    (the request's CSRF token in it; None when it is the caller's to render) and the
    ``game`` it read (None when it read none: served from the cache)."""

    html: str | None
    game: Game | None


def partial_key(
    game_id: int, version: int, updated_at: datetime, user_id: int, language: str
) -> str:
    """Return the cache key of one player's partial of one state of a game."""
    return f"game-partial:{game_id}:{version}:{updated_at.timestamp():.6f}:{user_id}:{language}"


def stamp_read(game_id: int) -> str:
    """Return ``game_id``'s render stamp (``games.core.stamps``), "" when it has none.

    Read it before reading the game: a change committed in between then makes the
    partials rendered from that read miss, instead of being served as current.
    """
    return str(cache.get(stamp_key(game_id), ""))


def render_key(partial: str) -> str:
    """Return the cache key held while one process renders the partial keyed ``partial``.

    Whoever adds it first (``cache.add``: atomic in Redis) renders that partial; the others
    wait for it (``partial_fetched``) or leave it (``partials_store``), so a waiting player's
    board is rendered once per move — by the worker or by their page's fetch, whichever
    comes first — not by both at once on the same cores (issue 29).
    """
    return f"rendering:{partial}"


def _partial_render(game: Game, seat: Seat, *, stamp: str, language: str) -> str:
    """Render and cache the ``#game`` partial of the person at ``seat``; return its HTML.

    In ``language``, with the CSRF field written as ``CSRF_MARK``; stored under
    ``partial_key`` with ``stamp`` in front (see ``partials_store``).
    """
    with translation.override(language):
        viewer = viewer_at_seat(seat, language=language)  # a value, never the row
        context = game_context(game, viewer)
        context.update(user=viewer, viewer=viewer, csrf_token=CSRF_MARK)
        # The #game partial only: the next game and the navigation's count concern
        # other games too, and the poll renders them fresh (views.game_poll).
        html = render_to_string("games/game.html#game", context)
    key = partial_key(game.pk, game.version, game.updated_at, seat.user_id, language)
    cache.set(key, f"{stamp}\n{html}", TTL)
    return html


def partials_store(game: Game, *, stamp: str, except_seat: int | None = None) -> int:
    """Render and cache the partial of every seated player of ``game`` but ``except_seat``.

    ``game`` must come with its seats, users and profiles (``games.selectors.games.with_seats``) and
    ``stamp`` be what ``stamp_read`` gave before the game was read. Each player's partial
    is rendered in their account's language, as the poll would. A partial that a page's
    fetch is rendering already (``render_key`` taken) is left to it. Returns how many
    partials were stored.
    """
    stored = 0
    for seat in game.seats.all():
        if seat.position is None or seat.position == except_seat:
            continue
        user = seat.user
        try:
            language = user.profile.language or settings.LANGUAGE_CODE
        except Profile.DoesNotExist:
            language = settings.LANGUAGE_CODE
        key = partial_key(game.pk, game.version, game.updated_at, user.pk, language)
        if _kept(key, game.pk)[0] is not None or not cache.add(render_key(key), 1, LOCK_SECONDS):
            continue  # the player's page rendered it, or is rendering it: one render, not two
        try:
            _partial_render(game, seat, stamp=stamp, language=language)
        finally:
            cache.delete(render_key(key))
        stored += 1
    return stored


def partials_prerender(
    game_id: int, version: int, mover: int | None, *, publish: bool = False
) -> int:
    """Cache the ``#game`` partial of every seated player of ``game_id`` but ``mover``.

    Does nothing (returns 0) when the game is no longer in progress at ``version``: a later
    move has its own task. Returns how many partials were stored. It is only a shortcut: a
    failure stores nothing and the polls render as usual (queued with a robust
    ``on_commit``, so even an eager run never fails the move).

    With ``publish`` (``games.play.effects`` asks for it), the version goes to the open
    pages (``games.core.live.publish``) once the partials are stored — and also when the
    rendering fails or finds nothing to do: the event carries the version only, and the
    pages' fetches then hit the cache instead of racing this render (issue 29).
    """
    try:
        stamp = stamp_read(game_id)
        game = with_seats(Game.objects.all()).filter(pk=game_id).first()
        if game is None or game.version != version or game.status != Game.Status.ACTIVE:
            return 0
        return partials_store(game, stamp=stamp, except_seat=mover)
    finally:
        if publish:
            live.publish(game_id, version)


def _kept(key: str, game_id: int) -> tuple[str | None, str]:
    """Return the partial kept under ``key`` if its stamp is current (else None) and the stamp.

    Raises what the cache raises.
    """
    found = cache.get_many([key, stamp_key(game_id)])
    stamp = str(found.get(stamp_key(game_id), ""))
    kept, _newline, html = str(found.get(key, "")).partition("\n")
    return (html if html and kept == stamp else None), stamp


def _served(request: HttpRequest, html: str) -> str:
    """Return a kept partial with the CSRF field filled in with the request's own token."""
    return html.replace(_CSRF_FIELD, f'name="csrfmiddlewaretoken" value="{get_token(request)}"')


def partial_cached(
    request: HttpRequest, *, game_id: int, version: int, updated_at: datetime
) -> str | None:
    """Return the cached partial of the requesting player at ``version``, or None.

    None when the feature is off, the request is anonymous or nothing was stored for this
    player, game state and the request's language. The CSRF token is the request's own.
    """
    if not settings.PRERENDER_PARTIALS or not request.user.is_authenticated:
        return None
    language = translation.get_language()
    key = partial_key(game_id, version, updated_at, int(request.user.pk), language)
    try:
        html, _stamp = _kept(key, game_id)
    except Exception:  # a cache that does not answer: render as if nothing was kept
        log.warning("game %s: the cache did not answer; rendering the partial", game_id)
        return None
    return None if html is None else _served(request, html)


def partial_fetched(
    request: HttpRequest,
    *,
    game_id: int,
    version: int,
    updated_at: datetime,
    read_game: Callable[[], Game],
) -> FetchedPartial | None:
    """Return the requesting player's partial at ``version`` for a page's fetch.

    The poll's changed answer (issue 29: every open page fetches it when the live event
    names a new version). Kept in the cache (the worker's, or another tab's fetch): served.
    Else rendered here once and kept for a player seated in the game: the first fetch or
    worker to take ``render_key`` renders, and a fetch that finds it taken waits up to
    ``RENDER_WAIT_SECONDS`` for that render instead of rendering the same board beside it.

    ``read_game`` reads the game as the poll does (who may see it, with its seats and the
    viewer's facts; it raises ``Http404`` for a game the viewer may not see, which goes up
    unchanged). The answer's ``html`` is None when the game read is the caller's to render:
    the viewer holds no seat (a spectator's partial is kept for nobody), the game moved
    past ``version`` meanwhile or is not in progress. None (nothing read) when the feature
    is off, the viewer is anonymous, the wait ran out or the cache does not answer: the
    caller reads and renders as the poll always did. A player's partial is only ever served
    to them: the key names their user id.
    """
    if not settings.PRERENDER_PARTIALS or not request.user.is_authenticated:
        return None
    language = translation.get_language()
    user_id = int(request.user.pk)
    key = partial_key(game_id, version, updated_at, user_id, language)
    try:
        html, stamp = _kept(key, game_id)
        if html is not None:
            return FetchedPartial(_served(request, html), None)
        if not cache.add(render_key(key), 1, LOCK_SECONDS):
            return _waited(request, key, game_id)
    except Exception:  # a cache that does not answer: render as if nothing was kept
        log.warning("game %s: the cache did not answer; rendering the partial", game_id)
        return None
    try:
        game = read_game()
        if (game.version, game.updated_at) != (version, updated_at) or not _kept_kind(game):
            return FetchedPartial(None, game)  # it moved on since the poll's facts, or ended
        seat = next((s for s in game.seats.all() if s.user_id == user_id), None)
        if seat is None or seat.position is None:
            return FetchedPartial(None, game)  # a spectator's partial is kept for nobody
        html = _partial_render(game, seat, stamp=stamp, language=language)
    finally:
        cache.delete(render_key(key))
    return FetchedPartial(_served(request, html), game)


def _kept_kind(game: Game) -> bool:
    """Return whether a partial of ``game`` may be kept: only of a game in progress, as the
    worker renders them (a game's end writes its seats' ranks and ratings apart)."""
    return game.status == Game.Status.ACTIVE


def partial_answer(request: HttpRequest, game: Game, *, stamp: str) -> str | None:
    """Render the requesting player's ``#game`` partial of ``game`` and keep it; return it.

    A submit's answer (issue 29): what the mover's page gets is kept, so their other tabs'
    fetches of this version are served from the cache. ``game`` comes with its seats,
    users and profiles and ``stamp`` is what ``stamp_read`` gave before the game was read.
    None (the caller renders as before) when the feature is off, the game is not in
    progress, the requester holds no seat, another tab is rendering it (``render_key``
    taken: a submit never waits) or the cache does not answer.
    """
    if not settings.PRERENDER_PARTIALS or not request.user.is_authenticated:
        return None
    if not _kept_kind(game):
        return None
    seat = next((s for s in game.seats.all() if s.user_id == request.user.pk), None)
    if seat is None or seat.position is None:
        return None
    language = translation.get_language()
    key = partial_key(game.pk, game.version, game.updated_at, seat.user_id, language)
    try:
        if not cache.add(render_key(key), 1, LOCK_SECONDS):
            return None
    except Exception:  # a cache that does not answer: render as if nothing was kept
        log.warning("game %s: the cache did not answer; rendering the partial", game.pk)
        return None
    try:
        return _served(request, _partial_render(game, seat, stamp=stamp, language=language))
    finally:
        cache.delete(render_key(key))


def _waited(request: HttpRequest, key: str, game_id: int) -> FetchedPartial | None:
    """Wait for the partial another process is rendering under ``key``; None if it is late."""
    deadline = time.monotonic() + settings.RENDER_WAIT_SECONDS
    while time.monotonic() < deadline:
        time.sleep(RENDER_WAIT_STEP)
        ended = cache.get(render_key(key)) is None  # read first: a render keeps, then ends
        html, _stamp = _kept(key, game_id)
        if html is not None:
            return FetchedPartial(_served(request, html), None)
        if ended:
            return None  # that render ended and kept nothing (it failed, or went stale)
    return None
