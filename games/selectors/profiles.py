"""A player's record for their profile page (issue 18): counts, places, reliability, history.

Public facts only (seats' final ranks and score sheets, ratings, drops); a private game
counts only for a viewer who played in it, as the lists show it (to anyone else it is no
game). Never a ``Game`` row in what is returned.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.core import signing
from django.db.models import Avg, Count, Exists, F, FloatField, OuterRef, Q, QuerySet, Subquery
from django.db.models.fields.json import KT
from django.db.models.functions import Cast, Coalesce
from django.utils import timezone

from games.models import (
    CONSERVATIVE_RATING,
    PROVISIONAL_GAMES,
    Game,
    Profile,
    Seat,
    conservative_rating,
)
from games.selectors.visibility import UserLike, games_visible_to
from games.text.seats import BOT_TIER_NAME

RECENT_GAMES = 10  # the latest finished games a profile lists
CURRENT_GAMES = 20  # the games in progress a profile lists a page, the newest first


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
    ``rated`` the rated games (``rating_points`` lists them for the chart).
    ``recent``: the latest ``RECENT_GAMES`` finished games; ``current``: a page of the
    games in progress or open, ``CURRENT_GAMES`` at most, the newest first, and
    ``current_next`` the id to read the next page after (None: the last page).
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
    rated: int
    recent: list[ProfileGame] = field(default_factory=list)
    current: list[ProfileGame] = field(default_factory=list)
    current_next: int | None = None


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


def _mean(value: object) -> float | None:
    return None if value is None else round(float(str(value)), 2)


def _through_game(rule: Q) -> Q:
    """Return ``rule``, a filter of ``Game`` rows, as a filter of their seats (each lookup
    read through ``Seat.game``): the same rule, one join to the game."""
    out = Q(_connector=rule.connector, _negated=rule.negated)
    for child in rule.children:
        if isinstance(child, Q):
            out.children.append(_through_game(child))
        else:  # a (lookup, value) pair: Q's children are Q objects or such pairs
            lookup, value = child  # type: ignore[misc]
            out.children.append((f"game__{lookup}", value))
    return out


def _seats_seen(user_id: int, viewer: UserLike) -> QuerySet[Seat]:
    """Return the seats of player ``user_id`` in the games ``viewer`` may see (the one rule
    of the pages and the API), neither aborted nor expired.

    The rule is read through each seat's own game (``_through_game``), so every game of the
    player is probed once, not twice as ``game_id IN (the visible games)`` joined it again
    (issue 31: at full size each probe of the veteran's 1,100 games costs).
    """
    return Seat.objects.filter(_through_game(games_visible_to(viewer)), user_id=user_id).exclude(
        game__status__in=[Game.Status.ABORTED, Game.Status.EXPIRED]
    )


# A game seats 2 to 4 players (the database's constraint ``game_num_players_2_to_4``), so
# a finished seat's place is 1 to 4: the profile counts each in its one aggregate.
PLAYER_COUNTS = range(2, 5)
PLACES = range(1, 5)


def player_record(
    user_id: int, viewer: UserLike, *, current_after: int | None = None
) -> PlayerRecord:
    """Return the record of player ``user_id`` as ``viewer`` may see it.

    Three queries whatever the player's history (issue 31): the counts, averages, places
    and player counts in one aggregate (each place and player count a ``FILTER``: a game
    seats 2 to 4, ``PLAYER_COUNTS``), the last ``RECENT_GAMES`` finished games and a page
    of the games in progress; no seat is read into Python to be counted. Only the
    aggregate reads every seat of the player (at the full size of ``bench/scale.py`` a
    veteran's 1,100 seats cost ~25 ms a query); the two lists walk the player's seats
    newest game first (``seat_user_game_idx``, game ids descending) and stop at their
    page: the latest finished games are those started last, and the games in progress
    come in keyset pages of ``CURRENT_GAMES``, ``current_after`` the last game id of the
    previous page (None: the first).
    """
    seats = _seats_seen(user_id, viewer)
    finished = Q(game__status=Game.Status.FINISHED)
    # Another person in the game: leaving a game of bots leaves nobody (the reliability).
    people = Seat.objects.filter(game_id=OuterRef("game_id"), is_bot=False).exclude(user_id=user_id)
    dropped = Q(dropped_at__isnull=False, with_people=True)
    totals = seats.annotate(with_people=Exists(people)).aggregate(
        finished=Count("pk", filter=finished),
        average_place=Avg("final_rank", filter=finished & Q(final_rank__gt=0)),
        average_lowest=Avg(
            Cast(KT("final_score__score"), FloatField()),
            filter=finished & Q(final_score__has_key="score"),
        ),
        completed=Count("pk", filter=finished & Q(dropped_at__isnull=True, with_people=True)),
        dropped=Count("pk", filter=dropped),
        timed_out=Count("pk", filter=dropped & Q(drop_reason=Seat.DropReason.TIMEOUTS)),
        rated=Count("pk", filter=finished & Q(rating_after__isnull=False)),
        **{f"place_{p}": Count("pk", filter=finished & Q(final_rank=p)) for p in PLACES},
        **{
            f"players_{n}": Count("pk", filter=finished & Q(game__num_players=n))
            for n in PLAYER_COUNTS
        },
    )
    places = {p: totals[f"place_{p}"] for p in PLACES if totals[f"place_{p}"]}
    by_players = [(n, totals[f"players_{n}"]) for n in PLAYER_COUNTS if totals[f"players_{n}"]]
    listed = seats.select_related("game").defer("game__state", "game__seed")
    recent = listed.filter(finished).order_by("-game_id")[:RECENT_GAMES]
    running = listed.filter(  # the seats not ranked yet: seat_unranked_user_idx
        final_rank__isnull=True, game__status__in=[Game.Status.ACTIVE, Game.Status.OPEN]
    )
    if current_after is not None:
        running = running.filter(game_id__lt=current_after)
    current = [_row(s) for s in running.order_by("-game_id")[: CURRENT_GAMES + 1]]
    current_next = current[CURRENT_GAMES - 1].pk if len(current) > CURRENT_GAMES else None
    completed, dropped_count = totals["completed"], totals["dropped"]
    return PlayerRecord(
        finished=totals["finished"],
        wins=places.get(1, 0),
        places=sorted(places.items()),
        by_players=[(int(n), int(count)) for n, count in by_players],
        average_place=_mean(totals["average_place"]),
        average_lowest=_mean(totals["average_lowest"]),
        completed=completed,
        dropped=dropped_count,
        timed_out=totals["timed_out"],
        reliability=(
            round(100 * completed / (completed + dropped_count))
            if completed + dropped_count
            else None
        ),
        rated=totals["rated"],
        recent=[_row(s) for s in recent],
        current=current[:CURRENT_GAMES],
        current_next=current_next,
    )


@dataclass(frozen=True)
class BotRecord:
    """A player's results against one bot tier (issue 26): each bot seat of that tier met
    in a finished game counts once, ``won`` when the player placed above it, ``lost``
    below or when the player gave the game up (resigned or timed out: aborted), ``tied``
    on a shared place (RULES.md §13.2); ``name`` the tier in the reader's language."""

    tier: str
    name: str
    won: int
    lost: int
    tied: int

    @property
    def played(self) -> int:
        """The bot seats of this tier met in finished games."""
        return self.won + self.lost + self.tied


def record_against_bots(user_id: int, viewer: UserLike) -> list[BotRecord]:
    """Return the record of person ``user_id`` against each bot tier, as ``viewer`` may see.

    Finished games count by places (a running game's places are not known, and a profile
    is public); a game the person gave up — resigned or timed out until dropped, which
    ends a game against bots only as aborted (``play.timeouts.seat_drop``) — counts as a
    loss against each bot in it, as a player expects. Only games ``viewer`` may see
    (``games_visible_to``; a public game given up too, though aborted); a game with two
    medium bots counts twice against medium; a game aborted by an operator counts not at
    all. Tiers in strength order (``Profile.BotTier``), only those met; [] for a bot's own
    profile. One query whatever the history.
    """
    # an aborted game is no one's to open but its players' (``games_visible_to``): a
    # public one given up still counts, as the loss it was, for everyone
    visible = Game.objects.filter(games_visible_to(viewer) | Q(is_public=True)).values("pk")
    people = Seat.objects.filter(user_id=user_id, is_bot=False, game_id__in=visible)
    finished = Q(game__status=Game.Status.FINISHED, final_rank__isnull=False)
    given_up = Q(game__status=Game.Status.ABORTED, dropped_at__isnull=False)
    my_rank = people.filter(finished, game_id=OuterRef("game_id")).values("final_rank")[:1]
    # One IN over the person's own seats (both kinds of game), then the bots' seats of
    # those games by their game: an OR of two INs read every seat of the site (issue 31:
    # 615,501 rows at the full size of bench/scale.py, for any profile). A finished game's
    # bot seat has its place; a given-up game is aborted (no places).
    rows = (
        Seat.objects.filter(
            Q(final_rank__isnull=False) | Q(game__status=Game.Status.ABORTED),
            game_id__in=people.filter(finished | given_up).values("game_id"),
            is_bot=True,
        )
        .annotate(mine=Subquery(my_rank))
        .values("user__profile__bot_tier")
        .annotate(
            won=Count("pk", filter=Q(mine__lt=F("final_rank"))),
            lost=Count(
                "pk", filter=Q(mine__gt=F("final_rank")) | Q(game__status=Game.Status.ABORTED)
            ),
            tied=Count("pk", filter=Q(mine=F("final_rank"))),
        )
        .order_by()
    )
    found = {r["user__profile__bot_tier"]: r for r in rows}
    return [
        BotRecord(
            tier=t,
            name=str(BOT_TIER_NAME.get(t, t)),
            won=found[t]["won"],
            lost=found[t]["lost"],
            tied=found[t]["tied"],
        )
        for t in Profile.BotTier.values
        if t in found
    ]


def rating_points(user_id: int, viewer: UserLike) -> list[tuple[datetime, float]]:
    """Return (finished at, rating after) of each rated game of ``user_id`` that ``viewer``
    may see, oldest first: the rating chart's dots (one query)."""
    rows = (
        _seats_seen(user_id, viewer)
        .filter(game__status=Game.Status.FINISHED, rating_after__isnull=False)
        .annotate(at=Coalesce("game__finished_at", "game__updated_at"))
        .order_by("at", "game_id")
        .values_list("at", "rating_after")
    )
    return [(at, float(after or 0)) for at, after in rows]


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
