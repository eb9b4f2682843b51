"""A league's divisions (issue 30): sizes, the ladder, promotion and relegation. Pure."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.tournaments.divisions import (
    LastResult,
    TooFewForADivision,
    division_sizes,
    ladder,
    moves,
    place_in_divisions,
)


@pytest.mark.parametrize(
    ("count", "target", "sizes"),
    [
        (4, 6, (4,)),
        (7, 4, (7,)),  # one division of 7 beats a division of 3
        (9, 8, (4, 5)),
        (12, 6, (6, 6)),
        (13, 6, (4, 4, 5)),
        (17, 8, (5, 6, 6)),
        (24, 8, (8, 8, 8)),
    ],
)
def test_division_sizes_by_hand(count: int, target: int, sizes: tuple[int, ...]) -> None:
    assert division_sizes(count, target) == sizes


@given(st.integers(min_value=4, max_value=400), st.integers(min_value=4, max_value=8))
def test_every_division_holds_four_to_eight_and_sizes_differ_by_one(count, target) -> None:
    sizes = division_sizes(count, target)
    assert sum(sizes) == count
    assert all(4 <= s <= 8 for s in sizes)
    assert max(sizes) - min(sizes) <= 1
    assert list(sizes) == sorted(sizes)


def test_fewer_than_four_make_no_division() -> None:
    with pytest.raises(TooFewForADivision):
        division_sizes(3, 6)
    with pytest.raises(ValueError, match="4 to 8"):
        division_sizes(10, 9)


def test_first_season_orders_by_rating() -> None:
    order = ladder([1, 2, 3, 4, 5], ratings={1: 1400, 2: 1600, 3: 1500, 4: 1600, 5: 1200}, last={})
    assert order == [2, 4, 3, 1, 5]  # equal ratings: by id


def test_returning_players_are_ordered_by_where_their_result_sends_them() -> None:
    # last season: division 1 = [10, 11, 12, 13], division 2 = [20, 21, 22, 23]; one up/down
    last = {
        10: LastResult(1, 1, "stay"),
        11: LastResult(1, 2, "stay"),
        12: LastResult(1, 3, "stay"),
        13: LastResult(1, 4, "down"),
        20: LastResult(2, 1, "up"),
        21: LastResult(2, 2, "stay"),
        22: LastResult(2, 3, "stay"),
        23: LastResult(2, 4, "stay"),
    }
    players = [*last, 99]  # 99 is new, with the best rating of all
    order = ladder(players, ratings={99: 3000}, last=last)
    assert order == [10, 11, 12, 20, 13, 21, 22, 23, 99]
    # the larger division is the lower one: the relegated 13 goes down
    assert place_in_divisions(order, 4) == ((10, 11, 12, 20), (13, 21, 22, 23, 99))


def test_moves_top_middle_and_bottom_division() -> None:
    assert moves(1, 3, [1, 2, 3, 4, 5], 1) == {
        1: "stay",
        2: "stay",
        3: "stay",
        4: "stay",
        5: "down",
    }
    assert moves(2, 3, [1, 2, 3, 4, 5], 2) == {1: "up", 2: "up", 3: "stay", 4: "down", 5: "down"}
    assert moves(3, 3, [1, 2, 3, 4], 1) == {1: "up", 2: "stay", 3: "stay", 4: "stay"}
    assert moves(1, 1, [1, 2, 3, 4], 2) == dict.fromkeys([1, 2, 3, 4], "stay")
