"""Scenario tests for RULES.md §8 (monuments)."""

from __future__ import annotations

from engine.botapi import BLACK, RED, monument_income
from tests.engine.rules_helpers import (
    assert_illegal,
    built_monuments,
    cell,
    decision,
    leaders_on_board,
    legal,
    play,
    position,
    treasures_on_board,
    vp,
)

ZERO = {"red": 0, "black": 0, "blue": 0, "green": 0, "treasures": 0}
BLOCK = ("g4", "h4", "g5", "h5")
RED_OFFERS = {
    "monument red-black g4",
    "monument red-blue g4",
    "monument red-green g4",
    "decline monument",
}


def red_block(monuments: dict[str, str] | None = None) -> object:
    """g4 h4 g5 red, king f5 beside temples e5 and g5; seat 1 completes the block with h5."""
    state = position(
        {"g4": "r", "h4": "r", "g5": "r", "e5": "r", "f5": "1K"},
        hands={1: "r k"},
        monuments=monuments,
    )
    return play(state, "tile red h5")


def test_red_block_offers_only_monuments_with_red() -> None:
    """RULES.md §8.1/§15: a red 2×2 offers red-black, red-blue, red-green or declining."""
    state = red_block()
    assert vp(state, 1) == {**ZERO, "red": 1}
    assert decision(state) == "monument"
    assert state.to_act == 1
    assert legal(state) == RED_OFFERS
    assert_illegal(state, "monument black-blue g4")
    assert_illegal(state, "pass")


def test_building_flips_the_block_face_down() -> None:
    """RULES.md §8.2: the four tiles turn face down under the monument."""
    state = play(red_block(), "monument red-blue g4")
    for square in BLOCK:
        assert cell(state, square) == "#"
    assert built_monuments(state) == {"red-blue": "g4"}
    assert leaders_on_board(state) == {"1K": "f5"}
    assert state.pending is None
    assert (state.to_act, state.actions_left) == (1, 1)
    assert vp(state, 1) == {**ZERO, "red": 1}


def test_declining_leaves_the_block_face_up() -> None:
    """RULES.md §8.1: building is optional."""
    state = play(red_block(), "decline monument")
    for square in BLOCK:
        assert cell(state, square) == "r"
    assert built_monuments(state) == {}
    assert state.pending is None
    assert state.actions_left == 1


def test_a_built_monument_is_no_longer_offered() -> None:
    """RULES.md §8.1: each monument exists once."""
    state = red_block(monuments={"red-blue": "a10"})
    assert legal(state) == RED_OFFERS - {"monument red-blue g4"}


def test_no_offer_when_every_monument_of_the_colour_is_built() -> None:
    """RULES.md §8.1/§15: no monument containing red left: nothing to decide."""
    built = {"red-black": "a10", "red-blue": "c10", "red-green": "l10"}
    state = red_block(monuments=built)
    assert state.pending is None
    assert state.actions_left == 1


def test_several_blocks_the_active_player_chooses() -> None:
    """RULES.md §8.1: h5 completes g4–h5 and g5–h6: six monuments and decline on offer."""
    state = position(
        {"g4": "r", "h4": "r", "g5": "r", "g6": "r", "h6": "r", "e5": "r", "f5": "1K"},
        hands={1: "r"},
    )
    state = play(state, "tile red h5")
    offers = {f"monument red-{c} {sq}" for c in ("black", "blue", "green") for sq in ("g4", "g5")}
    assert legal(state) == offers | {"decline monument"}
    state = play(state, "monument red-green g5")
    assert [cell(state, sq) for sq in ("g5", "h5", "g6", "h6")] == ["#"] * 4
    assert [cell(state, sq) for sq in ("g4", "h4")] == ["r", "r"]
    assert built_monuments(state) == {"red-green": "g5"}


def test_a_block_standing_before_the_action_is_not_offered() -> None:
    """RULES.md §8.1: only a block completed by the placed tile offers a monument."""
    state = position({"g4": "r", "h4": "r", "g5": "r", "h5": "r"}, hands={1: "r"})
    state = play(state, "tile red c5")
    assert state.pending is None


def test_a_leader_left_without_a_face_up_temple_is_withdrawn() -> None:
    """RULES.md §8.2/§4.3: the king beside g5 only loses its temple when g5 turns face down."""
    state = position({"g4": "r", "h4": "r", "g5": "r", "f5": "1K"}, hands={1: "r"})
    state = play(state, "tile red h5", "monument red-black g4")
    assert leaders_on_board(state) == {}
    assert cell(state, "f5") == "."


def test_no_leader_beside_a_face_down_temple_only() -> None:
    """RULES.md §8.2/§4.2: face-down tiles are not temples."""
    state = position({sq: "#" for sq in BLOCK}, monuments={"red-blue": "g4"})
    assert_illegal(state, "leader king i5")
    assert_illegal(state, "leader priest g6")


def test_treasure_on_a_flipped_temple_stays_and_can_be_taken() -> None:
    """RULES.md §8.2/§9: i7 keeps its treasure face down; a trader can still take it."""
    state = position({"h7": "r", "h8": "r"}, hands={1: "r"})
    state = play(state, "tile red i8", "monument red-green h7")
    assert cell(state, "i7") == "#*"
    assert len(treasures_on_board(state)) == 10

    chain = {sq: "k" for sq in ("i5", "i4", "h4", "g4", "f4")}
    block = {"h7": "#", "i7": "#*", "h8": "#", "i8": "#"}
    state = position(
        {**block, **chain, "k8": "r", "j8": "2T"}, monuments={"red-green": "h7"}, hands={1: "k"}
    )
    state = play(state, "tile black i6")
    assert decision(state) == "treasure"
    assert state.to_act == 2
    assert legal(state) == {"treasure f3", "treasure i7"}
    state = play(state, "treasure i7")
    assert cell(state, "i7") == "#"
    assert vp(state, 2)["treasures"] == 1


