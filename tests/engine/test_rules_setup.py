"""Scenario tests for RULES.md §1 (board, pieces, setup)."""

from __future__ import annotations

import pytest

import engine
from tests.engine.rules_helpers import (
    RIVERS,
    STARTING_TEMPLES,
    bag,
    catastrophes_left,
    cells,
    hand,
    leaders_on_board,
    legal,
    play,
    position,
    treasures_on_board,
    vp,
)

TOTALS = {"r": 57, "k": 30, "b": 36, "g": 30}


def test_new_game_board_matches_the_map() -> None:
    """RULES.md §1.1: 41 river squares where the map has them, temples on the ten squares."""
    board = cells(engine.new_game(2, seed=3))
    assert {sq for sq, c in board.items() if c == "~"} == RIVERS
    assert {sq for sq, c in board.items() if c == "r*"} == set(STARTING_TEMPLES)
    others = {c for sq, c in board.items() if sq not in RIVERS and sq not in STARTING_TEMPLES}
    assert others == {"."}


def test_adjacency_is_by_edge_never_diagonal() -> None:
    """RULES.md §1.1: a tile diagonal to a kingdom is not adjacent to it and scores nothing."""
    start = position({"g4": "r", "g5": "2K"}, hands={1: "r r"})
    diagonal = play(start, "tile red h6")
    assert vp(diagonal, 2)["red"] == 0
    beside = play(start, "tile red h5")
    assert vp(beside, 2)["red"] == 1


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_counts(players: int) -> None:
    """RULES.md §1.3: ten treasure temples, bag 143 − 6n, six tiles and two catastrophes each."""
    state = engine.new_game(players, seed=41 + players)
    assert sum(bag(state).values()) == 143 - 6 * players
    assert treasures_on_board(state) == set(STARTING_TEMPLES)
    assert leaders_on_board(state) == {}
    in_hands = {"r": 0, "k": 0, "b": 0, "g": 0}
    for seat in range(1, players + 1):
        tiles = hand(state, seat)
        assert len(tiles) == 6
        for t in tiles:
            in_hands[t] += 1
        assert catastrophes_left(state, seat) == 2
        assert vp(state, seat) == {"red": 0, "black": 0, "blue": 0, "green": 0, "treasures": 0}
    board_red = 10
    counts = bag(state)
    assert counts["r"] + in_hands["r"] + board_red == TOTALS["r"]
    for letter in "kbg":
        assert counts[letter] + in_hands[letter] == TOTALS[letter]
    assert state.active_seat == 1
    assert state.to_act == 1
    assert state.actions_left == 2
    assert state.pending is None
    assert not state.is_over


@pytest.mark.parametrize("players", [0, 1, 5])
def test_player_count_outside_two_to_four_is_refused(players: int) -> None:
    """RULES.md §1.3 (issue 3): new_game raises ValueError outside 2–4 players."""
    with pytest.raises(ValueError):
        engine.new_game(players, seed=1)


def test_every_player_starts_with_four_leaders_in_supply() -> None:
    """RULES.md §1.3: each player's four leaders start in the supply, ready to be placed."""
    state = engine.new_game(4, seed=5)
    offered = legal(state)
    # j1 is land next to the starting temple k1.
    for leader in ("king", "priest", "farmer", "trader"):
        assert f"leader {leader} j1" in offered


def test_new_game_is_deterministic_per_seed() -> None:
    """RULES.md §1.3 / DESIGN: the same seed deals the same game."""
    assert engine.new_game(3, seed=99).to_json() == engine.new_game(3, seed=99).to_json()


def test_diagram_default_bag_holds_the_153_tiles_minus_board_and_hands() -> None:
    """RULES.md §1.2/§1.3: 57 red, 30 black, 36 blue, 30 green; ten red are the start temples."""
    state = position(hands={1: "r k b g", 2: "g g"})
    assert bag(state) == {"r": 57 - 10 - 1, "k": 29, "b": 35, "g": 27}
