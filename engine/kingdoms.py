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

from .board import COLS, NEIGHBOURS, NUM_SQUARES, ROWS
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
    """Return the labelling of ``new`` and the squares whose kingdom may have changed (§3).

    ``parent`` labels ``old``; ``changed`` lists every square where ``new``
    differs from ``old``. Changes are applied one square at a time: a square
    filled merges the regions around it into the largest; a square emptied
    leaves its region whole when its neighbours in it stay linked around it.
    Only when an emptied square may split its region are the regions around
    the changes flood-filled again (``_reflood``). Regions not touched, and
    their lists, are shared with ``parent``, which is left unchanged. Region
    ids are reused or appended, so an id may exceed the number of squares and
    some ids may name no square (empty lists).
    """
    rid = list(parent.rid)
    kid = list(parent.kid)
    squares = list(parent.squares)
    leaders = list(parent.leaders)
    moved: list[int] = []
    for x in changed:
        was = old[x] and old[x] != CATASTROPHE
        now = new[x] and new[x] != CATASTROPHE
        if was and now:
            if old[x] >= LEADER_BASE or new[x] >= LEADER_BASE:
                return _reflood(parent, new, changed)
            continue  # a tile turned face down (§8.2) still connects
        if now:
            _join(rid, kid, squares, leaders, moved, new, x)
        elif was:
            r = rid[x]
            if not stays_whole(rid, r, x):
                return _reflood(parent, new, changed)
            rest = [y for y in squares[r] if y != x]
            squares[r] = rest
            rid[x] = kid[x] = -1
            moved.append(x)
            if old[x] >= LEADER_BASE:
                leaders[r] = [t for t in leaders[r] if t[2] != x]
                if not leaders[r]:
                    for y in rest:
                        kid[y] = -1  # the region is no longer a kingdom
                    moved += rest
    return Regions(rid, squares, leaders, kid), moved


def _join(
    rid: list[int],
    kid: list[int],
    squares: list[list[int]],
    leaders: list[list[tuple[int, int, int]]],
    moved: list[int],
    new: Sequence[int],
    x: int,
) -> None:
    """Label ``x``, just filled, in place: the regions next to it merge into the largest.

    The largest region keeps its id, so only the smaller ones' squares change
    label; ``moved`` gains every square whose kingdom id may have changed.
    """
    cell = new[x]
    mine: list[tuple[int, int, int]] = []
    if cell >= LEADER_BASE:
        seat, color = cell_leader(cell)
        mine = [(seat, color, x)]
    near = {rid[y] for y in NEIGHBOURS[x] if rid[y] >= 0}
    if len(near) == 1 and not mine:
        # The commonest case: a tile joins one region, whose leaders stay as they are.
        keep = near.pop()
        squares[keep] = [*squares[keep], x]
        rid[x] = keep
        kid[x] = keep if leaders[keep] else -1
        moved.append(x)
        return
    if not near:
        r = len(squares)
        squares.append([x])
        leaders.append(mine)
        rid[x] = r
        kid[x] = r if mine else -1
        moved.append(x)
        return
    keep = next(iter(near)) if len(near) == 1 else max(near, key=lambda r: len(squares[r]))
    was_kingdom = bool(leaders[keep])
    members = [*squares[keep], x]
    here = [*leaders[keep], *mine]
    joined: list[int] = [x]
    for r in sorted(near):
        if r == keep:
            continue
        part = squares[r]
        members += part
        joined += part
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
        if not was_kingdom:
            joined = members  # the region has just become a kingdom
        for y in joined:
            kid[y] = keep
    else:
        for y in joined:
            kid[y] = -1
    moved += joined


def stays_whole(rid: list[int], home: int, pos: int) -> bool:
    """Return True when the neighbours of ``pos`` in region ``home`` stay linked around it.

    They are linked when one unbroken arc of the eight squares around ``pos``
    in the region holds them all; when this says False the region may still
    be whole (linked further away), and only a flood fill can tell.
    """
    inside = [q >= 0 and rid[q] == home for q in RING[pos]]
    if all(inside):
        return True
    start = inside.index(False)
    arcs = 0
    counted = False
    for i in range(1, 9):
        j = (start + i) % 8
        if not inside[j]:
            counted = False
        elif j % 2 == 0 and not counted:  # an edge neighbour of pos: count its arc once
            arcs += 1
            counted = True
    return arcs <= 1


def _ring(s: int) -> tuple[int, ...]:
    """Return the eight squares around ``s`` clockwise from the one above (-1 off the board)."""
    r, c = divmod(s, COLS)
    out = []
    for dr, dc in ((-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1)):
        rr, cc = r + dr, c + dc
        out.append(rr * COLS + cc if 0 <= rr < ROWS and 0 <= cc < COLS else -1)
    return tuple(out)


RING: tuple[tuple[int, ...], ...] = tuple(_ring(s) for s in _ALL)


def _reflood(
    parent: Regions, new: Sequence[int], changed: Sequence[int]
) -> tuple[Regions, list[int]]:
    """Return ``relabel``'s answer by flood-filling every region holding or touching a change."""
    old_rid = parent.rid
    neigh = NEIGHBOURS
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
