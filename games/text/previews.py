"""A preview in words: what an action will start, said in the confirm step (issue 16).

The facts come from ``engine.preview`` (the engine applies the action itself); this module
only writes them in the viewer's language. Pure: engine values and seats' public facts in,
sentences out.
"""

from __future__ import annotations

from collections.abc import Mapping

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

import engine
from games.text.seats import SeatInfo
from games.text.words import COLOR_NAME, LEADER_NAME, list_text, monument_name, tile_word


def _who(seats: Mapping[int, SeatInfo], seat: int, viewer: int | None) -> str:
    if seat == viewer:
        return _("you")
    info = seats.get(seat)
    return info.username if info else _("Seat %(n)s") % {"n": seat}


def preview_lines(
    preview: engine.Preview, seats: Mapping[int, SeatInfo], viewer: int | None
) -> list[str]:
    """Return the sentences of ``preview`` for ``viewer`` ("Starts a revolt over the priest…")."""
    lines = []
    conflict = preview.conflict
    if preview.wars:
        lines.append(
            ngettext(
                "Unites two kingdoms: a war over %(colors)s.",
                "Unites two kingdoms: wars over %(colors)s.",
                len(preview.wars),
            )
            % {"colors": list_text(COLOR_NAME[c] for c in preview.wars)}
        )
    if conflict is not None:
        values = {
            # A revolt over black is one over the kings (RULES.md §1.2).
            "leader": LEADER_NAME[engine.COLOR_LEADERS[conflict.color]],
            "attacker": _who(seats, conflict.attacker, viewer),
            "a": conflict.attacker_strength,
            "defender": _who(seats, conflict.defender, viewer),
            "d": conflict.defender_strength,
        }
        if conflict.kind == "revolt":
            text = _(
                "Starts a revolt over the %(leader)s: %(attacker)s %(a)s against "
                "%(defender)s %(d)s, before support."
            )
        else:
            text = _(
                "The first war, over the %(leader)s: %(attacker)s %(a)s against "
                "%(defender)s %(d)s, before support."
            )
        lines.append(text % values)
    for score in preview.scores:
        lines.append(
            _("Scores %(n)s %(color)s for %(who)s.")
            % {
                "n": score.amount,
                "color": COLOR_NAME[score.color],
                "who": _who(seats, score.seat, viewer),
            }
        )
    if preview.destroyed is not None:
        lines.append(_("Destroys the %(tile)s there.") % {"tile": tile_word(preview.destroyed)})
    for loss in preview.leaders_lost:
        values = {
            "leader": LEADER_NAME[loss.leader],
            "square": loss.square,
            "who": _who(seats, loss.seat, viewer),
        }
        if loss.seat == viewer:
            text = _("Removes your %(leader)s on %(square)s: no temple is left beside it.")
        else:
            text = _("Removes %(who)s's %(leader)s on %(square)s: no temple is left beside it.")
        lines.append(text % values)
    if preview.split_into:
        lines.append(_("Splits a kingdom into %(n)s parts.") % {"n": preview.split_into})
    if preview.monuments:
        names = sorted({monument_name(m.monument_name) for m in preview.monuments})
        lines.append(
            _("Completes a 2×2 of one colour: you may build a monument (%(names)s).")
            % {"names": list_text(names)}
        )
    if preview.treasures:
        lines.append(
            ngettext(
                "You will choose %(n)s treasure to take.",
                "You will choose %(n)s treasures to take.",
                preview.treasures,
            )
            % {"n": preview.treasures}
        )
    if preview.ends_turn:
        lines.append(_("It is your turn's last action: your tiles are then drawn."))
    elif not preview.undoable:
        lines.append(_("It cannot be taken back."))
    return lines
