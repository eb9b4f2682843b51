"""Scenario tests for RULES.md §2 (a turn: up to two actions, then the next seat)."""

from __future__ import annotations

from tests.engine.rules_helpers import hand, play, position, tiles


def test_two_actions_then_the_next_seat_is_active() -> None:
    """RULES.md §2: two actions, the same one twice allowed, then the next seat plays."""
    state = position(hands={1: "r r k", 2: "g g g g g g"})
    state = play(state, "tile red c10")
    assert (state.active_seat, state.to_act, state.actions_left) == (1, 1, 1)
    state = play(state, "tile red a11")
    assert (state.active_seat, state.to_act, state.actions_left) == (2, 2, 2)
    assert state.pending is None
    assert hand(state, 2) == tiles("g g g g g g")


def test_pass_after_one_action_gives_up_the_second() -> None:
    """RULES.md §2/§11: pass instead of the remaining action ends the turn."""
    state = play(position(hands={1: "r r k"}), "tile red c10", "pass")
    assert (state.active_seat, state.to_act, state.actions_left) == (2, 2, 2)


def test_pass_as_first_action_ends_the_turn() -> None:
    """RULES.md §2/§11: the player may pass without taking any action."""
    state = play(position(hands={1: "r r k"}), "pass")
    assert (state.active_seat, state.to_act, state.actions_left) == (2, 2, 2)


def test_play_goes_around_in_seat_order() -> None:
    """RULES.md §1.3/§2: after the last seat the first seat plays again."""
    state = position(players=3, active=2)
    state = play(state, "pass")
    assert state.active_seat == 3
    state = play(state, "pass")
    assert state.active_seat == 1
    assert state.to_act == 1


def test_the_turn_ends_after_a_second_action_started_with_one_left() -> None:
    """RULES.md §2: a turn has at most two actions; with one left, one action ends it."""
    state = position(players=4, active=4, actions=1, hands={4: "k"})
    state = play(state, "tile black a11")
    assert (state.active_seat, state.actions_left) == (1, 2)
