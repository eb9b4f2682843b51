"""Positions that break a rule cannot be written: the diagram parser refuses them.

Issue 3 lists what parsing rejects; each case is the static form of a rule of RULES.md.
"""

from __future__ import annotations

from tests.engine.rules_helpers import assert_rejected, cell, position

HEADER = "players: 2\nactive: 1"


def test_the_same_position_parses_when_consistent() -> None:
    """RULES.md §1.1/§4.2: the control case of the refusals below is accepted."""
    state = position({"c7": "b", "g4": "r", "g5": "1K", "i4": "r", "i5": "2K"})
    assert cell(state, "c7") == "b"
    assert cell(state, "g5") == "1K"


def test_a_farm_on_land_is_refused() -> None:
    """RULES.md §5.1: farms only on rivers."""
    assert_rejected(HEADER, {"c6": "b"})


def test_a_temple_on_a_river_is_refused() -> None:
    """RULES.md §5.1: temples only on land."""
    assert_rejected(HEADER, {"c7": "r"})


def test_a_river_drawn_as_land_is_refused() -> None:
    """RULES.md §1.1: the grid must agree with the map."""
    assert_rejected(HEADER, {"c7": "."})


def test_a_leader_on_a_river_is_refused() -> None:
    """RULES.md §4.2: leaders stand on land."""
    assert_rejected(HEADER, {"c5": "r", "c4": "1K"})


def test_a_leader_away_from_any_face_up_temple_is_refused() -> None:
    """RULES.md §4.2/§4.3: a leader always stands beside a face-up temple."""
    assert_rejected(HEADER, {"g4": "k", "g5": "1K"})


def test_two_kings_in_one_kingdom_are_refused() -> None:
    """RULES.md §3: no kingdom holds two leaders of the same colour."""
    assert_rejected(HEADER, {"g4": "r", "g5": "1K", "h4": "r", "h5": "2K"})


def test_more_tiles_of_a_colour_than_exist_are_refused() -> None:
    """RULES.md §1.2: there are 36 farms."""
    assert_rejected(HEADER + "\nhand 1: b b b b b b\nbag: b 31", {})
