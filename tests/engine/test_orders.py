"""Standing orders (issue 17): the action an order gives for a seat's decision (RULES.md §15)."""

from __future__ import annotations

import pytest

import engine
from tests.engine.rules_helpers import play, position

# Seat 2's priest c6 stands by temples c5 and d6 (strength 2); seat 1's priest e6, by d6
# (strength 1), revolts.
REVOLT = {"c5": "r", "c6": "2P", "d6": "r"}
# Seat 1's king c6 and seat 2's king j5, 3 black supporters each: f5 unites them, black war.
SIDE_1 = {"c5": "r", "c6": "1K", "d5": "k", "e5": "k", "d6": "k"}
SIDE_2 = {"g5": "k", "h5": "k", "h6": "k", "i5": "r", "j5": "2K"}


def answer(state: engine.GameState, seat: int, **orders: str) -> str | None:
    action = engine.order_action(
        engine.view_for(state, seat), engine.StandingOrders.from_dict(orders)
    )
    return None if action is None else str(action)


def revolt(attacker_commit: int, defender_hand: str) -> engine.GameState:
    state = position(REVOLT, hands={1: "r r r", 2: defender_hand})
    return play(state, "leader priest e6", f"commit {attacker_commit}")


@pytest.mark.parametrize(
    ("commit", "hand", "kind", "expected"),
    [
        (2, "r r r k", "all", "commit 3"),
        (2, "r r r k", "none", "commit 0"),
        (2, "r r r k", "enough", "commit 1"),  # 2 + 1 ties 1 + 2: the defender keeps it
        (0, "r r r", "enough", "commit 0"),  # 2 against 1 already holds
        (3, "r", "enough", "commit 0"),  # 4 against at most 3: keep the tile
        (2, "k b", "all", "commit 0"),  # no red tile: the only answer
        (2, "r r r", "ask", None),
    ],
)
def test_a_revolt_defenders_order(commit: int, hand: str, kind: str, expected: str | None) -> None:
    """RULES.md §6.3–6.4: the defender commits red tiles after seeing the attacker's."""
    state = revolt(commit, hand)
    assert (state.to_act, state.pending.kind) == (2, "support")
    assert engine.order_slot(engine.view_for(state, 2)) == "revolt_defender"
    assert answer(state, 2, revolt_defender=kind) == expected
    # Another slot, or another seat's view, never answers this decision.
    assert answer(state, 2, war_defender="all", revolt_attacker="all") is None
    assert answer(state, 1, revolt_defender="all") is None
    assert answer(state, 1, revolt_attacker="all") is None


def test_an_attackers_order_needs_to_pass_the_defender() -> None:
    """RULES.md §7.3: seat 1 attacks in a black war, 3 against 3: 1 more tile wins."""
    state = play(position({**SIDE_1, **SIDE_2}, hands={1: "g k k k r"}), "tile green f5")
    assert engine.order_slot(engine.view_for(state, 1)) == "war_attacker"
    assert answer(state, 1, war_attacker="enough") == "commit 1"
    assert answer(state, 1, war_attacker="all") == "commit 3"
    assert answer(state, 1, revolt_attacker="all") is None
    state = play(state, "commit 2")
    assert engine.order_slot(engine.view_for(state, 2)) == "war_defender"
    assert answer(state, 2, war_defender="enough") == "commit 0"  # no black tile in hand


def test_the_war_order_fights_the_wars_in_colour_order() -> None:
    """RULES.md §7.2: two wars (black, red): the active player's order picks black first."""
    two_wars = {**SIDE_1, **SIDE_2, "b5": "1P", "i4": "2P"}
    state = play(position(two_wars, hands={1: "g"}), "tile green f5")
    assert state.pending.kind == "war_order"
    options = [str(a) for a in engine.legal_actions(state)]
    assert answer(state, 1, war_order="listed") == min(
        options, key=lambda a: engine.COLOR_NAMES.index(a.split()[1])
    )
    assert answer(state, 1) is None


def test_the_monument_orders_build_or_decline() -> None:
    """RULES.md §8.1: a red block: build the first monument offered, or decline."""
    cells = {"g4": "r", "h4": "r", "g5": "r", "e5": "r", "f5": "1K"}
    state = play(position(cells, hands={1: "r k"}), "tile red h5")
    assert answer(state, 1, monument="build") == "monument red-black g4"
    assert answer(state, 1, monument="decline") == "decline monument"
    assert answer(state, 1, treasure="special_first") is None


def test_the_treasure_order_takes_specials_first_then_in_square_order() -> None:
    """RULES.md §9: two specials (b2, b8): a special; then f10 before k11 (square order)."""
    chain = {"b3": "k", "b4": "b", "b5": "k", "b6": "k", "b7": "b"}
    state = play(position(chain), "leader trader a8")
    assert answer(state, 1, treasure="special_first") == "treasure b2"
    row = {"e10": "2T", "g10": "k", "h10": "k", "i10": "k", "j10": "k"}
    state = play(position(row, hands={1: "k"}), "tile black k10")
    assert answer(state, 2, treasure="special_first") == "treasure f10"


def test_an_ordinary_turn_is_never_answered() -> None:
    state = position(REVOLT, hands={1: "r"})
    every = {slot: kinds[-1] for slot, kinds in engine.ORDER_SLOTS.items()}
    assert answer(state, 1, **every) is None


def test_orders_refuse_what_does_not_exist() -> None:
    with pytest.raises(ValueError, match="unknown standing order"):
        engine.StandingOrders.from_dict({"revolt": "all"})
    with pytest.raises(ValueError, match="unknown answer"):
        engine.StandingOrders.from_dict({"monument": "all"})
    orders = engine.StandingOrders.from_dict({"monument": "ask", "treasure": "special_first"})
    assert orders.to_dict() == {"treasure": "special_first"}
    assert orders.kind("monument") == "ask"
