"""Who is told what after each change of a game: the rows of the email outbox.

Runs inside the transaction that applies the move (called by ``games.play.effects``), so
the ``Notification`` rows commit or roll back with the move; emails
owed at once are queued by task name (``games.core.queue``) when the transaction commits.

The rule (issue 5): a player is notified when the game starts waiting on them after waiting
on someone else — *your_turn* when it is their turn, *decision* when they must decide on
someone else's turn — and not again for further decisions of the same stretch, unless
that notice has not gone out yet: a player who acts within the delay and leaves with the
game still waiting on them (a turn half played, one decision of two, an undo) has it
carried to their latest move, the delay counted from there (issue 33).
Everyone is told when a game starts (*game_started*, which names whose move it is) and when
it ends (*game_over*, with the final ranking).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, time, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.db import IntegrityError, transaction
from django.utils import timezone

import engine
from games.core import queue
from games.models import TURN_KINDS, Delivery, Game, Notification, NotificationKind, Profile, Seat
from games.selectors.people import (
    preference_get,
    profile_time_zone,
    seat_preference,
    user_is_bot,
)

DIGEST_HOUR = 8  # the daily digest goes out at 08:00 in the recipient's time zone


def waiting_kind(state: engine.GameState) -> tuple[int, str] | None:
    """Return ``(seat, kind)`` of whom ``state`` waits on, or None when the game is over.

    ``kind`` is ``decision`` when the seat decides on someone else's turn (support,
    treasures — RULES.md §15), else ``your_turn``.
    """
    seat = state.to_act
    if state.is_over or seat is None:
        return None
    if state.pending is not None and state.pending.seat != state.active_seat:
        return seat, NotificationKind.DECISION.value
    return seat, NotificationKind.YOUR_TURN.value


def next_digest_time(now: datetime, time_zone: str) -> datetime:
    """Return the next ``DIGEST_HOUR``:00 after ``now`` in ``time_zone`` (UTC if unknown)."""
    try:
        zone = ZoneInfo(time_zone)
    except (ZoneInfoNotFoundError, ValueError):
        zone = ZoneInfo("UTC")
    local = now.astimezone(zone)
    candidate = datetime.combine(local.date(), time(DIGEST_HOUR), tzinfo=zone)
    if candidate <= local:
        candidate = datetime.combine(
            local.date() + timedelta(days=1), time(DIGEST_HOUR), tzinfo=zone
        )
    return candidate


def notification_create(
    *,
    user_id: int,
    game: Game | None,
    ply: int,
    kind: str,
    fresh: bool = False,
    hold: bool = False,
    is_bot: bool | None = None,
    preference: tuple[str, int] | None = None,
    tournament_id: int | None = None,
    league_id: int | None = None,
) -> Notification | None:
    """Write the outbox row owed to ``user_id`` (per their preference for ``kind``).

    Returns None for a bot account, when the user turned that kind off or the row
    already exists (the unique constraint on user, game, ply, kind makes this idempotent;
    account-level rows with no ``game``, such as ``vacation_ended``, rely on their
    caller's lock instead). ``fresh`` says no such row can exist yet — the ply is the one
    the caller's transaction applies, under the game's row lock — so the row is written
    without the savepoint that keeps a duplicate from spoiling the transaction (two
    queries fewer a move).
    An immediate row is queued for ``games.tasks.send_notification`` when the surrounding
    transaction commits. ``hold`` (a bot's move, issue 15) turns an immediate preference
    into a batched one: the row waits the user's batch minutes (15 by default) and the
    batch drops it if they act meanwhile, so a person playing bots live gets no email a
    bot turn. ``is_bot`` is whether ``user_id`` is a bot account, when the caller read it
    already (``seat_is_bot``); None reads it. ``preference`` likewise stands for
    ``preference_get(user_id, kind)`` (``seat_preference``). ``tournament_id``: the event a
    tournament's or league's notice is about (unique with user, ply and kind);
    ``league_id`` likewise the league an invitation to a league is about.
    """
    if user_is_bot(user_id) if is_bot is None else is_bot:
        return None  # a bot has no address and reads no email (issue 15)
    delivery, minutes = preference or preference_get(user_id, kind)
    if delivery == Delivery.OFF:
        return None
    if hold and delivery == Delivery.IMMEDIATE:
        delivery = Delivery.BATCHED
    now = timezone.now()
    if delivery == Delivery.BATCHED:
        send_after = now + timedelta(minutes=minutes)
    elif delivery == Delivery.DIGEST:
        send_after = next_digest_time(now, profile_time_zone(user_id) or "UTC")
    else:
        send_after = now
    fields = {
        "user_id": user_id,
        "game": game,
        "tournament_id": tournament_id,
        "league_id": league_id,
        "ply": ply,
        "kind": kind,
        "delivery": delivery,
        "send_after": send_after,
    }
    if fresh:
        row = Notification.objects.create(**fields)
    else:
        try:
            with transaction.atomic():  # a savepoint: a duplicate must not spoil the move
                row = Notification.objects.create(**fields)
        except IntegrityError:
            return None
    if delivery == Delivery.IMMEDIATE:
        # After the commit, and robust: nothing may fail the committed move. A broker that
        # does not answer leaves the row pending for beat's ``sweep_outbox`` (queue.enqueue).
        queue.enqueue_on_commit(queue.SEND_NOTIFICATION, row.pk)
    return row


def _seat_users(game: Game) -> dict[int, int]:
    return {seat.position: seat.user_id for seat in game.seats.all() if seat.position is not None}


def _tell(game: Game, user_ids: Iterable[int], *, ply: int, kind: str) -> list[Notification]:
    """Write the ``kind`` row of ``ply`` owed to each of ``user_ids``; return those written.

    ``notification_create`` skips bots, kinds turned off and rows that exist already.
    """
    rows = []
    for user_id in user_ids:
        row = notification_create(user_id=user_id, game=game, ply=ply, kind=kind)
        if row is not None:
            rows.append(row)
    return rows


def notify_game_started(*, game: Game) -> list[Notification]:
    """Tell every player that ``game`` started (ply 0); the email names whose move it is.

    The creator of a game against bots only is not told (issue 32): their own click
    started it a moment ago, on the page they are looking at.
    """
    users = _seat_users(game)
    seats = [s for s in game.seats.all() if s.position is not None]
    if all(s.is_bot for s in seats if s.user_id != game.creator_id):
        users = {n: u for n, u in users.items() if u != game.creator_id}
    return _tell(game, users.values(), ply=0, kind=NotificationKind.GAME_STARTED)


def seat_is_bot(seat: Seat) -> bool | None:
    """Return whether ``seat``'s user is a bot account, from the profile it was read with.

    None when the seat was read without its user's profile (``notification_create`` reads
    it then). An account without a profile is no bot.
    """
    if not Seat.user.is_cached(seat) or not type(seat.user).profile.is_cached(seat.user):
        return None
    try:
        return bool(seat.user.profile.is_bot)
    except Profile.DoesNotExist:
        return False


def turn_owed(
    *, game: Game, before: engine.GameState, after: engine.GameState
) -> tuple[Seat, str, bool] | None:
    """Return whom the move that turned ``before`` into ``after`` owes a turn notice.

    ``(seat, kind, alone)``: the seat row (of ``game.seats.all()``) that must act in
    ``after``, the notification kind (your move or a decision), and whether every other
    seat is a bot's or dropped (its person plays bots alone). None when nobody is owed
    one: nobody waited on, the same seat as in ``before`` (the same stretch: they were
    told), a dropped seat (the default policy plays it: nobody to tell), or a decision
    the seat's standing order answers in a moment (``game.order_due_at``, issue 28: the
    order's owner is told nothing they would not be told were they there). Email rows
    (``notify_move``) and webhooks (``outbox.webhooks``) follow this one rule.
    """
    waiting = waiting_kind(after)
    if waiting is None or game.order_due_at is not None:
        return None
    seat, kind = waiting
    if before.to_act == seat:
        return None
    seat_row = next((s for s in game.seats.all() if s.position == seat), None)
    if seat_row is None or seat_row.dropped_at is not None:
        return None
    alone = all(s.is_bot or s.dropped_at is not None for s in game.seats.all() if s != seat_row)
    return seat_row, kind, alone


def notify_move(
    *,
    game: Game,
    ply: int,
    before: engine.GameState,
    after: engine.GameState,
    by_bot: bool = False,
) -> list[Notification]:
    """Write the rows owed after the move ``ply`` turned ``before`` into ``after``.

    The seat that must act in ``after`` is told when ``before`` waited on another seat
    (``turn_owed``). After a bot's move (``by_bot``) in a game where every other seat is a
    bot's (or dropped), the row is held for the batch (``notification_create`` ``hold``):
    an email only if the person has not acted within their batch delay.
    When the game still waits on the seat that it waited on before (the first action of
    a turn, a decision answered and asked again, an undo), a notice not sent yet is carried
    to this ply (``turn_notice_carry``). Game over is handled by ``notify_game_over``.
    """
    owed = turn_owed(game=game, before=before, after=after)
    if owed is None:
        carried = turn_notice_carry(game=game, ply=ply, before=before, after=after)
        return [carried] if carried is not None else []
    seat_row, kind, alone = owed
    # ``ply`` is the move this transaction applies: no row of it exists yet.
    # Held only for a person playing bots alone: another person's move is news at once.
    row = notification_create(
        user_id=seat_row.user_id,
        game=game,
        ply=ply,
        kind=kind,
        fresh=True,
        hold=by_bot and alone,
        is_bot=seat_is_bot(seat_row),
        preference=seat_preference(seat_row, kind),
    )
    return [row] if row is not None else []


def turn_notice_carry(
    *, game: Game, ply: int, before: engine.GameState, after: engine.GameState
) -> Notification | None:
    """Carry a delayed turn notice not sent yet to ``ply``, where ``after`` still waits on its seat.

    The delayed email goes out only if the game still waits on the player when the delay
    is over (issue 17). A player who plays the first action of their turn, answers a
    decision that is asked again, or takes an action back, and then leaves, is still owed
    it: the game waits on them, and the email has not gone out (issue 33). Their row of
    an earlier ply went moot with the move (they moved since), so it is marked skipped and
    a row of this ply takes its place: the same kind of delivery, the delay counted again
    from now (after a delay) or the same time (the daily digest). An email already sent,
    or one sent at once, told them: nothing is carried.

    Returns the new row, or None (no such notice pending, the game over or waiting on
    another seat, a dropped seat). Runs in the move's transaction, the game row locked.
    """
    waiting = waiting_kind(after)
    if waiting is None or before.to_act != waiting[0] or game.order_due_at is not None:
        return None
    seat, kind = waiting
    seat_row = next((s for s in game.seats.all() if s.position == seat), None)
    if seat_row is None or seat_row.dropped_at is not None or seat_row.is_bot:
        return None
    owed = list(
        Notification.objects.filter(
            user_id=seat_row.user_id,
            game=game,
            kind__in=TURN_KINDS,
            status=Notification.Status.PENDING,
            delivery__in=(Delivery.BATCHED, Delivery.DIGEST),
        ).values_list("pk", "delivery", "send_after")
    )
    if not owed:
        return None
    Notification.objects.filter(
        pk__in=[pk for pk, _delivery, _when in owed], status=Notification.Status.PENDING
    ).update(status=Notification.Status.SKIPPED)
    delivery = owed[-1][1]
    if delivery == Delivery.BATCHED:
        _preferred, minutes = seat_preference(seat_row, kind) or preference_get(
            seat_row.user_id, kind
        )
        send_after = timezone.now() + timedelta(minutes=minutes)
    else:
        send_after = min(when for _pk, _delivery, when in owed)
    return Notification.objects.create(
        user_id=seat_row.user_id,
        game=game,
        ply=ply,
        kind=kind,
        delivery=delivery,
        send_after=send_after,
    )


def notify_game_over(*, game: Game) -> list[Notification]:
    """Tell every player that ``game`` is over (the email carries the final ranking)."""
    users = _seat_users(game).values()
    return _tell(game, users, ply=game.version, kind=NotificationKind.GAME_OVER)


def notify_game_aborted(*, game: Game) -> list[Notification]:
    """Tell every person seated in ``game`` that an administrator aborted it.

    Called in the transaction that aborts it (``lifecycle.game_abort``), so the rows are
    written once with the abort; bots are skipped by ``notification_create``. Players
    whose seat was dropped are told too: the game they left is over.
    """
    users = game.seats.values_list("user_id", flat=True)
    return _tell(game, users, ply=game.version, kind=NotificationKind.GAME_ABORTED)


def notify_seat_dropped(*, game: Game, seat: Seat) -> list[Notification]:
    """Tell the other players still in ``game`` that ``seat`` was dropped or resigned.

    From then on the default policy plays that seat (issue 6).
    """
    others = game.seats.filter(dropped_at__isnull=True).exclude(pk=seat.pk)
    users = others.values_list("user_id", flat=True)
    return _tell(game, users, ply=game.version, kind=NotificationKind.SEAT_DROPPED)
