"""A player's record for their profile page (issue 18): counts, places, reliability, history.

Public facts only (seats' final ranks and score sheets, ratings, drops); a private game
counts only for a viewer who played in it, as the lists show it (to anyone else it is no
game). Never a ``Game`` row in what is returned.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.core import signing
from django.db.models import Q, QuerySet
from django.utils import timezone

from games.models import (
    CONSERVATIVE_RATING,
    PROVISIONAL_GAMES,
    Game,
    Profile,
    Seat,
    conservative_rating,
)
from games.selectors.games import UserLike
from games.selectors.visibility import games_visible_to

RECENT_GAMES = 10


@dataclass(frozen=True)
class ProfileGame:
    """One game of the player as their profile lists it."""

    pk: int
    status: str
    status_display: str
    num_players: int
    final_rank: int | None
    rating_before: float | None
    rating_after: float | None
    dropped: bool


@dataclass(frozen=True)
class PlayerRecord:
    """What a profile shows of a player's games.

    ``by_players``: finished games by player count; ``average_place`` and
    ``average_lowest`` (the lowest colour at the end, after treasures) over finished
    games; ``completed`` the games played to the end without being dropped, ``dropped``
    and ``timed_out`` the seats dropped (for any reason, and for missed deadlines), each
    counted in games with another person only (leaving a game of bots leaves nobody);
    ``reliability`` completed / (completed + dropped) in percent (None before any);
    ``rating_points`` (finished at, rating after) of each rated game, oldest first.
    """

    finished: int
    wins: int
    places: list[tuple[int, int]]
    by_players: list[tuple[int, int]]
    average_place: float | None
    average_lowest: float | None
    completed: int
    dropped: int
    timed_out: int
    reliability: int | None
    rating_points: list[tuple[datetime, float]]
    recent: list[ProfileGame] = field(default_factory=list)
    current: list[ProfileGame] = field(default_factory=list)


def _row(seat: Seat) -> ProfileGame:
    game = seat.game
    return ProfileGame(
        pk=game.pk,
        status=str(game.status),
        status_display=str(game.get_status_display()),
        num_players=game.num_players,
        final_rank=seat.final_rank,
        rating_before=seat.rating_before,
        rating_after=seat.rating_after,
        dropped=seat.dropped_at is not None,
    )


def _mean(values: list[float]) -> float | None:
    return round(sum(values) / len(values), 2) if values else None


def player_record(user_id: int, viewer: UserLike) -> PlayerRecord:
    """Return the record of player ``user_id`` as ``viewer`` may see it (two queries)."""
    # The games ``viewer`` may see, by the one rule of the pages and the API.
    visible = Game.objects.filter(games_visible_to(viewer)).values("pk")
    seats = list(
        Seat.objects.filter(user_id=user_id, game_id__in=visible)
        .exclude(game__status__in=[Game.Status.ABORTED, Game.Status.EXPIRED])
        .select_related("game")
        .defer("game__state", "game__seed")
        .order_by("-game__updated_at")
    )
    finished = [s for s in seats if s.game.status == Game.Status.FINISHED]
    running = [s for s in seats if s.game.status in (Game.Status.ACTIVE, Game.Status.OPEN)]
    places: dict[int, int] = {}
    by_players: dict[int, int] = {}
    for seat in finished:
        by_players[seat.game.num_players] = by_players.get(seat.game.num_players, 0) + 1
        if seat.final_rank:
            places[seat.final_rank] = places.get(seat.final_rank, 0) + 1
    lowest = [
        float(s.final_score["score"])
        for s in finished
        if isinstance(s.final_score, dict) and "score" in s.final_score
    ]
    with_people = set(
        Seat.objects.filter(game_id__in=[s.game_id for s in seats], is_bot=False)
        .exclude(user_id=user_id)
        .values_list("game_id", flat=True)
    )
    dropped = [s for s in seats if s.dropped_at is not None and s.game_id in with_people]
    completed = sum(1 for s in finished if s.dropped_at is None and s.game_id in with_people)
    rated = sorted(
        (s for s in finished if s.rating_after is not None),
        key=lambda s: (s.game.finished_at or s.game.updated_at, s.game.pk),
    )
    return PlayerRecord(
        finished=len(finished),
        wins=places.get(1, 0),
        places=sorted(places.items()),
        by_players=sorted(by_players.items()),
        average_place=_mean([float(s.final_rank) for s in finished if s.final_rank]),
        average_lowest=_mean(lowest),
        completed=completed,
        dropped=len(dropped),
        timed_out=sum(1 for s in dropped if s.drop_reason == Seat.DropReason.TIMEOUTS),
        reliability=(
            round(100 * completed / (completed + len(dropped)))
            if completed + len(dropped)
            else None
        ),
        rating_points=[
            (s.game.finished_at or s.game.updated_at, float(s.rating_after or 0)) for s in rated
        ],
        recent=[_row(s) for s in finished[:RECENT_GAMES]],
        current=[_row(s) for s in running],
    )


# --------------------------------------------------------------------------- the leaderboard
# (issue 31): keyset pages, so a page costs the same on the first and the thousandth page and
# with any number of players; read through ``profile_leaderboard_idx``.

LEADERBOARD_PAGE = 50  # players a page
LEADERBOARD_ACTIVE_DAYS = 180  # who counts: active within this many days
_CURSOR_SALT = "games.leaderboard"


class BadCursor(ValueError):
    """A leaderboard cursor that this site did not write (forged, cut or from elsewhere)."""


@dataclass(frozen=True)
class Leader:
    """One row of the leaderboard: public facts of one player, never the profile row.

    ``rank`` counts from 1 at the top; ``rating_mu``/``rating_sigma`` the OpenSkill rating
    (the page shows ``ratings.display_rating`` of them).
    """

    rank: int
    user_id: int
    name: str
    rating_mu: float
    rating_sigma: float
    rated_games: int


@dataclass(frozen=True)
class LeaderPage:
    """A page of ``Leader`` rows, best first, and the cursor of the next page (None: last)."""

    rows: list[Leader]
    next_cursor: str | None


def leaders() -> QuerySet[Profile]:
    """Return the profiles the leaderboard ranks, best first, annotated ``conservative``.

    People (never bots) past their provisional games (``PROVISIONAL_GAMES``), active
    within ``LEADERBOARD_ACTIVE_DAYS``; ordered by ``CONSERVATIVE_RATING`` then id, both
    descending: the order of ``profile_leaderboard_idx``, which the query walks.
    """
    since = timezone.now() - timedelta(days=LEADERBOARD_ACTIVE_DAYS)
    return (
        Profile.objects.filter(
            is_bot=False, rated_games__gte=PROVISIONAL_GAMES, last_active_at__gte=since
        )
        .annotate(conservative=CONSERVATIVE_RATING)
        .order_by("-conservative", "-pk")
    )


def _cursor_read(cursor: str) -> tuple[float, int, int]:
    try:
        value, pk, rank = signing.loads(cursor, salt=_CURSOR_SALT)
        return float(value), int(pk), int(rank)
    except (signing.BadSignature, TypeError, ValueError) as exc:
        raise BadCursor(cursor) from exc


def leaders_page(*, cursor: str | None = None, size: int = LEADERBOARD_PAGE) -> LeaderPage:
    """Return one page of the leaderboard: the first, or the one after ``cursor``.

    ``cursor`` is a page's ``next_cursor``: signed (Django's ``signing``), it holds the
    last row's key, id and rank, so the next page starts right after that row whatever was
    added or changed before it (keyset: no row skipped or repeated for a row inserted
    above) and costs one indexed query of ``size + 1`` rows. Raises ``BadCursor`` for a
    cursor the site did not write.
    """
    rows = leaders()
    rank = 0
    if cursor:
        value, pk, rank = _cursor_read(cursor)
        # The index condition is ``conservative <= value``; the few rows tied at ``value``
        # already shown are filtered out after it (ties of a float rating are rare).
        rows = rows.filter(Q(conservative__lte=value)).exclude(Q(conservative=value, pk__gte=pk))
    found = list(
        rows.only("user_id", "display_name", "rating_mu", "rating_sigma", "rated_games")[: size + 1]
    )
    page = [
        Leader(
            rank=rank + i,
            user_id=p.user_id,
            name=str(p),
            rating_mu=p.rating_mu,
            rating_sigma=p.rating_sigma,
            rated_games=p.rated_games,
        )
        for i, p in enumerate(found[:size], start=1)
    ]
    next_cursor = None
    if len(found) > size:
        last = found[size - 1]
        next_cursor = signing.dumps(
            [conservative_rating(last), last.pk, rank + size], salt=_CURSOR_SALT
        )
    return LeaderPage(rows=page, next_cursor=next_cursor)
