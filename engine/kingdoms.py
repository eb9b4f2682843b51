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
from .pieces import CATASTROPHE, LEADER_BASE, cell_leader

_ALL = range(NUM_SQUARES)


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
    # -1: connecting and not yet labelled; -2: connects nothing.
    rid = [-1 if c and c != CATASTROPHE else -2 for c in board]
    if skip >= 0:
        rid[skip] = -2
    squares: list[list[int]] = []
    neigh = NEIGHBOURS
    for s in _ALL:
        if rid[s] != -1:
            continue
        r = len(squares)
        rid[s] = r
        members = [s]
        for x in members:  # the list grows while we walk it: a breadth-first fill
            for y in neigh[x]:
                if rid[y] == -1:
                    rid[y] = r
                    members.append(y)
        squares.append(members)
    leaders: list[list[tuple[int, int, int]]] = [[] for _ in squares]
    for s in _ALL:
        c = board[s]
        if c >= LEADER_BASE and s != skip:
            seat, color = cell_leader(c)
            leaders[rid[s]].append((seat, color, s))
    kid = [r if r >= 0 and leaders[r] else -1 for r in rid]
    rid = [r if r >= 0 else -1 for r in rid]
    return Regions(rid, squares, leaders, kid)


def region_of(board: Sequence[int], start: int, skip: int = -1) -> list[int]:
    """Return the squares of the region containing ``start`` (a connecting square)."""
    seen = {start}
    members = [start]
    neigh = NEIGHBOURS
    for x in members:
        for y in neigh[x]:
            if y not in seen and y != skip:
                c = board[y]
                if c and c != CATASTROPHE:
                    seen.add(y)
                    members.append(y)
    return members
