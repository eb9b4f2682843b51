"""A game's running deadline: who must act by when, and when the reminder is due (issue 6)."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.utils import timezone

from games.core.clock import reminder_time
from games.models import Game
from games.play.quiet import quiet_shift

CLOCK_FIELDS = ["deadline", "deadline_seat", "deadline_set_at", "reminder_at"]


def deadline_for(game: Game) -> datetime | None:
    if game.days_per_move:
        return timezone.now() + timedelta(days=game.days_per_move)
    return None


def clock_start(game: Game) -> None:
    """Start the clock of whoever must act now in ``game`` (not saved: the caller saves).

    Sets ``deadline`` (``days_per_move`` from now, later by the quiet hours of the player
    to act that it crosses: ``games.play.quiet``), ``deadline_seat``, ``deadline_set_at``
    and ``reminder_at``; clears them all in a game without a time limit or nobody to act.
    """
    deadline = deadline_for(game) if game.to_act_seat is not None else None
    if deadline is not None:
        deadline = quiet_shift(game, deadline)  # the clock stands still in quiet hours
    game.deadline = deadline
    if deadline is None or not game.days_per_move:
        game.deadline_seat = game.deadline_set_at = game.reminder_at = None
        return
    game.deadline_seat = game.to_act_seat
    game.deadline_set_at = timezone.now()
    game.reminder_at = reminder_time(deadline, game.days_per_move)
