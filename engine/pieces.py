"""Colours, leaders and monuments of the base game (RULES.md §1.2).

Colours are small ints in the notation order ``red, black, blue, green``; the
same index names the leader of that colour (king = black, priest = red,
farmer = blue, trader = green).
"""

from __future__ import annotations

from .kinds import Color, Leader, MonumentName

RED, BLACK, BLUE, GREEN = 0, 1, 2, 3
COLORS: tuple[int, ...] = (RED, BLACK, BLUE, GREEN)
COLOR_NAMES: tuple[Color, ...] = ("red", "black", "blue", "green")
COLOR_LETTERS: tuple[str, ...] = ("r", "k", "b", "g")
COLOR_BY_NAME: dict[str, int] = {n: i for i, n in enumerate(COLOR_NAMES)}
COLOR_BY_LETTER: dict[str, int] = {n: i for i, n in enumerate(COLOR_LETTERS)}

# A leader is named by the colour it stands for (RULES.md §1.2).
LEADER_NAMES: tuple[Leader, ...] = ("priest", "king", "farmer", "trader")
LEADER_LETTERS: tuple[str, ...] = ("P", "K", "F", "T")
LEADER_BY_NAME: dict[str, int] = {n: i for i, n in enumerate(LEADER_NAMES)}
LEADER_BY_LETTER: dict[str, int] = {n: i for i, n in enumerate(LEADER_LETTERS)}
# The colour each leader stands for (king black, priest red, farmer blue, trader green).
LEADER_COLORS: dict[Leader, Color] = dict(zip(LEADER_NAMES, COLOR_NAMES, strict=True))
# The leader of each colour: a revolt over black is one over the kings.
COLOR_LEADERS: dict[Color, Leader] = dict(zip(COLOR_NAMES, LEADER_NAMES, strict=True))
KING = BLACK
TRADER = GREEN
PRIEST = RED

# Tiles in the game per colour (RULES.md §1.2) and the bag after setup (§1.3).
TILE_TOTALS: tuple[int, ...] = (57, 30, 36, 30)
TOTAL_TILES = 153
TREASURE_COUNT = 10
CATASTROPHES_EACH = 2
HAND_SIZE = 6
MAX_PLAYERS = 4

# The six monuments, each a pair of colours in notation order (RULES.md §1.2).
MONUMENTS: tuple[tuple[int, int], ...] = (
    (RED, BLACK),
    (RED, BLUE),
    (RED, GREEN),
    (BLACK, BLUE),
    (BLACK, GREEN),
    (BLUE, GREEN),
)
# Each named by its two colours, in notation order (``tests/engine/test_kinds.py`` checks it).
MONUMENT_NAMES: tuple[MonumentName, ...] = (
    "red-black",
    "red-blue",
    "red-green",
    "black-blue",
    "black-green",
    "blue-green",
)
# Each monument's name → its two colour names, in notation order (``"red-blue"`` → red, blue).
MONUMENT_COLORS: dict[MonumentName, tuple[Color, Color]] = {
    MONUMENT_NAMES[m]: (COLOR_NAMES[a], COLOR_NAMES[b]) for m, (a, b) in enumerate(MONUMENTS)
}
MONUMENT_BY_PAIR: dict[frozenset[int], int] = {
    frozenset(pair): i for i, pair in enumerate(MONUMENTS)
}

# Board cell codes: one small int per square.
EMPTY = 0
TILE_BASE = 1  # TILE_BASE + colour: a face-up tile (1..4)
FACE_DOWN = 5  # a tile flipped under a monument (RULES.md §8.2)
CATASTROPHE = 6
LEADER_BASE = 8  # LEADER_BASE + 4 * (seat - 1) + colour (8..23)


def tile_cell(color: int) -> int:
    """Return the board cell code of a face-up tile of ``color``."""
    return TILE_BASE + color


def leader_cell(seat: int, color: int) -> int:
    """Return the board cell code of ``seat``'s leader of ``color`` (seat 1..4)."""
    return LEADER_BASE + 4 * (seat - 1) + color


def cell_leader(cell: int) -> tuple[int, int]:
    """Return ``(seat, colour)`` of a leader cell code (``cell >= LEADER_BASE``)."""
    k = cell - LEADER_BASE
    return k // 4 + 1, k % 4
