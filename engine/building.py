"""Building monuments during play: the offer, building or declining, monument VP (RULES.md §8).

Works on a ``Work`` (``apply``'s mutable copy); where a monument may stand is
``monuments.options``.
"""

from __future__ import annotations

from .board import SQUARE_NAMES, block_squares
from .decisions import Decision
from .monuments import monument_income, options
from .pieces import FACE_DOWN, MONUMENT_NAMES
from .work import Work


def offer(w: Work) -> bool:
    """Offer a monument for the tile just placed; return True when a decision is pending (§8.1)."""
    found = options(w.board, w.placed, w.monuments)
    if not found:
        w.placed = -1
        return False
    w.pending = Decision(
        seat=w.active,
        kind="monument",
        options=tuple(f"{MONUMENT_NAMES[m]} {SQUARE_NAMES[t]}" for m, t in found),
    )
    return True


def build(w: Work, monument: int, top: int) -> None:
    """Flip the block at ``top`` face down under ``monument``; strand leaders lose out (§8.2)."""
    squares = block_squares(top)
    for x in squares:
        w.put(x, FACE_DOWN)
    w.monuments = (*w.monuments[:monument], top, *w.monuments[monument + 1 :])
    w.placed = -1
    w.pending = None
    w.emit(
        "monument_built", seat=w.active, monument=MONUMENT_NAMES[monument], square=SQUARE_NAMES[top]
    )
    w.withdraw_stranded(squares)


def decline(w: Work) -> None:
    """Decline the monument offer (§8.1)."""
    w.placed = -1
    w.pending = None
    w.emit("monument_declined", seat=w.active)


def score_monuments(w: Work) -> None:
    """Give the active player monument VP at the end of their turn (§8.3, §12.1).

    The colours come from ``monument_income``.
    """
    if max(w.monuments) < 0:
        return  # none built
    seat = w.active
    for color in monument_income(w.regions(), w.monuments, seat):
        w.score(seat, color, 1, "monument")
