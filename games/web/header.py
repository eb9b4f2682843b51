"""The small public facts of a game every page shows: ``GameHeader``, never the ``Game`` row.

A ``Game`` holds its engine snapshot (``state``: every hand and the bag) and its ``seed``;
a template that got the row could print them. Pages get this frozen value and
``engine.view_for`` output instead (RULES.md §14; ``tests/games/test_leaks.py`` walks every
context value to check).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from games.models import Game


@dataclass(frozen=True, slots=True)
class GameHeader:
    """Public facts of one game: ``pk``, ``status`` (``open``, ``active``…) and its words,
    ``version`` (plies applied), ``num_players``, ``seats_taken``, the flags (``is_public``,
    ``is_rated``, ``open_scoring``, ``vacation_allowed``), ``days_per_move`` (None: no
    limit), ``deadline`` (aware, UTC; None without one), ``to_act_seat``, and a time
    bank's ``bank_days``, ``bank_increment_hours`` and ``bank_cap_days`` (issue 17)."""

    pk: int
    status: str
    status_display: str
    version: int
    num_players: int
    seats_taken: int
    is_public: bool
    is_rated: bool
    open_scoring: bool
    vacation_allowed: bool
    days_per_move: int | None
    deadline: datetime | None
    to_act_seat: int | None
    # A time bank instead of days per move (issue 17): start, increment a turn, cap.
    bank_days: int | None = None
    bank_increment_hours: int = 0
    bank_cap_days: int | None = None

    @staticmethod
    def of(game: Game) -> GameHeader:
        """Return the header of ``game`` (its seats read as fetched: ``with_seats``)."""
        return GameHeader(
            pk=game.pk,
            status=str(game.status),
            status_display=str(game.get_status_display()),
            version=game.version,
            num_players=game.num_players,
            seats_taken=len(game.seats.all()),
            is_public=game.is_public,
            is_rated=game.is_rated,
            open_scoring=game.open_scoring,
            vacation_allowed=game.vacation_allowed,
            days_per_move=game.days_per_move,
            deadline=game.deadline,
            to_act_seat=game.to_act_seat,
            bank_days=game.bank_days,
            bank_increment_hours=game.bank_increment_hours,
            bank_cap_days=game.bank_cap_days,
        )
