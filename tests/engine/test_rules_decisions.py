"""Scenario tests for RULES.md §15 (decisions taken outside the ordinary action)."""

from __future__ import annotations

from tests.engine.rules_helpers import (
    assert_illegal,
    decision,
    legal,
    play,
    position,
)

WAR = {
    "c5": "r",
    "c6": "1K",
    "d5": "k",
    "e5": "k",
    "d6": "k",
    "g5": "k",
    "h5": "k",
    "h6": "k",
    "i5": "r",
    "j5": "2K",
}


def test_no_decision_pending_in_an_ordinary_turn() -> None:
    """RULES.md §15: normally the active player acts."""
    state = position(active=2)
    assert state.pending is None
    assert state.to_act == 2
    assert decision(state) is None


def test_the_defender_is_asked_even_with_nothing_to_commit() -> None:
    """RULES.md §15: support is always asked, so nobody learns about a hand."""
    state = play(position(WAR, hands={1: "g", 2: "r r"}), "tile green f5")
    assert state.to_act == 1
    assert legal(state) == {"commit 0"}
    state = play(state, "commit 0")
    assert state.to_act == 2
    assert decision(state) == "support"
    assert legal(state) == {"commit 0"}


def test_one_war_needs_no_choice_of_order() -> None:
    """RULES.md §15: the war order is asked only when two or more wars are possible."""
    state = play(position(WAR, hands={1: "g"}), "tile green f5")
    assert decision(state) == "support"


def test_nothing_else_happens_while_a_decision_waits() -> None:
    """RULES.md §15: during the defender's support, the active player cannot act."""
    state = play(position(WAR, hands={1: "g k r", 2: "k"}), "tile green f5", "commit 1")
    assert state.to_act == 2
    assert state.active_seat == 1
    assert state.actions_left == 1
    for move in ("pass", "tile red c10", "commit 2", "swap red", "catastrophe c10"):
        assert_illegal(state, move)
    assert legal(state) == {"commit 0", "commit 1"}


def test_decision_actions_are_refused_outside_their_decision() -> None:
    """RULES.md §15/§16.1: commit, war, monument and treasure answers need their decision."""
    state = position(WAR, hands={1: "r g k"})
    for move in (
        "commit 0",
        "war black",
        "decline monument",
        "monument red-blue g4",
        "treasure k1",
    ):
        assert_illegal(state, move)


def test_only_the_offered_answers_are_accepted() -> None:
    """RULES.md §7.2/§8.1/§9/§15: a war not possible, a monument elsewhere, a treasure of
    another kingdom are refused.
    """
    two_wars = {**WAR, "b5": "1P", "i4": "2P"}
    state = play(position(two_wars, hands={1: "g"}), "tile green f5")
    assert_illegal(state, "war green")
    assert_illegal(state, "war blue")

    block = {"g4": "r", "h4": "r", "g5": "r", "e5": "r", "f5": "1K"}
    state = play(position(block, hands={1: "r"}), "tile red h5")
    assert_illegal(state, "monument red-blue h4")
    assert_illegal(state, "monument black-green g4")

    row = {"e10": "2T", "g10": "k", "h10": "k", "i10": "k", "j10": "k"}
    state = play(position(row, hands={1: "k"}), "tile black k10")
    assert_illegal(state, "treasure i7")
    assert_illegal(state, "treasure b2")
