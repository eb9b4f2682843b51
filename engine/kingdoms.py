"""Regions and kingdoms (RULES.md §3), computed by one flood fill per board.

``label(board)`` gives every connecting square a region id; a region is a
kingdom when it holds a leader. Squares that connect nothing (empty,
catastrophe, or the ``skip`` square, used to set a unification tile apart
(§7.3) or to lift a moving leader (§4.1)) get -1.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .board import NEIGHBOURS, NUM_SQUARES
from .pieces import CATASTROPHE, EMPTY, LEADER_BASE, cell_leader


@dataclass(slots=True)
class Regions:
    """Label a board: ``rid[s]`` region id or -1; per region its squares and leaders.

    ``leaders[r]`` lists ``(seat, colour, square)``; ``kid[s]`` is ``rid[s]``
    when that region is a kingdom, else -1.
    """

    rid: list[int]
    squares: list[list[int]]
    leaders: list[list[tuple[int, int, int]]]
    kid: list[int]

    def kingdoms_next_to(self, s: int) -> set[int]:
        """Return the kingdom ids adjacent to square ``s``."""
        kid = self.kid
        return {kid[y] for y in NEIGHBOURS[s] if kid[y] >= 0}

    def regions_next_to(self, s: int) -> set[int]:
        """Return the region ids adjacent to square ``s``."""
        rid = self.rid
        return {rid[y] for y in NEIGHBOURS[s] if rid[y] >= 0}


def label(board: Sequence[int], skip: int = -1) -> Regions:
    """Flood-fill ``board`` (176 cell codes) into regions, treating ``skip`` as empty (§3)."""
    rid = [-1] * NUM_SQUARES
    squares: list[list[int]] = []
    leaders: list[list[tuple[int, int, int]]] = []
    neigh = NEIGHBOURS
    for s in range(NUM_SQUARES):
        c = board[s]
        if c in (EMPTY, CATASTROPHE) or rid[s] >= 0 or s == skip:
            continue
        r = len(squares)
        rid[s] = r
        members = [s]
        found: list[tuple[int, int, int]] = []
        i = 0
        while i < len(members):
            x = members[i]
            i += 1
            cx = board[x]
            if cx >= LEADER_BASE:
                seat, color = cell_leader(cx)
                found.append((seat, color, x))
            for y in neigh[x]:
                if rid[y] < 0 and y != skip:
                    cy = board[y]
                    if cy != EMPTY and cy != CATASTROPHE:
                        rid[y] = r
                        members.append(y)
        squares.append(members)
        leaders.append(found)
    kid = [r if r >= 0 and leaders[r] else -1 for r in rid]
    return Regions(rid, squares, leaders, kid)
