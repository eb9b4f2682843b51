"""The clock's rules (issue 6): when a deadline's reminder is due. Pure: datetimes in, out."""

from __future__ import annotations

from datetime import datetime, timedelta

REMINDER_FRACTION = 4  # the reminder goes out when a quarter of the time is left…
REMINDER_MAX_BEFORE = timedelta(hours=24)  # …but at most 24 hours before the deadline


def reminder_time(deadline: datetime, days_per_move: int) -> datetime:
    """Return when the reminder of ``deadline`` is due: a quarter of the time left, ≤ 24 h.

    ``days_per_move`` is the game's time per decision in days (issue 6: 1 day → 6 h before,
    2 → 12 h, 3 → 18 h, 5 or more → 24 h before the deadline).
    """
    before = min(timedelta(days=days_per_move) / REMINDER_FRACTION, REMINDER_MAX_BEFORE)
    return deadline - before
