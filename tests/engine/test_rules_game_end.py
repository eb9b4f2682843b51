"""Scenario tests for RULES.md §13 (game end and final scoring)."""

from __future__ import annotations

import engine
from tests.engine.rules_helpers import (
    STARTING_TEMPLES,
    assert_illegal,
    hand,
    placing_colors,
    play,
    position,
    treasures_on_board,
)


def plain(*squares: str) -> dict[str, str]:
    """Starting temples whose treasure is no longer on the board."""
    return {sq: "r" for sq in squares}


# Only f10, k11 and i7 still hold treasures; seat 1 holds 3 and seat 2 holds 4.
THREE_LEFT = plain(*(sq for sq in STARTING_TEMPLES if sq not in ("f10", "k11", "i7")))
TRADER_ROW = {"e10": "2T", "g10": "k", "h10": "k", "i10": "k", "j10": "k"}
HELD = {1: {"treasures": 3}, 2: {"treasures": 4}}


def test_two_treasures_left_end_the_game_at_the_end_of_the_turn() -> None:
    """RULES.md §13.1: the take leaves two treasures; the game goes on until the turn ends."""
    state = position({**THREE_LEFT, **TRADER_ROW}, vp=HELD, hands={1: "k k"})
    state = play(state, "tile black k10", "treasure k11")
    assert treasures_on_board(state) == {"f10", "i7"}
    assert not state.is_over
    assert (state.to_act, state.actions_left) == (1, 1)
    state = play(state, "tile black a11")
    assert state.is_over
    assert engine.legal_actions(state) == ()
    assert len(hand(state, 1)) == 6


def test_three_treasures_left_the_game_goes_on() -> None:
    """RULES.md §13.1: three treasures on the board at the end of a turn: no end."""
    state = position({**THREE_LEFT, **TRADER_ROW}, vp=HELD, hands={1: "k k"})
    state = play(state, "tile black a11", "pass")
    assert not state.is_over
    assert state.active_seat == 2


def test_nothing_is_accepted_after_the_end() -> None:
    """RULES.md §13.1: after the game ends there are no actions."""
    state = position(hands={1: "r r r k k k", 2: "g g g g g g"}, bag="b 1")
    state = play(state, "swap red red")
    assert state.is_over
    assert_illegal(state, "pass")
    assert_illegal(state, "tile red c5")


def game_over(vp: dict[int, dict[str, int]], players: int, board: dict[str, str]) -> object:
    """End the game at once: seat 1 swaps two tiles from a one-tile bag (RULES.md §13.1)."""
    hands = {seat: "r r r r r r" for seat in range(1, players + 1)}
    state = position(board, players=players, hands=hands, vp=vp, bag="g 1")
    state = play(state, "swap red red")
    assert state.is_over
    return state


def test_final_ranking_with_treasures_and_a_three_level_tie_break() -> None:
    """RULES.md §13.2: seat 2's two treasures lift red 3 to 5; seats 1–3 tie on 5, 5, 5 and the
    highest colour decides (9 > 8); seats 2 and 3 share second; seat 4's lowest 1 is last.
    """
    totals = {
        1: {"red": 5, "black": 5, "blue": 5, "green": 9},
        2: {"red": 3, "black": 5, "blue": 5, "green": 8, "treasures": 2},
        3: {"red": 5, "black": 5, "blue": 5, "green": 8},
        4: {"red": 5, "black": 9, "blue": 6, "green": 1},
    }
    state = game_over(totals, 4, plain("f10", "k11"))
    ranking = engine.final_ranking(state)
    assert len(ranking) == 4
    assert ranking[0].seat == 1
    assert ranking[-1].seat == 4
    assert {p.seat: p.rank for p in ranking} == {1: 1, 2: 2, 3: 2, 4: 4}
    colors = {p.seat: placing_colors(p) for p in ranking}
    assert colors[2] == {"red": 5, "black": 5, "blue": 5, "green": 8}
    assert colors[1] == {"red": 5, "black": 5, "blue": 5, "green": 9}
    assert colors[4] == {"red": 5, "black": 9, "blue": 6, "green": 1}


def test_the_second_lowest_colour_breaks_a_tie() -> None:
    """RULES.md §13.2: 4,5,9,9 loses to 4,6,6,6 although its total is higher."""
    totals = {
        1: {"red": 4, "black": 5, "blue": 9, "green": 9},
        2: {"red": 4, "black": 6, "blue": 6, "green": 6},
    }
    ranking = engine.final_ranking(game_over(totals, 2, {}))
    assert [(p.seat, p.rank) for p in ranking] == [(2, 1), (1, 2)]


def test_treasures_go_to_the_lowest_colours() -> None:
    """RULES.md §13.2: three treasures turn red 1, black 2 into 3 and 3: 3,3,9,9 beats 3,3,3,4.

    Without treasures seat 1 (lowest 1) would lose.
    """
    totals = {
        1: {"red": 1, "black": 2, "blue": 9, "green": 9, "treasures": 3},
        2: {"red": 3, "black": 3, "blue": 3, "green": 4},
    }
    ranking = engine.final_ranking(game_over(totals, 2, plain("f10", "k11", "i7")))
    assert [(p.seat, p.rank) for p in ranking] == [(1, 1), (2, 2)]
    assert placing_colors(ranking[0]) == {"red": 3, "black": 3, "blue": 9, "green": 9}


def test_players_equal_in_all_four_share_the_place() -> None:
    """RULES.md §13.2: identical colour values after treasures share first place."""
    totals = {
        1: {"red": 2, "black": 4, "blue": 4, "green": 7, "treasures": 2},
        2: {"red": 4, "black": 4, "blue": 4, "green": 7},
        3: {"red": 4, "black": 4, "blue": 4, "green": 6},
    }
    ranking = engine.final_ranking(game_over(totals, 3, plain("f10", "k11")))
    assert {p.seat: p.rank for p in ranking} == {1: 1, 2: 1, 3: 3}
    assert ranking[-1].seat == 3
