"""A tournament's rounds (issue 30): start one, record its tables, start the next once.

Every step runs under the tournament's row lock (``select_for_update``) and re-reads what
is done, so two last games ending at the same moment start the next round once: the
second waits on the lock, then finds the round already started (and the unique
``(tournament, number)`` constraint backs it). Games are created through play's lifecycle
(``game_create`` then ``game_join``: the last seat starts the game and tells the players).
"""

from __future__ import annotations

import logging
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from games.core.errors import JoinRefused
from games.core.timecontrol import clock_of
from games.models import (
    Game,
    LeagueDivision,
    Profile,
    Seat,
    Tournament,
    TournamentEntry,
    TournamentPlayer,
    TournamentRound,
    TournamentTable,
)
from games.outbox import tournaments as outbox_tournaments
from games.play import lifecycle, limits, timeouts
from games.play.ratings import display_rating
from games.tournaments import pairing
from games.tournaments.standings import (
    DEFAULT_POINTS,
    Result,
    Row,
    TableResult,
    place_points,
    standings,
)

log = logging.getLogger(__name__)

TIMEOUT_GAMES_TO_WITHDRAW = 2  # a player who times out of two games is withdrawn (issue 30)
BOT_SEAT_TIER = "medium"  # the bots that fill seats of an unrated event that allows them


def locked_tournament(tournament_id: int) -> Tournament:
    """Return the tournament with its row locked until the transaction ends."""
    return Tournament.objects.select_for_update().get(pk=tournament_id)


def points_for(tournament: Tournament, size: int) -> list[int]:
    """Return the points by place at a table of ``size`` (the creator's, else the default)."""
    chosen = (tournament.points_by_rank or {}).get(str(size))
    return list(chosen) if chosen else list(DEFAULT_POINTS[size])


def results_of(tournament_id: int) -> list[TableResult]:
    """Return the results of every finished table and bye of the tournament, by round."""
    entries = (
        TournamentEntry.objects.filter(
            table__round__tournament_id=tournament_id, table__finished_at__isnull=False
        )
        .select_related("table__round")
        .order_by("table__round__number", "table__number", "place")
    )
    tables: dict[int, tuple[int, bool, list[Result]]] = {}
    for entry in entries:
        table = entry.table
        round_no, bye, results = tables.setdefault(
            table.pk, (table.round.number, table.game_id is None, [])
        )
        results.append(
            Result(
                player=entry.player_id,
                points=entry.points or 0,
                game_points=entry.game_points,
                place=entry.place,
            )
        )
    return [TableResult(round=r, results=tuple(res), bye=b) for r, b, res in tables.values()]


def standings_of(tournament_id: int) -> tuple[Row, ...]:
    """Return the standings (``TournamentPlayer`` ids, best first; withdrawn players too)."""
    players = TournamentPlayer.objects.filter(tournament_id=tournament_id).order_by(
        "-seed_rating", "registered_at", "pk"
    )
    return standings([p.pk for p in players], results_of(tournament_id))


def _met(tournament_id: int) -> tuple[dict[int, set[int]], dict[int, int]]:
    met: dict[int, set[int]] = {}
    byes: dict[int, int] = {}
    for table in results_of(tournament_id) + _running_tables(tournament_id):
        ids = [r.player for r in table.results]
        for p in ids:
            if table.bye:
                byes[p] = byes.get(p, 0) + 1
            met.setdefault(p, set()).update(o for o in ids if o != p)
    return met, byes


def _running_tables(tournament_id: int) -> list[TableResult]:
    entries = TournamentEntry.objects.filter(
        table__round__tournament_id=tournament_id, table__finished_at__isnull=True
    ).select_related("table__round")
    tables: dict[int, list[Result]] = {}
    for entry in entries:
        tables.setdefault(entry.table_id, []).append(Result(player=entry.player_id, points=0))
    return [TableResult(round=0, results=tuple(r)) for r in tables.values()]


