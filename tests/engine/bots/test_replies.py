"""Medium's look at the rival's best conflict reply (``engine.bots.replies``, issue 26).

A war or revolt the rival to act can start against a leader of the seat's is
valued by the chance its hidden hand wins it (RULES.md §6.4, §7.3) and by what
the seat's evaluation loses when it does; the rival's hand is never read.
"""

from __future__ import annotations

import random
from dataclasses import replace

from engine import Action, Determinizer, view_for
from engine.botapi import KING
from engine.bots import choose_action
from engine.bots.replies import exposed, reply_loss, rival_threats
from engine.bots.tiers import plan_lines

from ..engine_helpers import position
from .test_hidden_information import _scramble


def _war(hand_1: str, hand_2: str = "r r k b g g"):  # type: ignore[no-untyped-def]
    """Seat 2 to act: a tile on c5 unites seat 1's king (1 black, b5) and seat 2's (2 black)."""
    return position(
        f"players: 2\nactive: 2\nhand 1: {hand_1}\nhand 2: {hand_2}",
        {"a6": "r", "a5": "1K", "b5": "k", "d5": "k", "e5": "k", "f5": "2K", "f6": "r"},
    )


def _revolt(hand_1: str):  # type: ignore[no-untyped-def]
    """Seat 2 to act: its priest could revolt against seat 1's on e10 (2 temples, e11, f10)."""
    return position(
        f"players: 2\nactive: 2\nhand 1: {hand_1}\nhand 2: r r k b g g",
        {"e10": "1P", "e11": "r"},
    )


def test_a_war_the_rival_can_start_is_a_threat() -> None:
    state = _war("r b b g g g")
    moves = rival_threats(state, 1)
    # The tile uniting the kingdoms, and the king moved beside a6 to revolt (§4.1, §4.4).
    assert [str(m) for m in moves] == ["tile green c5", "leader king b6"]
    # 1 supporter and no black in hand against 2 supporters: lost whatever the rival holds;
    # the king beside a6 (1 temple against 1 and a red) needs 2 reds of the rival's 6.
    exposed = reply_loss(state, 1)
    assert exposed > 1.0
    # Black and red in hand: the rival needs 3 black of its other 5 tiles, or 3 reds of 6.
    assert 0.0 < reply_loss(_war("r r k k k g"), 1) < exposed / 2


def test_the_rivals_hand_is_not_read() -> None:
    for hand_2 in ("r r k b g g", "k k k k k k", "g g g g g g"):
        assert reply_loss(_war("r b b g g g", hand_2), 1) == reply_loss(_war("r b b g g g"), 1)


def test_a_revolt_the_rival_can_start_is_a_threat() -> None:
    moves = [str(m) for m in rival_threats(_revolt("k k b b g g"), 1)]
    assert moves == ["leader priest f11"]  # beside e11 and f10: 2 temples, the most (§4.2)
    no_red = reply_loss(_revolt("k k b b g g"), 1)
    two_reds = reply_loss(_revolt("r r b b g g"), 1)
    assert no_red > two_reds > 0.0


def test_no_war_without_a_rival_leader_of_the_colour_nor_on_the_seats_own_turn() -> None:
    alone = position(
        "players: 2\nactive: 2\nhand 1: r b b g g g\nhand 2: r r k b g g",
        {"a6": "r", "a5": "1K", "b5": "k", "d5": "k", "e5": "k", "f5": "2P", "f6": "r"},
    )
    # The priest on f5 makes no war (§7.1): only the king from the supply beside a6 (§4.4).
    assert [str(m) for m in rival_threats(alone, 1)] == ["leader king b6"]
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


def test_medium_weighs_withdrawing_an_exposed_leader() -> None:
    """Seat 1 to act, its king on a5 lost to the war on c5 or the king beside a6: medium's
    plan ends its turn with the king withdrawn (§4.1) rather than left to the rival."""
    state = replace(_war("r b b g g g"), active_seat=1)
    assert exposed(state, 1) == [KING]
    assert exposed(replace(_war("r r k k k g"), active_seat=1), 1) == []
    best = plan_lines(state, 1, replies=True)[0][1]
    assert Action.parse("withdraw king") in best
