"""Scenario tests for RULES.md §14 (information: what each view may show).

Each test builds two positions that differ only in something a seat must not see (or must see)
and compares that seat's views: equal views prove nothing private leaked.
"""

from __future__ import annotations

import engine
from tests.engine.rules_helpers import play, position, view_json

BAG = "r 20 k 20 b 20 g 20"


def view(state: object, seat: int | None) -> str:
    return view_json(engine.view_for(state, seat))


def test_another_seats_hand_is_hidden() -> None:
    """RULES.md §14: seat 1 and spectators never see seat 2's tiles."""
    a = position(hands={1: "r r k k g g", 2: "r r r r r r"}, bag=BAG)
    b = position(hands={1: "r r k k g g", 2: "b b b b b b"}, bag=BAG)
    assert view(a, 1) == view(b, 1)
    assert view(a, None) == view(b, None)
    assert view(a, 2) != view(b, 2)


def test_own_hand_is_shown() -> None:
    """RULES.md §14: a seat sees its own tiles; spectators do not."""
    a = position(hands={1: "r r k k g g", 2: "r r r r r r"}, bag=BAG)
    b = position(hands={1: "b b k k g g", 2: "r r r r r r"}, bag=BAG)
    assert view(a, 1) != view(b, 1)
    assert view(a, None) == view(b, None)


def test_hand_sizes_and_catastrophes_are_public() -> None:
    """RULES.md §14: the number of tiles in each hand and catastrophes in supply are public."""
    six = position(hands={2: "r r r r r r"}, bag=BAG)
    five = position(hands={2: "r r r r r"}, bag=BAG)
    assert view(six, 1) != view(five, 1)
    one = position(hands={2: "r r r r r r"}, catastrophes={2: 1}, bag=BAG)
    assert view(six, 1) != view(one, 1)


def test_other_seats_totals_are_hidden_in_hidden_scoring() -> None:
    """RULES.md §14: by default a seat sees only its own VP and treasures."""
    a = position(vp={2: {"red": 3, "treasures": 1}}, bag=BAG)
    b = position(vp={2: {"red": 0, "green": 2}}, bag=BAG)
    assert view(a, 1) == view(b, 1)
    assert view(a, None) == view(b, None)
    assert view(a, 2) != view(b, 2)
    own = position(vp={1: {"black": 2}}, bag=BAG)
    assert view(own, 1) != view(position(bag=BAG), 1)


def test_bag_order_and_seed_are_secret() -> None:
    """RULES.md §14: two seeds, hence two bag orders, give the same views."""
    a = position(hands={1: "r r k k g g"}, bag=BAG, seed=987654321)
    b = position(hands={1: "r r k k g g"}, bag=BAG, seed=123456789)
    assert view(a, 1) == view(b, 1)
    assert view(a, None) == view(b, None)
    assert "987654321" not in view(a, 1)


def test_swapped_colours_are_private_only_the_count_is_public() -> None:
    """RULES.md §14: after a swap the others see how many tiles, not which."""
    a = play(position(hands={1: "r r k k g g"}, bag="b 10"), "swap red red")
    b = play(position(hands={1: "r r k k g g"}, bag="b 10"), "swap black black")
    assert view(a, 2) == view(b, 2)
    assert view(a, None) == view(b, None)
    assert view(a, 1) != view(b, 1)


def test_everything_is_public_after_the_end() -> None:
    """RULES.md §14: once the game is over, hands and totals are shown to everyone."""

    def ended(hand2: str, red2: int) -> object:
        state = position(hands={1: "r r r k k k", 2: hand2}, vp={2: {"red": red2}}, bag="g 1")
        state = play(state, "swap red red")
        assert state.is_over
        return state

    base = ended("b b b b b b", 0)
    assert view(base, 1) != view(ended("k k k k k k", 0), 1)
    assert view(base, 1) != view(ended("b b b b b b", 4), 1)
    assert view(base, None) != view(ended("k k k k k k", 0), None)


def test_the_active_players_hand_is_hidden_from_the_others() -> None:
    """RULES.md §14: what the active player may do (their tiles) is not shown to others."""
    a = position(hands={1: "r r k k g g", 2: "r r r r r r"}, bag=BAG)
    b = position(hands={1: "b b b b b b", 2: "r r r r r r"}, bag=BAG)
    assert view(a, 2) == view(b, 2)


def test_the_bag_contents_are_not_shown() -> None:
    """RULES.md §14: only the number of tiles in the bag is public; its colours would reveal
    the other hands (here the default bag is the 153 tiles minus the board and both hands).
    """
    a = position(hands={1: "r r k k g g", 2: "r r r r r r"})
    b = position(hands={1: "r r k k g g", 2: "b b b b b b"})
    assert view(a, 1) == view(b, 1)


def test_a_defenders_options_are_hidden_while_they_decide() -> None:
    """RULES.md §14/§15: while the defender chooses support, the attacker's view does not show
    how many red tiles the defender could commit.
    """
    board = {"f5": "r", "g5": "2K", "h5": "r", "h3": "r"}

    def defending(hand2: str) -> object:
        state = position(board, hands={1: "r k", 2: hand2}, bag=BAG)
        state = play(state, "leader king h4", "commit 0")
        assert state.to_act == 2
        return state

    a, b = defending("r r r b b b"), defending("r b b b b b")
    assert view(a, 1) == view(b, 1)
    assert view(a, None) == view(b, None)
    assert view(a, 2) != view(b, 2)


def test_a_treasure_choice_is_public_but_not_the_chooser_hand() -> None:
    """RULES.md §14/§15: when another seat must choose a treasure, the active player's view
    depends on the board only, not on that seat's tiles.
    """
    row = {"e10": "2T", "g10": "k", "h10": "k", "i10": "k", "j10": "k"}

    def choosing(hand2: str) -> object:
        state = play(position(row, hands={1: "k", 2: hand2}, bag=BAG), "tile black k10")
        assert state.to_act == 2
        return state

    assert view(choosing("r r r r r r"), 1) == view(choosing("g g g g g g"), 1)
