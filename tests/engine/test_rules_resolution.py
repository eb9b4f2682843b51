"""Scenario tests for RULES.md §16 (resolving one action, in order)."""

from __future__ import annotations

from tests.engine.rules_helpers import (
    cell,
    decision,
    leaders_on_board,
    legal,
    play,
    position,
    treasures_on_board,
    vp,
)

# Seat 1's trader h6 rules h7, i7 (treasure), h8; a leaderless chain j8 … m5 reaches n5
# (treasure). Red i8 completes the block h7–i8 and brings n5 into the trader's kingdom.
CHAIN = {sq: "k" for sq in ("j8", "k8", "l8", "l7", "l6", "m6", "m5")}
BLOCK_AND_TRADER = {"h7": "r", "h8": "r", "h6": "1T", **CHAIN}


def test_monument_is_offered_before_treasures_are_taken() -> None:
    """RULES.md §16.3/§16.4: monument decision first, then the treasure choice."""
    state = play(position(BLOCK_AND_TRADER, hands={1: "r"}), "tile red i8")
    assert decision(state) == "monument"
    assert {"i7", "n5"} <= treasures_on_board(state)
    state = play(state, "decline monument")
    assert decision(state) == "treasure"
    assert state.to_act == 1
    assert legal(state) == {"treasure i7", "treasure n5"}
    state = play(state, "treasure n5")
    assert vp(state, 1)["treasures"] == 1
    assert cell(state, "n5") == "r"


def test_a_monument_that_strands_the_trader_leaves_the_treasures() -> None:
    """RULES.md §16.3/§16.4/§8.2: the trader loses h7 to the monument before treasures are
    handled, so nobody takes any.
    """
    state = play(position(BLOCK_AND_TRADER, hands={1: "r"}), "tile red i8", "monument red-green h7")
    assert state.pending is None
    assert leaders_on_board(state) == {}
    assert {"i7", "n5"} <= treasures_on_board(state)
    assert cell(state, "i7") == "#*"
    assert vp(state, 1)["treasures"] == 0


# Seat 1: f10 (treasure), trader e10, king g10, temples g11 h11, settlements d10 e11.
# Seat 2: k11 (treasure), king l11, temple j11, settlements l10 m10. i11 unites them.
WAR_THEN_TREASURE = {
    "e10": "1T",
    "g10": "1K",
    "g11": "r",
    "h11": "r",
    "d10": "k",
    "e11": "k",
    "l11": "2K",
    "j11": "r",
    "l10": "k",
    "m10": "k",
}


def test_treasures_are_taken_after_the_war() -> None:
    """RULES.md §16.2/§16.4: the war is fought first; then the united kingdom's trader takes."""
    state = play(position(WAR_THEN_TREASURE, hands={1: "g k", 2: ""}), "tile green i11")
    assert decision(state) == "support"
    assert {"f10", "k11"} <= treasures_on_board(state)
    state = play(state, "commit 1", "commit 0")
    assert vp(state, 1)["black"] == 3
    assert decision(state) == "treasure"
    assert state.to_act == 1
    assert legal(state) == {"treasure f10", "treasure k11"}