def tournament_begin(*, tournament: Tournament) -> None:
    """Start the locked ``tournament``: seed its players by rating, then start round 1.

    Round robin: the number of rounds is set from the players (``round_robin_rounds``).
    Raises ``pairing.PairingImpossible`` when too few players registered.
    """
    players = list(tournament.players.filter(withdrawn_at__isnull=True).select_related("user"))
    ratings = dict(
        Profile.objects.filter(user_id__in=[p.user_id for p in players]).values_list(
            "user_id", "rating_mu"
        )
    )
    sigmas = dict(
        Profile.objects.filter(user_id__in=[p.user_id for p in players]).values_list(
            "user_id", "rating_sigma"
        )
    )
    for player in players:
        mu = ratings.get(player.user_id)
        player.seed_rating = display_rating(mu, sigmas[player.user_id]) if mu is not None else 0
        player.save(update_fields=["seed_rating"])
    pairing.table_sizes(len(players), tournament.table_size, tournament.min_table_size)
    if tournament.kind == Tournament.Kind.ROUND_ROBIN:
        tournament.rounds = pairing.round_robin_rounds(
            len(players), tournament.table_size, tournament.min_table_size
        )
    tournament.status = Tournament.Status.RUNNING
    tournament.started_at = timezone.now()
    tournament.save(update_fields=["rounds", "status", "started_at"])
    round_start(tournament=tournament)


def round_start(*, tournament: Tournament) -> TournamentRound:
    """Pair and start the next round of the locked ``tournament``; create its games.

    Byes are recorded at once with the creator's ``bye_points``. Raises
    ``pairing.PairingImpossible`` when too few players are left.
    """
    number = tournament.current_round + 1
    rows = standings_of(tournament.pk)
    active = dict(
        TournamentPlayer.objects.filter(tournament=tournament, withdrawn_at__isnull=True)
        .select_related("user")
        .values_list("pk", "user_id")
    )
    met, byes = _met(tournament.pk)
    if tournament.kind == Tournament.Kind.ROUND_ROBIN:
        seed_order = list(
            tournament.players.order_by("-seed_rating", "registered_at", "pk").values_list(
                "pk", flat=True
            )
        )
        seeds = [
            pairing.Standing(p, met=frozenset(met.get(p, ())), byes=byes.get(p, 0))
            for p in seed_order
            if p in active or tournament.table_size == 2
        ]
        plan = pairing.round_robin_round(
            seeds,
            round_number=number,
            size=tournament.table_size,
            smallest=tournament.min_table_size,
        )
    else:
        order = [
            pairing.Standing(
                r.player, points=r.points, met=frozenset(met.get(r.player, ())), byes=r.byes
            )
            for r in rows
            if r.player in active
        ]
        plan = pairing.swiss_round(
            order,
            round_number=number,
            size=tournament.table_size,
            smallest=tournament.min_table_size,
        )
    now = timezone.now()
    round_ = TournamentRound.objects.create(tournament=tournament, number=number)
    tournament.current_round = number
    tournament.save(update_fields=["current_round"])
    table_no = 0
    games: dict[int, list[int]] = {}
    bye_users: list[int] = []
    fill = tournament.bots_fill_seats and not tournament.is_rated
    for ids in plan.tables:
        seated = [p for p in ids if p in active]  # a withdrawn round-robin seed sits out
        if len(seated) < 2:
            plan = pairing.RoundPlan(tables=plan.tables, byes=(*plan.byes, *seated))
            continue
        table_no += 1
        empty = tournament.table_size - len(seated) if fill else 0
        game = _game_create(tournament, [active[p] for p in seated], bots=empty)
        assert game is not None  # two people or more: a game is made, with bots or without
        games[game.pk] = [active[p] for p in seated]
        table = TournamentTable.objects.create(round=round_, number=table_no, game=game)
        for p in seated:
            TournamentEntry.objects.create(table=table, player_id=p)
    for p in plan.byes:
        if p not in active:
            continue
        table_no += 1
        bot_game = (
            _game_create(tournament, [active[p]], bots=tournament.table_size - 1) if fill else None
        )
        if bot_game is not None:  # the bye's player plays the bots instead
            games[bot_game.pk] = [active[p]]
            table = TournamentTable.objects.create(round=round_, number=table_no, game=bot_game)
            TournamentEntry.objects.create(table=table, player_id=p)
            continue
        bye_users.append(active[p])
        table = TournamentTable.objects.create(round=round_, number=table_no, finished_at=now)
        TournamentEntry.objects.create(table=table, player_id=p, points=tournament.bye_points)
    outbox_tournaments.notify_round_started(
        tournament_id=tournament.pk, number=number, games=games, byes=bye_users
    )
    return round_


