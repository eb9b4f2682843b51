"""One stamp per game in the cache: a change of it drops the partials ``games.web.prerender`` kept.

A partial rendered ahead is keyed by the game's version and last update, which every move
and every change of the game row renews. Some of what a partial shows lives elsewhere: a
player's display name, time zone and confirm setting (``Profile``), who is on vacation, who
was dropped. The services that change those call ``games_changed`` (or
``user_games_changed``); a partial stored under an older stamp is then never served.

Small on purpose (the cache and the models only), in ``core``: profiles, vacations and the
play services below the web tier renew stamps that ``games.web.prerender`` reads.

The players' names have one stamp for the whole site (``names_stamp``, renewed by
``names_changed`` when a player changes their name): the home page keeps each player's
"My games" rendered under it, among the other players' names.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Iterable

from django.core.cache import cache
from django.db import transaction

from games.models import Game

log = logging.getLogger(__name__)

PARTIAL_TTL = 300  # seconds a partial is kept (games.prerender)
STAMP_TTL = 2 * PARTIAL_TTL  # outlives every partial stored before the stamp changed


def stamp_key(game_id: int) -> str:
    """Return the cache key of ``game_id``'s stamp."""
    return f"game-stamp:{game_id}"


def games_changed(game_ids: Iterable[int]) -> None:
    """Give each game a new stamp once the current transaction commits.

    Best effort: a cache that does not answer is logged, not raised (the move or setting
    is saved either way, and the partials it would drop expire after ``PARTIAL_TTL``).
    """
    ids = list(game_ids)
    if not ids:
        return

    def renew() -> None:
        try:
            cache.set_many({stamp_key(i): uuid.uuid4().hex for i in ids}, STAMP_TTL)
        except Exception:
            log.exception("could not renew the render stamps of games %s", ids)

    transaction.on_commit(renew)


def user_games_changed(user_id: int) -> None:
    """Renew the stamps of the games in progress where ``user_id`` holds a seat."""
    games_changed(
        Game.objects.filter(seats__user_id=user_id, status=Game.Status.ACTIVE).values_list(
            "pk", flat=True
        )
    )


NAMES_KEY = "names-stamp"  # the site-wide stamp of the players' names (names_stamp)


def names_stamp() -> str:
    """Return the stamp of the players' names: a rendering that shows other players' names
    and is kept under it (the home page's "My games") is not served after a name changes.
    Made when missing (a cache that lost it hands out a new one, never an old one)."""
    return str(cache.get_or_set(NAMES_KEY, lambda: uuid.uuid4().hex, None))


def names_changed() -> None:
    """Give the players' names a new stamp: now, and again once the current transaction
    commits (another request may have kept the old name under the first new stamp in
    between). Best effort, as ``games_changed``: what it would drop is kept at most its
    own timeout."""

    def renew() -> None:
        try:
            cache.set(NAMES_KEY, uuid.uuid4().hex, None)
        except Exception:
            log.exception("could not renew the names' stamp")

    renew()
    transaction.on_commit(renew, robust=True)
