"""What legality knows about one board, computed once per state: ``Analysis`` (RULES.md §3–§5).

``analysis(state)`` is cached on the state and derived from the parent state's by a local
update (``derive``): which kingdoms each empty square touches, where a tile may go (§5.1),
the leader spots beside a face-up temple (§4.2) and the squares open to a catastrophe (§10).
``legality`` (the legal actions, where a leader may go), ``checks``, ``work`` and the
playouts read it.
"""

from __future__ import annotations

from bisect import bisect_left, insort
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from operator import itemgetter
from typing import TypeVar

from .actions import (
    CATASTROPHE_ACTIONS,
    TILE_ACTIONS,
    PlaceCatastrophe,
    PlaceTile,
)
from .board import (
    IS_RIVER,
    LAND_SQUARES,
    NEIGHBOURS,
    NUM_SQUARES,
    RIVER_SQUARES,
)
from .kingdoms import Regions, label, relabel
from .pieces import BLACK, BLUE, FACE_DOWN, GREEN, RED, TILE_BASE
from .state import GameState

TEMPLE = TILE_BASE + RED
_LAND_COLORS = (RED, BLACK, GREEN)
_T = TypeVar("_T")
_ALL = range(NUM_SQUARES)


# What lifting the leader on a square changes (``leader_targets``): the region list it was
# judged on, the spots that open and those that close, and the targets worked out from them
# with the free spots list they were applied to.
Lifted = tuple[list[int], list[int], list[int], list[int], list[int]]


@dataclass(slots=True)
class Analysis:
    """Hold what legality needs about one board, computed once per state.

    ``nk[s]`` is the number of distinct kingdoms next to empty square ``s``
    (9 for occupied squares); ``land_ok``/``river_ok`` the empty squares where
    a tile may go (§5.1); ``leader_spots`` the empty land squares next to a
    face-up temple (§4.2); ``open_squares`` the squares empty or holding a
    face-up tile, where a catastrophe may go unless a treasure is there (§10).
    Every list is in square order and never changed once built: a derived
    analysis shares its parent's lists where nothing changed. The private
    fields cache what is worked out on demand (spots by kingdom, a lifted
    leader's targets, the action lists) and are carried to a derived analysis
    only while still true.
    """

    regions: Regions
    nk: list[int]
    land_ok: list[int]
    river_ok: list[int]
    leader_spots: list[int]
    open_squares: list[int]
    _free: list[int] | None = None
    _near: dict[int, list[int]] | None = None
    _pairs: list[int] | None = None
    # Per colour, the tile actions on the open squares; the catastrophe actions on open_squares.
    _tiles: dict[int, list[PlaceTile]] = field(default_factory=dict)
    _cats: list[PlaceCatastrophe] | None = None
    # A lifted leader's verdicts by its square (``Lifted``).
    _lifted: dict[int, Lifted] = field(default_factory=dict)

    def free_spots(self) -> list[int]:
        """Return the leader spots next to at most one kingdom (§4.2), in square order."""
        got = self._free
        if got is None:
            nk = self.nk
            got = self._free = [s for s in self.leader_spots if nk[s] <= 1]
        return got

    def tile_actions(self, color: int) -> list[PlaceTile]:
        """Return the tile actions of ``color`` on its open squares, in square order (§5.1)."""
        got = self._tiles.get(color)
        if got is None:
            squares = self.river_ok if color == BLUE else self.land_ok
            got = list(picker(squares)(TILE_ACTIONS[color]))
            self._tiles[color] = got
        return got

    def catastrophe_actions(self) -> list[PlaceCatastrophe]:
        """Return a catastrophe on each of ``open_squares`` (treasures not yet taken out)."""
        got = self._cats
        if got is None:
            got = self._cats = list(picker(self.open_squares)(CATASTROPHE_ACTIONS))
        return got

    def pair_spots(self) -> list[int]:
        """Return the leader spots next to exactly two kingdoms, in square order."""
        got = self._pairs
        if got is None:
            nk = self.nk
            got = self._pairs = [s for s in self.leader_spots if nk[s] == 2]
        return got

    def spots_near(self, kingdom: int) -> list[int]:
        """Return the leader spots next to a square of ``kingdom`` (a kingdom id), in order."""
        near = self._near
        if near is None:
            near = self._near = self._spots_by_kingdom()
        return near.get(kingdom, [])

    def _spots_by_kingdom(self) -> dict[int, list[int]]:
        """Map each kingdom id to the leader spots next to it."""
        near: dict[int, list[int]] = {}
        kid = self.regions.kid
        neigh = NEIGHBOURS
        nk = self.nk
        for s in self.leader_spots:
            if not nk[s]:
                continue  # next to no kingdom
            seen = -1
            for y in neigh[s]:
                k = kid[y]
                if k >= 0 and k != seen:
                    got = near.get(k)
                    if got is None:
                        near[k] = [s]
                    elif got[-1] != s:
                        got.append(s)
                    seen = k
        return near


