"""Scenario tests for RULES.md §5 (placing civilization tiles and scoring them)."""

from __future__ import annotations

from tests.engine.rules_helpers import (
    assert_illegal,
    cell,
    hand,
    legal,
    play,
    position,
    tiles,
    vp,
)

ZERO = {"red": 0, "black": 0, "blue": 0, "green": 0, "treasures": 0}

# ---------------------------------------------------------------- §5.1 placement


def test_farms_only_on_rivers() -> None:
    """RULES.md §5.1: a farm goes on a river square, never on land."""
    state = position(hands={1: "b r k g"})
    assert "tile blue c7" in legal(state)
    assert_illegal(state, "tile blue c6")
    state = play(state, "tile blue c7")
    assert cell(state, "c7") == "b"
    assert hand(state, 1) == tiles("r k g")


def test_temples_settlements_markets_only_on_land() -> None:
    """RULES.md §5.1: red, black and green tiles never go on a river."""
    state = position(hands={1: "b r k g"})
    for color in ("red", "black", "green"):
        assert_illegal(state, f"tile {color} c7")
        assert f"tile {color} c6" in legal(state)


def test_tile_needs_an_empty_square() -> None:
    """RULES.md §5.1: not on a tile, a leader or a catastrophe."""
    state = position({"g4": "r", "g5": "1K", "h5": "x"}, hands={1: "r k g"})
    assert_illegal(state, "tile black g4")
    assert_illegal(state, "tile black g5")
    assert_illegal(state, "tile black h5")
    assert_illegal(state, "tile black k1")


def test_tile_must_come_from_the_hand() -> None:
    """RULES.md §5.1: a colour not in the hand cannot be placed."""
    state = position(hands={1: "r r k"})
    assert_illegal(state, "tile green c6")
    assert not any(a.startswith("tile green") for a in legal(state))


def test_tile_may_not_touch_three_kingdoms() -> None:
    """RULES.md §5.1: h5 touches the kingdoms of g5, i5 and h4."""
    state = position(
        {"g5": "r", "f5": "1K", "i5": "r", "j5": "2K", "h4": "r", "h3": "1P"},
        hands={1: "r k g"},
    )
    for color in ("red", "black", "green"):
        assert_illegal(state, f"tile {color} h5")


# ---------------------------------------------------------------- §5.2 scoring


def test_market_in_a_kingdom_with_another_players_trader_scores_for_that_player() -> None:
    """RULES.md §5.2: the VP goes to the trader's owner, not the active player."""
    state = position({"g4": "r", "g5": "2T"}, hands={1: "g"})
    state = play(state, "tile green h5")
    assert vp(state, 2) == {**ZERO, "green": 1}
    assert vp(state, 1) == ZERO


def test_temple_in_a_kingdom_with_only_a_king_scores_red_for_the_king() -> None:
    """RULES.md §5.2: the king stands in and its owner gets 1 VP of the tile's colour (red)."""
    state = position({"g4": "r", "g5": "2K"}, hands={1: "r"})
    state = play(state, "tile red h5")
    assert vp(state, 2) == {**ZERO, "red": 1}
    assert vp(state, 1) == ZERO


def test_leader_of_the_tiles_colour_goes_before_the_king() -> None:
    """RULES.md §5.2: with a priest in the kingdom, a temple scores for the priest."""
    state = position({"g4": "r", "g5": "1K", "h4": "2P"}, hands={1: "r"})
    state = play(state, "tile red h5")
    assert vp(state, 2) == {**ZERO, "red": 1}
    assert vp(state, 1) == ZERO


def test_own_farmer_scores_a_farm_on_the_river() -> None:
    """RULES.md §5.2: the farmer's owner gets 1 blue VP for a farm in its kingdom."""
    state = position({"c5": "r", "c6": "1F"}, hands={1: "b"})
    state = play(state, "tile blue c7")
    assert vp(state, 1) == {**ZERO, "blue": 1}


def test_no_matching_leader_and_no_king_scores_nothing() -> None:
    """RULES.md §5.2: a market in a kingdom with only a priest scores for nobody."""
    state = position({"g4": "r", "g5": "2P"}, hands={1: "g"})
    state = play(state, "tile green h5")
    assert vp(state, 1) == ZERO
    assert vp(state, 2) == ZERO


def test_an_isolated_tile_scores_nothing() -> None:
    """RULES.md §5.2: a tile that joins no kingdom scores for nobody."""
    state = position({"g4": "r", "g5": "1K"}, hands={1: "r k g b"})
    state = play(state, "tile black c5", "tile blue c7")
    for seat in (1, 2):
        assert vp(state, seat) == ZERO


def test_a_tile_touching_only_a_leaderless_region_scores_nothing() -> None:
    """RULES.md §5.2: regions without leaders are not kingdoms."""
    state = position({"g4": "r", "h4": "k", "i4": "g"}, hands={1: "k g"})
    state = play(state, "tile black j4", "tile green g5")
    for seat in (1, 2):
        assert vp(state, seat) == ZERO


def test_a_tile_touching_one_kingdom_on_two_sides_is_no_unification() -> None:
    """RULES.md §5.2/§7.1: h4 touches g4 and h5, both of the same kingdom: it scores."""
    state = position({"g4": "r", "g5": "1K", "h5": "k"}, hands={1: "g"})
    state = play(state, "tile green h4")
    assert state.pending is None
    assert vp(state, 1) == {**ZERO, "green": 1}


def test_a_tile_joining_a_kingdom_and_a_leaderless_region_scores() -> None:
    """RULES.md §5.2: h5 joins the priest's kingdom and the market i5: one kingdom, 1 red."""
    state = position({"g4": "r", "g5": "2P", "i5": "g"}, hands={1: "r"})
    state = play(state, "tile red h5")
    assert vp(state, 2) == {**ZERO, "red": 1}


def test_three_neighbours_in_two_kingdoms_are_not_three_kingdoms() -> None:
    """RULES.md §5.1: h4 touches g4 and h3 (one kingdom) and i4 (another): legal, a
    peaceful unification (king against priest) that scores nothing.
    """
    state = position(
        {"g4": "r", "g5": "1K", "g3": "k", "h3": "k", "i4": "r", "i5": "2P"}, hands={1: "g"}
    )
    state = play(state, "tile green h4")
    assert state.pending is None
    assert vp(state, 1) == ZERO
    assert vp(state, 2) == ZERO
