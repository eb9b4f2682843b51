"""Quiet hours stop the clock (issue 17): a deadline moves later by the quiet hours it crosses.

Kept apart from ``games.play.deadlines`` (one call there), so another way of counting time
(a time bank) only has to pass its deadline through ``quiet_shift``.

An event's playing hours (issue 30: ``Game.playing_start``/``playing_end`` in
``playing_zone``) stop the clock outside them, for every seat, bots included; with the
player's own quiet hours the clock stands still while either holds. When the two together
would leave it less than 2 hours to run in the next two days, the player's quiet hours
give way (the event's hours are the rule every player of it agreed to).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.core.exceptions import ObjectDoesNotExist
from django.utils import timezone

from games.core.quiet import (
    PlayingHours,
    Quiet,
    QuietHours,
    clock_end,
    quiet_union,
    running_time,
)
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


def playing_hours_of(game: Game) -> PlayingHours | None:
    """Return ``game``'s playing hours (an event's, issue 30), or None: the clock always runs."""
    if game.playing_start is None or game.playing_end is None:
        return None
    if game.playing_start == game.playing_end:
        return None
    return PlayingHours(game.playing_start, game.playing_end, game.playing_zone or "UTC")


def _quiet_of(game: Game, seat: Seat | None) -> Quiet | None:
    """Return the quiet hours that stop ``seat``'s clock in ``game``, or None."""
    playing = playing_hours_of(game)
    event = playing.quiet() if playing is not None else None
    own = _own_quiet(game, seat)
    if event is None or own is None:
        return event or own
    both = quiet_union(event, own)
    now = timezone.now()
    if running_time(now, now + timedelta(days=2), both) < timedelta(hours=2):
        return event  # the player's quiet hours would leave the clock no time to run
    return both


def _own_quiet(game: Game, seat: Seat | None) -> QuietHours | None:
    if not game.quiet_hours_allowed or seat is None or seat.is_bot:
        return None
    try:
        profile = seat.user.profile
    except ObjectDoesNotExist:
        return None
    return quiet_hours_of(profile)
