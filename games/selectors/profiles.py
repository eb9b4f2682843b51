"""A player's record for their profile page (issue 18): counts, places, reliability, history.

Public facts only (seats' final ranks and score sheets, ratings, drops); a private game
counts only for a viewer who played in it, as the lists show it (to anyone else it is no
game). Never a ``Game`` row in what is returned.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.core import signing
from django.db.models import Count, Exists, F, FloatField, OuterRef, Q, QuerySet, Subquery, Sum
from django.db.models.fields.json import KT
from django.db.models.functions import Cast, Coalesce
from django.utils import timezone

from games.models import (
    CONSERVATIVE_RATING,
    PROVISIONAL_GAMES,
    BotRecordCount,
    Game,
    Invitation,
    PlayerRecordCount,
    Profile,
    Seat,
    conservative_rating,
)
from games.selectors.visibility import UserLike, games_visible_to
from games.text.seats import BOT_TIER_NAME

RECENT_GAMES = 10  # the latest finished games a profile lists
CURRENT_GAMES = 20  # the games in progress a profile lists a page, the newest first
_KEY_FIELDS = {"id", "user", "is_public"}
_OUTCOMES = ("won", "lost", "tied")


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
_COUNTED = [f.name for f in PlayerRecordCount._meta.fields if f.name not in _KEY_FIELDS]


def _own(user_id: int, viewer: UserLike) -> bool:
    return bool(viewer.is_authenticated and viewer.pk == user_id)


def _private_shared(user_id: int, viewer: UserLike) -> QuerySet[Game, Any] | None:
    """Return the private games of ``user_id`` that ``viewer`` (not that player) may see —
    those they played in, or hold a pending invitation to (``games_visible_to``) — as a
    query of ids; None for an anonymous viewer (no private game).

    Read from the viewer's own seats and invitations (a union), so the player's history is
    not read: a veteran's profile costs a typical viewer's dozen seats, not its 1,100."""
    if not viewer.is_authenticated:
        return None
    theirs = (
        Seat.objects.filter(user_id=viewer.pk)
        .values("game_id")
        .union(
            Invitation.objects.filter(
                invitee_id=viewer.pk, status=Invitation.Status.PENDING
            ).values("game_id")
        )
    )
    return Game.objects.filter(games_visible_to(viewer), is_public=False, pk__in=theirs).values(
        "pk"
    )


def _history_totals(seats: QuerySet[Seat], user_id: int) -> dict[str, float]:
    """Return the sums ``PlayerRecordCount`` keeps, aggregated over ``seats`` of player
    ``user_id`` (one query; games neither aborted nor expired: the caller filters)."""
    finished = Q(game__status=Game.Status.FINISHED)
    # Another person in the game: leaving a game of bots leaves nobody (the reliability).
    people = Seat.objects.filter(game_id=OuterRef("game_id"), is_bot=False).exclude(user_id=user_id)
    dropped = Q(dropped_at__isnull=False, with_people=True)
    score = Cast(KT("final_score__score"), FloatField())
    ranked = finished & Q(final_rank__gt=0)
    totals = seats.annotate(with_people=Exists(people)).aggregate(
        finished=Count("pk", filter=finished),
        place_sum=Sum("final_rank", filter=ranked),
        place_n=Count("pk", filter=ranked),
        lowest_sum=Sum(score, filter=finished),
        lowest_n=Count(score, filter=finished),
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
    return {name: value or 0 for name, value in totals.items()}


def record_totals(user_id: int, viewer: UserLike) -> dict[str, float]:
    """Return the sums of player ``user_id``'s record that ``viewer`` may see (the fields of
    ``PlayerRecordCount``), read from the kept counts, not from history (issue 31).

    The player themself: their rows of both kinds of game. Anyone else: the public row,
    plus — signed in — the private games they may see (``_private_shared``), counted from
    those games' seats (one more query, as many seats as the viewer shares with the
    player). A game counts in the kept rows once it ended, and a dropped seat from its
    drop: the same set as the aggregate over history it replaces.
    """
    rows = PlayerRecordCount.objects.filter(user_id=user_id)
    if not _own(user_id, viewer):
        rows = rows.filter(is_public=True)
    totals = dict.fromkeys(_COUNTED, 0.0)
    for row in rows.values(*_COUNTED):
        for name in _COUNTED:
            totals[name] += row[name]
    shared = None if _own(user_id, viewer) else _private_shared(user_id, viewer)
    if shared is not None:
        seats = Seat.objects.filter(user_id=user_id, game_id__in=shared).exclude(
            game__status__in=[Game.Status.ABORTED, Game.Status.EXPIRED]
        )
        for name, value in _history_totals(seats, user_id).items():
            totals[name] += value
    return totals


def _int(totals: dict[str, float], name: str) -> int:
    return int(totals[name])


def player_record(
    user_id: int, viewer: UserLike, *, current_after: int | None = None
) -> PlayerRecord:
    """Return the record of player ``user_id`` as ``viewer`` may see it.

    Three queries whatever the player's history (four for a signed-in viewer who is not
    the player: their shared private games), issue 31: the counts from the rows kept as
    games end (``record_totals``; no history read), the last ``RECENT_GAMES`` finished
    games and a page of the games in progress. The two lists walk the player's seats
    newest game first (``seat_user_game_idx``, game ids descending) and stop at their
    page: the latest finished games are those started last, and the games in progress
    come in keyset pages of ``CURRENT_GAMES``, ``current_after`` the last game id of the
    previous page (None: the first).
    """
    seats = _seats_seen(user_id, viewer)
    finished = Q(game__status=Game.Status.FINISHED)
    totals = record_totals(user_id, viewer)
    places = {p: _int(totals, f"place_{p}") for p in PLACES if totals[f"place_{p}"]}
    by_players = [
        (n, _int(totals, f"players_{n}")) for n in PLAYER_COUNTS if totals[f"players_{n}"]
    ]
    listed = seats.select_related("game").defer("game__state", "game__seed")
    recent = listed.filter(finished).order_by("-game_id")[:RECENT_GAMES]
    running = listed.filter(  # the seats not ranked yet: seat_unranked_user_idx
        final_rank__isnull=True, game__status__in=[Game.Status.ACTIVE, Game.Status.OPEN]
    )
    if current_after is not None:
        running = running.filter(game_id__lt=current_after)
    current = [_row(s) for s in running.order_by("-game_id")[: CURRENT_GAMES + 1]]
    current_next = current[CURRENT_GAMES - 1].pk if len(current) > CURRENT_GAMES else None
    completed, dropped_count = _int(totals, "completed"), _int(totals, "dropped")
    return PlayerRecord(
        finished=_int(totals, "finished"),
        wins=places.get(1, 0),
        places=sorted(places.items()),
        by_players=by_players,
        average_place=_ratio(totals["place_sum"], totals["place_n"]),
        average_lowest=_ratio(totals["lowest_sum"], totals["lowest_n"]),
        completed=completed,
        dropped=dropped_count,
        timed_out=_int(totals, "timed_out"),
        reliability=(
            round(100 * completed / (completed + dropped_count))
            if completed + dropped_count
            else None
        ),
        rated=_int(totals, "rated"),
        recent=[_row(s) for s in recent],
        current=current[:CURRENT_GAMES],
        current_next=current_next,
    )


def _ratio(total: float, n: float) -> float | None:
    """The mean of ``n`` values summing to ``total``, to 2 places (None when ``n`` is 0)."""
    return round(total / n, 2) if n else None


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


def _bots_from_history(user_id: int, games: QuerySet[Game, Any]) -> list[dict[str, Any]]:
    """Return ``[{"tier", "won", "lost", "tied"}]`` of person ``user_id`` over ``games``
    (a query of game ids), counted from their seats (one query; see ``record_against_bots``)."""
    people = Seat.objects.filter(user_id=user_id, is_bot=False, game_id__in=games)
    finished = Q(game__status=Game.Status.FINISHED, final_rank__isnull=False)
    given_up = Q(game__status=Game.Status.ABORTED, dropped_at__isnull=False)
    my_rank = people.filter(finished, game_id=OuterRef("game_id")).values("final_rank")[:1]
    rows = (
        Seat.objects.filter(
            Q(final_rank__isnull=False) | Q(game__status=Game.Status.ABORTED),
            game_id__in=people.filter(finished | given_up).values("game_id"),
            is_bot=True,
        )
        .annotate(mine=Subquery(my_rank))
        .values(tier=F("user__profile__bot_tier"))
        .annotate(
            won=Count("pk", filter=Q(mine__lt=F("final_rank"))),
            lost=Count(
                "pk", filter=Q(mine__gt=F("final_rank")) | Q(game__status=Game.Status.ABORTED)
            ),
            tied=Count("pk", filter=Q(mine=F("final_rank"))),
        )
        .order_by()
    )
    return [dict(row) for row in rows]


def record_against_bots(user_id: int, viewer: UserLike) -> list[BotRecord]:
    """Return the record of person ``user_id`` against each bot tier, as ``viewer`` may see.

    Finished games count by places (a running game's places are not known, and a profile
    is public); a game the person gave up — resigned or timed out until dropped, which
    ends a game against bots only as aborted (``play.timeouts.seat_drop``) — counts as a
    loss against each bot in it, as a player expects. Only games ``viewer`` may see
    (``games_visible_to``; a public game given up too, though aborted); a game with two
    medium bots counts twice against medium; a game aborted by an operator that nobody
    gave up counts not at all. Tiers in strength order (``Profile.BotTier``), only those
    met; [] for a bot's own profile.

    Read from the counts kept as games end (``BotRecordCount``, issue 31): one query (two
    for a signed-in viewer who is not the player: the private games they may see, counted
    from those games' seats), whatever the history.
    """
    rows = BotRecordCount.objects.filter(user_id=user_id)
    if not _own(user_id, viewer):
        rows = rows.filter(is_public=True)
    found: dict[str, Counter[str]] = {}
    counted: list[dict[str, Any]] = [dict(row) for row in rows.values("tier", *_OUTCOMES)]
    shared = None if _own(user_id, viewer) else _private_shared(user_id, viewer)
    if shared is not None:
        counted += _bots_from_history(user_id, shared)
    for row in counted:
        found.setdefault(str(row["tier"]), Counter()).update({k: int(row[k]) for k in _OUTCOMES})
    return [
        BotRecord(
            tier=t,
            name=str(BOT_TIER_NAME.get(t, t)),
            won=found[t]["won"],
            lost=found[t]["lost"],
            tied=found[t]["tied"],
        )
        for t in Profile.BotTier.values
        if t in found and found[t].total()
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
