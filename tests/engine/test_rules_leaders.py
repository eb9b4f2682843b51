"""Scenario tests for RULES.md §4 (positioning leaders, losing temples, revolt trigger)."""

from __future__ import annotations

from tests.engine.rules_helpers import (
    assert_illegal,
    cell,
    decision,
    leaders_on_board,
    legal,
    play,
    position,
    vp,
)

# ---------------------------------------------------------------- §4.1 place, withdraw, move


def test_place_then_withdraw_returns_the_leader_to_the_supply() -> None:
    """RULES.md §4.1: placing and withdrawing are one action each; the leader can come back."""
    state = position({"g4": "r"})
    state = play(state, "leader king g5")
    assert cell(state, "g5") == "1K"
    assert state.actions_left == 1
    assert "withdraw king" in legal(state)
    state = play(state, "withdraw king")
    assert leaders_on_board(state) == {}
    assert cell(state, "g5") == "."
    assert state.active_seat == 2
    state = play(state, "pass")
    assert "leader king g5" in legal(state)


def test_withdraw_is_only_offered_for_leaders_on_the_board() -> None:
    """RULES.md §4.1: only a leader on the board can be withdrawn."""
    state = position({"g4": "r", "g5": "1K"})
    offered = legal(state)
    assert "withdraw king" in offered
    assert "withdraw priest" not in offered
    assert_illegal(state, "withdraw priest")


def test_move_a_leader_is_one_action() -> None:
    """RULES.md §4.1: a leader on the board moves to another legal square as one action."""
    state = play(position({"g4": "r", "j4": "r", "g5": "1K"}), "leader king j5")
    assert leaders_on_board(state) == {"1K": "j5"}
    assert cell(state, "g5") == "."
    assert state.actions_left == 1
    assert state.pending is None


def test_moving_a_leader_onto_its_own_square_is_not_an_action() -> None:
    """RULES.md §4.1: moving a leader onto the square it stands on is refused."""
    assert_illegal(position({"g4": "r", "g5": "1K"}), "leader king g5")


def test_a_move_is_judged_with_the_leader_lifted() -> None:
    """RULES.md §4.1/§4.2: the lifted king's old kingdom no longer counts as a kingdom.

    h5 touches the kingdoms {g5 g6} and {i4 i5}: a leader from the supply may not go there, but
    the king at g6 may, because without it {g5} is a leaderless region.
    """
    state = position({"g5": "r", "g6": "1K", "i5": "r", "i4": "2P"}, hands={1: "g"})
    assert_illegal(state, "leader trader h5")
    state = play(state, "leader king h5")
    assert leaders_on_board(state) == {"1K": "h5", "2P": "i4"}
    assert state.pending is None
    state = play(state, "tile green j5")
    assert vp(state, 1)["green"] == 1


# ---------------------------------------------------------------- §4.2 where a leader may go


def test_leader_never_on_a_river_even_next_to_a_temple() -> None:
    """RULES.md §4.2: a leader goes on land only."""
    state = position({"d5": "r"})
    assert "leader king c5" in legal(state)
    assert_illegal(state, "leader king d4")


def test_leader_needs_an_adjacent_face_up_temple() -> None:
    """RULES.md §4.2: next to a market only is not allowed."""
    state = position({"h4": "g"})
    assert_illegal(state, "leader king h5")
    assert not any(a.endswith(" h5") and a.startswith("leader") for a in legal(state))


def test_leader_needs_an_empty_square() -> None:
    """RULES.md §4.2: not on a tile, a leader or a catastrophe."""
    state = position({"g4": "r", "g5": "k", "h5": "r", "h4": "2P", "i5": "x", "i4": "r"})
    assert_illegal(state, "leader king g5")
    assert_illegal(state, "leader king g4")
    assert_illegal(state, "leader king h4")
    assert_illegal(state, "leader king i5")


