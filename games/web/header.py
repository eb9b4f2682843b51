"""The small public facts of a game every page shows: ``GameHeader``, never the ``Game`` row.

A ``Game`` holds its engine snapshot (``state``: every hand and the bag) and its ``seed``;
a template that got the row could print them. Pages get this frozen value and
``engine.view_for`` output instead (RULES.md §14; ``tests/games/test_leaks.py`` walks every
context value to check).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from games.core.timecontrol import NoLimit, TimeControl, time_control_of
from games.models import Game


@dataclass(frozen=True, slots=True)
class GameHeader:
    """Public facts of one game: ``pk``, ``status`` (``open``, ``active``…) and its words,
    ``version`` (plies applied), ``num_players``, ``seats_taken``, the flags (``is_public``,
    ``is_rated``, ``open_scoring``, ``vacation_allowed``), ``deadline`` (aware, UTC; None
    without one), ``to_act_seat``, and the ``time_control`` (days per move, a time bank or
    none: ``games.core.timecontrol``, issues 6 and 17), and an open game's
    ``waiting_mark`` (its waiting room's changes, for the live stream: issue 29)."""

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
    deadline: datetime | None
    to_act_seat: int | None
    time_control: TimeControl = NoLimit()
    waiting_mark: int = 0

    @staticmethod
    def of(game: Game, *, seated: bool = False) -> GameHeader:
        """Return the header of ``game`` (its seats read as fetched: ``with_seats``).

        ``deadline`` is None unless the viewer is ``seated`` in the game: a deadline moved
        by a player's quiet hours would tell a spectator when that player sleeps (issue 28).
        """
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
            deadline=game.deadline if seated else None,
            to_act_seat=game.to_act_seat,
            time_control=time_control_of(game),
            waiting_mark=game.waiting_mark,
        )
