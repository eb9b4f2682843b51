"""A game's time control as one value that every clock rule asks (issues 6 and 17).

Three controls, one class each: ``NoLimit`` (unrated games may play without a clock),
``DaysPerMove`` (each decision gets that many days) and ``TimeBank`` (each seat starts with a
bank that runs only while the game waits on it; each of its turns that ends adds an
increment, up to a cap). The clock (``games.play.deadlines``), the submit service, the
lifecycle, the forms and the pages ask the value — how long the seat to act has, what a bank
starts with and gains, whether a rated game may use it, how it is said — never which
fields are set. A new control is one more class here and its fields.

The value is stored as the four ``Game`` fields it has always had (``days_per_move``,
``bank_days``, ``bank_increment_hours``, ``bank_cap_days``): ``time_control_of`` reads them
in the one place that does, ``fields()`` writes them, so nothing stored changes.

An event's clock (issue 30) is one value too: ``Clock``, the seven fields of
``models.EventClock`` (the four, and daily playing hours), read from a tournament's or a
league's row by ``clock_of``; the events' settings and their pages' headers extend it, so
each names the seven once, here.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from dataclasses import fields as dataclass_fields
from datetime import time, timedelta
from typing import Any, Protocol

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.core.clock import bank_credited
from games.core.quiet import PlayingHours


class HasTimeFields(Protocol):
    """Anything holding a game's stored time fields: a ``Game`` row, a form's data."""

    @property
    def days_per_move(self) -> int | None: ...
    @property
    def bank_days(self) -> int | None: ...
    @property
    def bank_increment_hours(self) -> int: ...
    @property
    def bank_cap_days(self) -> int | None: ...


@dataclass(frozen=True, slots=True)
class TimeControl(ABC):
    """How long a seat has to decide, and how its clock moves (a small, printable value)."""

    @property
    def limited(self) -> bool:
        """Return whether decisions have a deadline (a rated game needs one, issue 6)."""
        return True

    @property
    def has_bank(self) -> bool:
        """Return whether each seat keeps a bank of time between its decisions."""
        return False

    @abstractmethod
    def decision_time(self, bank: timedelta | None) -> timedelta | None:
        """Return how long the seat to act has now (None: no limit).

        ``bank`` is what that seat's bank holds (None without a bank).
        """

    def starting_bank(self) -> timedelta | None:
        """Return what each seat's bank holds at the start (None: no bank)."""
        return None

    def after_turn(self, bank: timedelta) -> timedelta:
        """Return what a seat's bank holds once one of its turns has ended (RULES.md §12)."""
        return bank

    @abstractmethod
    def fields(self) -> dict[str, int | None]:
        """Return the ``Game`` fields that store this control (all four, always)."""

    @abstractmethod
    def words(self) -> str:
        """Return the control in words for a game's header ("3 days per move"; ``""``: none)."""

    @abstractmethod
    def short_words(self) -> str:
        """Return the control in a few words for a list of games ("3 days", "no limit")."""


@dataclass(frozen=True, slots=True)
class NoLimit(TimeControl):
    """No clock: a decision may take any time (unrated games only)."""

    @property
    def limited(self) -> bool:
        """Return False: nobody ever times out."""
        return False

    def decision_time(self, bank: timedelta | None) -> timedelta | None:
        """Return None: no limit."""
        return None

    def fields(self) -> dict[str, int | None]:
        """Return no days per move and no bank."""
        return _stored()

    def words(self) -> str:
        """Return ``""``: a game without a clock says nothing of it."""
        return ""

    def short_words(self) -> str:
        """Return "no limit"."""
        return _("no limit")


@dataclass(frozen=True, slots=True)
class DaysPerMove(TimeControl):
    """Each decision gets ``days`` days (issue 6)."""

    days: int

    def decision_time(self, bank: timedelta | None) -> timedelta | None:
        """Return the days per move."""
        return timedelta(days=self.days)

    def fields(self) -> dict[str, int | None]:
        """Return ``days_per_move``."""
        return _stored(days_per_move=self.days)

    def words(self) -> str:
        """Return "3 days per move"."""
        return ngettext("%(d)s day per move", "%(d)s days per move", self.days) % {"d": self.days}

    def short_words(self) -> str:
        """Return "3 days"."""
        return _day_count(self.days)


@dataclass(frozen=True, slots=True)
class TimeBank(TimeControl):
    """A bank of ``days`` per seat, plus ``increment_hours`` a turn, up to ``cap_days``.

    The bank runs only while the game waits on its seat (issue 17); ``cap_days`` is at least
    ``days`` (``time_control`` makes it so).
    """

    days: int
    increment_hours: int
    cap_days: int

    @property
    def has_bank(self) -> bool:
        """Return True."""
        return True

    def decision_time(self, bank: timedelta | None) -> timedelta | None:
        """Return what the seat's bank holds."""
        return bank if bank is not None else timedelta(0)

    def starting_bank(self) -> timedelta | None:
        """Return ``days``."""
        return timedelta(days=self.days)

    def after_turn(self, bank: timedelta) -> timedelta:
        """Return ``bank`` plus the increment, at most the cap (never less than it held)."""
        return bank_credited(
            bank, timedelta(hours=self.increment_hours), timedelta(days=self.cap_days)
        )

    def fields(self) -> dict[str, int | None]:
        """Return ``bank_days``, ``bank_increment_hours`` and ``bank_cap_days``."""
        return _stored(
            bank_days=self.days,
            bank_increment_hours=self.increment_hours,
            bank_cap_days=self.cap_days,
        )

    def words(self) -> str:
        """Return "time bank: 3 days, +24 hours a turn, at most 7 days"."""
        return _("time bank: %(days)s, +%(hours)s a turn, at most %(cap)s") % {
            "days": _day_count(self.days),
            "hours": ngettext("%(h)s hour", "%(h)s hours", self.increment_hours)
            % {"h": self.increment_hours},
            "cap": _day_count(self.cap_days),
        }

    def short_words(self) -> str:
        """Return "time bank of 3 days"."""
        return ngettext("time bank of %(d)s day", "time bank of %(d)s days", self.days) % {
            "d": self.days
        }