def _game_create(tournament: Tournament, user_ids: list[int], *, bots: int = 0) -> Game | None:
    """Create and fill the game of a table of ``user_ids``, ``bots`` seats taken by bots.

    Bots (``BOT_SEAT_TIER``) only in an unrated event that allows them (the caller asks).
    When the table's first player may not have another game with bots now
    (``settings.BOT_GAMES_PER_ACCOUNT``, ``JoinRefused``), the table is played without
    them — or, for one player alone, not at all: None, and the caller records a bye.
    """
    users = {u.pk: u for u in _users(user_ids)}
    clock = clock_of(tournament)
    control = clock.control().fields()  # days per move, or a time bank
    try:
        game = lifecycle.game_create(
            creator=users[user_ids[0]],
            num_players=len(user_ids) + bots,
            is_public=tournament.access == Tournament.Access.OPEN,
            is_rated=tournament.is_rated,
            bots=[BOT_SEAT_TIER] * bots,
            days_per_move=control["days_per_move"],
            bank_days=control["bank_days"],
            bank_increment_hours=control["bank_increment_hours"] or 0,
            bank_cap_days=control["bank_cap_days"],
            playing_hours=clock.hours(),
        )
    except JoinRefused:
        if not bots:
            raise
        if len(user_ids) < 2:
            return None
        return _game_create(tournament, user_ids)
    for user_id in user_ids[1:]:
        lifecycle.game_join(game_id=game.pk, user=users[user_id], invite_token=game.invite_token)
    return game


def _users(user_ids: list[int]) -> list[Any]:
    return list(get_user_model().objects.filter(pk__in=user_ids))


def tournament_game_ended(*, game_id: int) -> str:
    """Record the table of the ended game ``game_id`` and advance its tournament once.

    Returns what happened (``"not a table"``, ``"recorded"``, ``"round N started"``,
    ``"finished"``); idempotent: a second call finds the table recorded.
    """
    table = (
        TournamentTable.objects.filter(game_id=game_id)
        .values_list("round__tournament_id", "finished_at")
        .first()
    )
    if table is None:
        return "not a table"
    tournament_id, finished_at = table
    if finished_at is not None:
        return "nothing to do"  # recorded already (the lock below re-checks the rest)
    return tournament_advance(tournament_id=tournament_id)


def tournament_advance(*, tournament_id: int) -> str:
    """Record every ended table of the current round; start the next round when all ended.

    Under the tournament's row lock. An ended game gives each player the points of their
    place (``points_for``); an aborted one gives nobody points. A player with
    ``TIMEOUT_GAMES_TO_WITHDRAW`` games lost to timeouts is withdrawn. After the last
    round the tournament is finished. Returns what happened (see above).
    """
    with transaction.atomic():
        tournament = locked_tournament(tournament_id)
        if tournament.status != Tournament.Status.RUNNING:
            return "not running"
        round_ = tournament.round_set.filter(number=tournament.current_round).first()
        if round_ is None or round_.finished_at is not None:
            return "nothing to do"
        now = timezone.now()
        recorded = _round_record(tournament, round_, now)
        if round_.tables.filter(finished_at__isnull=True).exists():
            return "recorded" if recorded else "nothing to do"
        round_.finished_at = now
        round_.save(update_fields=["finished_at"])
        _withdraw_timed_out(tournament)
        active = tournament.players.filter(withdrawn_at__isnull=True).count()
        if tournament.current_round >= tournament.rounds or active < tournament.min_table_size:
            tournament.status = Tournament.Status.FINISHED
            tournament.finished_at = now
            tournament.save(update_fields=["status", "finished_at"])
            _tell_over(tournament)
            return "finished"
        round_start(tournament=tournament)
        return f"round {tournament.current_round} started"


