"""Reads of games and seats for pages, polls and emails (STYLE.md: selectors do the reading)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import partial
from typing import Any, Protocol, cast

from django.db import connection
from django.db.models import (
    BooleanField,
    CharField,
    Count,
    DateTimeField,
    Exists,
    ExpressionWrapper,
    F,
    IntegerField,
    JSONField,
    OuterRef,
    Prefetch,
    Q,
    QuerySet,
    Subquery,
)
from django.db.models.expressions import RawSQL
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.functional import SimpleLazyObject

from games.core.timecontrol import TimeControl, time_control
from games.models import (
    TURN_KINDS,
    Game,
    Move,
    NotificationPreference,
    Seat,
    StandingOrders,
    Vacation,
    Webhook,
)
from games.selectors import waiting
from games.selectors.people import Person
from games.text.seats import SeatInfo, display_name, shown_name, taken_over_name


class UserLike(Protocol):
    """Who is looking, as the reads ask it: a ``User`` row, ``AnonymousUser`` or a page's
    ``Viewer`` (``games.web.viewer``), which answer the same two questions."""

    @property
    def pk(self) -> Any: ...

    @property
    def is_authenticated(self) -> bool: ...


# The games waiting on a player lived here (``games.selectors.waiting`` now); callers import
# them from here too.
games_waiting_for = waiting.games_waiting_for
games_waiting_ids = waiting.games_waiting_ids
next_game_offered = waiting.next_game_offered
waiting_for_viewer = waiting.waiting_for_viewer
with_viewer_facts = waiting.with_viewer_facts


# The facts a page or a move reads with a game's or its seats' own query are correlated
# subqueries written out (``RawSQL``): built through the ORM, their compilation cost more
# than the separate queries they replace (bench/page_cost.py). The outer rows are named by
# their table, which the ORM leaves unaliased as the query's base table.
_T = {
    model.__name__: model._meta.db_table
    for model in (
        NotificationPreference,
        Seat,
        StandingOrders,
        Vacation,
        Webhook,
    )
}
_AWAY_UNTIL = (
    f"SELECT v.ends_at FROM {_T['Vacation']} v WHERE v.user_id = {_T['Seat']}.user_id"
    " AND v.ended_at IS NULL AND v.starts_at <= %s ORDER BY v.starts_at DESC LIMIT 1"
)
_ORDERS = (
    f"SELECT o.orders FROM {_T['StandingOrders']} o WHERE o.user_id = {_T['Seat']}.user_id"
    " AND o.game_id {game} LIMIT 1"
)
_PREF = (
    f"SELECT p.{{column}} FROM {_T['NotificationPreference']} p"
    f" WHERE p.user_id = {_T['Seat']}.user_id AND p.kind = %s LIMIT 1"
)
_HOOKS = (
    f"EXISTS (SELECT 1 FROM {_T['Webhook']} w WHERE w.user_id = {_T['Seat']}.user_id"
    " AND w.is_active AND w.on_turn)"
)


def _move_facts(seats: QuerySet[Seat]) -> QuerySet[Seat]:
    """Return ``seats`` with what a move asks of the seat it hands the turn to.

    ``orders_game`` / ``orders_default``: the user's standing orders for this game and
    their default (None: none set; ``selectors.orders.seat_orders``); ``hooks_on_turn``:
    whether they have an active turn webhook; ``pref_<kind>`` / ``pref_<kind>_minutes``
    for each of ``TURN_KINDS``: their delivery preference (None: the default;
    ``selectors.people.seat_preference``). Subqueries of the seats' own query.
    """
    prefs: dict[str, Any] = {}
    for kind in (k.value for k in TURN_KINDS):  # the notices a move may owe that seat
        prefs[f"pref_{kind}"] = RawSQL(
            _PREF.format(column="delivery"), [kind], output_field=CharField()
        )
        prefs[f"pref_{kind}_minutes"] = RawSQL(
            _PREF.format(column="batch_minutes"), [kind], output_field=IntegerField()
        )
    return seats.annotate(
        orders_game=RawSQL(
            _ORDERS.format(game=f"= {_T['Seat']}.game_id"), [], output_field=JSONField()
        ),
        orders_default=RawSQL(_ORDERS.format(game="IS NULL"), [], output_field=JSONField()),
        hooks_on_turn=RawSQL(_HOOKS, [], output_field=BooleanField()),
        **prefs,
    )


def seats_prefetch(*, for_move: bool = False) -> Prefetch[Any]:
    """Return the prefetch of a game's seats with their users and profiles (one query).

    Each seat also carries ``away_until``: the planned end of its user's running vacation,
    or None (``seat_away_until``), so a page's clock reads the vacations without a query.
    ``for_move`` adds what a move asks of the seat it hands the turn to (``_move_facts``).
    """
    seats = Seat.objects.select_related("user__profile").annotate(
        away_until=RawSQL(
            _AWAY_UNTIL,
            [connection.ops.adapt_datetimefield_value(timezone.now())],
            output_field=DateTimeField(),
        )
    )
    return Prefetch("seats", queryset=_move_facts(seats) if for_move else seats)


def seats_away_until(seats: list[Seat]) -> dict[int, datetime] | None:
    """Return user id → planned end of the running vacation, for those of ``seats`` away.

    Reads the ``away_until`` the seats were fetched with (``seats_prefetch``): no query.
    None when any seat was fetched without it (the caller reads the vacations then).
    """
    until: dict[int, datetime] = {}
    for seat in seats:
        if not hasattr(seat, "away_until"):
            return None
        if seat.away_until is not None:
            until[seat.user_id] = seat.away_until
    return until


def deadline_seats(game_ids: Sequence[int], *, kind: str) -> dict[int, Seat]:
    """Return game id → the seat whose deadline runs, for each of ``game_ids`` that has one.

    One query whatever the number of games (the clocks' sweep, issue 31): each seat comes
    with its user and profile (``outbox.notifications.seat_is_bot``), ``away_until`` (as
    ``seats_prefetch``: the planned end of its user's running vacation, or None) and its
    user's delivery preference for the notice ``kind`` (``pref_<kind>`` and
    ``pref_<kind>_minutes``, read by ``selectors.people.seat_preference``).
    """
    now = connection.ops.adapt_datetimefield_value(timezone.now())
    seats = (
        Seat.objects.filter(game_id__in=list(game_ids), position=F("game__deadline_seat"))
        .select_related("user__profile")
        .annotate(
            away_until=RawSQL(_AWAY_UNTIL, [now], output_field=DateTimeField()),
            **{
                f"pref_{kind}": RawSQL(
                    _PREF.format(column="delivery"), [kind], output_field=CharField()
                ),
                f"pref_{kind}_minutes": RawSQL(
                    _PREF.format(column="batch_minutes"), [kind], output_field=IntegerField()
                ),
            },
        )
    )
    return {seat.game_id: seat for seat in seats}


# What a list reads of a seat's person (``Person``: the shown name, bot tier and rating),
# through the seat: ``with_list_seats``'s rows and ``list_seats``'s tuples alike.
_LIST_PERSON_FIELDS = (
    "user__username",
    "user__profile__user_id",
    "user__profile__display_name",
    "user__profile__is_bot",
    "user__profile__bot_tier",
    "user__profile__rating_mu",
    "user__profile__rating_sigma",
    "user__profile__rated_games",
)

# What a list's row shows of a seat (``Player``, ``display_name``, the API's ``SeatOut``):
# the seat's place, dynasty and result and its person's name and rating; nothing else of
# the seat, user or profile is read.
_LIST_SEAT_FIELDS = (
    "game_id",
    "user_id",
    "position",
    "dynasty",
    "final_rank",
    "is_bot",
    "dropped_at",
    *_LIST_PERSON_FIELDS,
)


def with_list_seats(queryset: QuerySet[Game]) -> QuerySet[Game]:
    """Return ``queryset`` with each game's seats as a list shows them (issue 31).

    As ``with_seats`` (two queries in all), but each seat, user and profile read with only
    the columns a list's row shows (``_LIST_SEAT_FIELDS``: the seat's position, dynasty,
    final place and drop, the person's name, bot tier and rating) and without a
    vacation's end: reading any other field of them would cost a query a seat.
    """
    seats = Seat.objects.select_related("user__profile").only(*_LIST_SEAT_FIELDS)
    return queryset.prefetch_related(Prefetch("seats", queryset=seats))


@dataclass(frozen=True, slots=True)
class ListSeat:
    """A seat as a list reads it (``list_seats``): its id, game, position (None before the
    start), whether it is dropped, and its ``Player``."""

    pk: int
    game_id: int
    position: int | None
    dropped: bool
    player: Player


# The columns ``list_seats`` reads, in its tuples' order: the seat's, then its person's.
_LIST_SEAT_VALUES = (
    "pk",
    "game_id",
    "position",
    "dropped_at",
    "user_id",
    *_LIST_PERSON_FIELDS,
)


def list_seats(game_ids: Sequence[int]) -> dict[int, list[ListSeat]]:
    """Return game id → its seats (``ListSeat``, in the order they were taken: seat id) for
    ``game_ids``.

    One query of tuples (``values_list``), never a ``Seat``, ``User`` or ``Profile`` row:
    building rows was most of the Python cost of the home page's lists (issue 31). Each
    person is what ``person_of`` makes of the row: the profile's display name, else the
    username, a bot's mark and tier (``shown_name``, in the active language), its rating.
    Games without a seat are absent.
    """
    out: dict[int, list[ListSeat]] = {}
    if not game_ids:
        return out
    rows = (
        Seat.objects.filter(game_id__in=list(game_ids))
        .order_by("pk")
        .values_list(*_LIST_SEAT_VALUES)
    )
    for (
        pk,
        game_id,
        position,
        dropped_at,
        user_id,
        username,
        profile_id,
        name,
        is_bot,
        tier,
        mu,
        sigma,
        rated,
    ) in rows:
        if profile_id is None:  # no profile yet: the username and the starting rating
            person = Person(id=int(user_id), display_name=str(username))
        else:
            person = Person(
                id=int(user_id),
                display_name=shown_name(username, name, is_bot=bool(is_bot), tier=tier),
                is_bot=bool(is_bot),
                rating_mu=mu,
                rating_sigma=sigma,
                rated_games=int(rated),
            )
        out.setdefault(game_id, []).append(
            ListSeat(pk, game_id, position, dropped_at is not None, Player(position, person))
        )
    return out


def in_seat_order(seats: list[ListSeat]) -> list[ListSeat]:
    """Return ``seats`` (``list_seats``' tuples) by position, then id."""
    return sorted(seats, key=lambda s: (s.position or 0, s.pk))


def with_seats(queryset: QuerySet[Game], *, for_move: bool = False) -> QuerySet[Game]:
    """Return ``queryset`` with each game's seats, their users and profiles prefetched.

    Two queries in all (the games, then the seats joined to users and profiles), so a page
    reads every seat's name, dynasty, time zone and settings without another query.
    ``for_move``: see ``seats_prefetch``.
    """
    return queryset.prefetch_related(seats_prefetch(for_move=for_move))


def seat_infos(game: Game) -> dict[int, SeatInfo]:
    """Return position → ``SeatInfo`` for the seated players of a started game.

    Reads the seats ``game`` was fetched with (``with_seats``): no query then. A person's
    seat dropped in a 3–4 player game, which the medium bot plays (issue 15), shows their
    name with "(bot)".
    """
    return {
        seat.position: SeatInfo(
            position=seat.position,
            username=taken_over_name(display_name(seat.user))
            if seat.dropped_at is not None and not seat.is_bot and game.num_players >= 3
            else display_name(seat.user),
            dynasty=seat.dynasty,
            final_rank=seat.final_rank,
            final_score=seat.final_score,
            rating_before=seat.rating_before,
            rating_after=seat.rating_after,
        )
        for seat in game.seats.all()
        if seat.position is not None
    }


def seat_for(game: Game, user: UserLike) -> Seat | None:
    """Return ``user``'s seat in ``game``, or None (anonymous users have none)."""
    if not user.is_authenticated:
        return None
    for seat in game.seats.all():
        if seat.user_id == user.pk:
            return seat
    return None


def seat_position_of(game_id: int, user: UserLike) -> int | None:
    """Return ``user``'s seat number in game ``game_id``, or None (no seat, or anonymous).

    One indexed query (``seat_user_game_idx``); none for an anonymous visitor.
    """
    if not user.is_authenticated:
        return None
    found = Seat.objects.filter(game_id=game_id, user_id=user.pk).values_list("position", flat=True)
    return next(iter(found), None)


@dataclass(frozen=True)
class Player:
    """A seat as a list shows it: its ``position`` (None before the start) and ``user``, the
    person seated (a ``Person``, never the row: issue 27)."""

    position: int | None
    user: Person


@dataclass(frozen=True)
class OpenGame:
    """One open public game in the lobby: public facts only, never the row (its ``seed``)."""

    pk: int
    num_players: int
    seated: int
    players: tuple[Player, ...]
    time_control: TimeControl  # days per move, a time bank or none (issues 6, 17)
    is_rated: bool
    open_scoring: bool


# The columns of a game a list's row shows (issue 31): a ``Game`` row has ~40, the
# snapshot and the seed among them; reading and building only these halves the Python cost
# of the home page's public lists when a change has just dropped them. A column read
# beyond these costs a query a row (the query-count tests would show it).
_OPEN_GAME_FIELDS = (
    "num_players",
    "is_rated",
    "open_scoring",
    "days_per_move",
    "bank_days",
    "bank_increment_hours",
    "bank_cap_days",
    "created_at",
)
_WATCH_GAME_FIELDS = ("num_players", "is_rated", "to_act_seat", "updated_at")


def games_open(*, limit: int = 50, queryset: QuerySet[Game] | None = None) -> list[OpenGame]:
    """Return open public games, oldest first (created at, then id), at most ``limit``.

    ``queryset`` narrows the games read (a keyset page's start: ``selectors.lobby``). Two
    queries (the games' columns, then their seats as tuples: ``list_seats``); the snapshot
    is never read, nor any row built.
    """
    games = list(
        (Game.objects.all() if queryset is None else queryset)
        .filter(status=Game.Status.OPEN, is_public=True)
        .order_by("created_at", "pk")
        .values("pk", *_OPEN_GAME_FIELDS)[:limit]
    )
    seats = list_seats([g["pk"] for g in games])
    rows = []
    for game in games:
        players = tuple(s.player for s in seats.get(game["pk"], []))
        rows.append(
            OpenGame(
                pk=game["pk"],
                num_players=game["num_players"],
                seated=len(players),
                players=players,
                time_control=time_control(
                    days_per_move=game["days_per_move"],
                    bank_days=game["bank_days"],
                    bank_increment_hours=game["bank_increment_hours"],
                    bank_cap_days=game["bank_cap_days"],
                ),
                is_rated=game["is_rated"],
                open_scoring=game["open_scoring"],
            )
        )
    return rows


@dataclass(frozen=True)
class WatchGame:
    """One public game in progress on the home page: public facts only, never the row.

    ``players`` in seat order; ``to_act`` the seat that must act now; ``plies`` the moves
    that stand (neither taken back nor an undo row); ``updated_at`` its last move.
    """

    pk: int
    num_players: int
    players: tuple[Player, ...]
    to_act: Player | None
    plies: int
    updated_at: datetime
    is_rated: bool


def games_to_watch(user: UserLike | None, *, limit: int = 10) -> list[WatchGame]:
    """Return public games in progress, the most recently moved first, for spectators.

    Private games are never listed, nor ``user``'s own (the home page lists those apart;
    None: everyone's, the list ``selectors.lobby`` caches for every visitor). Two queries
    (the games, then their seats with users and profiles); the snapshot (``Game.state``,
    every hand) is never read.
    """
    games = Game.objects.filter(status=Game.Status.ACTIVE, is_public=True)
    if user is not None and user.is_authenticated:
        mine = Seat.objects.filter(game_id=OuterRef("pk"), user_id=user.pk)
        games = games.exclude(Exists(mine))
    rows = []
    # The moves that stand (issue 32): plies taken back and undo rows are not counted.
    standing = (
        Move.objects.filter(game_id=OuterRef("pk"))
        .played()
        .order_by()
        .values("game_id")
        .annotate(n=Count("pk"))
        .values("n")
    )
    games = games.annotate(
        standing_plies=Coalesce(Subquery(standing, output_field=IntegerField()), 0)
    )
    listed = list(
        games.order_by("-updated_at", "-pk").values("pk", "standing_plies", *_WATCH_GAME_FIELDS)[
            :limit
        ]
    )
    seats = list_seats([g["pk"] for g in listed])
    for game in listed:
        players = tuple(s.player for s in in_seat_order(seats.get(game["pk"], [])))
        rows.append(
            WatchGame(
                pk=game["pk"],
                num_players=game["num_players"],
                players=players,
                to_act=next((p for p in players if p.position == game["to_act_seat"]), None),
                plies=game["standing_plies"],
                updated_at=game["updated_at"],
                is_rated=game["is_rated"],
            )
        )
    return rows


@dataclass(frozen=True)
class MyGame:
    """One of a user's games in the lobby's list: public facts only, never the snapshot.

    ``seats`` are every seat in seat order (``Player``: the position and a ``Person``),
    ``others`` those of the other players, in the order they sat down; ``waiting_for_me``
    whether the user's seat must act now.
    """

    pk: int
    num_players: int
    status: str
    status_display: str
    deadline: datetime | None
    to_act_seat: int | None
    seats: tuple[Player, ...]
    others: tuple[Player, ...]
    waiting_for_me: bool
    is_rated: bool = True


MY_GAMES_ENDED = 5  # finished or expired games "My games" lists, the latest
MY_GAMES_IN_PROGRESS = 10  # games in progress or open "My games" lists, waiting ones first


@dataclass(frozen=True)
class MyGames:
    """The home page's "My games": ``rows`` (``MyGame``, those waiting for the player
    first; read when first used, see ``games_of_user``) and whether the player has more
    games in progress or open than listed (``beyond``: the page links to their profile,
    which lists them all in pages); ``waiting``: how many games wait for them to act (the
    navigation's count); ``key``: names what ``rows`` hold (see ``games_of_user``), so a
    page may keep their rendering under it; ``deadlines``: the deadlines the listed games
    in progress show ("due in …": a rendering kept must vary with their words too);
    ``seated_in``: the ids of every game in progress or open the player holds a seat in,
    listed or not."""

    rows: Sequence[MyGame]
    beyond: bool
    waiting: int = 0
    key: str = ""
    deadlines: tuple[datetime, ...] = ()
    seated_in: frozenset[int] = frozenset()


def _in_progress(user: UserLike) -> QuerySet[Seat]:
    """Return ``user``'s seats in games in progress or open, the games waiting for them
    first, then the latest moved (the order of "My games"). Read through the index of the
    seats not ranked yet (``seat_unranked_user_idx``: a seat is ranked when its game
    ends), so the player's finished history is never read (issue 31)."""
    waiting = ExpressionWrapper(
        Q(game__status=Game.Status.ACTIVE, game__to_act_seat=F("position")),
        output_field=BooleanField(),
    )
    return (
        Seat.objects.filter(
            user_id=int(user.pk or 0),
            final_rank__isnull=True,  # a game not ranked yet: seat_unranked_user_idx
            game__status__in=[Game.Status.ACTIVE, Game.Status.OPEN],
        )
        .annotate(waiting=waiting)
        .order_by("-waiting", "-game__updated_at", "-game_id")
    )


def read_when_used[T](read: Callable[[], list[T]]) -> Sequence[T]:
    """Return the rows ``read`` returns, read only when first used (``SimpleLazyObject``):
    a page that kept their rendering never runs ``read``'s queries."""
    return cast(Sequence[T], SimpleLazyObject(read))


# What each game in progress or open of a player is read with besides its id and flag: a
# change of any of them is a change of what "My games" shows of it (a ply: ``version``; a
# seat taken or given up: ``waiting_mark``; a start, end or abort: ``status``; every save
# through the services: ``updated_at``; a vacation: ``deadline``).
_MY_GAME_FACTS = (
    "game__status",
    "game__version",
    "game__waiting_mark",
    "game__updated_at",
    "game__deadline",
)


def games_of_user(user: UserLike, *, limit: int | None = None) -> MyGames:
    """Return ``user``'s games: those waiting for them first, then active, open, finished.

    At most ``limit`` (default ``MY_GAMES_IN_PROGRESS``) games in progress or open, those
    waiting for ``user`` first, then the latest moved, and whether there are more
    (``MyGames.beyond``) with how many wait for them (``MyGames.waiting``, so the page's
    navigation needs no query of its own), and the ``MY_GAMES_ENDED`` latest started of
    those that ended (issue 31: the list and its page stay the same size however many
    games the player has played or is playing). One query, none for an anonymous visitor:
    the player's games in progress or open (a game id, a flag and ``_MY_GAME_FACTS`` each:
    the player's seats read once by index). ``rows`` are read when first used (three
    queries: the ended ones, their seats walked newest game first, ``seat_user_game_idx``,
    stopping at ``MY_GAMES_ENDED``, never the whole history; then the listed games'
    columns and their seats as tuples, ``list_seats``: no row is built).

    ``MyGames.key`` holds every game in progress or open with its facts: it changes with
    every ply, seat taken or given up, start, end, abort, expiry or deadline of any of
    them — and so whenever the ended ones change, since a game ends by leaving the games
    in progress. A rendering kept under it (the home page's) needs no other invalidation
    but the players' names (``games.core.stamps.names_stamp``) and the deadlines' words.
    """
    if not user.is_authenticated:
        return MyGames(rows=[], beyond=False)
    limit = MY_GAMES_IN_PROGRESS if limit is None else limit
    running: list[tuple[Any, ...]] = list(
        _in_progress(user).values_list("game_id", "waiting", *_MY_GAME_FACTS)
    )
    listed = running[:limit]
    facts = ";".join(
        f"{pk}:{waiting:d}:{status}:{version}:{mark}:{updated.isoformat()}:{deadline}"
        for pk, waiting, status, version, mark, updated, deadline in running
    )
    return MyGames(
        rows=read_when_used(partial(_my_game_rows, int(user.pk), [row[0] for row in listed])),
        beyond=len(running) > limit,
        waiting=sum(1 for row in running if row[1]),
        key=f"{user.pk};{facts}",
        deadlines=tuple(
            deadline
            for _pk, _w, status, _v, _m, _u, deadline in listed
            if deadline is not None and status == Game.Status.ACTIVE
        ),
        seated_in=frozenset(row[0] for row in running),
    )


def _my_game_rows(user_id: int, ids: list[int]) -> list[MyGame]:
    """Return "My games"' rows: the games ``ids`` (in progress or open, listed) and the
    ``MY_GAMES_ENDED`` latest ended games of ``user_id``, waiting ones first. Three
    queries (see ``games_of_user``)."""
    # The ids first, each list by its own query: one filter joining "in progress" to
    # "among the latest ended" with OR read every game of the site (a sequential scan).
    ids = ids + list(
        Seat.objects.filter(
            user_id=user_id, game__status__in=[Game.Status.FINISHED, Game.Status.EXPIRED]
        )
        .order_by("-game_id")
        .values_list("game_id", flat=True)[:MY_GAMES_ENDED]
    )
    games = list(
        Game.objects.filter(pk__in=ids)
        .order_by("-updated_at")
        .values("pk", "num_players", "status", "deadline", "to_act_seat", "is_rated")
    )
    seats_of = list_seats(ids)
    order: dict[str, int] = {Game.Status.ACTIVE: 1, Game.Status.OPEN: 2}
    rows = []
    for game in games:
        seats = seats_of.get(game["pk"], [])
        mine = next((s for s in seats if s.player.user.id == user_id), None)
        status = Game.Status(game["status"])
        rows.append(
            MyGame(
                pk=game["pk"],
                num_players=game["num_players"],
                status=str(status),
                status_display=str(status.label),
                deadline=game["deadline"],
                to_act_seat=game["to_act_seat"],
                seats=tuple(s.player for s in in_seat_order(seats)),
                others=tuple(s.player for s in seats if s.player.user.id != user_id),
                waiting_for_me=status == Game.Status.ACTIVE
                and mine is not None
                and mine.position == game["to_act_seat"],
                is_rated=game["is_rated"],
            )
        )
    rows.sort(key=lambda g: 0 if g.waiting_for_me else order.get(g.status, 3))
    return rows
