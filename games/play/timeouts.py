"""Time controls (issue 6): timeouts played by the default policy, reminders, dropped and
resigned seats. The beat sweep (``games.play.sweeps``) calls these with ids.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.core import stamps
from games.core.errors import GameNotActive, JoinRefused, NotAPlayer
from games.core.states import state_from_db
from games.models import Game, Move, Notification, NotificationKind, Seat
from games.outbox import notifications
from games.play import effects, policy
from games.play.access import UserLike, locked_game, user_id_of
from games.play.botturns import bot_to_act_mark, bot_turn_queue
from games.play.deadlines import CLOCK_FIELDS, clock_start
from games.play.submit import AUTOPLAY_LIMIT, action_apply, autoplay
from games.selectors.games import deadline_seats, seats_away_until
from games.selectors.people import seat_preference, user_on_vacation

TIMEOUTS_TO_DROP = 3  # this many timeouts in a row by one seat drop it (issue 6)


def deadline_paused(game: Game) -> bool:
    """Return whether the seat whose deadline runs is on vacation and vacation counts here.

    Reads the vacations the seats were fetched with (``locked_game(with_seats=True)``: no
    query), else asks the database.
    """
    if not game.vacation_allowed or game.deadline_seat is None:
        return False
    seats = list(game.seats.all())
    seat = next((s for s in seats if s.position == game.deadline_seat), None)
    if seat is None:
        return False
    away = seats_away_until(seats)
    return user_on_vacation(user_id=seat.user_id) if away is None else seat.user_id in away


def seat_timeout(*, game_id: int, expected_version: int) -> list[Move]:
    """Play the default action for the seat whose deadline passed; return the moves played.

    Under the game's row lock, only if the game is still in progress at
    ``expected_version``, its deadline has passed and is not paused by vacation: the
    default policy (``policy.default_action``) plays that seat through the same path as a
    human (``_action_apply``, moves marked ``timeout``) until the game waits on someone
    else — one timeout. The seat's streak grows; at ``TIMEOUTS_TO_DROP`` in a row the seat
    is dropped (``_seat_drop``). Its player gets a ``timed_out`` email (issue 17).
    Returns [] when there was nothing to do, so running the sweep twice applies nothing
    twice. Raises ``GameNotFound``.

    The seats are read once, with the lock, with what a move asks of them
    (``locked_game(move_facts=True)``), so a timeout costs about ten queries however many
    actions its turn plays (issue 31: it read the seats again for each step of a move).
    """
    now = timezone.now()
    with transaction.atomic():
        game = locked_game(game_id, with_seats=True, move_facts=True)
        if (
            game.status != Game.Status.ACTIVE
            or game.version != expected_version
            or game.deadline is None
            or game.deadline > now
            or game.to_act_seat is None
            or deadline_paused(game)
        ):
            return []
        position = game.to_act_seat
        # Under the game's row lock, as every write of a seat of a game in progress.
        seat = next(s for s in game.seats.all() if s.position == position)
        state = state_from_db(game.state or {})
        moves: list[Move] = []
        while (
            game.status == Game.Status.ACTIVE
            and game.to_act_seat == position
            and len(moves) < AUTOPLAY_LIMIT
        ):
            move, state = action_apply(
                game=game,
                position=position,
                before=state,
                action=policy.default_action(state),
                source=Move.Source.TIMEOUT,
            )
            moves.append(move)
        seat.timeouts_in_row += 1
        seat.save(update_fields=["timeouts_in_row"])
        # The player whose clock ran out hears what was played for them and how many
        # timeouts are left (issue 17); the others hear of a drop (``seat_dropped``).
        notifications.notification_create(
            user_id=seat.user_id,
            game=game,
            ply=moves[-1].ply,
            kind=NotificationKind.TIMED_OUT,
            fresh=True,
            is_bot=notifications.seat_is_bot(seat),
        )
        if seat.timeouts_in_row >= TIMEOUTS_TO_DROP and seat.dropped_at is None:
            seat_drop(game=game, seat=seat, reason=Seat.DropReason.TIMEOUTS)
        else:
            moves += autoplay(game=game, state=state)
    return moves


def seats_remind(*, due: Sequence[tuple[int, int]]) -> int:
    """Send the one reminder of each running deadline among ``due``; return how many.

    ``due``: ``(game id, version)`` pairs the clocks' sweep found due. One transaction and
    five queries for the whole batch, plus one insert a reminder (issue 31: a dozen queries
    a game before): the games' rows are locked at once — a game another transaction holds
    (a move, which restarts its clock) is skipped; the next sweep finds it if it is still
    due. Only a game still in progress at its ``version``, whose ``reminder_at`` has come
    and whose deadline is not paused by vacation, counts: its ``reminder_at`` is cleared
    (once per deadline) and the ``reminder`` outbox row written for the seat that must act
    (one row per ply: an existing one is not written again). Dropped seats are never
    reminded and not counted. Running it twice at the same instant sends nothing twice.
    """
    versions = dict(due)
    if not versions:
        return 0
    now = timezone.now()
    with transaction.atomic():
        games = [
            game
            for game in Game.objects.select_for_update(skip_locked=True)
            .filter(
                pk__in=list(versions),
                status=Game.Status.ACTIVE,
                reminder_at__lte=now,
                deadline_seat__isnull=False,
            )
            .only("pk", "version", "vacation_allowed", "deadline_seat")
            .order_by("pk")
            if game.version == versions[game.pk]
        ]
        seats = deadline_seats([game.pk for game in games], kind=NotificationKind.REMINDER)
        games = [
            game
            for game in games
            if not (game.vacation_allowed and getattr(seats.get(game.pk), "away_until", None))
        ]
        if not games:
            return 0
        Game.objects.filter(pk__in=[game.pk for game in games]).update(
            reminder_at=None, updated_at=now
        )
        written = set(
            Notification.objects.filter(
                kind=NotificationKind.REMINDER,
                game_id__in=[game.pk for game in games],
                ply__in={game.version for game in games},
            ).values_list("game_id", "ply")
        )
        reminded = 0
        for game in games:
            seat = seats.get(game.pk)
            if seat is None or seat.dropped_at is not None:
                continue
            reminded += 1
            if (game.pk, game.version) in written:
                continue
            notifications.notification_create(
                user_id=seat.user_id,
                game=game,
                ply=game.version,
                kind=NotificationKind.REMINDER,
                fresh=True,  # none of this ply (read above, under the games' locks)
                is_bot=notifications.seat_is_bot(seat),
                preference=seat_preference(seat, NotificationKind.REMINDER),
            )
    return reminded


def seat_drop(*, game: Game, seat: Seat, reason: str) -> None:
    """Drop ``seat`` of the locked ``game`` (timeouts or resignation), with its consequences.

    When no person is left playing — every seat dropped, or every seat not dropped a bot
    account's — the game is aborted at once (never rated; issue 28: bots do not play on
    for nobody, so resigning a 2-player game against a bot ends it). Otherwise the other
    players are told (``seat_dropped``) and the seat is played automatically whenever the
    game waits on it: by the default policy at once in a 2-player game, by the medium bot
    in the background in a game of 3–4 (``botturns``); a rated game ranks it last
    (``ratings.rating_ranks``). The players' kept records count the drop, or the game
    given up (``effects.seat_dropped``, ``effects.game_aborted``).
    """
    seat.dropped_at = timezone.now()
    seat.drop_reason = reason
    seat.save(update_fields=["dropped_at", "drop_reason"])
    stamps.games_changed([game.pk])  # the game's pages now say who was dropped
    if not game.seats.filter(dropped_at__isnull=True, is_bot=False).exists():
        game.status = Game.Status.ABORTED
        game.to_act_seat = None
        clock_start(game)
        game.save(update_fields=["status", "to_act_seat", *CLOCK_FIELDS, "updated_at"])
        effects.game_aborted(game=game, was=Game.Status.ACTIVE, dropped_now=seat)
        return
    effects.seat_dropped(game=game, seat=seat)
    notifications.notify_seat_dropped(game=game, seat=seat)
    autoplay(game=game, state=state_from_db(game.state or {}))
    if bot_to_act_mark(game):  # the seat to act may now be the medium bot's
        game.save(update_fields=["bot_to_act"])
    bot_turn_queue(game=game)  # 3–4 players: the medium bot takes over the seat (issue 15)


def game_resign(*, game_id: int, user: UserLike) -> Game:
    """Resign ``user``'s seat in a game in progress: it is handled as dropped (issue 6).

    Raises ``GameNotFound``, ``GameNotActive`` (not in progress), ``NotAPlayer`` or
    ``JoinRefused`` (the seat is already dropped).
    """
    user_id = user_id_of(user)
    with transaction.atomic():
        game = locked_game(game_id)
        if game.status != Game.Status.ACTIVE:
            raise GameNotActive(_("Only a game in progress can be resigned."))
        seat = game.seats.select_for_update().filter(user_id=user_id).first()
        if seat is None:
            raise NotAPlayer()
        if seat.dropped_at is not None:
            raise JoinRefused(_("Your seat in this game is already played automatically."))
        seat_drop(game=game, seat=seat, reason=Seat.DropReason.RESIGNED)
    return game