def picker(squares: list[int]) -> Callable[[Sequence[_T]], Sequence[_T]]:
    """Return a function giving ``[table[s] for s in squares]`` of a table (one C call).

    ``operator.itemgetter`` answers one item, not a tuple, for one square.
    """
    if len(squares) > 1:
        return itemgetter(*squares)
    return lambda table: [table[s] for s in squares]


def analysis(state: GameState) -> Analysis:
    """Return the cached ``Analysis`` of ``state``'s board.

    A state made by ``apply`` carries its parent's analysis (``cache["base"]``,
    set by ``Work.freeze``): its own is derived from it by ``derive``, touching
    only the squares the action changed; any other state is analysed afresh.
    """
    cache = state.cache
    got = cache.get("analysis")
    if got is None:
        base = cache.pop("base", None)
        if base is None:
            got = _analyse(state.board)
        else:
            parent, old, changed, relabelled = base
            got = derive(parent, old, state.board, changed, relabelled)
        cache["analysis"] = got
    return got  # type: ignore[no-any-return,unused-ignore]


def derive(
    parent: Analysis,
    old: tuple[int, ...],
    board: tuple[int, ...],
    changed: list[int],
    relabelled: tuple[Regions, list[int]] | None = None,
) -> Analysis:
    """Return the ``Analysis`` of ``board`` from ``parent``, the analysis of ``old`` (§3–§5).

    ``changed`` lists every square where the boards differ; ``relabelled`` is
    ``kingdoms.relabel``'s answer for them when it has already run. Only empty
    squares next to a square whose kingdom changed get a new count of
    neighbouring kingdoms; leader spots change only around changed squares
    and temples.
    """
    if not changed:
        return parent
    if relabelled is None:
        relabelled = relabel(parent.regions, old, board, changed)
    regions, moved = relabelled
    kid, old_kid = regions.kid, parent.regions.kid
    neigh = NEIGHBOURS
    old_nk = parent.nk
    nk = list(old_nk)
    recount: set[int] = set()
    for x in changed:
        if board[x]:
            nk[x] = 9
        else:
            recount.add(x)
    for x in moved:
        if kid[x] != old_kid[x] or x in recount:
            for y in neigh[x]:
                if not board[y]:
                    recount.add(y)
    # A square opens or closes to tiles only where it was changed or recounted.
    land_flips: list[int] = []
    river_flips: list[int] = []
    for y in recount:
        ks = {kid[z] for z in neigh[y]}
        n = nk[y] = len(ks) - (-1 in ks)
        if (n <= 2) != (old_nk[y] <= 2):
            (river_flips if IS_RIVER[y] else land_flips).append(y)
    for x in changed:
        if board[x] and old_nk[x] <= 2:  # filled (an emptied square is recounted)
            (river_flips if IS_RIVER[x] else land_flips).append(x)
    tiles: dict[int, list[PlaceTile]] = {}
    old_tiles = parent._tiles
    land_ok, river_ok = parent.land_ok, parent.river_ok
    if land_flips:
        kept = [(c, old_tiles[c]) for c in _LAND_COLORS if c in old_tiles]
        land_ok, patched = _flip(land_ok, land_flips, nk, kept)
        tiles.update(patched)
    else:
        tiles.update((c, old_tiles[c]) for c in _LAND_COLORS if c in old_tiles)
    if river_flips:
        kept = [(BLUE, old_tiles[BLUE])] if BLUE in old_tiles else []
        river_ok, patched = _flip(river_ok, river_flips, nk, kept)
        tiles.update(patched)
    elif BLUE in old_tiles:
        tiles[BLUE] = old_tiles[BLUE]
    # A square becomes or stops being a leader spot only if it or a neighbouring temple changed.
    affected = set(changed)
    for x in changed:
        if board[x] == TEMPLE or old[x] == TEMPLE:
            affected.update(neigh[x])
    spots = parent.leader_spots
    for y in affected:
        if IS_RIVER[y] or (old[y] and board[y]):
            continue
        was = not old[y] and by_temple(old, y)
        now = not board[y] and by_temple(board, y)
        if was != now:
            if spots is parent.leader_spots:
                spots = list(spots)
            if now:
                insort(spots, y)
            else:
                spots.remove(y)
    opened = parent.open_squares
    for x in changed:
        if (board[x] < FACE_DOWN) != (old[x] < FACE_DOWN):
            if opened is parent.open_squares:
                opened = list(opened)
            if board[x] < FACE_DOWN:
                insort(opened, x)
            else:
                opened.remove(x)
    child = _new(regions, nk, land_ok, river_ok, spots, opened, tiles)
    if opened is parent.open_squares:
        child._cats = parent._cats
    if spots is parent.leader_spots and recount.isdisjoint(spots):
        # No spot and no spot's neighbour changed kingdom: what was judged of the spots holds,
        # and a lifted leader's targets too while its region is the same list (unchanged).
        child._free = parent._free
        child._near = parent._near
        child._pairs = parent._pairs
        if parent._lifted:
            child._lifted = dict(parent._lifted)
    elif parent._lifted:
        # A lifted leader's verdicts hold while its region is the same list and no square
        # changed or recounted is next to it: only the spots next to it could flip.
        rid = regions.rid
        near = {rid[z] for y in recount.union(affected) for z in neigh[y]}
        squares = regions.squares
        for pos, got in parent._lifted.items():
            r = rid[pos]
            if r >= 0 and r not in near and squares[r] is got[0]:
                child._lifted[pos] = got
    return child


