"""Time controls (issue 6): timeouts played by the default policy, reminders, dropped and
resigned seats. The beat sweep (``games.play.sweeps``) calls these with ids.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.core import stamps
from games.core.errors import GameNotActive, JoinRefused, NotAPlayer
from games.core.states import state_from_db
from games.models import Game, Move, NotificationKind, Seat
from games.outbox import notifications
from games.play import policy
from games.play.access import UserLike, locked_game, user_id_of
from games.play.botturns import bot_to_act_mark, bot_turn_queue
from games.play.deadlines import CLOCK_FIELDS, clock_start
from games.play.submit import AUTOPLAY_LIMIT, action_apply, autoplay
from games.selectors.people import user_on_vacation

TIMEOUTS_TO_DROP = 3  # this many timeouts in a row by one seat drop it (issue 6)


def deadline_paused(game: Game) -> bool:
    """Return whether the seat whose deadline runs is on vacation and vacation counts here."""
    if not game.vacation_allowed or game.deadline_seat is None:
        return False
    user_id = game.seats.filter(position=game.deadline_seat).values_list("user_id", flat=True)
    return user_on_vacation(user_id=user_id.first())


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
    """
    now = timezone.now()
    with transaction.atomic():
        game = locked_game(game_id)
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
        seat = game.seats.select_for_update().get(position=position)
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
        )
        if seat.timeouts_in_row >= TIMEOUTS_TO_DROP and seat.dropped_at is None:
            seat_drop(game=game, seat=seat, reason=Seat.DropReason.TIMEOUTS)
        else:
            moves += autoplay(game=game, state=state)
    return moves


def seat_remind(*, game_id: int, expected_version: int) -> bool:
    """Send the one reminder of the running deadline if it is due; return whether it was.

    Under the game's row lock, only if the game is in progress at ``expected_version``,
    ``reminder_at`` has come and the deadline is not paused by vacation: write the
    ``reminder`` outbox row for the seat that must act and clear ``reminder_at`` (once per
    deadline; the row is also unique per ply). Dropped seats are never reminded.
    """
    now = timezone.now()
    with transaction.atomic():
        game = locked_game(game_id)
        if (
            game.status != Game.Status.ACTIVE
            or game.version != expected_version
            or game.reminder_at is None
            or game.reminder_at > now
            or game.deadline_seat is None
            or deadline_paused(game)
        ):
            return False
        seat = game.seats.get(position=game.deadline_seat)
        game.reminder_at = None
        game.save(update_fields=["reminder_at", "updated_at"])
        if seat.dropped_at is not None:
            return False
        notifications.notification_create(
            user_id=seat.user_id,
            game=game,
            ply=game.version,
            kind=NotificationKind.REMINDER,
        )
    return True


def seat_drop(*, game: Game, seat: Seat, reason: str) -> None:
    """Drop ``seat`` of the locked ``game`` (timeouts or resignation), with its consequences.

    When no person is left playing — every seat dropped, or every seat not dropped a bot
    account's — the game is aborted at once (never rated; issue 28: bots do not play on
    for nobody, so resigning a 2-player game against a bot ends it). Otherwise the other
    players are told (``seat_dropped``) and the seat is played automatically whenever the
    game waits on it: by the default policy at once in a 2-player game, by the medium bot
    in the background in a game of 3–4 (``botturns``); a rated game ranks it last
    (``ratings.rating_ranks``).
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
        return
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
