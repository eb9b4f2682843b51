"""What bots and search read of a ``GameState`` beyond the rules functions.

Re-exports, under stable names, the map (RULES.md §1.1), the cell codes of
``GameState.board`` (pieces.py) and the kingdoms of a state (§3), so that
``engine.bots`` can read a position without importing the rule modules. No
rule lives here.

Cell codes: ``EMPTY`` 0; ``TILE_BASE + colour`` (1..4) a face-up tile in the
colour order red, black, blue, green (``RED``..``GREEN``); ``FACE_DOWN`` 5;
``CATASTROPHE`` 6; ``LEADER_BASE + 4 * (seat - 1) + colour`` (8..23) a leader,
decoded by ``cell_leader``.
"""

from __future__ import annotations

from .analysis import analysis
from .board import (
    BLOCKS_OF,
    COLS,
    IS_RIVER,
    NEIGHBOURS,
    NUM_SQUARES,
    SPECIAL_TREASURES,
    SQUARE_NAMES,
    START_TEMPLES,
    block_squares,
)
from .kingdoms import Regions, label
from .monuments import monument_income as _monument_income
from .pieces import (
    BLACK,
    BLUE,
    CATASTROPHE,
    EMPTY,
    FACE_DOWN,
    GREEN,
    HAND_SIZE,
    KING,
    LEADER_BASE,
    MONUMENTS,
    RED,
    TILE_BASE,
    TILE_TOTALS,
    TRADER,
    cell_leader,
)
from .scoring import with_treasures
from .state import GameState


def regions(state: GameState) -> Regions:
    """Return the regions and kingdoms of ``state``'s board (RULES.md §3), cached on the state.

    ``rid[s]`` is the region id of square ``s`` or -1; ``squares[r]`` and
    ``leaders[r]`` (``(seat, colour, square)``) per region; ``kid[s]`` the
    region id when it is a kingdom, else -1.
    """
    return analysis(state).regions


def kingdoms_touching(state: GameState) -> list[int]:
    """Return per square the number of distinct kingdoms next to it (9 if occupied) (§5.1)."""
    return analysis(state).nk


def monument_income(state: GameState, seat: int) -> list[int]:
    """Return the colours ``seat`` would score 1 VP each of for monuments now (RULES.md §8.3).

    What the end of ``seat``'s turn gives on this board (``monuments.monument_income``): for
    each built monument, each of its colours in which ``seat`` has a leader in its kingdom.
    """
    return _monument_income(regions(state), state.monuments, seat)


__all__ = [
    "BLACK",
    "BLOCKS_OF",
    "BLUE",
    "CATASTROPHE",
    "COLS",
    "EMPTY",
    "FACE_DOWN",
    "GREEN",
    "HAND_SIZE",
    "IS_RIVER",
    "KING",
    "LEADER_BASE",
    "MONUMENTS",
    "NEIGHBOURS",
    "NUM_SQUARES",
    "RED",
    "SPECIAL_TREASURES",
    "SQUARE_NAMES",
    "START_TEMPLES",
    "TILE_BASE",
    "TILE_TOTALS",
    "TRADER",
    "Regions",
    "block_squares",
    "cell_leader",
    "kingdoms_touching",
    "monument_income",
    "label",
    "regions",
    "with_treasures",
]
