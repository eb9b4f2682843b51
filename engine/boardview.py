"""The board as a seat sees it, square by square: typed parts of ``PlayerView`` (RULES.md §1, §3).

``board_squares`` returns one ``SquareView`` per square, in square order (``a1``, ``b1``, …
``p11``), from a view's own public fields: what lies there, which kingdom it belongs to and
where that kingdom ends, the monument covering it, the treasure on it, where a river meets the
land. Everything here is public (a board holds no secret, RULES.md §14); the site draws the
board from these values alone.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import NamedTuple

from .board import (
    COLS,
    IS_RIVER,
    NUM_SQUARES,
    ROWS,
    SPECIAL_TREASURES,
    SQUARE_BY_NAME,
    SQUARE_NAMES,
    block_squares,
)
from .kinds import Color, Leader, MonumentName, PieceKind, Side
from .pieces import (
    CATASTROPHE,
    COLOR_NAMES,
    EMPTY,
    FACE_DOWN,
    LEADER_BASE,
    LEADER_COLORS,
    LEADER_NAMES,
    MONUMENT_NAMES,
    MONUMENTS,
    TILE_BASE,
    cell_leader,
)

PIECE_KINDS: tuple[PieceKind, ...] = ("empty", "tile", "facedown", "catastrophe", "leader")
SIDES: tuple[Side, ...] = ("n", "e", "s", "w")


def _side_neighbours(s: int) -> tuple[tuple[Side, int], ...]:
    r, c = divmod(s, COLS)
    steps: tuple[tuple[Side, int, int], ...] = (
        ("n", -1, 0),
        ("e", 0, 1),
        ("s", 1, 0),
        ("w", 0, -1),
    )
    return tuple(
        (side, (r + dr) * COLS + c + dc if 0 <= r + dr < ROWS and 0 <= c + dc < COLS else -1)
        for side, dr, dc in steps
    )


# Per square, its neighbour on each side (``-1`` off the board), computed once at import.
SIDE_NEIGHBOURS: tuple[tuple[tuple[Side, int], ...], ...] = tuple(
    _side_neighbours(s) for s in range(NUM_SQUARES)
)
# Per square, the sides where a river square meets land: its banks (none for land; §1.1).
RIVER_BANKS: tuple[tuple[Side, ...], ...] = tuple(
    tuple(side for side, y in SIDE_NEIGHBOURS[s] if y >= 0 and not IS_RIVER[y])
    if IS_RIVER[s]
    else ()
    for s in range(NUM_SQUARES)
)


@dataclass(frozen=True, slots=True)
class MonumentView:
    """One built monument: ``name`` (``"red-blue"``), its two ``colors`` and ``squares``.

    ``top`` is the top-left square's name; ``squares`` the four names of the 2×2 block it
    covers, top row first (RULES.md §8.2).
    """

    name: MonumentName
    colors: tuple[Color, Color]
    top: str
    squares: tuple[str, str, str, str]


@dataclass(frozen=True, slots=True)
class LeaderView:
    """One leader on the board: its ``seat`` (1..N), ``leader`` name, ``color`` and ``square``.

    A leader stands for the colour of its name (king black, priest red, farmer blue,
    trader green; RULES.md §1.2).
    """

    seat: int
    leader: Leader
    color: Color
    square: str


class SquareView(NamedTuple):
    """What one square shows (RULES.md §1.1, §3); a named tuple: 176 are built per view.

    ``name`` (``"e2"``), ``row`` 1..11 and ``col`` 0..15; ``river`` its terrain; ``piece``
    one of ``PIECE_KINDS``; ``color`` the tile's or leader's colour name (None otherwise);
    ``seat`` and ``leader`` the leader's owner and name; ``treasure`` whether a treasure
    lies there and ``special`` whether it is one of the four special (corner) treasures
    (§9); ``monument`` the ``MonumentView`` covering it, else None; ``kingdom`` the number
    of its kingdom (as ``PlayerView.kingdoms``), else None; ``kingdom_edges`` the sides
    (``n e s w``) where that kingdom ends; ``unification`` whether the unification marker
    lies here while wars are pending (§7.1); ``banks`` the sides where this river square
    meets land (empty on land, and between two river squares: the river's banks, §1.1).
    """

    name: str
    row: int
    col: int
    river: bool
    piece: PieceKind
    color: Color | None = None
    seat: int | None = None
    leader: Leader | None = None
    treasure: bool = False
    special: bool = False
    monument: MonumentView | None = None
    kingdom: int | None = None
    kingdom_edges: tuple[Side, ...] = ()
    unification: bool = False
    banks: tuple[Side, ...] = ()


def monument_views(built: Mapping[MonumentName, str]) -> tuple[MonumentView, ...]:
    """Return the built monuments (``built`` name → top-left square name), in monument order."""
    out = []
    for m, name in enumerate(MONUMENT_NAMES):
        if name not in built:
            continue
        top = SQUARE_BY_NAME[built[name]]
        a, b = MONUMENTS[m]
        q = block_squares(top)
        out.append(
            MonumentView(
                name=MONUMENT_NAMES[m],
                colors=(COLOR_NAMES[a], COLOR_NAMES[b]),
                top=SQUARE_NAMES[top],
                squares=(
                    SQUARE_NAMES[q[0]],
                    SQUARE_NAMES[q[1]],
                    SQUARE_NAMES[q[2]],
                    SQUARE_NAMES[q[3]],
                ),
            )
        )
    return tuple(out)


def leader_views(leaders: Mapping[int, Mapping[Leader, str | None]]) -> tuple[LeaderView, ...]:
    """Return every leader on the board (``leaders[seat][leader]`` a square or None), by square."""
    out = [
        LeaderView(seat, leader, LEADER_COLORS[leader], square)
        for seat, own in leaders.items()
        for leader, square in own.items()
        if square is not None
    ]
    return tuple(sorted(out, key=lambda lv: SQUARE_BY_NAME[lv.square]))


def board_squares(
    cells: tuple[int, ...],
    treasures: frozenset[str],
    kingdoms: Mapping[str, int],
    monuments: tuple[MonumentView, ...],
    unification: str | None,
) -> tuple[SquareView, ...]:
    """Return the 176 ``SquareView`` of a board, in square order.

    ``cells`` are the board's cell codes (``PlayerView.cells``), ``treasures`` the squares
    holding one, ``kingdoms`` the kingdom number of each square in one, ``monuments`` the
    built ones, ``unification`` the marker's square or None. Raises ``ValueError`` unless
    there are 176 cells.
    """
    if len(cells) != NUM_SQUARES:
        raise ValueError(f"a board has {NUM_SQUARES} squares, not {len(cells)}")
    covered = {q: m for m in monuments for q in m.squares}
    out = []
    for s, cell in enumerate(cells):
        name = SQUARE_NAMES[s]
        treasure = name in treasures
        color: Color | None = None
        seat: int | None = None
        leader: Leader | None = None
        piece: PieceKind
        if cell == EMPTY:
            piece = "empty"
        elif cell == CATASTROPHE:
            piece = "catastrophe"
        elif cell == FACE_DOWN:
            piece = "facedown"
        elif cell >= LEADER_BASE:
            piece = "leader"
            seat, c = cell_leader(cell)
            color, leader = COLOR_NAMES[c], LEADER_NAMES[c]
        else:
            piece = "tile"
            color = COLOR_NAMES[cell - TILE_BASE]
        kingdom = kingdoms.get(name)
        edges: tuple[Side, ...] = ()
        if kingdom is not None:
            edges = tuple(
                side
                for side, y in SIDE_NEIGHBOURS[s]
                if y < 0 or kingdoms.get(SQUARE_NAMES[y]) != kingdom
            )
        out.append(
            SquareView(
                name,
                s // COLS + 1,
                s % COLS,
                IS_RIVER[s],
                piece,
                color,
                seat,
                leader,
                treasure,
                treasure and s in SPECIAL_TREASURES,
                covered.get(name),
                kingdom,
                edges,
                name == unification,
                RIVER_BANKS[s],
            )
        )
    return tuple(out)