def _new(
    regions: Regions,
    nk: list[int],
    land_ok: list[int],
    river_ok: list[int],
    leader_spots: list[int],
    open_squares: list[int],
    tiles: dict[int, list[PlaceTile]],
) -> Analysis:
    """Return an ``Analysis`` of these lists with empty caches but ``_tiles`` (``derive``).

    Sets the slots directly, once per ply: the dataclass's ``__init__`` with
    its two default factories costs more.
    """
    an: Analysis = object.__new__(Analysis)
    an.regions = regions
    an.nk = nk
    an.land_ok = land_ok
    an.river_ok = river_ok
    an.leader_spots = leader_spots
    an.open_squares = open_squares
    an._free = an._near = an._pairs = an._cats = None
    an._tiles = tiles
    an._lifted = {}
    return an


def by_temple(board: Sequence[int], y: int) -> bool:
    """Return True when square ``y`` has a face-up temple next to it (§4.2)."""
    for z in NEIGHBOURS[y]:  # noqa: SIM110 (a loop, not any(): this runs for every ply)
        if board[z] == TEMPLE:
            return True
    return False


def _flip(
    squares: list[int],
    flips: list[int],
    nk: list[int],
    tiles: list[tuple[int, list[PlaceTile]]],
) -> tuple[list[int], list[tuple[int, list[PlaceTile]]]]:
    """Return sorted ``squares`` with each of ``flips`` added (nk <= 2) or taken out.

    ``tiles`` holds ``(colour, tile actions on squares)``: each list is
    patched alike and returned, new, with its colour.
    """
    out = list(squares)
    lists = [(c, list(actions), TILE_ACTIONS[c]) for c, actions in tiles]
    for y in flips:
        i = bisect_left(out, y)
        if nk[y] <= 2:
            out.insert(i, y)
            for _, actions, table in lists:
                actions.insert(i, table[y])
        else:
            del out[i]
            for _, actions, _table in lists:
                del actions[i]
    return out, [(c, actions) for c, actions, _ in lists]


def _leader_spots(board: Sequence[int]) -> list[int]:
    """Return the empty land squares next to a face-up temple (§4.2), in square order."""
    neigh = NEIGHBOURS
    return sorted(
        {
            y
            for t, c in zip(_ALL, board, strict=True)
            if c == TEMPLE
            for y in neigh[t]
            if not board[y] and not IS_RIVER[y]
        }
    )


def _analyse(board: tuple[int, ...]) -> Analysis:
    regions = label(board)
    neigh = NEIGHBOURS
    # Only empty squares next to a kingdom can touch one: walk the kingdoms' edges.
    touching: dict[int, set[int]] = {}
    for r, leaders in enumerate(regions.leaders):
        if not leaders:
            continue
        for x in regions.squares[r]:
            for y in neigh[x]:
                if not board[y]:
                    got = touching.get(y)
                    if got is None:
                        touching[y] = {r}
                    else:
                        got.add(r)
    nk = [0 if not c else 9 for c in board]
    for y, ks in touching.items():
        nk[y] = len(ks)
    land_ok = [s for s in LAND_SQUARES if nk[s] <= 2]
    river_ok = [s for s in RIVER_SQUARES if nk[s] <= 2]
    opened = [s for s, c in zip(_ALL, board, strict=True) if c < FACE_DOWN]
    return Analysis(regions, nk, land_ok, river_ok, _leader_spots(board), opened)
