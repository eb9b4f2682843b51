"""Selectors: every read of games for pages (STYLE.md, Django: selectors do the reading)."""

from __future__ import annotations

from datetime import datetime
from typing import Any, NamedTuple

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Count, F, Prefetch, QuerySet

from games.models import Game, Seat

UserLike = AbstractBaseUser | AnonymousUser


def seats_prefetch() -> Prefetch[Any]:
    """Return the prefetch of a game's seats with their users and profiles (one query)."""
    return Prefetch("seats", queryset=Seat.objects.select_related("user__profile"))


def with_seats(queryset: QuerySet[Game]) -> QuerySet[Game]:
    """Return ``queryset`` with each game's seats, their users and profiles prefetched.

    Two queries in all (the games, then the seats joined to users and profiles), so a page
    reads every seat's name, dynasty, time zone and settings without another query.
    """
    return queryset.prefetch_related(seats_prefetch())


def seat_for(game: Game, user: UserLike) -> Seat | None:
    """Return ``user``'s seat in ``game``, or None (anonymous users have none)."""
    if not user.is_authenticated:
        return None
    for seat in game.seats.all():
        if seat.user_id == user.pk:
            return seat
    return None


def game_can_view(game: Game, user: UserLike, *, invite_tokens: list[str] | None = None) -> bool:
    """Return whether ``user`` may look at ``game``.

    Anyone may look at a public game; a private one is visible to its players and to
    whoever opened its invitation link (``invite_tokens`` remembered in the session).
    """
    if game.is_public:
        return True
    if seat_for(game, user) is not None:
        return True
    return game.invite_token in (invite_tokens or [])


def games_open(*, limit: int = 50) -> QuerySet[Game]:
    """Return open public games, oldest first, with seats, users and profiles prefetched."""
    return with_seats(
        Game.objects.filter(status=Game.Status.OPEN, is_public=True)
        .annotate(seated=Count("seats"))
        .select_related("creator")
        .order_by("created_at")
    )[:limit]


def games_waiting_for(user: UserLike) -> QuerySet[Game]:
    """Return the games in progress in which ``user``'s seat must act now."""
    if not user.is_authenticated:
        return Game.objects.none()
    return Game.objects.filter(
        status=Game.Status.ACTIVE,
        seats__user_id=user.pk,
        seats__position=F("to_act_seat"),
    ).order_by("updated_at")


def games_waiting_count(user: UserLike) -> int:
    """Return how many games wait for ``user`` to act (the navigation bar's count)."""
    return games_waiting_for(user).count()


def games_of_user(user: UserLike, *, limit: int = 100) -> list[Game]:
    """Return ``user``'s games: those waiting for them first, then active, open, finished.

    Each game has ``my_seat`` (the user's ``Seat``), ``waiting_for_me`` and ``others`` (the
    other seats, in seat order) set.
    """
    if not user.is_authenticated:
        return []
    games = list(
        with_seats(
            Game.objects.filter(seats__user_id=user.pk)
            .exclude(status=Game.Status.ABORTED)
            .order_by("-updated_at")
        )[:limit]
    )
    order: dict[str, int] = {Game.Status.ACTIVE: 1, Game.Status.OPEN: 2}
    for game in games:
        game.my_seat = seat_for(game, user)  # type: ignore[attr-defined]
        game.others = [s for s in game.seats.all() if s.user_id != user.pk]  # type: ignore[attr-defined]
        game.waiting_for_me = (  # type: ignore[attr-defined]
            game.status == Game.Status.ACTIVE
            and game.my_seat is not None  # type: ignore[attr-defined]
            and game.my_seat.position == game.to_act_seat  # type: ignore[attr-defined]
        )
    games.sort(key=lambda g: 0 if g.waiting_for_me else order.get(str(g.status), 3))  # type: ignore[attr-defined]
    return games


def next_game_waiting(user: UserLike, *, exclude_id: int) -> Game | None:
    """Return another game waiting for ``user`` to act (the oldest), or None."""
    return games_waiting_for(user).exclude(pk=exclude_id).first()


class PollFacts(NamedTuple):
    """What a poll needs to know before reading a game: ``selectors.game_poll_facts``."""

    version: int
    openly_viewable: bool
    updated_at: datetime


def game_poll_facts(game_id: int) -> PollFacts | None:
    """Return the game's version, whether anyone may see it, and its last update; or None.

    One indexed query (the poll). ``openly_viewable`` is true for a public game that is
    not aborted: anyone may learn that it has not moved. For any other game the poll checks
    who asks first. ``updated_at`` names the state in ``games.prerender``'s cache keys.
    """
    row = (
        Game.objects.filter(pk=game_id)
        .values_list("version", "is_public", "status", "updated_at")
        .first()
    )
    if row is None:
        return None
    version, is_public, status, updated_at = row
    return PollFacts(version, bool(is_public) and status != Game.Status.ABORTED, updated_at)
