"""Quiet hours (issue 17): daily hours, in a player's own time zone, when no email reaches
them and their clock does not run. Pure: datetimes and ``zoneinfo`` in, datetimes out.

An event's playing hours (issue 30, ``PlayingHours``) are the other way round: daily hours
in the event's time zone outside which its games' clocks stand still — the quiet hours
``PlayingHours.quiet()`` of the rest of the day. A clock stopped by several (the event's
and the player's own) stands still in their union (``QuietUnion``).

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

    @property
    def stops(self) -> bool:
        """Return whether these hours ever stop a clock (an empty period never does)."""
        return self.start != self.end

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


@dataclass(frozen=True)
class PlayingHours:
    """An event's daily playing hours: local ``start`` to ``end`` in time zone ``zone``.

    ``start`` after ``end`` runs over midnight (18:00–02:00); equal times are no hours at
    all (the caller refuses them). A clock runs only inside them.
    """

    start: time
    end: time
    zone: str = "UTC"

    def quiet(self) -> QuietHours:
        """Return the rest of the day as quiet hours (when the clock stands still)."""
        return QuietHours(self.end, self.start, self.zone)


@dataclass(frozen=True)
class QuietUnion:
    """Several quiet hours at once: a clock stands still while any of them holds."""

    parts: tuple[QuietHours, ...]

    @property
    def stops(self) -> bool:
        """Return whether any part ever stops a clock."""
        return any(q.stops for q in self.parts)

    def quiet_until(self, moment: datetime) -> datetime | None:
        """Return when the quiet time holding ``moment`` ends (every part let go), or None."""
        held = None
        for _hop in range(16 * len(self.parts)):
            ends = [u for q in self.parts if (u := q.quiet_until(moment)) is not None]
            if not ends:
                return held
            moment = held = max(ends)
        return held  # the parts cover every hour: the caller avoids it (a bound)

    def next_start(self, moment: datetime) -> datetime:
        """Return the first start of a part's quiet period after ``moment``."""
        return min(q.next_start(moment) for q in self.parts if q.stops)


Quiet = QuietHours | QuietUnion


def quiet_union(*parts: QuietHours | None) -> Quiet | None:
    """Return the quiet hours of ``parts`` together (None: none of them stops a clock)."""
    kept = tuple(q for q in parts if q is not None and q.stops)
    if not kept:
        return None
    return kept[0] if len(kept) == 1 else QuietUnion(kept)


def clock_end(started: datetime, duration: timedelta, quiet: Quiet | None) -> datetime:
    """Return when a clock of ``duration`` started at ``started`` runs out.

    The clock stands still during ``quiet`` hours (None or an empty period: it always
    runs), so the deadline moves later by the quiet time it would have crossed.
    """
    if quiet is None or not quiet.stops:
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


def running_time(start: datetime, end: datetime, quiet: Quiet | None) -> timedelta:
    """Return how much of ``start``–``end`` lies outside ``quiet`` hours (0 when end ≤ start).

    The inverse of ``clock_end``: ``running_time(s, clock_end(s, d, q), q) == d``.
    """
    if end <= start:
        return timedelta(0)
    if quiet is None or not quiet.stops:
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