def test_leader_may_not_touch_two_kingdoms() -> None:
    """RULES.md §4.2: a leader never unites kingdoms."""
    state = position({"g5": "r", "f5": "2K", "i5": "r", "j5": "2P"})
    assert_illegal(state, "leader trader h5")
    assert_illegal(state, "leader farmer h5")


def test_leader_joins_one_kingdom_and_leaderless_regions_into_one() -> None:
    """RULES.md §4.2: the kingdom and the leaderless regions it touches become one kingdom."""
    state = position({"i4": "r", "h4": "2P", "j5": "g", "k5": "g"}, hands={1: "g"})
    state = play(state, "leader king i5")
    assert state.pending is None
    state = play(state, "tile green l5")
    assert vp(state, 1)["green"] == 1
    assert vp(state, 2)["green"] == 0


def test_leader_next_to_a_lone_temple_founds_a_kingdom() -> None:
    """RULES.md §4.2: a leader next to a temple standing alone makes it a kingdom."""
    state = position({"c5": "r"}, hands={1: "g"})
    state = play(state, "leader trader c6", "tile green d5")
    assert vp(state, 1)["green"] == 1


# ---------------------------------------------------------------- §4.3 losing the last temple


def test_leader_without_an_adjacent_temple_is_withdrawn() -> None:
    """RULES.md §4.3: after a catastrophe the priest beside no temple returns to its owner.

    The king beside a second temple stays.
    """
    state = position({"g5": "r", "i5": "r", "h5": "1K", "g6": "2P"})
    state = play(state, "catastrophe g5")
    assert cell(state, "g5") == "x"
    assert cell(state, "g6") == "."
    assert leaders_on_board(state) == {"1K": "h5"}
    assert state.pending is None


# ---------------------------------------------------------------- §4.4 revolt trigger


def test_placing_a_leader_where_its_colour_rules_starts_a_revolt() -> None:
    """RULES.md §4.4: same-colour leader already in the kingdom: the attacker commits first."""
    state = position({"g4": "r", "g5": "2K", "h5": "r"}, hands={1: "r k"})
    state = play(state, "leader king h4")
    assert decision(state) == "support"
    assert state.to_act == 1
    assert state.active_seat == 1
    assert legal(state) == {"commit 0", "commit 1"}


def test_a_leader_of_another_colour_starts_no_revolt() -> None:
    """RULES.md §4.4: only a same-colour leader revolts."""
    state = position({"g4": "r", "g5": "2K", "h5": "r"}, hands={1: "r k"})
    state = play(state, "leader priest h4")
    assert state.pending is None
    assert leaders_on_board(state) == {"2K": "g5", "1P": "h4"}
    assert state.actions_left == 1


def test_moving_a_leader_within_its_kingdom_is_no_revolt() -> None:
    """RULES.md §4.4: a leader moved within its own kingdom does not revolt against itself."""
    state = position({"g4": "r", "h4": "r", "i4": "r", "g5": "1K"})
    state = play(state, "leader king i5")
    assert state.pending is None
    assert leaders_on_board(state) == {"1K": "i5"}


def test_moving_a_leader_into_another_kingdom_can_revolt() -> None:
    """RULES.md §4.1/§4.4: a move is a placement; into a rival king's kingdom it revolts."""
    state = position({"g4": "r", "g5": "1K", "j4": "r", "j5": "2K"})
    state = play(state, "leader king k4")
    assert decision(state) == "support"
    assert state.to_act == 1
    assert cell(state, "g5") == "."


def test_withdrawing_a_bridging_leader_splits_the_kingdom_quietly() -> None:
    """RULES.md §3/§4.1: the king g5 joined g4 to g6–h6; withdrawn, g4 stands alone, so a red
    tile beside it scores for nobody.
    """
    state = position({"g4": "r", "g5": "1K", "g6": "r", "h6": "2P"}, hands={1: "r"})
    state = play(state, "withdraw king")
    assert state.pending is None
    state = play(state, "tile red h4")
    assert vp(state, 2)["red"] == 0
