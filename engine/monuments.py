"""Monuments: offering, building, and monument VP (RULES.md §8)."""

from __future__ import annotations

from collections.abc import Sequence

from .board import BLOCKS_OF, COLS, SQUARE_NAMES, block_squares
from .kingdoms import Regions
from .pieces import COLOR_NAMES, FACE_DOWN, MONUMENT_NAMES, MONUMENTS, TILE_BASE
from .state import Decision
from .work import Work


def options(
    board: list[int] | tuple[int, ...], placed: int, built: list[int] | tuple[int, ...]
) -> list[tuple[int, int]]:
    """Return ``[(monument, top-left square)]`` buildable on a block completed at ``placed`` (§8.1).

    A block is four face-up tiles of one colour containing ``placed``; the
    monument must contain that colour and still be available.
    """
    if placed < 0:
        return []
    cell = board[placed]
    if not TILE_BASE <= cell < FACE_DOWN:
        return []
    color = cell - TILE_BASE
    tops = [
        t
        for t in BLOCKS_OF[placed]
        if board[t] == cell == board[t + 1] == board[t + COLS] == board[t + COLS + 1]
    ]
    if not tops:
        return []
    return [
        (m, t) for m, pair in enumerate(MONUMENTS) if color in pair and built[m] < 0 for t in tops
    ]


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


def monument_income(regions: Regions, built: Sequence[int], seat: int) -> list[int]:
    """Return the colours ``seat`` scores 1 VP each of at the end of its turn (§8.3, §12.1).

    ``regions`` labels the board (``kingdoms.label``); ``built[m]`` is the
    top-left square of monument ``m`` or -1. For each built monument, each of
    its colours for which ``seat`` has a leader of that colour in the
    monument's kingdom (no king substitution): in monument order, then in
    the monument's colour order, so a colour may come more than once.
    """
    out: list[int] = []
    for m, top in enumerate(built):
        if top < 0:
            continue
        here = regions.leaders[regions.rid[top]]
        for color in MONUMENTS[m]:
            if any(s == seat and c == color for s, c, _ in here):
                out.append(color)
    return out


def score_monuments(w: Work) -> None:
    """Give the active player monument VP at the end of their turn (§8.3, §12.1).

    The colours come from ``monument_income``.
    """
    if max(w.monuments) < 0:
        return  # none built
    seat = w.active
    for color in monument_income(w.regions(), w.monuments, seat):
        w.score(seat, color, 1, "monument")


__all__ = [
    "COLOR_NAMES",
    "build",
    "decline",
    "monument_income",
    "offer",
    "options",
    "score_monuments",
]