# ------------------------------------------------------------- monument after wars (§8.1, §16)

WAR_BLOCK = {
    "e5": "r",
    "f5": "1K",
    "d5": "k",
    "e6": "k",
    "e4": "k",
    "g4": "k",
    "h4": "k",
    "h5": "k",
    "i4": "r",
    "i5": "2K",
}


def test_no_monument_when_the_war_destroys_the_block() -> None:
    """RULES.md §8.1/§16.3: black g5 unites and completes g4–h5; seat 1 wins and removes
    g4 h4 h5, so the block is gone and nothing is offered.
    """
    state = position(WAR_BLOCK, hands={1: "k k", 2: ""})
    state = play(state, "tile black g5")
    assert decision(state) == "support"
    state = play(state, "commit 1", "commit 0")
    assert vp(state, 1) == {**ZERO, "black": 4}
    assert state.pending is None
    assert [cell(state, sq) for sq in ("g4", "h4", "h5")] == ["."] * 3


def test_monument_offered_after_the_war_when_the_block_survives() -> None:
    """RULES.md §8.1/§16.3: seat 2 wins the black war; the block stands; seat 1 may build."""
    state = position(WAR_BLOCK, hands={1: "k k", 2: ""})
    state = play(state, "tile black g5", "commit 0", "commit 0")
    assert vp(state, 2) == {**ZERO, "black": 4}
    assert decision(state) == "monument"
    assert state.to_act == 1
    assert legal(state) == {
        "monument red-black g4",
        "monument black-blue g4",
        "monument black-green g4",
        "decline monument",
    }


# ------------------------------------------------------------- monument VP (§8.3, §12.1)

MONUMENT_KINGDOM = {
    "g4": "#",
    "h4": "#",
    "g5": "#",
    "h5": "#",
    "e5": "r",
    "f5": "1K",
    "j5": "r",
    "i5": "2P",
    "c5": "r",
    "c6": "2K",
}


def test_monument_vp_at_the_end_of_the_own_turn_for_own_leaders_never_the_king() -> None:
    """RULES.md §8.3/§12.1: red-black monument with 1K and 2P in its kingdom.

    End of seat 1's turn: 1 black to seat 1 (its king is black), no red for seat 1 (the king
    does not stand in), nothing for seat 2. End of seat 2's turn: 1 red to seat 2 only; its king
    c6 is in another kingdom and earns no black.
    """
    state = position(MONUMENT_KINGDOM, monuments={"red-black": "g4"}, hands={1: "k"})
    state = play(state, "tile black a11")
    assert vp(state, 1) == ZERO
    state = play(state, "pass")
    assert vp(state, 1) == {**ZERO, "black": 1}
    assert vp(state, 2) == ZERO
    state = play(state, "pass")
    assert vp(state, 2) == {**ZERO, "red": 1}
    assert vp(state, 1) == {**ZERO, "black": 1}


def test_monument_vp_for_both_colours_and_every_monument() -> None:
    """RULES.md §8.3: a king and a priest beside a red-black monument earn 1 red and 1 black;
    a second monument (black-green) in the same kingdom adds 1 black.
    """
    board = {**MONUMENT_KINGDOM, "i5": "1P", "c6": ".", "g6": "#", "h6": "#", "g7": "#", "h7": "#"}
    state = position(board, monuments={"red-black": "g4", "black-green": "g6"})
    state = play(state, "pass")
    assert vp(state, 1) == {**ZERO, "red": 1, "black": 2}
    assert vp(state, 2) == ZERO


def test_monument_income_names_the_colours_the_end_of_turn_scores() -> None:
    """RULES.md §8.3: ``botapi.monument_income`` is what ``score_monuments`` gives, seat by seat.

    Red-black and black-green in one kingdom with 1K and 1P: seat 1 earns red, black (red-black)
    and black (black-green); seat 2's king stands in another kingdom: nothing.
    """
    board = {**MONUMENT_KINGDOM, "i5": "1P", "g6": "#", "h6": "#", "g7": "#", "h7": "#"}
    state = position(board, monuments={"red-black": "g4", "black-green": "g6"})
    assert monument_income(state, 1) == [RED, BLACK, BLACK]
    assert monument_income(state, 2) == []
    after = play(state, "pass")
    assert vp(after, 1) == {**ZERO, "red": 1, "black": 2}


def test_a_farm_block_on_the_river_offers_blue_monuments() -> None:
    """RULES.md §8.1: four farms o4 p4 o5 p5 make a blue block."""
    state = position({"o4": "b", "p4": "b", "o5": "b"}, hands={1: "b"})
    state = play(state, "tile blue p5")
    assert legal(state) == {
        "monument red-blue o4",
        "monument black-blue o4",
        "monument blue-green o4",
        "decline monument",
    }
    state = play(state, "monument black-blue o4")
    assert [cell(state, sq) for sq in ("o4", "p4", "o5", "p5")] == ["#"] * 4
