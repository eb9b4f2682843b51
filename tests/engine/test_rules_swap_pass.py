"""Scenario tests for RULES.md §11 (swap and pass)."""

from __future__ import annotations

import engine
from tests.engine.rules_helpers import (
    assert_illegal,
    bag,
    catastrophes_left,
    hand,
    play,
    position,
    tiles,
)


def test_swap_discards_and_draws_as_many() -> None:
    """RULES.md §11: three tiles out of the game, three drawn (the bag holds only markets)."""
    state = position(hands={1: "r r r k k k"}, bag="g 20")
    state = play(state, "swap red red black")
    assert hand(state, 1) == tiles("r k k g g g")
    assert bag(state) == {"r": 0, "k": 0, "b": 0, "g": 17}
    assert (state.active_seat, state.actions_left) == (1, 1)
    assert catastrophes_left(state, 1) == 2


def test_swap_the_whole_hand() -> None:
    """RULES.md §11: up to six tiles."""
    state = position(hands={1: "r r r k k k"}, bag="b 10")
    state = play(state, "swap red red red black black black")
    assert hand(state, 1) == tiles("b b b b b b")
    assert bag(state)["b"] == 4


def test_swap_only_tiles_in_hand() -> None:
    """RULES.md §11: the swapped tiles come from the hand."""
    state = position(hands={1: "r r r k k k"}, bag="g 20")
    assert_illegal(state, "swap blue")
    assert_illegal(state, "swap red red red red")


def test_swap_counts_as_an_action() -> None:
    """RULES.md §2/§11: two swaps are a whole turn."""
    state = position(hands={1: "r r r k k k"}, bag="g 20")
    state = play(state, "swap red", "swap black")
    assert state.active_seat == 2


def test_pass_gives_up_the_remaining_action() -> None:
    """RULES.md §11: after pass the next seat plays; the passing player refills."""
    state = position(hands={1: "r r r k", 2: "g g g g g g"}, bag="b 20")
    state = play(state, "tile red c5", "pass")
    assert state.active_seat == 2
    assert hand(state, 1) == tiles("r r k b b b")


def test_a_swap_the_bag_cannot_supply_ends_the_game_at_once() -> None:
    """RULES.md §11/§13.1/§16.5: two tiles needed, one in the bag: the game is over."""
    state = position(hands={1: "r r r k k k", 2: "g g g g g g"}, bag="b 1")
    state = play(state, "swap red red")
    assert state.is_over
    assert engine.legal_actions(state) == ()
    assert bag(state)["b"] == 1


def test_a_swap_the_bag_supplies_exactly_goes_on() -> None:
    """RULES.md §13.1: only a bag that cannot supply every tile ends the game."""
    state = position(hands={1: "r r r k k k", 2: "g g g g g g"}, bag="g 2")
    state = play(state, "swap red red")
    assert not state.is_over
    assert hand(state, 1) == tiles("r k k k g g")
    state = play(state, "pass")
    assert not state.is_over
    assert state.active_seat == 2
