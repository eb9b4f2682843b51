"""What a game waits for, and on whom, in words (RULES.md §15)."""

from __future__ import annotations

from collections.abc import Mapping

from django.utils.translation import gettext as _

import engine
from games.text.seats import SeatInfo, seat_label
from games.text.words import COLOR_NAME, conflict_name


def waiting_text(view: engine.PlayerView, seats: Mapping[int, SeatInfo]) -> str:
    """Return what the game waits for, and on whom (``"Waiting for Seat 2 … to commit"``)."""
    if view.is_over:
        return _("The game is over.")
    who = seat_label(seats, view.to_act)
    pending = view.pending
    if pending is None:
        return _("Waiting for %(who)s to take an action (%(n)s left this turn).") % {
            "who": who,
            "n": view.actions_left,
        }
    if pending.kind == "support":
        return _("Waiting for %(who)s to commit support in the %(color)s %(conflict)s.") % {
            "who": who,
            "color": COLOR_NAME.get(pending.color or "", ""),
            "conflict": conflict_name(pending.conflict),
        }
    if pending.kind == "war_order":
        return _("Waiting for %(who)s to choose which war is fought next.") % {"who": who}
    if pending.kind == "monument":
        return _("Waiting for %(who)s to build a monument or decline.") % {"who": who}
    if pending.kind == "treasure":
        return _("Waiting for %(who)s to choose treasures.") % {"who": who}
    return _("Waiting for %(who)s.") % {"who": who}
