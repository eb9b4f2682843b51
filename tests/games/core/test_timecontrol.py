"""A game's time control is one value the clock rules ask (games.core.timecontrol, issue 27).

Each control answers how long a seat has, what a bank starts with and gains after a turn,
whether a rated game may use it and how it is said; it is stored as the ``Game`` fields it
always was, read back in one place.
"""

from __future__ import annotations

from datetime import time, timedelta
from types import SimpleNamespace

import pytest
from django.utils import translation

from games.core.quiet import PlayingHours
from games.core.timecontrol import (
    Clock,
    DaysPerMove,
    NoLimit,
    TimeBank,
    TimeControl,
    clock_of,
    time_control,
    time_control_of,
)
from tests.games.factories import started_game

DAY, HOUR = timedelta(days=1), timedelta(hours=1)
SAMPLES: list[TimeControl] = [NoLimit(), DaysPerMove(3), TimeBank(7, 24, 14)]


def test_every_control_is_stored_as_the_games_fields_and_read_back() -> None:
    """A new control is one class: it needs its fields and a sample here to be read back."""
    # (A slotted dataclass is made anew: each class is listed twice, by the same name.)
    assert {type(c).__name__ for c in SAMPLES} == {
        cls.__name__ for cls in TimeControl.__subclasses__()
    }
    for control in SAMPLES:
        fields = control.fields()
        assert set(fields) == {
            "days_per_move",
            "bank_days",
            "bank_increment_hours",
            "bank_cap_days",
        }
        assert time_control(**fields) == control


def test_a_bank_replaces_the_days_per_move_and_holds_at_least_its_start() -> None:
    """Issue 17: one time control; a cap below the start (or none) is the start."""
    assert time_control(days_per_move=3, bank_days=7, bank_increment_hours=24) == TimeBank(7, 24, 7)
    assert time_control(bank_days=7, bank_cap_days=3) == TimeBank(7, 0, 7)
    assert time_control(days_per_move=2) == DaysPerMove(2)
    assert time_control(days_per_move=None) == time_control(days_per_move=0) == NoLimit()


def test_how_long_the_seat_to_act_has() -> None:
    assert NoLimit().decision_time(None) is None and not NoLimit().limited
    assert DaysPerMove(3).decision_time(None) == 3 * DAY and DaysPerMove(3).limited
    bank = TimeBank(7, 24, 14)
    assert bank.limited and bank.has_bank
    assert bank.decision_time(2 * DAY + 5 * HOUR) == 2 * DAY + 5 * HOUR
    assert bank.decision_time(None) == timedelta(0)


def test_a_bank_starts_full_and_gains_its_increment_up_to_the_cap() -> None:
    bank = TimeBank(7, 24, 8)
    assert bank.starting_bank() == 7 * DAY
    assert bank.after_turn(3 * DAY) == 4 * DAY
    assert bank.after_turn(7 * DAY + 12 * HOUR) == 8 * DAY  # capped
    assert bank.after_turn(9 * DAY) == 9 * DAY  # an increment never takes time away
    for other in (NoLimit(), DaysPerMove(3)):
        assert other.starting_bank() is None and not other.has_bank
        assert other.after_turn(3 * DAY) == 3 * DAY


@pytest.mark.parametrize(
    ("control", "words", "short"),
    [
        (NoLimit(), "", "no limit"),
        (DaysPerMove(1), "1 day per move", "1 day"),
        (DaysPerMove(3), "3 days per move", "3 days"),
        (
            TimeBank(7, 24, 14),
            "time bank: 7 days, +24 hours a turn, at most 14 days",
            "time bank of 7 days",
        ),
        (
            TimeBank(1, 1, 1),
            "time bank: 1 day, +1 hour a turn, at most 1 day",
            "time bank of 1 day",
        ),
    ],
)
def test_each_control_is_said_in_the_viewers_language(
    control: TimeControl, words: str, short: str
) -> None:
    with translation.override("en"):
        assert (control.words(), control.short_words()) == (words, short)
    with translation.override("zh-hans"):
        assert control.short_words() != short
        assert control.words() != words or not words


@pytest.mark.django_db
def test_a_games_control_is_read_from_its_fields() -> None:
    game, _seats = started_game(2, bank_days=3, bank_increment_hours=12, bank_cap_days=5)
    assert time_control_of(game) == TimeBank(3, 12, 5)
    game, _seats = started_game(2, days_per_move=2)
    assert time_control_of(game) == DaysPerMove(2)


def test_an_events_clock_is_stored_as_a_row_keeps_it_and_read_back() -> None:
    """``Clock.clock_fields`` is what a tournament's or league's row stores: a bank's unset
    parts dropped or filled, no zone without hours; ``clock_of`` reads it back as it was."""
    banked = Clock(
        bank_days=2,
        playing_start=time(9),
        playing_end=time(21),
        playing_zone="Europe/Paris",
    )
    assert banked.clock_fields() == {
        "days_per_move": 3,
        "bank_days": 2,
        "bank_increment_hours": 0,
        "bank_cap_days": 2,  # a bank without a cap holds its start at most
        "playing_start": time(9),
        "playing_end": time(21),
        "playing_zone": "Europe/Paris",
    }
    assert banked.control() == TimeBank(2, 0, 2)
    assert banked.hours() == PlayingHours(time(9), time(21), "Europe/Paris")
    assert banked.hours_words() == "09:00–21:00 (Europe/Paris)"
    stray = Clock(days_per_move=5, bank_increment_hours=12, bank_cap_days=9, playing_zone="UTC")
    stored = stray.clock_fields()
    assert (stored["bank_increment_hours"], stored["bank_cap_days"]) == (0, None)
    assert stored["playing_zone"] == ""  # no hours: no zone
    assert stray.control() == DaysPerMove(5) and stray.hours() is None
    assert stray.hours_words() == ""
    row = SimpleNamespace(**banked.clock_fields())
    assert clock_of(row) == Clock(**banked.clock_fields())
    assert clock_of(row).clock_fields() == banked.clock_fields()
