"""Scenario tests for RULES.md §6 (revolt: internal conflict).

The standard position: seat 2's king on g5 with the temples f5 (its own) and h5 (shared);
seat 1 places its king on h4, next to h5 (shared) and h3 (its own). Each side has 2 temples.
"""

from __future__ import annotations

from tests.engine.rules_helpers import (
    assert_illegal,
    cell,
    decision,
    hand,
    leaders_on_board,
    legal,
    play,
    position,
    tiles,
    vp,
)

BOARD = {"f5": "r", "g5": "2K", "h5": "r", "h3": "r"}
TEMPLES = ("f5", "h5", "h3")


def revolt(hand1: str = "r r k", hand2: str = "r b") -> object:
    state = position(BOARD, hands={1: hand1, 2: hand2})
    return play(state, "leader king h4")


def test_tie_with_a_shared_temple_goes_to_the_defender() -> None:
    """RULES.md §6.2/§6.4: h5 counts for both (2+1 vs 2+1); the defender wins, 1 red VP."""
    state = revolt()
    assert decision(state) == "support"
    assert state.to_act == 1
    assert legal(state) == {"commit 0", "commit 1", "commit 2"}
    state = play(state, "commit 1")
    assert decision(state) == "support"
    assert state.to_act == 2
    assert state.active_seat == 1
    assert legal(state) == {"commit 0", "commit 1"}
    state = play(state, "commit 1")
    assert state.pending is None
    assert leaders_on_board(state) == {"2K": "g5"}
    assert vp(state, 2)["red"] == 1
    assert vp(state, 1)["red"] == 0
    assert sum(vp(state, 2).values()) == 1
    assert sum(vp(state, 1).values()) == 0
    for square in TEMPLES:
        assert cell(state, square) == "r"
    assert hand(state, 1) == tiles("r k")
    assert hand(state, 2) == tiles("b")
    assert (state.to_act, state.active_seat, state.actions_left) == (1, 1, 1)


def test_the_loser_leader_goes_back_to_its_owners_supply() -> None:
    """RULES.md §6.4: the beaten attacker's king can be placed again."""
    state = play(revolt(), "commit 0", "commit 0")
    assert "leader king h4" in legal(state)
    assert "withdraw king" not in legal(state)


def test_attacker_with_more_strength_wins() -> None:
    """RULES.md §6.4: 2+2 beats 2+1; the defender's king leaves, the attacker gets 1 red."""
    state = play(revolt(), "commit 2", "commit 1")
    assert leaders_on_board(state) == {"1K": "h4"}
    assert vp(state, 1)["red"] == 1
    assert vp(state, 2)["red"] == 0
    for square in TEMPLES:
        assert cell(state, square) == "r"
    assert hand(state, 1) == tiles("k")
    assert hand(state, 2) == tiles("b")


def test_support_is_always_red_whatever_the_leaders_colour() -> None:
    """RULES.md §6.3: in a revolt of kings only red tiles are committed."""
    state = revolt(hand1="k k k k r", hand2="k k k k k k")
    assert legal(state) == {"commit 0", "commit 1"}
    state = play(state, "commit 0")
    assert legal(state) == {"commit 0"}
    assert_illegal(state, "commit 1")


def test_defender_is_asked_even_with_no_red_tile() -> None:
    """RULES.md §6.3/§15: support is always asked, even when only commit 0 is possible."""
    state = play(revolt(hand2="b b g"), "commit 0")
    assert state.to_act == 2
    assert decision(state) == "support"
    assert legal(state) == {"commit 0"}


def test_committing_more_red_than_held_is_refused() -> None:
    """RULES.md §6.3: only tiles from the hand can be committed."""
    state = revolt()
    assert_illegal(state, "commit 3")


def test_only_face_up_temples_adjacent_to_the_leader_count() -> None:
    """RULES.md §6.2: a far temple, a black tile and a face-down tile add no strength.

    The defender's kingdom also holds e6 (a temple not next to g5, joined through the market
    e5), a settlement g4 and a monument g6–h7 next to g5. Defender 2 (f5, h5) against
    attacker 2 (h5, h3) + 1 committed: the attacker wins.
    """
    board = {**BOARD, "e5": "g", "e6": "r", "g4": "k", "g6": "#", "h6": "#", "g7": "#", "h7": "#"}
    state = position(board, hands={1: "r", 2: ""}, monuments={"black-green": "g6"})
    state = play(state, "leader king h4", "commit 1", "commit 0")
    assert leaders_on_board(state) == {"1K": "h4"}
    assert vp(state, 1)["red"] == 1
    assert vp(state, 2)["red"] == 0


def test_nothing_happens_meanwhile() -> None:
    """RULES.md §15/§16: while support is pending no other action is accepted."""
    state = revolt()
    assert_illegal(state, "pass")
    assert_illegal(state, "tile red c5")
    assert_illegal(state, "withdraw king")


def test_defender_refills_only_at_the_end_of_the_active_players_turn() -> None:
    """RULES.md §12.2: tiles committed by the defender are replaced at the end of the turn."""
    state = play(revolt(hand2="r r b b"), "commit 0", "commit 2")
    assert hand(state, 2) == tiles("b b")
    state = play(state, "tile black c5")
    assert state.active_seat == 2
    assert len(hand(state, 2)) == 6
    assert hand(state, 2).count("b") >= 2
    assert len(hand(state, 1)) == 6


# Seat 2's trader l11 rules k11 (treasure); the leaderless row f10 (treasure) … j10 ends
# beside j11, where seat 1 places its trader, next to k11 (the only temple of both traders).
TRADERS = {"l11": "2T", "g10": "k", "h10": "k", "i10": "k", "j10": "k"}


def test_treasures_go_to_the_revolts_winner_after_the_revolt() -> None:
    """RULES.md §16.2/§16.4/§9: the revolt is settled before treasures are taken."""
    state = play(position(TRADERS, hands={1: "r", 2: ""}), "leader trader j11")
    assert decision(state) == "support"
    state = play(state, "commit 1", "commit 0")
    assert leaders_on_board(state) == {"1T": "j11"}
    assert vp(state, 1)["red"] == 1
    assert decision(state) == "treasure"
    assert state.to_act == 1
    assert legal(state) == {"treasure f10", "treasure k11"}


def test_a_beaten_attacker_takes_no_treasure_and_its_kingdom_link_goes() -> None:
    """RULES.md §16.2/§16.4/§9: the losing trader leaves j11, so f10 and k11 are apart again
    when treasures are checked: nobody takes one.
    """
    state = play(
        position(TRADERS, hands={1: "r", 2: ""}), "leader trader j11", "commit 0", "commit 0"
    )
    assert leaders_on_board(state) == {"2T": "l11"}
    assert vp(state, 2)["red"] == 1
    assert state.pending is None
    assert vp(state, 1)["treasures"] == 0
    assert vp(state, 2)["treasures"] == 0
    assert cell(state, "f10") == "r*"
    assert cell(state, "k11") == "r*"
