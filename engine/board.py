"""The map: 176 squares, their names, neighbours and terrain (RULES.md §1.1).

A square is an int ``row * 16 + col`` (``a1`` = 0, ``p11`` = 175). Everything
here is a module constant computed once at import.
"""

from __future__ import annotations

COLS = 16
ROWS = 11
NUM_SQUARES = COLS * ROWS
COL_LETTERS = "abcdefghijklmnop"

_MAP = """
. . . . ~ ~ ~ ~ ~ . T . ~ . . .
. S . . ~ . . . . . . . ~ . . S
. . . ~ ~ T . . . . . . ~ ~ . .
~ ~ ~ ~ . . . . . . . . . ~ ~ ~
. . . . . . . . . . . . . T ~ ~
. . . . . . . . . . . . . . ~ .
~ ~ ~ ~ . . . . T . . . ~ ~ ~ .
. S . ~ ~ ~ ~ . . . . . ~ . . .
. . . . . . ~ ~ ~ ~ ~ ~ ~ . S .
. . . . . T . . . . . . . . . .
. . . . . . . . . . T . . . . .
"""

_CELLS = [tok for line in _MAP.strip().splitlines() for tok in line.split()]
assert len(_CELLS) == NUM_SQUARES

SQUARE_NAMES: tuple[str, ...] = tuple(
    f"{COL_LETTERS[s % COLS]}{s // COLS + 1}" for s in range(NUM_SQUARES)
)
SQUARE_BY_NAME: dict[str, int] = {n: s for s, n in enumerate(SQUARE_NAMES)}
IS_RIVER: tuple[bool, ...] = tuple(c == "~" for c in _CELLS)
RIVER_SQUARES: tuple[int, ...] = tuple(s for s in range(NUM_SQUARES) if IS_RIVER[s])
LAND_SQUARES: tuple[int, ...] = tuple(s for s in range(NUM_SQUARES) if not IS_RIVER[s])
START_TEMPLES: tuple[int, ...] = tuple(s for s in range(NUM_SQUARES) if _CELLS[s] in "TS")
SPECIAL_TREASURES: frozenset[int] = frozenset(s for s in range(NUM_SQUARES) if _CELLS[s] == "S")


def _neighbours(s: int) -> tuple[int, ...]:
    r, c = divmod(s, COLS)
    out = []
    if r > 0:
        out.append(s - COLS)
    if c > 0:
        out.append(s - 1)
    if c < COLS - 1:
        out.append(s + 1)
    if r < ROWS - 1:
        out.append(s + COLS)
    return tuple(out)


NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(_neighbours(s) for s in range(NUM_SQUARES))

# Top-left squares of every 2x2 block, and the blocks containing each square.
BLOCK_TOPS: tuple[int, ...] = tuple(r * COLS + c for r in range(ROWS - 1) for c in range(COLS - 1))


def block_squares(top: int) -> tuple[int, int, int, int]:
    """Return the four squares of the 2x2 block whose top-left square is ``top``."""
    return (top, top + 1, top + COLS, top + COLS + 1)


BLOCKS_OF: tuple[tuple[int, ...], ...] = tuple(
    tuple(t for t in BLOCK_TOPS if s in block_squares(t)) for s in range(NUM_SQUARES)
)


def square_name(s: int) -> str:
    """Return the name (``"f7"``) of square index ``s`` (0..175)."""
    return SQUARE_NAMES[s]


def square_coords(name: str) -> tuple[int, int]:
    """Return ``(column, row)`` of the square named ``name``: ``"b8"`` → ``(1, 8)`` (§1.1).

    Columns count 0..15 from ``a``, rows 1..11 as the name writes them, so sorting by this
    key orders squares as their names read, column letter first. Raises ``ValueError`` for
    an unknown square.
    """
    s = parse_square(name)
    return s % COLS, s // COLS + 1


def parse_square(text: str) -> int:
    """Return the index of a square named like ``f7``; raise ``ValueError`` if unknown (§1.1)."""
    s = SQUARE_BY_NAME.get(text.strip().lower())
    if s is None:
        raise ValueError(f"unknown square {text!r}: squares are a1 to p11 (RULES.md §1.1)")
    return s
