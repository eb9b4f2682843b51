"""The clock's rules (issue 6; the time bank, issue 17). Pure: datetimes and durations."""

from __future__ import annotations

from datetime import datetime, timedelta

REMINDER_FRACTION = 4  # the reminder goes out when a quarter of the time is left…
REMINDER_MAX_BEFORE = timedelta(hours=24)  # …but at most 24 hours before the deadline


def reminder_time(deadline: datetime, days_per_move: int) -> datetime:
    """Return when the reminder of ``deadline`` is due: a quarter of the time left, ≤ 24 h.

    ``days_per_move`` is the game's time per decision in days (issue 6: 1 day → 6 h before,
    2 → 12 h, 3 → 18 h, 5 or more → 24 h before the deadline).
    """
    return reminder_for(deadline, timedelta(days=days_per_move))


def reminder_for(deadline: datetime, time_given: timedelta) -> datetime:
    """Return when the reminder of ``deadline`` is due, ``time_given`` before it ran out.

    A quarter of ``time_given`` before the deadline, at most ``REMINDER_MAX_BEFORE``: for a
    time bank (issue 17) ``time_given`` is what the bank held when its clock started.
    """
    return deadline - min(time_given / REMINDER_FRACTION, REMINDER_MAX_BEFORE)


def bank_left(deadline: datetime, stopped_at: datetime) -> timedelta:
    """Return what a running bank holds when its clock stops at ``stopped_at`` (never < 0)."""
    return max(deadline - stopped_at, timedelta(0))


def bank_credited(left: timedelta, increment: timedelta, cap: timedelta) -> timedelta:
    """Return the bank after a turn ended: ``left`` plus ``increment``, at most ``cap``.

    An increment never takes time away: a bank already above ``cap`` keeps what it has.
    """
    return max(min(left + increment, cap), left)
