"""The home page's public lists, bounded and cached (issue 31): open games, games to watch.

Both are the same for every visitor, so they are read at most once per ``LIST_SECONDS``
and kept in Django's cache (Redis in production, each process's memory in the embedded
mode). The services that change them drop them at once and again after their commit
(``public_lists_changed``, called by ``games.play.effects`` and ``games.play.lifecycle``:
a game created, joined, left, started, ended, aborted or expired), so a new open game, a
seat taken, a game starting or ending shows at the next request. A **move** does not drop
them (the lead's decision, issue 31: every move dropped them, and the home page's next
request read both lists again — its slowest request at full size): the games to watch,
"the latest moved first" with their plies, may lag moves by up to ``LIST_SECONDS``. Also
stale for up to ``LIST_SECONDS``: a listed player's name and rating (a profile's change
does not drop it) and a change written past the services (the admin's raw edits, a test's
factory rows).

The home page shows an excerpt of each (``HOME_OPEN_GAMES``, ``HOME_WATCH_GAMES``); the
open games' own page (``open_games_page``) lists them all in keyset pages.
"""

from __future__ import annotations

import uuid
from collections.abc import Collection
from dataclasses import dataclass
from functools import partial

from django.core.cache import cache
from django.db import transaction
from django.db.models import Q, Subquery

from games.models import Game, Seat
from games.selectors.games import (
    OpenGame,
    UserLike,
    WatchGame,
    games_open,
    games_to_watch,
)

HOME_OPEN_GAMES = 10  # open games the home page lists, the oldest first
HOME_WATCH_GAMES = 10  # games in progress the home page offers to watch, the latest moved
OPEN_GAMES_PAGE = 50  # open games a page of ``/games/open`` lists
LIST_SECONDS = 30  # the longest a cached list lives without a change dropping it
# The games to watch are cached for everyone, the viewer's own games among them left out
# after: twice the excerpt, so that a player seated in a few still sees a full list.
_WATCH_POOL = 2 * HOME_WATCH_GAMES
_OPEN_KEY = "lobby:open:v1"
_WATCH_KEY = "lobby:watch:v1"


@dataclass(frozen=True)
class OpenExcerpt:
    """The home page's open games: the first ``HOME_OPEN_GAMES`` (``rows``, oldest first)
    and how many open public games there are in all (``total``, exact when cached);
    ``key`` names this very excerpt (a new one at each read from the database), so a page
    may keep its rendering under it."""

    rows: list[OpenGame]
    total: int
    key: str = ""

    @property
    def more(self) -> bool:
        """Whether there are open games beyond the excerpt (the page links to them all)."""
        return self.total > len(self.rows)


def public_lists_changed(*, open_games: bool = True, watch: bool = True) -> None:
    """Drop the cached public lists: now, and again once the caller's transaction commits.

    ``open_games``/``watch``: which of the two changed (both by default). A seat taken or
    given up, a game created or expired changes the open games only; a game's end the
    games to watch only; its start both — so the next home page reads again only the list
    that changed (the games to watch cost the more). Dropped now so this process's next
    read does not serve them; again after the commit because another request may have
    cached the old rows in between. Cheap (one cache delete), so every service that may
    change a list calls it.
    """
    keys = [key for key, on in ((_OPEN_KEY, open_games), (_WATCH_KEY, watch)) if on]
    if not keys:
        return
    cache.delete_many(keys)
    transaction.on_commit(partial(cache.delete_many, keys), robust=True)


def open_games_excerpt() -> OpenExcerpt:
    """Return the home page's open games (cached, see the module): at most
    ``HOME_OPEN_GAMES`` rows and the total. Three queries when not cached (the games, their
    seats, the count over ``game_lobby_idx``), none when cached."""
    found = cache.get(_OPEN_KEY)
    if isinstance(found, OpenExcerpt):
        return found
    rows = games_open(limit=HOME_OPEN_GAMES)
    total = Game.objects.filter(status=Game.Status.OPEN, is_public=True).count()
    excerpt = OpenExcerpt(rows=rows, total=total, key=uuid.uuid4().hex)
    cache.set(_OPEN_KEY, excerpt, LIST_SECONDS)
    return excerpt


def open_games_page(
    *, after: int | None = None, size: int | None = None
) -> tuple[list[OpenGame], int | None]:
    """Return a page of open public games, oldest first, and the id to read the next after.

    ``after`` is the last game of the previous page (None: the first page); ``size`` the
    rows a page (None: ``OPEN_GAMES_PAGE``). Keyset on
    (created at, id): the next page starts right after that game whatever joined or
    started meanwhile, in one indexed query of ``size + 1`` games plus their seats, so the
    thousandth page costs what the first does. Not cached (``/games/open`` is rarer than
    the home page). The next id is None on the last page.
    """
    size = OPEN_GAMES_PAGE if size is None else size
    games = Game.objects.all()
    if after is not None:
        at = Subquery(Game.objects.filter(pk=after).values("created_at")[:1])
        games = games.filter(Q(created_at__gt=at) | Q(created_at=at, pk__gt=after))
    rows = games_open(limit=size + 1, queryset=games)
    if len(rows) > size:
        return rows[:size], rows[size - 1].pk
    return rows, None


@dataclass(frozen=True)
class WatchExcerpt:
    """The home page's games to watch (``rows``) and ``key``: names this very list, the
    cached pool's stamp and the ids shown, so a page may keep its rendering under it (a
    change drops the pool, and the next pool has a new stamp)."""

    rows: list[WatchGame]
    key: str


def games_to_watch_excerpt(
    user: UserLike, *, seated_in: Collection[int] | None = None
) -> WatchExcerpt:
    """Return the home page's games to watch: public games in progress, the latest moved
    first, at most ``HOME_WATCH_GAMES``, never ``user``'s own (their list is "My games").

    The list is cached for everyone (see the module), ``_WATCH_POOL`` games deep, and a
    move does not drop it: the order and the plies shown may lag moves by up to
    ``LIST_SECONDS`` (a game started or ended shows at the next request); a
    signed-in viewer's own games among them are then left out by one query over those
    ids (a player seated in more than ``_WATCH_POOL - HOME_WATCH_GAMES`` of the site's
    latest moved games sees fewer), or by none when the caller knows them: ``seated_in``,
    the ids of every game in progress ``user`` holds a seat in (the home page has them
    from "My games"). Two queries when not cached, one more signed in without it.
    The list's rendering may be kept under ``WatchExcerpt.key`` (the home page does, for
    ``LIST_SECONDS``: "last move 5 minutes ago" may be that much behind).
    """
    found = cache.get(_WATCH_KEY)
    pool: list[WatchGame]
    if isinstance(found, tuple) and len(found) == 2:
        stamp, pool = found
    else:
        stamp, pool = uuid.uuid4().hex, games_to_watch(None, limit=_WATCH_POOL)
        cache.set(_WATCH_KEY, (stamp, pool), LIST_SECONDS)
    if user.is_authenticated and pool:
        if seated_in is None:
            seated_in = set(
                Seat.objects.filter(user_id=user.pk, game_id__in=[g.pk for g in pool]).values_list(
                    "game_id", flat=True
                )
            )
        pool = [g for g in pool if g.pk not in seated_in]
    rows = pool[:HOME_WATCH_GAMES]
    return WatchExcerpt(rows=rows, key=f"{stamp}:{','.join(str(g.pk) for g in rows)}")
