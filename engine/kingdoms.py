"""Regions and kingdoms (RULES.md §3): one flood fill per game, then local updates.

``label(board)`` gives every connecting square a region id; a region is a
kingdom when it holds a leader. Squares that connect nothing (empty,
catastrophe, or the ``skip`` square, used to set a unification tile apart
(§7.3) or to lift a moving leader (§4.1)) get -1. ``relabel`` derives the
labelling of a board from the labelling of another that differs in a few
squares, flood-filling only the regions those squares touch.
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


def relabel(
    parent: Regions, old: Sequence[int], new: Sequence[int], changed: Sequence[int]
) -> tuple[Regions, list[int]]:
    """Return the labelling of ``new`` and the squares whose region may have changed (§3).

    ``parent`` labels ``old``; ``changed`` lists every square where ``new``
    differs from ``old``. Only the regions holding or touching a changed
    square are flood-filled again (every merge or split happens among them);
    the others, and their lists, are shared with ``parent``, which is left
    unchanged. Region ids are reused or appended, so a region id may exceed
    the number of squares and some ids may name no square (empty lists).
    """
    old_rid = parent.rid
    neigh = NEIGHBOURS
    if len(changed) == 1 and old_rid[changed[0]] < 0:
        x = changed[0]
        if new[x] and new[x] != CATASTROPHE:
            return _join(parent, new, x)
    dirty: set[int] = set()
    for x in changed:
        r = old_rid[x]
        if r >= 0:
            dirty.add(r)
        for y in neigh[x]:
            r = old_rid[y]
            if r >= 0:
                dirty.add(r)
    squares = list(parent.squares)
    leaders = list(parent.leaders)
    rid = list(old_rid)
    kid = list(parent.kid)
    todo: list[int] = []
    for r in dirty:
        todo += squares[r]
        squares[r] = []
        leaders[r] = []
    todo += [x for x in changed if old_rid[x] < 0]
    for x in todo:
        c = new[x]
        rid[x] = -3 if c and c != CATASTROPHE else -1  # -3: connecting, to label
        kid[x] = -1
    free = dirty
    for x in todo:
        if rid[x] != -3:
            continue
        r = old_rid[x]
        if r in free:  # a region keeps its id when it can, so fewer squares change label
            free.discard(r)
        elif free:
            r = min(free)
            free.discard(r)
        else:
            r = len(squares)
            squares.append([])
            leaders.append([])
        rid[x] = r
        members = [x]
        for m in members:  # breadth-first, as in ``label``
            for y in neigh[m]:
                if rid[y] == -3:
                    rid[y] = r
                    members.append(y)
        squares[r] = members
        here: list[tuple[int, int, int]] = []
        for s in members:
            c = new[s]
            if c >= LEADER_BASE:
                seat, color = cell_leader(c)
                here.append((seat, color, s))
        if len(here) > 1:
            here.sort(key=_third)  # square order, as ``label`` lists them
        leaders[r] = here
        if here:
            for m in members:
                kid[m] = r
    return Regions(rid, squares, leaders, kid), todo


def _join(parent: Regions, new: Sequence[int], x: int) -> tuple[Regions, list[int]]:
    """Return ``relabel``'s answer when only ``x`` changed, from empty to connecting.

    The regions next to ``x`` merge into the largest of them, which keeps its
    id: only the smaller ones' squares change label.
    """
    old_rid = parent.rid
    rid = list(old_rid)
    kid = list(parent.kid)
    squares = list(parent.squares)
    leaders = list(parent.leaders)
    cell = new[x]
    mine: list[tuple[int, int, int]] = []
    if cell >= LEADER_BASE:
        seat, color = cell_leader(cell)
        mine = [(seat, color, x)]
    near = {old_rid[y] for y in NEIGHBOURS[x] if old_rid[y] >= 0}
    if not near:
        r = len(squares)
        squares.append([x])
        leaders.append(mine)
        rid[x] = r
        kid[x] = r if mine else -1
        return Regions(rid, squares, leaders, kid), [x]
    keep = max(near, key=lambda r: len(squares[r]))
    members = [*squares[keep], x]
    here = [*leaders[keep], *mine]
    moved = [x]
    for r in sorted(near):
        if r == keep:
            continue
        part = squares[r]
        members += part
        moved += part
        here += leaders[r]
        for y in part:
            rid[y] = keep
        squares[r] = []
        leaders[r] = []
    rid[x] = keep
    if len(here) > 1:
        here.sort(key=_third)
    squares[keep] = members
    leaders[keep] = here
    if here:
        if not parent.leaders[keep]:
            moved = members  # the region has just become a kingdom
        for y in moved:
            kid[y] = keep
    return Regions(rid, squares, leaders, kid), moved


def _third(t: tuple[int, int, int]) -> int:
    return t[2]


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
