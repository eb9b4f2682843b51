"""Render a waiting player's ``#game`` partial before their poll asks for it.

After a move commits, ``tasks.prerender_partials`` (a Celery worker, off the mover's
request) renders the partial of every other seated player and keeps it in the shared cache
for ``TTL`` seconds. When that player's poll finds the game moved on, it answers from the
cache instead of reading and rendering the game again: three queries instead of seven, and
no rendering (bench/page_cost.py, bench/web_load.py).

What a cached partial may show is exactly what the poll would render. The key names the
game, its version and last update, the player and the language, so any change to the game
row (a move, a deadline shifted by a vacation, an abort) or another language misses and
renders as before. Only the player it was rendered for can hit it: the key holds their
user id, read from the request. The CSRF token, which belongs to the browser and not to the
player, is written as ``CSRF_MARK`` and filled in when served. What the key does not name
(a player's new display name, time zone or confirm setting, the "due in" wording) may lag
by at most ``TTL``; full page loads are never cached.

Off unless ``settings.PRERENDER_PARTIALS`` (on by default when ``CACHE_URL`` names a shared
cache and a broker runs the tasks): a per-process memory cache would keep the partial in the
worker, where no poll could read it.
"""

from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest
from django.middleware.csrf import get_token
from django.template.loader import render_to_string
from django.utils import translation

from games.models import Game, Profile
from games.pages import game_context

TTL = 300  # seconds: bounds how stale a name or the clock's "due in" wording can be
CSRF_MARK = "csrf-token-of-the-browser-that-polls"


def partial_key(
    game_id: int, version: int, updated_at: datetime, user_id: int, language: str
) -> str:
    """Return the cache key of one player's partial of one state of a game."""
    return f"game-partial:{game_id}:{version}:{updated_at.timestamp():.6f}:{user_id}:{language}"


def partials_store(game: Game, *, except_seat: int | None = None) -> int:
    """Render and cache the partial of every seated player of ``game`` but ``except_seat``.

    ``game`` must come with its seats, users and profiles (``selectors.with_seats``). Each
    player's partial is rendered in their account's language, as the poll would. Returns
    how many partials were stored.
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
        with translation.override(language):
            context = game_context(game, user)
            context.update(user=user, csrf_token=CSRF_MARK)
            html = render_to_string("games/game.html#game", context)
        key = partial_key(game.pk, game.version, game.updated_at, user.pk, language)
        cache.set(key, html, TTL)
        stored += 1
    return stored


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
    html = cache.get(key)
    if html is None:
        return None
    return str(html).replace(CSRF_MARK, get_token(request))
