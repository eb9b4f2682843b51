"""Scenario tests for RULES.md §7 (war: external conflict).

The standard position: seat 1's kingdom c5 (temple) c6 (1K) with settlements d5 e5 d6; seat 2's
kingdom i5 (temple) j5 (2K) with settlements g5 h5 h6. f5 touches e5 and g5: a tile there unites
the two kingdoms. Each side has three black supporters.
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

ZERO = {"red": 0, "black": 0, "blue": 0, "green": 0, "treasures": 0}
SIDE_1 = {"c5": "r", "c6": "1K", "d5": "k", "e5": "k", "d6": "k"}
SIDE_2 = {"g5": "k", "h5": "k", "h6": "k", "i5": "r", "j5": "2K"}
BLACK_1 = ("d5", "e5", "d6")
BLACK_2 = ("g5", "h5", "h6")


def test_attacker_wins_five_to_four_and_scores_leader_plus_removed_tiles() -> None:
    """RULES.md §7.3/§7.4: 3+2 beats 3+1; 1 + 3 removed = 4 black VP; commits score nothing."""
    state = position({**SIDE_1, **SIDE_2}, hands={1: "g k k r", 2: "k b"})
    state = play(state, "tile green f5")
    assert decision(state) == "support"
    assert state.to_act == 1
    assert legal(state) == {"commit 0", "commit 1", "commit 2"}
    state = play(state, "commit 2")
    assert state.to_act == 2
    assert legal(state) == {"commit 0", "commit 1"}
    state = play(state, "commit 1")
    assert state.pending is None
    assert vp(state, 1) == {**ZERO, "black": 4}
    assert vp(state, 2) == ZERO
    assert leaders_on_board(state) == {"1K": "c6"}
    for square in BLACK_2:
        assert cell(state, square) == "."
    for square in BLACK_1:
        assert cell(state, square) == "k"
    assert cell(state, "i5") == "r"
    assert cell(state, "f5") == "g"
    assert hand(state, 1) == tiles("r")
    assert hand(state, 2) == tiles("b")
    assert (state.to_act, state.active_seat, state.actions_left) == (1, 1, 1)


def test_a_tie_goes_to_the_defender() -> None:
    """RULES.md §7.3/§7.4: 3+1 against 3+1: the attacker's king and black supporters go."""
    state = position({**SIDE_1, **SIDE_2}, hands={1: "g k k r", 2: "k b"})
    state = play(state, "tile green f5", "commit 1", "commit 1")
    assert leaders_on_board(state) == {"2K": "j5"}
    assert vp(state, 2) == {**ZERO, "black": 4}
    assert vp(state, 1) == ZERO
    for square in BLACK_1:
        assert cell(state, square) == "."
    for square in BLACK_2:
        assert cell(state, square) == "k"
    assert cell(state, "c5") == "r"


def test_the_unification_tile_belongs_to_neither_side() -> None:
    """RULES.md §7.1/§7.3: a black unification tile supports nobody, stays, and scores nothing."""
    state = position({**SIDE_1, **SIDE_2}, hands={1: "k", 2: ""})
    state = play(state, "tile black f5", "commit 0", "commit 0")
    assert leaders_on_board(state) == {"2K": "j5"}
    assert cell(state, "f5") == "k"
    assert vp(state, 2) == {**ZERO, "black": 4}
    assert vp(state, 1) == ZERO


def test_peaceful_unification_scores_nothing_and_starts_no_war() -> None:
    """RULES.md §5.2/§7.1: no common leader colour: no war, no VP; the kingdoms are one."""
    state = position({**SIDE_1, **SIDE_2, "j5": "2P"}, hands={1: "g k", 2: ""})
    state = play(state, "tile green f5")
    assert state.pending is None
    assert leaders_on_board(state) == {"1K": "c6", "2P": "j5"}
    assert vp(state, 1) == ZERO
    assert vp(state, 2) == ZERO
    assert state.actions_left == 1
    # i4 touches only seat 2's old side: the united kingdom's king (seat 1) scores it.
    state = play(state, "tile black i4")
    assert vp(state, 1) == {**ZERO, "black": 1}


