"""Monuments on the board: where one may be built and whom it pays (RULES.md §8).

Pure queries over a board; building one during play is ``building.py`` (which works on a
``Work``), so these stay below ``work.py`` and ``legality.py`` may ask them.
"""

from __future__ import annotations

from collections.abc import Sequence

from .board import BLOCKS_OF, COLS
from .kingdoms import Regions
from .pieces import FACE_DOWN, MONUMENTS, TILE_BASE


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


__all__ = ["monument_income", "options"]
