"""A game's running deadline: who must act by when, and when the reminder is due (issue 6).

The game's ``TimeControl`` (``games.core.timecontrol``: days per move, a time bank with
increment, or none) says how long a seat has and how a bank moves; this module keeps the
deadline and the banks by asking it. ``decision_time`` says how long the seat to act has;
``clock_start`` turns that into the deadline; ``bank_settle`` keeps the banks when the
game stops waiting on a seat. A deadline shifted for other reasons
(vacations, ``games.accounts.vacations``) keeps its seat's bank in step, since a bank's
time left is always read off the deadline. Quiet hours (``games.play.quiet``) move a
deadline later by the quiet time it crosses, and a bank spends none of that time.
"""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from games.core.clock import reminder_for
from games.core.timecontrol import time_control_of
from games.models import Game, Seat
from games.play.quiet import quiet_running, quiet_shift
from games.selectors.people import vacation_current

CLOCK_FIELDS = ["deadline", "deadline_seat", "deadline_set_at", "reminder_at"]


def decision_time(game: Game) -> timedelta | None:
    """Return how long the seat that must act now in ``game`` has, or None without a limit.

    The time control's answer (``TimeControl.decision_time``), given that seat's bank when
    the control keeps one (its ``Seat.bank_seconds``; the seats as ``game.seats.all()``
    reads them). None when nobody is to act.
    """
    if game.to_act_seat is None:
        return None
    control = time_control_of(game)
    bank = None
    if control.has_bank:
        seat = _seat(game, game.to_act_seat)
        if seat is None:
            return None
        bank = timedelta(seconds=seat.bank_seconds or 0)
    return control.decision_time(bank)


def clock_start(game: Game) -> None:
    """Start the clock of whoever must act now in ``game`` (not saved: the caller saves).

    Sets ``deadline`` (``decision_time`` from now, later by the quiet hours of the player
    to act that it crosses: ``games.play.quiet``), ``deadline_seat``, ``deadline_set_at``
    and ``reminder_at`` (a quarter of that time before, at most a day); clears them all in
    a game without a time limit or nobody to act.
    """
    time = decision_time(game)
    if time is None:
        game.deadline = game.deadline_seat = game.deadline_set_at = game.reminder_at = None
        return
    now = timezone.now()
    game.deadline = quiet_shift(game, now + time, started=now)  # stands still in quiet hours
    game.deadline_seat = game.to_act_seat
    game.deadline_set_at = now
    game.reminder_at = reminder_for(game.deadline, time)


def banks_fill(game: Game) -> None:
    """Give every seat of a starting ``game`` its initial bank, if its control keeps one."""
    start = time_control_of(game).starting_bank()
    if start is None:
        return
    for seat in game.seats.all():
        seat.bank_seconds = int(start.total_seconds())
        seat.save(update_fields=["bank_seconds"])


def bank_settle(game: Game, *, turn_ended_for: int | None) -> None:
    """Stop the running bank of ``game`` and credit a turn's increment (a time-bank game).

    Call before ``clock_start`` when the game stops waiting on ``game.deadline_seat``: that
    seat keeps what its bank holds then (the deadline less now; while its player is on a
    vacation that pauses this game, the time since the vacation began is not spent).
    ``turn_ended_for`` is the seat whose turn just ended, if one did: its bank is what the
    control gives after a turn (``TimeControl.after_turn``: the increment, up to the cap;
    RULES.md §12: one turn, with any decisions taken in it). Seats changed are saved;
    nothing happens in other games or without a bank.
    """
    control = time_control_of(game)
    if not control.has_bank:
        return
    now = timezone.now()
    seats = {s.position: s for s in game.seats.all()}  # one read: the same seat may be both
    running = seats.get(game.deadline_seat) if game.deadline is not None else None
    if running is not None and game.deadline is not None:
        stopped_at = now
        vacation = vacation_current(user_id=running.user_id) if game.vacation_allowed else None
        if vacation is not None:
            stopped_at = max(vacation.starts_at, game.deadline_set_at or vacation.starts_at)
        # What is left runs outside the player's quiet hours only (the deadline was moved
        # later by those it would cross).
        left = quiet_running(game, running, stopped_at, game.deadline)
        running.bank_seconds = int(left.total_seconds())
        running.save(update_fields=["bank_seconds"])
    ended = seats.get(turn_ended_for)
    if ended is not None:
        held = timedelta(seconds=ended.bank_seconds or 0)
        credited = control.after_turn(held)
        if credited != held:
            ended.bank_seconds = int(credited.total_seconds())
            ended.save(update_fields=["bank_seconds"])


def _seat(game: Game, position: int | None) -> Seat | None:
    return next((s for s in game.seats.all() if s.position == position), None)