def test_attacker_is_the_first_involved_seat_after_the_active_one() -> None:
    """RULES.md §7.2: seat 2 unites seats 1 and 3: seat 3 attacks (commits first), 1 defends."""
    side_3 = {**SIDE_2, "j5": "3K"}
    state = position({**SIDE_1, **side_3}, players=3, active=2, hands={1: "k", 2: "g", 3: "k"})
    state = play(state, "tile green f5")
    assert decision(state) == "support"
    assert state.to_act == 3
    assert state.active_seat == 2
    state = play(state, "commit 1")
    assert state.to_act == 1
    state = play(state, "commit 1")
    assert leaders_on_board(state) == {"1K": "c6"}
    assert vp(state, 1) == {**ZERO, "black": 4}
    assert vp(state, 2) == ZERO
    assert vp(state, 3) == ZERO
    assert (state.to_act, state.active_seat) == (2, 2)


TWO_WARS = {**SIDE_1, **SIDE_2, "b5": "1P", "i4": "2P"}


def test_two_wars_from_one_tile_the_active_player_chooses_the_order() -> None:
    """RULES.md §7.2/§7.5: red first by choice, then the black war follows without a choice.

    Red: c5 + 2 committed beats i5; i5 stays (next to the king j5), the priest i4 goes: 1 red.
    Black: 3 against 3 + 1: the defender wins, removing d5 e5 d6 and the king c6: 4 black.
    """
    state = position(TWO_WARS, hands={1: "g r r", 2: "k"})
    state = play(state, "tile green f5")
    assert decision(state) == "war"
    assert state.to_act == 1
    assert legal(state) == {"war black", "war red"}
    state = play(state, "war red")
    assert decision(state) == "support"
    assert legal(state) == {"commit 0", "commit 1", "commit 2"}
    state = play(state, "commit 2", "commit 0")
    assert vp(state, 1) == {**ZERO, "red": 1}
    assert cell(state, "i5") == "r"
    assert cell(state, "i4") == "."
    assert decision(state) == "support"
    assert state.to_act == 1
    assert legal(state) == {"commit 0"}
    state = play(state, "commit 0", "commit 1")
    assert state.pending is None
    assert vp(state, 2) == {**ZERO, "black": 4}
    assert leaders_on_board(state) == {"1P": "b5", "2K": "j5"}
    for square in BLACK_1:
        assert cell(state, square) == "."
    assert cell(state, "c5") == "r"


def test_the_war_order_is_chosen_by_the_active_player_even_if_not_involved() -> None:
    """RULES.md §7.2: seat 3 unites seats 1 and 2 with two wars: seat 3 chooses, seat 1 attacks."""
    state = position(TWO_WARS, players=3, active=3, hands={3: "g"})
    state = play(state, "tile green f5")
    assert decision(state) == "war"
    assert state.to_act == 3
    assert legal(state) == {"war black", "war red"}
    assert_illegal(state, "pass")
    state = play(state, "war black")
    assert decision(state) == "support"
    assert state.to_act == 1


def test_red_war_keeps_temples_with_treasure_or_next_to_another_leader() -> None:
    """RULES.md §7.4: of the loser's temples i7 (treasure), k7 (next to its own king) and k6
    (next to seat 1's trader) stay; j7, beside the losing priest only, is removed: 1 + 1 red.
    """
    board = {
        "g5": "r",
        "g6": "r",
        "h6": "r",
        "h4": "r",
        "h5": "1P",
        "j6": "2P",
        "j7": "r",
        "k7": "r",
        "k6": "r",
        "l7": "2K",
        "k5": "1T",
    }
    state = position(board, hands={1: "g r", 2: ""})
    state = play(state, "tile green i6")
    assert decision(state) == "support"
    state = play(state, "commit 1", "commit 0")
    assert state.pending is None
    assert vp(state, 1) == {**ZERO, "red": 2}
    assert cell(state, "j7") == "."
    assert cell(state, "i7") == "r*"
    assert cell(state, "k7") == "r"
    assert cell(state, "k6") == "r"
    assert leaders_on_board(state) == {"1P": "h5", "2K": "l7", "1T": "k5"}


