"""Scenario tests for RULES.md §9 (treasures) and the treasure decision of §15."""

from __future__ import annotations

from tests.engine.rules_helpers import (
    cell,
    decision,
    legal,
    play,
    position,
    treasures_on_board,
    vp,
)

# Seat 2's trader e10 rules f10 (treasure) and the settlements g10–j10; k10 joins k11.
TRADER_ROW = {"e10": "2T", "g10": "k", "h10": "k", "i10": "k", "j10": "k"}


def test_trader_owner_takes_a_treasure_on_another_players_turn() -> None:
    """RULES.md §9/§15: seat 1's tile brings k11 into seat 2's trader kingdom; seat 2 chooses."""
    state = position(TRADER_ROW, hands={1: "k"})
    state = play(state, "tile black k10")
    assert decision(state) == "treasure"
    assert state.to_act == 2
    assert state.active_seat == 1
    assert legal(state) == {"treasure f10", "treasure k11"}
    state = play(state, "treasure k11")
    assert state.pending is None
    assert cell(state, "k11") == "r"
    assert cell(state, "f10") == "r*"
    assert vp(state, 2)["treasures"] == 1
    assert vp(state, 1)["treasures"] == 0
    assert (state.to_act, state.active_seat, state.actions_left) == (1, 1, 1)


def test_a_kingdom_without_a_trader_keeps_its_treasures() -> None:
    """RULES.md §9: with a king instead of a trader nothing is taken."""
    state = position({**TRADER_ROW, "e10": "2K"}, hands={1: "k"})
    state = play(state, "tile black k10")
    assert state.pending is None
    assert {"f10", "k11"} <= treasures_on_board(state)
    assert vp(state, 2) == {"red": 0, "black": 1, "blue": 0, "green": 0, "treasures": 0}


def test_a_special_treasure_is_taken_first_by_itself() -> None:
    """RULES.md §9/§15: b8 (special) joins f10: the take of b8 is forced and automatic."""
    state = position({"e10": "2T", "d10": "k", "c10": "k", "b10": "k"}, hands={1: "k"})
    state = play(state, "tile black b9")
    assert state.pending is None
    assert cell(state, "b8") == "r"
    assert cell(state, "f10") == "r*"
    assert vp(state, 2)["treasures"] == 1
    assert (state.to_act, state.actions_left) == (1, 1)


def test_two_specials_are_both_taken_when_two_must_go() -> None:
    """RULES.md §9/§15: b2 and b8 (special) and f10 in one trader kingdom: both specials go."""
    chain = {"b3": "k", "b4": "b", "b5": "k", "b6": "k", "b7": "b"}
    state = position({**chain, "e10": "2T", "d10": "k", "c10": "k", "b10": "k"}, hands={1: "k"})
    state = play(state, "tile black b9")
    assert state.pending is None
    assert cell(state, "b2") == "r"
    assert cell(state, "b8") == "r"
    assert cell(state, "f10") == "r*"
    assert vp(state, 2)["treasures"] == 2


def test_special_first_then_a_choice_among_the_others() -> None:
    """RULES.md §9/§15: b8, f10, k11 join seat 2's trader at l11: b8 goes by itself, then seat 2
    chooses between f10 and k11.
    """
    region = {sq: "k" for sq in ("b9", "b10", "c10", "d10", "e10", "g10", "h10", "i10", "j10")}
    state = position({**region, "l11": "2T"}, hands={1: "k"})
    state = play(state, "tile black k10")
    assert decision(state) == "treasure"
    assert state.to_act == 2
    assert legal(state) == {"treasure f10", "treasure k11"}
    assert cell(state, "b8") == "r"
    state = play(state, "treasure f10")
    assert state.pending is None
    assert vp(state, 2)["treasures"] == 2
    assert cell(state, "f10") == "r"
    assert cell(state, "k11") == "r*"


def test_placing_a_trader_takes_treasures_for_its_own_player() -> None:
    """RULES.md §9: a trader placed beside b8, whose region holds b2 and b8, takes one of the
    two specials; with two specials the owner chooses which.
    """
    chain = {"b3": "k", "b4": "b", "b5": "k", "b6": "k", "b7": "b"}
    state = position(chain)
    state = play(state, "leader trader a8")
    assert decision(state) == "treasure"
    assert state.to_act == 1
    assert legal(state) == {"treasure b2", "treasure b8"}
    state = play(state, "treasure b2")
    assert vp(state, 1)["treasures"] == 1
    assert cell(state, "b2") == "r"
    assert cell(state, "b8") == "r*"


def test_two_of_three_ordinary_treasures_are_chosen_one_at_a_time() -> None:
    """RULES.md §9/§15: i8 brings i7 and n5 into the kingdom of seat 2's trader (which holds
    f10): two of the three must go; seat 2 picks one, then one of the remaining two.
    """
    kingdom = {"e10": "2T", "g10": "k", "h10": "k", "i10": "k", "i9": "b"}
    chain = {sq: "k" for sq in ("j8", "k8", "l8", "l7", "l6", "m6", "m5")}
    state = play(position({**kingdom, **chain}, hands={1: "k"}), "tile black i8")
    assert decision(state) == "treasure"
    assert state.to_act == 2
    assert legal(state) == {"treasure f10", "treasure i7", "treasure n5"}
    state = play(state, "treasure i7")
    assert decision(state) == "treasure"
    assert state.to_act == 2
    assert legal(state) == {"treasure f10", "treasure n5"}
    state = play(state, "treasure n5")
    assert state.pending is None
    assert vp(state, 2)["treasures"] == 2
    assert treasures_on_board(state) >= {"f10"}
    assert not treasures_on_board(state) & {"i7", "n5"}
