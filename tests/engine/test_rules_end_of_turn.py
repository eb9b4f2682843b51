"""Scenario tests for RULES.md §12 (end of turn: monument VP, refills, game-end check)."""

from __future__ import annotations

from tests.engine.rules_helpers import bag, hand, play, position, tiles, vp

MONUMENT_KINGDOM = {
    "g4": "#",
    "h4": "#",
    "g5": "#",
    "h5": "#",
    "e5": "r",
    "f5": "1K",
    "j5": "r",
    "i5": "2P",
}


def test_every_player_refills_to_six() -> None:
    """RULES.md §12.2: all players below six draw up to six; six-tile hands draw nothing."""
    state = position(players=3, hands={1: "r r", 2: "k", 3: "g g g g g g"}, bag="b 30")
    state = play(state, "pass")
    assert hand(state, 1) == tiles("r r b b b b")
    assert hand(state, 2) == tiles("k b b b b b")
    assert hand(state, 3) == tiles("g g g g g g")
    assert bag(state)["b"] == 30 - 4 - 5
    assert state.active_seat == 2


def test_the_active_player_draws_first_then_the_others_in_seat_order() -> None:
    """RULES.md §12.2/§13.1: seat 3 ends its turn with a five-tile bag and three players two
    short: seat 3 draws, then seat 1; seat 2 cannot, and the game ends at once.
    """
    hands = {1: "r r r r", 2: "k k k k", 3: "g g g g g g"}
    state = position(players=3, active=3, hands=hands, bag="b 5")
    state = play(state, "tile green a11", "tile green c11")
    assert state.is_over
    assert len(hand(state, 3)) == 6
    assert len(hand(state, 1)) == 6
    assert hand(state, 2) == tiles(hands[2])
    assert bag(state)["b"] == 1


def test_monument_vp_come_before_the_refill_that_ends_the_game() -> None:
    """RULES.md §12.1/§12.2: the turn's monument VP are scored, then the refill ends the game."""
    state = position(
        MONUMENT_KINGDOM,
        monuments={"red-black": "g4"},
        hands={1: "r r r r r", 2: "k k k k k k"},
        bag="r 0",
    )
    state = play(state, "pass")
    assert state.is_over
    assert vp(state, 1)["black"] == 1


def test_a_swap_that_ends_the_game_gives_no_monument_vp() -> None:
    """RULES.md §13.1: the game ends at once: no end of turn, so no monument VP."""
    state = position(
        MONUMENT_KINGDOM,
        monuments={"red-black": "g4"},
        hands={1: "r r r r r r", 2: "k k k k k k"},
        bag="r 1",
    )
    state = play(state, "swap red red")
    assert state.is_over
    assert vp(state, 1)["black"] == 0


def test_no_monument_vp_before_the_end_of_the_turn() -> None:
    """RULES.md §12.1: monument VP come at the end of the turn, not after an action."""
    state = position(MONUMENT_KINGDOM, monuments={"red-black": "g4"}, hands={1: "k k"})
    state = play(state, "tile black a11")
    assert vp(state, 1)["black"] == 0
    state = play(state, "tile black c11")
    assert vp(state, 1)["black"] == 1
    assert state.active_seat == 2


def test_a_refill_the_bag_supplies_exactly_goes_on() -> None:
    """RULES.md §12.2/§13.1: the last two tiles are drawn and the game goes on."""
    state = position(hands={1: "r r r r", 2: "k k k k k k"}, bag="g 2")
    state = play(state, "pass")
    assert not state.is_over
    assert hand(state, 1) == tiles("r r r r g g")
    assert sum(bag(state).values()) == 0
    assert state.active_seat == 2
