"""Quiet hours stop the clock (issue 17): a deadline moves later by the quiet hours it crosses.

Kept apart from ``games.play.deadlines`` (one call there), so another way of counting time
(a time bank) only has to pass its deadline through ``quiet_shift``.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.core.exceptions import ObjectDoesNotExist
from django.utils import timezone

from games.core.quiet import QuietHours, clock_end, running_time
from games.models import Game, Seat
from games.selectors.people import quiet_hours_of


def quiet_shift(game: Game, deadline: datetime, *, started: datetime | None = None) -> datetime:
    """Return ``deadline`` of the clock started at ``started`` (now) for ``game.to_act_seat``,
    moved later by the quiet hours of that seat's player the clock would cross.

    Unchanged when the game does not allow quiet hours, nobody is to act, or the player
    set none. Reads the seats ``game`` came with (one query if they were not fetched).
    """
    if game.to_act_seat is None:
        return deadline
    seat = next((s for s in game.seats.all() if s.position == game.to_act_seat), None)
    quiet = _quiet_of(game, seat)
    if quiet is None:
        return deadline
    start = started or timezone.now()
    return clock_end(start, deadline - start, quiet)


def quiet_running(game: Game, seat: Seat, start: datetime, deadline: datetime) -> timedelta:
    """Return the time ``seat``'s clock would still run from ``start`` to ``deadline``.

    The time between them outside the quiet hours of the seat's player (all of it when the
    game does not allow quiet hours or the player set none; never below zero): what a
    time bank stopped at ``start`` still holds, its deadline having been moved later by
    the quiet hours it would cross (``quiet_shift``).
    """
    return running_time(start, deadline, _quiet_of(game, seat))


def _quiet_of(game: Game, seat: Seat | None) -> QuietHours | None:
    """Return the quiet hours that stop ``seat``'s clock in ``game``, or None."""
    if not game.quiet_hours_allowed or seat is None or seat.is_bot:
        return None
    try:
        profile = seat.user.profile
    except ObjectDoesNotExist:
        return None
    return quiet_hours_of(profile)
