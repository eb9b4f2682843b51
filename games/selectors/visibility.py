"""Who may see a game: one rule, for the pages, the polls, the records and the API (issue 27).

``games_visible_to(user, invite_tokens=…)`` is the rule, as a filter of ``Game`` rows:

- the game's players see it, whatever became of it;
- anyone else sees a **public** game, and a **private** one only once invited: holding its
  invitation link (``invite_tokens``, remembered in the web session) or invited by name
  while the invitation is pending (issue 18);
- an **aborted** game is its players' alone (staff too, to look into it): it is no game to
  anyone else, and answers 404 as a game that does not exist.

A game anyone may see (``OPEN_TO_ANYONE``: public, not aborted) lets a poll say "unchanged"
without asking who asks (``game_poll_facts``). Every reader filters with these, so the web
and the API cannot disagree (``tests/games/test_visibility.py``).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import NamedTuple

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import BooleanField, ExpressionWrapper, Q

from games.models import Game, Invitation, Seat

UserLike = AbstractBaseUser | AnonymousUser

# A game anyone may see, signed in or not, invited or not.
OPEN_TO_ANYONE = Q(is_public=True) & ~Q(status=Game.Status.ABORTED)


def games_visible_to(
    user: UserLike, *, invite_tokens: Sequence[str] = (), game_id: int | None = None
) -> Q:
    """Return the filter of the ``Game`` rows ``user`` may see (see the module doc).

    ``user`` is a user or ``AnonymousUser``; ``invite_tokens`` are the invitation links the
    visitor opened (the web session's; the API has none). Use it as
    ``Game.objects.filter(games_visible_to(user))``: one query, no row read in Python.

    ``game_id``: the one game asked about (a game's pages, its API, its record). The filter
    then matches that game only, if ``user`` may see it, and reads only ``user``'s seat and
    invitation *in it* (the index ``seat_user_game_idx``) — issue 31: ``id IN (every seat of
    the user)`` read a veteran's 728 seats to open one game, as a hashed subplan that
    PostgreSQL keeps even for an ``EXISTS``. A list passes none: its rows are checked
    against the user's seats read once.
    """
    one: dict[str, int] = {} if game_id is None else {"game_id": game_id}
    this = Q() if game_id is None else Q(pk=game_id)
    invited = Q(is_public=True)
    if invite_tokens:
        invited |= Q(invite_token__in=list(invite_tokens))
    if not user.is_authenticated:
        return this & invited & ~Q(status=Game.Status.ABORTED)
    pending = Invitation.objects.filter(invitee_id=user.pk, status=Invitation.Status.PENDING, **one)
    invited |= Q(pk__in=pending.values("game_id"))
    if not getattr(user, "is_staff", False):
        invited &= ~Q(status=Game.Status.ABORTED)
    seated = Q(pk__in=Seat.objects.filter(user_id=user.pk, **one).values("game_id"))
    return this & (seated | invited)


class PollFacts(NamedTuple):
    """What a poll needs to know before reading a game: ``game_poll_facts``."""

    version: int
    openly_viewable: bool
    updated_at: datetime
    waiting_mark: int = 0


def game_poll_facts(game_id: int) -> PollFacts | None:
    """Return the game's version, whether anyone may see it, and its last update; or None.

    One indexed query (the poll). ``openly_viewable`` is ``OPEN_TO_ANYONE``: anyone may
    learn that such a game has not moved. For any other game the poll checks who asks
    first. ``updated_at`` names the state in ``games.prerender``'s cache keys.
    """
    row = (
        Game.objects.filter(pk=game_id)
        .annotate(open=ExpressionWrapper(OPEN_TO_ANYONE, output_field=BooleanField()))
        .values_list("version", "open", "updated_at", "waiting_mark")
        .first()
    )
    if row is None:
        return None
    version, openly, updated_at, waiting_mark = row
    return PollFacts(version, bool(openly), updated_at, waiting_mark)


def game_versions(game_ids: Sequence[int]) -> dict[int, int]:
    """Return ``{game_id: version}`` of the games among ``game_ids`` that exist.

    One indexed query, whatever the number of ids: the live streams of a web process ask
    it every ``settings.LIVE_POLL_SECONDS`` for all the games they watch (``games.web.live``).
    A version is a number the game page shows anyway; nothing hidden is read.
    """
    return dict(Game.objects.filter(pk__in=list(game_ids)).values_list("pk", "version"))


def game_waiting_marks(game_ids: Sequence[int]) -> dict[int, int]:
    """Return ``{game_id: waiting_mark}`` of the games among ``game_ids`` that exist.

    The waiting rooms' ``game_versions``: one indexed query; the mark counts the room's
    changes (a seat taken or given up), which its page shows anyway.
    """
    return dict(Game.objects.filter(pk__in=list(game_ids)).values_list("pk", "waiting_mark"))
