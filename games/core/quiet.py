"""Quiet hours (issue 17): daily hours, in a player's own time zone, when no email reaches
them and their clock does not run. Pure: datetimes and ``zoneinfo`` in, datetimes out.

A player's quiet hours are ``start``–``end`` local wall-clock times, every day; ``start``
after ``end`` runs over midnight (22:00–07:00). Each day's period is placed in UTC through
the zone, so it keeps its local hours across a daylight-saving change: the night the
clocks go forward a 22:00–07:00 period lasts eight hours, the night they go back ten.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

MAX_DAYS = 400  # a deadline is at most a few weeks away: a bound, never reached


@dataclass(frozen=True)
class QuietHours:
    """One player's quiet hours: local ``start`` and ``end`` in time zone ``zone``."""

    start: time
    end: time
    zone: str = "UTC"

    def _tz(self) -> ZoneInfo:
        try:
            return ZoneInfo(self.zone or "UTC")
        except (ZoneInfoNotFoundError, ValueError):
            return ZoneInfo("UTC")

    def period_of(self, day: date) -> tuple[datetime, datetime]:
        """Return the period that starts on local ``day``, in UTC (end after start)."""
        tz = self._tz()
        begin = datetime.combine(day, self.start, tzinfo=tz)
        end_day = day + timedelta(days=1) if self.end <= self.start else day
        finish = datetime.combine(end_day, self.end, tzinfo=tz)
        return begin.astimezone(UTC), finish.astimezone(UTC)

    def _periods_around(self, moment: datetime) -> list[tuple[datetime, datetime]]:
        local = moment.astimezone(self._tz()).date()
        return [self.period_of(local + timedelta(days=d)) for d in (-1, 0, 1)]

    def quiet_until(self, moment: datetime) -> datetime | None:
        """Return when the quiet period holding ``moment`` ends, or None outside one."""
        if self.start == self.end:
            return None
        for begin, finish in self._periods_around(moment):
            if begin <= moment < finish:
                return finish
        return None

    def next_start(self, moment: datetime) -> datetime:
        """Return the start of the first quiet period after ``moment`` (not holding it)."""
        local = moment.astimezone(self._tz()).date()
        for d in range(-1, 3):
            begin, _finish = self.period_of(local + timedelta(days=d))
            if begin > moment:
                return begin
        raise AssertionError("a day always has a quiet period")  # pragma: no cover


def clock_end(started: datetime, duration: timedelta, quiet: QuietHours | None) -> datetime:
    """Return when a clock of ``duration`` started at ``started`` runs out.

    The clock stands still during ``quiet`` hours (None or an empty period: it always
    runs), so the deadline moves later by the quiet time it would have crossed.
    """
    if quiet is None or quiet.start == quiet.end:
        return started + duration
    moment, left = started, duration
    for _day in range(2 * MAX_DAYS):
        held = quiet.quiet_until(moment)
        if held is not None:
            moment = held
            continue
        pause = quiet.next_start(moment)
        if moment + left <= pause:
            return moment + left
        left -= pause - moment
        moment = pause
    return moment + left  # pragma: no cover


def running_time(start: datetime, end: datetime, quiet: QuietHours | None) -> timedelta:
    """Return how much of ``start``–``end`` lies outside ``quiet`` hours (0 when end ≤ start).

    The inverse of ``clock_end``: ``running_time(s, clock_end(s, d, q), q) == d``.
    """
    if end <= start:
        return timedelta(0)
    if quiet is None or quiet.start == quiet.end:
        return end - start
    total, moment = timedelta(0), start
    for _day in range(2 * MAX_DAYS):
        if moment >= end:
            break
        held = quiet.quiet_until(moment)
        if held is not None:
            moment = held
            continue
        pause = min(quiet.next_start(moment), end)
        total += pause - moment
        moment = pause
    return total