def _day_count(days: int) -> str:
    """Return "1 day" or "3 days"."""
    return ngettext("%(d)s day", "%(d)s days", days) % {"d": days}


def _stored(
    *,
    days_per_move: int | None = None,
    bank_days: int | None = None,
    bank_increment_hours: int = 0,
    bank_cap_days: int | None = None,
) -> dict[str, int | None]:
    return {
        "days_per_move": days_per_move,
        "bank_days": bank_days,
        "bank_increment_hours": bank_increment_hours,
        "bank_cap_days": bank_cap_days,
    }


def time_control(
    *,
    days_per_move: int | None = None,
    bank_days: int | None = None,
    bank_increment_hours: int | None = 0,
    bank_cap_days: int | None = None,
) -> TimeControl:
    """Return the control the stored (or chosen) fields describe: the one place that reads them.

    A bank, when set, is the control (it replaces the days per move); its cap is at least its
    start (the start when unset). Without a bank, ``days_per_move`` (None or 0: no limit).
    """
    if bank_days:
        cap = max(bank_cap_days or bank_days, bank_days)
        return TimeBank(bank_days, bank_increment_hours or 0, cap)
    if days_per_move:
        return DaysPerMove(days_per_move)
    return NoLimit()


def time_control_of(game: HasTimeFields) -> TimeControl:
    """Return the time control of ``game`` (a ``Game`` row or anything with its four fields)."""
    return time_control(
        days_per_move=game.days_per_move,
        bank_days=game.bank_days,
        bank_increment_hours=game.bank_increment_hours,
        bank_cap_days=game.bank_cap_days,
    )


class HasClockFields(HasTimeFields, Protocol):
    """An event's row (``models.EventClock``) or value: its time fields, with the days per
    move always set, and its daily playing hours."""

    @property
    def days_per_move(self) -> int: ...
    @property
    def playing_start(self) -> time | None: ...
    @property
    def playing_end(self) -> time | None: ...
    @property
    def playing_zone(self) -> str: ...


@dataclass(frozen=True, kw_only=True)
class Clock:
    """An event's clock: its games' time control and their daily playing hours (issue 30).

    ``days_per_move`` (1–30), or a time bank instead: each seat starts with ``bank_days``
    and gains ``bank_increment_hours`` a turn up to ``bank_cap_days`` (None: the start);
    the games' clocks run only from ``playing_start`` to ``playing_end`` (local times, over
    midnight when the start is later) each day in the IANA ``playing_zone``; both None:
    always. Not checked here: ``tournaments.services.clock_problems_of`` says what is
    wrong with one a creator chose. The base of the values that carry an event's clock
    (its settings, its page's header), as ``models.EventClock`` is of its rows.
    """

    days_per_move: int = 3
    bank_days: int | None = None
    bank_increment_hours: int = 0
    bank_cap_days: int | None = None
    playing_start: time | None = None
    playing_end: time | None = None
    playing_zone: str = "UTC"

    def control(self) -> TimeControl:
        """Return the time control each of the event's games gets."""
        return time_control_of(self)

    def hours(self) -> PlayingHours | None:
        """Return the daily playing hours (no zone: UTC), or None: the clocks always run."""
        if self.playing_start is None or self.playing_end is None:
            return None
        return PlayingHours(self.playing_start, self.playing_end, self.playing_zone or "UTC")

    def hours_words(self) -> str:
        """Return the playing hours as a list or an email says them: "09:00–21:00
        (Europe/Paris)", or ``""`` without them (the same in every language)."""
        hours = self.hours()
        if hours is None:
            return ""
        return f"{hours.start:%H:%M}–{hours.end:%H:%M} ({hours.zone})"

    def clock_fields(self) -> dict[str, Any]:
        """Return ``models.EventClock``'s seven fields as a row stores this clock.

        Without a bank its increment is 0 and its cap None; a bank without a cap is
        capped at its start; without playing hours the zone is empty.
        """
        banked = bool(self.bank_days)
        return {
            "days_per_move": self.days_per_move,
            "bank_days": self.bank_days if banked else None,
            "bank_increment_hours": self.bank_increment_hours if banked else 0,
            "bank_cap_days": (self.bank_cap_days or self.bank_days) if banked else None,
            "playing_start": self.playing_start,
            "playing_end": self.playing_end,
            "playing_zone": self.playing_zone if self.playing_start is not None else "",
        }


EVENT_CLOCK_FIELDS = tuple(f.name for f in dataclass_fields(Clock))


def clock_of(event: HasClockFields) -> Clock:
    """Return the clock of ``event`` (a tournament's or league's row, or a ``Clock``)."""
    return Clock(**{name: getattr(event, name) for name in EVENT_CLOCK_FIELDS})