def _round_record(tournament: Tournament, round_: TournamentRound, now: Any) -> int:
    """Record every ended table of ``round_`` not recorded yet; return how many."""
    pending = list(round_.tables.filter(finished_at__isnull=True).select_related("game"))
    recorded = 0
    for table in pending:
        game = table.game
        if game is None or game.status not in (Game.Status.FINISHED, Game.Status.ABORTED):
            continue
        _table_record(tournament, table, game)
        table.finished_at = now
        table.save(update_fields=["finished_at"])
        recorded += 1
    return recorded


def tournament_close(*, tournament_id: int) -> bool:
    """Finish the running tournament now: its games in progress are ended and ranked.

    For a league's season at its end (``games.tournaments.leagues``): under the
    tournament's row lock, each game of the current round still in progress is ended as
    its position stands (``limits.game_end_at_limit``, RULES.md §13.2), its table
    recorded, and the tournament finished without the rounds left. Returns whether it
    was closed now (False when not running, so a second call does nothing).
    """
    with transaction.atomic():
        tournament = locked_tournament(tournament_id)
        if tournament.status != Tournament.Status.RUNNING:
            return False
        running = Game.objects.filter(
            tournament_table__round__tournament=tournament, status=Game.Status.ACTIVE
        ).values_list("pk", flat=True)
        for game_id in list(running):
            limits.game_end_at_limit(game_id=game_id)
        now = timezone.now()
        round_ = tournament.round_set.filter(number=tournament.current_round).first()
        if round_ is not None and round_.finished_at is None:
            _round_record(tournament, round_, now)
            round_.finished_at = now
            round_.save(update_fields=["finished_at"])
        tournament.status = Tournament.Status.FINISHED
        tournament.finished_at = now
        tournament.save(update_fields=["status", "finished_at"])
    return True


def _tell_over(tournament: Tournament) -> None:
    """Tell the players the tournament is over; a league's division waits for its season's
    end, whose email says the place and the move (``leagues.season_end_due``)."""
    if LeagueDivision.objects.filter(tournament=tournament).exists():
        return
    outbox_tournaments.notify_tournament_over(
        tournament_id=tournament.pk,
        user_ids=tournament.players.values_list("user_id", flat=True),
    )


def _table_record(tournament: Tournament, table: TournamentTable, game: Game) -> None:
    seats = {s.user_id: s for s in Seat.objects.filter(game=game)}
    size = len(seats)
    scale = points_for(tournament, size)
    for entry in table.entries.select_related("player"):
        seat = seats.get(entry.player.user_id)
        if game.status != Game.Status.FINISHED or seat is None or seat.final_rank is None:
            entry.place, entry.points, entry.game_points = size, 0, 0
        else:
            entry.place = seat.final_rank
            entry.points = place_points(scale, seat.final_rank)
            entry.game_points = int((seat.final_score or {}).get("score", 0))
        entry.save(update_fields=["place", "points", "game_points"])


def _withdraw_timed_out(tournament: Tournament) -> None:
    for player in tournament.players.filter(withdrawn_at__isnull=True):
        lost = Seat.objects.filter(
            user_id=player.user_id,
            drop_reason=Seat.DropReason.TIMEOUTS,
            game__tournament_table__round__tournament=tournament,
        ).count()
        if lost >= TIMEOUT_GAMES_TO_WITHDRAW:
            player.withdrawn_at = timezone.now()
            player.withdraw_reason = TournamentPlayer.WithdrawReason.TIMEOUTS
            player.save(update_fields=["withdrawn_at", "withdraw_reason"])


def player_withdraw(*, tournament: Tournament, player: TournamentPlayer) -> None:
    """Withdraw ``player`` of the locked running ``tournament``: resign their running games.

    They are paired no more; their results stay in the standings.
    """
    player.withdrawn_at = timezone.now()
    player.withdraw_reason = TournamentPlayer.WithdrawReason.OWN
    player.save(update_fields=["withdrawn_at", "withdraw_reason"])
    running = Game.objects.filter(
        tournament_table__round__tournament=tournament,
        status=Game.Status.ACTIVE,
        seats__user_id=player.user_id,
        seats__dropped_at__isnull=True,
    ).values_list("pk", flat=True)
    for game_id in list(running):
        timeouts.game_resign(game_id=game_id, user=player.user)
