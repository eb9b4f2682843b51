"""Medium's evaluation values a leader in danger above none (``engine.bots.evaluate``, issue 26).

The danger term charges a leader a revolt could take; capped at what the
leader adds to its seat's worth, keeping the leader never rates below losing
it, other things equal.
"""

from __future__ import annotations

import math

import pytest

from engine.board import SQUARE_NAMES
from engine.bots.common import SHEET_SOFTNESS, soft_lowest
from engine.bots.evaluate import evaluate

from ..engine_helpers import play, position

# Seat 1's priest on a5 sits beside one temple (b5); the empty c6 touches two (c5, d6) of the
# same kingdom, so seat 2's priest there wins the revolt unless seat 1 commits red (§6.2-6.4).
CELLS = {"a5": "1P", "b5": "r", "c5": "r", "d5": "r", "d6": "r", "g5": "2K", "h5": "r"}


def _revolt(hand_1: str, *, leader: bool = True):  # type: ignore[no-untyped-def]
    cells = dict(CELLS)
    if not leader:
        del cells["a5"]
    return position(f"players: 2\nactive: 2\nhand 1: {hand_1}\nhand 2: r r k b g g", cells)


@pytest.mark.parametrize("hand_1", ["k k b b g g", "r k b b g g", "r r k b g g"])
def test_keeping_a_leader_in_danger_is_not_below_losing_it(hand_1: str) -> None:
    kept = evaluate(_revolt(hand_1))[0]
    assert kept >= evaluate(_revolt(hand_1, leader=False))[0]  # the leader gone, nothing else
    lost = _revolt(hand_1)
    lost = play(lost, "leader priest c6", "commit 0", "commit 0")
    assert lost.vp[1][0] == 1  # seat 2 won the revolt: a red VP (§6.4)
    assert lost.board[SQUARE_NAMES.index("a5")] == 0  # the priest is off the board
    assert kept >= evaluate(lost)[0]


def test_a_revolt_lost_whatever_the_seat_holds_still_costs_something() -> None:
    safe = position(
        "players: 2\nactive: 2\nhand 1: k k b b g g\nhand 2: r r k b g g",
        {**CELLS, "d6": "."},  # c6 now beside one temple: a tie, the defender keeps the leader
    )
    assert evaluate(safe)[0] > evaluate(_revolt("k k b b g g"))[0]


def _sheet(red: int, black: int, blue: int, green: int):  # type: ignore[no-untyped-def]
    """Seat 1 with this score sheet (no treasures), the board and hands otherwise fixed."""
    return position(
        "players: 2\nactive: 2\nhand 1: r r k b g g\nhand 2: r r k b g g\n"
        f"vp 1: red {red} black {black} blue {blue} green {green} treasures 0",
        CELLS,
    )


def test_a_colour_level_with_the_lowest_still_counts_towards_it() -> None:
    """Two colours level at the lowest: a VP in either brings the final score nearer (§13.2).

    With the hard minimum each was worth a tenth of a VP in a sole lowest colour and
    no more than one in a colour far above (``common.SHEET_SOFTNESS``): medium piled VP where
    they did not count and won 136 of 200 games against easy, 165 with the soft minimum.
    """
    base = evaluate(_sheet(10, 10, 20, 25))[0]
    level = evaluate(_sheet(11, 10, 20, 25))[0] - base
    high = evaluate(_sheet(10, 10, 21, 25))[0] - base
    sole = evaluate(_sheet(9, 10, 20, 25))[0]
    below = base - sole  # 9 -> 10 in the one lowest colour
    assert level > 4 * high > 0
    assert level > 0.4 * below
    # Still a minimum: a VP in the sole lowest colour beats one in the colour a VP above it.
    above = evaluate(_sheet(9, 11, 20, 25))[0] - sole
    assert below > above > high


def test_the_soft_lowest_colour_is_the_minimum_read_softly() -> None:
    """``soft_lowest``: the hard minimum at 0 (§13.2); below it and nearer it as the rest rise."""
    assert soft_lowest((10, 12, 9, 30), 0.0) == 9
    level = soft_lowest((10, 10, 20, 25), SHEET_SOFTNESS)
    apart = soft_lowest((10, 14, 20, 25), SHEET_SOFTNESS)
    assert level < apart < 10
    # Two colours level at the lowest read about SHEET_SOFTNESS * ln 2 VP below it.
    assert abs(level - (10 - SHEET_SOFTNESS * math.log(2))) < 0.2
