"""Scenario tests for RULES.md §3 (regions and kingdoms)."""

from __future__ import annotations

from tests.engine.rules_helpers import leaders_on_board, play, position, vp


def test_a_kingdom_is_the_whole_connected_region_of_its_leader() -> None:
    """RULES.md §3: tiles connected to the leader through other tiles are in its kingdom."""
    state = position({"g4": "r", "g5": "1K", "h4": "k", "i4": "k"}, hands={1: "g"})
    state = play(state, "tile green j4")
    assert vp(state, 1)["green"] == 1


def test_leaders_connect_like_tiles() -> None:
    """RULES.md §3: a tile touching only the leader joins the leader's kingdom."""
    state = position({"g4": "r", "g5": "1K"}, hands={1: "g"})
    state = play(state, "tile green g6")
    assert vp(state, 1)["green"] == 1


def test_catastrophes_connect_nothing() -> None:
    """RULES.md §3: a tile beyond a catastrophe is not connected to the kingdom."""
    state = position({"g4": "r", "g5": "1K", "g6": "x"}, hands={1: "g"})
    state = play(state, "tile green g7")
    assert vp(state, 1) == {"red": 0, "black": 0, "blue": 0, "green": 0, "treasures": 0}


def test_face_down_monument_tiles_connect() -> None:
    """RULES.md §3/§8.2: face-down tiles still connect regions into one kingdom."""
    state = position(
        {"h4": "#", "i4": "#", "h5": "#", "i5": "#", "j4": "r", "j5": "1K"},
        monuments={"black-green": "h4"},
        hands={1: "g"},
    )
    state = play(state, "tile green g5")
    assert vp(state, 1)["green"] == 1


def test_a_region_without_leaders_is_not_a_kingdom() -> None:
    """RULES.md §3/§5.2: a tile joining a leaderless region scores for nobody."""
    state = position({"g4": "r", "h4": "g"}, hands={1: "g"})
    state = play(state, "tile green i4")
    assert vp(state, 1)["green"] == 0
    assert vp(state, 2)["green"] == 0


def test_after_a_resolved_action_no_kingdom_has_two_leaders_of_a_colour() -> None:
    """RULES.md §3: a revolt leaves one king in the kingdom once resolved."""
    state = position({"g4": "r", "g5": "2K", "h5": "r"}, hands={1: "k", 2: "k"})
    state = play(state, "leader king h4", "commit 0", "commit 0")
    assert leaders_on_board(state) == {"2K": "g5"}
