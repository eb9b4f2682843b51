"""Medium's look at the rival's best war reply (``engine.bots.replies``, issue 26).

A war the rival to act can start against a leader of the seat's is valued by
the chance its hidden hand wins it (RULES.md §7.3) and by what the seat's
evaluation loses when it does; the rival's hand is never read.
"""

from __future__ import annotations

import random
from dataclasses import replace

from engine import Action, Determinizer, view_for
from engine.bots import choose_action
from engine.bots.replies import reply_loss, rival_threats
from engine.bots.tiers import plan_lines

from ..engine_helpers import position
from .test_hidden_information import _scramble


def _war(hand_1: str, hand_2: str = "r r k b g g"):  # type: ignore[no-untyped-def]
    """Seat 2 to act: a tile on c5 unites seat 1's king (1 black, b5) and seat 2's (2 black)."""
    return position(
        f"players: 2\nactive: 2\nhand 1: {hand_1}\nhand 2: {hand_2}",
        {"a6": "r", "a5": "1K", "b5": "k", "d5": "k", "e5": "k", "f5": "2K", "f6": "r"},
    )


def test_a_war_the_rival_can_start_is_a_threat() -> None:
    state = _war("r b b g g g")
    moves = rival_threats(state, 1)
    assert [str(m) for m in moves] == ["tile green c5"]  # not black: no supporter (§7.3)
    # 1 supporter and no black in hand against 2 supporters: lost whatever the rival holds.
    certain = reply_loss(state, 1)
    assert certain > 0.2
    # Three black in hand, 4 against 2: the rival needs 3 black of its other 5 tiles.
    assert 0.0 < reply_loss(_war("r r k k k g"), 1) < certain / 4


def test_the_rivals_hand_is_not_read() -> None:
    for hand_2 in ("r r k b g g", "k k k k k k", "g g g g g g"):
        assert reply_loss(_war("r b b g g g", hand_2), 1) == reply_loss(_war("r b b g g g"), 1)


def test_no_war_without_a_rival_leader_of_the_colour_nor_on_the_seats_own_turn() -> None:
    alone = position(
        "players: 2\nactive: 2\nhand 1: r b b g g g\nhand 2: r r k b g g",
        {"a6": "r", "a5": "1K", "b5": "k", "d5": "k", "e5": "k", "f5": "2P", "f6": "r"},
    )
    assert rival_threats(alone, 1) == []  # a king and a priest: no war (§7.1)
    assert reply_loss(alone, 1) == 0.0
    assert reply_loss(replace(_war("r b b g g g"), active_seat=1), 1) == 0.0


def test_medium_plans_with_replies_read_only_what_the_seat_sees() -> None:
    """Twin positions (other hands and bag re-dealt) give medium the same lines and choice."""
    state = replace(_war("r b b g g g"), active_seat=1)
    rng = random.Random(3)
    view = view_for(state, 1)
    twins = [state] + [_scramble(state, 1, rng) for _ in range(2)]
    plans = []
    choices = []
    for twin in twins:
        assert view_for(twin, 1) == view
        first = Determinizer(view_for(twin, 1)).sample(random.Random(1))
        plans.append(plan_lines(first, 1, replies=True))
        choices.append(choose_action(view_for(twin, 1), None, tier="medium", seed=0))
    assert plans[0] == plans[1] == plans[2]
    assert choices[0] == choices[1] == choices[2]
    assert isinstance(choices[0], Action)
