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
