"""Vacations: 21 days a calendar year during which a player's deadlines are paused (issue 6).

The model (the simplest that stays correct): while a player is on vacation, the beat sweep
neither reminds nor times out the decisions waiting on them in games that allow vacation;
when the vacation ends (by hand on the settings page, or at its planned end by the sweep),
each such deadline is moved later by the time it was paused:
``deadline += end − max(vacation start, deadline_set_at)``. So a deadline set before the
vacation keeps the time it had left; one set during the vacation gets the full time from
the end. A pending reminder moves with it; one already sent is not sent again.

A vacation starts now and lasts whole days; it counts against the calendar year (UTC) in
which it starts, in days started (ending a 3-day vacation after 30 hours uses 2 days).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from games.core import stamps
from games.core.errors import JoinRefused
from games.models import Game, NotificationKind, Vacation
from games.outbox import notifications
from games.selectors.people import days_left, user_on_vacation


class VacationRefused(JoinRefused):
    """A vacation cannot start: one is running, or not enough days are left this year."""


def vacation_start(*, user_id: int, days: int) -> Vacation:
    """Start a vacation of ``days`` whole days now for ``user_id``.

    Raises ``VacationRefused`` when one is running or ``days`` exceeds the days left in
    this calendar year (``VACATION_DAYS_PER_YEAR``), or ``days`` < 1.
    """
    now = timezone.now()
    with transaction.atomic():
        # Lock the user's row, which exists even before a first vacation, so two submissions
        # cannot both pass the checks below.
        get_user_model().objects.select_for_update().filter(pk=user_id).first()
        if user_on_vacation(user_id=user_id):
            raise VacationRefused(_("You are already on vacation."))
        left = days_left(user_id=user_id, year=now.year)
        if days < 1 or days > left:
            raise VacationRefused(_("You have %(n)s vacation days left this year.") % {"n": left})
        vacation = Vacation.objects.create(
            user_id=user_id, starts_at=now, ends_at=now + timedelta(days=days)
        )
        stamps.user_games_changed(user_id)  # their games now say they are away
    return vacation


def _shift_deadlines(vacation: Vacation, end: datetime) -> int:
    """Move the paused deadlines of ``vacation``'s player later; return how many moved."""
    moved = 0
    games = (
        Game.objects.select_for_update()
        .filter(
            status=Game.Status.ACTIVE,
            vacation_allowed=True,
            deadline__isnull=False,
            seats__user_id=vacation.user_id,
            seats__position=F("deadline_seat"),
        )
        .order_by("pk")
    )
    for game in games:
        assert game.deadline is not None
        paused_from = max(vacation.starts_at, game.deadline_set_at or vacation.starts_at)
        shift = end - paused_from
        if shift <= timedelta(0):
            continue
        game.deadline += shift
        if game.reminder_at is not None:
            # The same as ``reminder_time`` of the new deadline, for a time bank too.
            game.reminder_at += shift
        game.save(update_fields=["deadline", "reminder_at", "updated_at"])
        moved += 1
    return moved


def vacation_end(*, vacation_id: int) -> bool:
    """End a running vacation now (or at its planned end, if that has passed).

    Shifts the player's paused deadlines (see the module docstring) and tells the player
    by email (``vacation_ended``). Returns False when it had already ended (idempotent).
    """
    now = timezone.now()
    with transaction.atomic():
        vacation = Vacation.objects.select_for_update().filter(pk=vacation_id).first()
        if vacation is None or vacation.ended_at is not None:
            return False
        end = max(vacation.starts_at, min(now, vacation.ends_at))
        vacation.ended_at = end
        vacation.save(update_fields=["ended_at"])
        _shift_deadlines(vacation, end)
        stamps.user_games_changed(vacation.user_id)
        notifications.notification_create(
            user_id=vacation.user_id, game=None, ply=0, kind=NotificationKind.VACATION_ENDED
        )
    return True
