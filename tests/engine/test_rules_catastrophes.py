"""Scenario tests for RULES.md §10 (catastrophes)."""

from __future__ import annotations

from tests.engine.rules_helpers import (
    assert_illegal,
    bag,
    catastrophes_left,
    cell,
    hand,
    leaders_on_board,
    legal,
    play,
    position,
    tiles,
    vp,
)

ZERO = {"red": 0, "black": 0, "blue": 0, "green": 0, "treasures": 0}


def test_catastrophe_on_empty_land_and_on_a_river() -> None:
    """RULES.md §10: an empty square, land or river, takes a catastrophe; two per player."""
    state = position(hands={1: "r k"})
    state = play(state, "catastrophe c5")
    assert cell(state, "c5") == "x"
    assert catastrophes_left(state, 1) == 1
    assert hand(state, 1) == tiles("r k")
    assert state.actions_left == 1
    state = play(state, "catastrophe c7")
    assert cell(state, "c7") == "x"
    assert catastrophes_left(state, 1) == 0
    assert catastrophes_left(state, 2) == 2


def test_catastrophe_discards_the_tile_beneath_and_nobody_scores() -> None:
    """RULES.md §10: the settlement h4 is discarded out of the game; no VP; the bag is unchanged."""
    state = position({"g4": "r", "g5": "1K", "h4": "k"})
    before = bag(state)
    state = play(state, "catastrophe h4")
    assert cell(state, "h4") == "x"
    assert bag(state) == before
    assert vp(state, 1) == ZERO
    assert vp(state, 2) == ZERO
    assert leaders_on_board(state) == {"1K": "g5"}


def test_every_illegal_catastrophe_target() -> None:
    """RULES.md §10: never on a leader, a catastrophe, a treasure or a monument's tile."""
    block = {"a10": "#", "b10": "#", "a11": "#", "b11": "#"}
    state = position({"g4": "r", "g5": "1K", "c5": "x", **block}, monuments={"black-blue": "a10"})
    assert_illegal(state, "catastrophe g5")  # a leader
    assert_illegal(state, "catastrophe c5")  # another catastrophe
    assert_illegal(state, "catastrophe k1")  # a temple holding a treasure
    assert_illegal(state, "catastrophe b8")  # a temple holding a special treasure
    assert_illegal(state, "catastrophe a10")  # face down under a monument
    assert_illegal(state, "catastrophe b11")
    assert "catastrophe g4" in legal(state)


def test_no_catastrophe_on_a_face_down_temple_with_a_treasure() -> None:
    """RULES.md §10: a flipped treasure temple is both face down and holding a treasure."""
    block = {"h7": "#", "i7": "#*", "h8": "#", "i8": "#"}
    state = position(block, monuments={"red-green": "h7"})
    assert_illegal(state, "catastrophe i7")
    assert_illegal(state, "catastrophe h8")


def test_no_catastrophe_left_no_catastrophe_action() -> None:
    """RULES.md §10: each player has only two catastrophes."""
    state = position(catastrophes={1: 0})
    assert_illegal(state, "catastrophe c5")
    assert not any(a.startswith("catastrophe") for a in legal(state))


def test_the_three_kingdom_limit_does_not_apply() -> None:
    """RULES.md §10: h5, next to three kingdoms, takes a catastrophe."""
    state = position(
        {"g5": "r", "f5": "1K", "i5": "r", "j5": "2K", "h4": "r", "h3": "1P"},
        hands={1: "k"},
    )
    assert "tile black h5" not in legal(state)
    state = play(state, "catastrophe h5")
    assert cell(state, "h5") == "x"


def test_the_square_is_blocked_for_the_rest_of_the_game() -> None:
    """RULES.md §10: nothing goes on a catastrophe."""
    state = position({"g4": "r", "g5": "x"}, hands={1: "r k g"})
    assert_illegal(state, "tile red g5")
    assert_illegal(state, "leader king g5")


def test_a_leader_losing_its_last_temple_is_withdrawn() -> None:
    """RULES.md §10/§4.3: the catastrophe on g4 strands the king at g5."""
    state = position({"g4": "r", "g5": "1K", "h5": "k"})
    state = play(state, "catastrophe g4")
    assert leaders_on_board(state) == {}
    assert cell(state, "h5") == "k"
    assert state.pending is None


def test_a_split_kingdom_causes_no_conflict() -> None:
    """RULES.md §10: removing the bridge h5 splits the kingdom without a conflict; a black
    tile beside the priest's half then scores for nobody (the king is in the other half).
    """
    state = position({"g5": "r", "f5": "1K", "h5": "k", "i5": "r", "j5": "2P"}, hands={1: "k"})
    state = play(state, "catastrophe h5")
    assert state.pending is None
    assert leaders_on_board(state) == {"1K": "f5", "2P": "j5"}
    state = play(state, "tile black i4")
    assert vp(state, 1) == ZERO
    assert vp(state, 2) == ZERO
