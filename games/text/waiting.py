"""What a game waits for, and on whom, in words (RULES.md §15)."""

from __future__ import annotations

from collections.abc import Mapping

from django.utils.translation import gettext as _

import engine
from games.text.decisions import decision_words
from games.text.seats import SeatInfo, seat_label
from games.text.words import color_word, conflict_name


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
    return str(decision_words(pending.kind).waiting) % {
        "who": who,
        "color": color_word(pending.color),
        "conflict": conflict_name(pending.conflict),
    }
