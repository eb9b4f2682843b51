"""The finished games' list (issue 32): ``/games/finished``, filtered and paged by keyset."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime

from django.contrib.auth import get_user_model
from django.db.models import Q

from games.models import Game, Profile, Seat
from games.selectors.games import with_seats
from games.selectors.visibility import UserLike, games_visible_to
from games.text.seats import display_name

FINISHED_PAGE = 25  # the finished games a page of /games/finished lists


@dataclass(frozen=True)
class FinishedSeat:
    """One seat of a finished game as the list shows it: place, name, final score."""

    rank: int | None
    name: str
    score: int | None


@dataclass(frozen=True)
class FinishedGame:
    """One finished game in the list (issue 32): public facts only, never the row.

    Everything about a finished game is public (RULES.md §14) except a private game's
    existence, which ``games_visible_to`` keeps to its players and invitees.
    """

    pk: int
    num_players: int
    finished_at: datetime
    is_rated: bool
    seats: tuple[FinishedSeat, ...]


def games_finished(
    user: UserLike,
    *,
    player: str = "",
    result: str = "",
    since: date | None = None,
    until: date | None = None,
    rated: bool | None = None,
    before: int | None = None,
    limit: int = FINISHED_PAGE,
) -> tuple[list[FinishedGame], int | None]:
    """Return finished games ``user`` may see, the latest first, and the next page's cursor.

    Filters: ``player`` a display name or username (exact, any case); ``result`` ``"won"``
    (placed first) or ``"lost"`` for that player (``user`` when no player is named);
    ``since``/``until`` dates of finishing, both included (UTC); ``rated`` True/False.
    Keyset pagination on (``finished_at``, ``pk``), newest first: ``before`` is the last
    game's pk of the previous page (a pk not in the list starts from the top); the cursor
    returned is None on the last page. Two queries a page (one more with ``before``, one
    more with ``player``: the player's ids); the
    snapshot (``Game.state``, the seed) is never read.
    """
    games = Game.objects.filter(games_visible_to(user), status=Game.Status.FINISHED).exclude(
        finished_at=None
    )
    who: Q | None = None
    if player:
        # The named player's ids first, each name by its own index (an OR over a join of
        # seats, users and profiles read every seat: issue 31).
        named = (
            get_user_model()
            .objects.filter(username__iexact=player)
            .values_list("pk", flat=True)
            .union(
                Profile.objects.filter(display_name__iexact=player).values_list(
                    "user_id", flat=True
                )
            )
        )
        who = Q(user_id__in=list(named))
    elif result and user.is_authenticated:
        who = Q(user_id=user.pk)
    if who is not None:
        seats = Seat.objects.filter(who)
        if result == "won":
            seats = seats.filter(final_rank=1)
        elif result == "lost":
            seats = seats.filter(final_rank__gt=1)
        games = games.filter(pk__in=seats.values("game_id"))
    if since is not None:
        games = games.filter(finished_at__date__gte=since)
    if until is not None:
        games = games.filter(finished_at__date__lte=until)
    if rated is not None:
        games = games.filter(is_rated=rated)
    if before is not None:
        last = games.filter(pk=before).values_list("finished_at", flat=True).first()
        if last is not None:
            games = games.filter(Q(finished_at__lt=last) | Q(finished_at=last, pk__lt=before))
    page = list(
        with_seats(games.defer("state", "seed").order_by("-finished_at", "-pk"))[: limit + 1]
    )
    rows = [
        FinishedGame(
            pk=g.pk,
            num_players=g.num_players,
            finished_at=g.finished_at or g.updated_at,
            is_rated=g.is_rated,
            seats=tuple(
                FinishedSeat(
                    s.final_rank,
                    display_name(s.user),
                    (s.final_score or {}).get("score"),
                )
                for s in sorted(g.seats.all(), key=lambda s: (s.final_rank or 99, s.position or 0))
            ),
        )
        for g in page[:limit]
    ]
    return rows, (page[limit - 1].pk if len(page) > limit else None)
