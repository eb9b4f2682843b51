"""Quiet hours stop the clock (issue 17): a deadline moves later by the quiet hours it crosses.

Kept apart from ``games.play.deadlines`` (one call there), so another way of counting time
(a time bank) only has to pass its deadline through ``quiet_shift``.
"""

from __future__ import annotations

from datetime import datetime

from django.core.exceptions import ObjectDoesNotExist
from django.utils import timezone

from games.core.quiet import clock_end
from games.models import Game
from games.selectors.people import quiet_hours_of


def quiet_shift(game: Game, deadline: datetime, *, started: datetime | None = None) -> datetime:
    """Return ``deadline`` of the clock started at ``started`` (now) for ``game.to_act_seat``,
    moved later by the quiet hours of that seat's player the clock would cross.

    Unchanged when the game does not allow quiet hours, nobody is to act, or the player
    set none. Reads the seats ``game`` came with (one query if they were not fetched).
    """
    if not game.quiet_hours_allowed or game.to_act_seat is None:
        return deadline
    seat = next((s for s in game.seats.all() if s.position == game.to_act_seat), None)
    if seat is None or seat.is_bot:
        return deadline
    try:
        profile = seat.user.profile
    except ObjectDoesNotExist:
        return deadline
    start = started or timezone.now()
    return clock_end(start, deadline - start, quiet_hours_of(profile))