def test_a_war_whose_leader_is_cut_off_is_cancelled() -> None:
    """RULES.md §7.5: after the black war removes h5 i5, the priest j6 no longer reaches the
    unification tile g5 through its own side: the red war is not fought.
    """
    board = {
        "e5": "r",
        "f5": "1K",
        "e6": "1P",
        "e4": "k",
        "d5": "k",
        "h5": "k",
        "i5": "k",
        "j5": "r",
        "j4": "2K",
        "j6": "2P",
    }
    state = position(board, hands={1: "g k", 2: ""})
    state = play(state, "tile green g5", "war black", "commit 1", "commit 0")
    assert state.pending is None
    assert vp(state, 1) == {**ZERO, "black": 3}
    assert vp(state, 2) == ZERO
    assert leaders_on_board(state) == {"1K": "f5", "1P": "e6", "2P": "j6"}
    assert cell(state, "h5") == "."
    assert cell(state, "i5") == "."
    assert cell(state, "j5") == "r"
    assert (state.to_act, state.actions_left) == (1, 1)


def test_committing_another_colour_than_the_wars_is_impossible() -> None:
    """RULES.md §7.3: hand tiles of the war's colour only: red tiles do not count in black."""
    state = position({**SIDE_1, **SIDE_2}, hands={1: "g r r r", 2: "r r"})
    state = play(state, "tile green f5")
    assert legal(state) == {"commit 0"}
    assert_illegal(state, "commit 1")


def test_war_events_are_reported() -> None:
    """RULES.md §14/§16 (issue 3): the action that fights a war reports coded events."""
    state = position({**SIDE_1, **SIDE_2}, hands={1: "g k k r", 2: "k b"})
    state = play(state, "tile green f5", "commit 2", "commit 1")
    assert state.events
    assert all(event.code for event in state.events)
    assert all(hasattr(event, "params") for event in state.events)


THREE_WARS = {
    **SIDE_1,
    **SIDE_2,
    "b5": "1P",
    "i4": "2P",
    "e6": "r",
    "f6": "1F",
    "k6": "r",
    "k5": "2F",
}


def test_with_three_wars_the_order_is_chosen_again_after_the_first() -> None:
    """RULES.md §7.2/§7.5: black, red and blue wars; after the blue war two remain: choose."""
    state = play(position(THREE_WARS, hands={1: "g", 2: ""}), "tile green f5")
    assert legal(state) == {"war black", "war blue", "war red"}
    state = play(state, "war blue", "commit 0", "commit 0")
    assert vp(state, 2) == {**ZERO, "blue": 1}
    assert "1F" not in leaders_on_board(state)
    assert decision(state) == "war"
    assert state.to_act == 1
    assert legal(state) == {"war black", "war red"}


def test_outside_a_red_war_supporters_next_to_other_leaders_are_removed() -> None:
    """RULES.md §7.4: the red-war exception is for temples only: in a green war the market h4,
    next to the loser's king i4, is removed with g5 and h5: 1 + 3 green.
    """
    board = {
        "c5": "r",
        "c6": "1T",
        "d5": "g",
        "e5": "g",
        "g5": "g",
        "h5": "g",
        "h4": "g",
        "i5": "r",
        "j5": "2T",
        "i4": "2K",
    }
    state = position(board, hands={1: "k g g", 2: ""})
    state = play(state, "tile black f5", "commit 2", "commit 0")
    assert vp(state, 1) == {**ZERO, "green": 4}
    assert [cell(state, sq) for sq in ("g5", "h5", "h4")] == ["."] * 3
    assert leaders_on_board(state) == {"1T": "c6", "2K": "i4"}


def test_unification_also_joins_a_leaderless_region() -> None:
    """RULES.md §7.1/§3: f5 touches both kingdoms and the market f6; after the peaceful
    unification f7, beside f6 only, scores for the united kingdom's king.
    """
    state = position({**SIDE_1, **SIDE_2, "j5": "2P", "f6": "g"}, hands={1: "g k"})
    state = play(state, "tile green f5", "tile black f7")
    assert vp(state, 1) == {**ZERO, "black": 1}


def test_a_leaderless_region_at_the_unification_tile_supports_nobody() -> None:
    """RULES.md §7.3/§7.4: the settlements f6 f7 touch the unification tile f5 but belong to
    no leader's original kingdom: 3 against 3, the defender wins, and f6 f7 stay.
    """
    state = position({**SIDE_1, **SIDE_2, "f6": "k", "f7": "k"}, hands={1: "g", 2: ""})
    state = play(state, "tile green f5", "commit 0", "commit 0")
    assert leaders_on_board(state) == {"2K": "j5"}
    assert vp(state, 2) == {**ZERO, "black": 4}
    assert cell(state, "f6") == "k"
    assert cell(state, "f7") == "k"
