"""Quiet hours in a player's own time zone, across midnight and daylight-saving changes."""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta

from games.core.quiet import (
    PlayingHours,
    QuietHours,
    QuietUnion,
    clock_end,
    quiet_union,
    running_time,
)

NIGHT_NY = QuietHours(time(22), time(7), "America/New_York")


def test_a_night_in_new_york_is_quiet_in_utc_hours_that_follow_the_offset() -> None:
    # EST (UTC−5) in February: 22:00–07:00 local is 03:00–12:00 UTC.
    assert NIGHT_NY.quiet_until(datetime(2026, 2, 10, 3, 0, tzinfo=UTC)) == datetime(
        2026, 2, 10, 12, 0, tzinfo=UTC
    )
    assert NIGHT_NY.quiet_until(datetime(2026, 2, 10, 2, 59, tzinfo=UTC)) is None
    assert NIGHT_NY.quiet_until(datetime(2026, 2, 10, 12, 0, tzinfo=UTC)) is None
    # EDT (UTC−4) in July: 02:00–11:00 UTC.
    assert NIGHT_NY.quiet_until(datetime(2026, 7, 10, 10, 30, tzinfo=UTC)) == datetime(
        2026, 7, 10, 11, 0, tzinfo=UTC
    )
    tokyo_day = QuietHours(time(9), time(17), "Asia/Tokyo")  # UTC+9, no DST, same-day hours
    assert tokyo_day.quiet_until(datetime(2026, 7, 10, 1, 0, tzinfo=UTC)) == datetime(
        2026, 7, 10, 8, 0, tzinfo=UTC
    )
    assert QuietHours(time(8), time(8), "UTC").quiet_until(datetime(2026, 1, 1, tzinfo=UTC)) is None


def test_the_nights_of_a_daylight_saving_change_last_eight_and_ten_hours() -> None:
    # 2026-03-08: New York springs forward at 02:00; 2026-11-01 it falls back.
    begin, end = NIGHT_NY.period_of(date(2026, 3, 7))
    assert (begin, end - begin) == (datetime(2026, 3, 8, 3, 0, tzinfo=UTC), timedelta(hours=8))
    begin, end = NIGHT_NY.period_of(date(2026, 10, 31))
    assert (begin, end - begin) == (datetime(2026, 11, 1, 2, 0, tzinfo=UTC), timedelta(hours=10))


def test_the_clock_stands_still_in_quiet_hours_and_a_deadline_moves_by_them() -> None:
    day = timedelta(days=1)
    start = datetime(2026, 2, 10, 17, 0, tzinfo=UTC)  # noon in New York
    assert clock_end(start, day, None) == start + day
    assert clock_end(start, day, NIGHT_NY) == start + day + timedelta(hours=9)
    # Started inside the quiet hours: the clock starts when they end.
    night = datetime(2026, 2, 10, 4, 0, tzinfo=UTC)
    assert clock_end(night, timedelta(hours=1), NIGHT_NY) == datetime(
        2026, 2, 10, 13, 0, tzinfo=UTC
    )
    # Over the spring-forward night the pause is an hour shorter: 15 running hours a day.
    spring = datetime(2026, 3, 7, 17, 0, tzinfo=UTC)  # noon EST, Saturday
    assert clock_end(spring, day, NIGHT_NY) == spring + day + timedelta(hours=8)
    autumn = datetime(2026, 10, 31, 16, 0, tzinfo=UTC)  # noon EDT, Saturday
    assert clock_end(autumn, day, NIGHT_NY) == autumn + day + timedelta(hours=10)
    # Three days of running clock, at 15 running hours a day, cross five nights: 09:00 on
    # the fifth day after (10 h the first day, 15 h on each of four, 2 h on the fifth).
    assert clock_end(start, 3 * day, NIGHT_NY) == start + 3 * day + timedelta(hours=45)


def test_a_stopped_clock_keeps_the_running_time_left_before_its_moved_deadline() -> None:
    """What a time bank holds when stopped early: the deadline less the quiet time ahead."""
    # Started on a Saturday evening in New York, the night the clocks go forward (8 h).
    start = datetime(2026, 3, 7, 23, 0, tzinfo=UTC)  # 18:00 EST
    for hours in (1, 5, 30, 80):
        given = timedelta(hours=hours)
        deadline = clock_end(start, given, NIGHT_NY)
        assert running_time(start, deadline, NIGHT_NY) == given
    deadline = clock_end(start, timedelta(hours=30), NIGHT_NY)
    # Stopped after two running hours, before the night: 28 running hours are left, not the
    # 45 between then and the deadline, which the two nights it crosses (8 quiet hours the
    # night the clocks go forward, then 9) moved later.
    stopped = start + timedelta(hours=2)
    assert deadline == datetime(2026, 3, 9, 22, 0, tzinfo=UTC)
    assert deadline - stopped == timedelta(hours=45)
    assert running_time(stopped, deadline, NIGHT_NY) == timedelta(hours=28)
    assert running_time(deadline, stopped, NIGHT_NY) == timedelta(0)
    assert running_time(start, deadline, None) == deadline - start


# --- An event's playing hours (issue 30): the clock runs only inside them ---------------

DAYTIME_PARIS = PlayingHours(time(9), time(21), "Europe/Paris")


def test_a_clock_runs_only_inside_the_playing_hours() -> None:
    quiet = DAYTIME_PARIS.quiet()
    # 20:00 in Paris (UTC+1 in December): one playing hour that day, then 12 a day
    start = datetime(2026, 12, 7, 19, tzinfo=UTC)
    end = clock_end(start, timedelta(hours=24), quiet)
    assert end == datetime(2026, 12, 9, 19, tzinfo=UTC)  # 1 + 12 + 11 playing hours
    assert running_time(start, end, quiet) == timedelta(hours=24)
    # started at night, the clock waits for 09:00 in Paris
    night = datetime(2026, 12, 7, 23, tzinfo=UTC)
    assert clock_end(night, timedelta(hours=1), quiet) == datetime(2026, 12, 8, 9, tzinfo=UTC)


def test_playing_hours_over_midnight_and_across_a_daylight_saving_change() -> None:
    evening = PlayingHours(time(18), time(2), "Europe/Paris").quiet()
    start = datetime(2026, 3, 28, 17, tzinfo=UTC)  # 18:00 in Paris, the night clocks go on
    # 18:00–02:00 local is 8 hours; the next evening starts at 16:00 UTC (UTC+2)
    assert clock_end(start, timedelta(hours=9), evening) == datetime(2026, 3, 29, 17, tzinfo=UTC)


def test_the_players_quiet_hours_and_the_playing_hours_stop_the_clock_together() -> None:
    both = quiet_union(DAYTIME_PARIS.quiet(), QuietHours(time(12), time(14), "Europe/Paris"))
    assert isinstance(both, QuietUnion)
    start = datetime(2026, 12, 7, 8, tzinfo=UTC)  # 09:00 in Paris
    # 09–12 and 14–21 run: 10 hours a day
    assert clock_end(start, timedelta(hours=10), both) == datetime(2026, 12, 7, 20, tzinfo=UTC)
    assert clock_end(start, timedelta(hours=11), both) == datetime(2026, 12, 8, 9, tzinfo=UTC)
    assert quiet_union(None, QuietHours(time(1), time(1))) is None
