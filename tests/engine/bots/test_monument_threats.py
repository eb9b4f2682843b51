"""Medium fills the square where its rival would build a monument that pays it (RULES.md §8).

bench/results/bot_medium-study-2026-12-04.txt: in the games medium lost to
easy, easy's own monuments paid it 31 VP a game, 21 of them from monuments
whose last square medium could have filled on the turn before.
"""

from __future__ import annotations

import pytest

from engine import Action, apply, parse_diagram, view_for
from engine.board import parse_square
from engine.botapi import BLACK, monument_income
from engine.bots import choose_action
from engine.bots.monument_threats import (
    income_gain,
    rival_monument_threats,
    rivals_monument_threats,
    threat_cost,
)
from engine.bots.tiers import plan_lines

from ..engine_helpers import grid

K6 = parse_square("k6")


def _block(owner: str, hand: str = "r r b b g g", players: int = 2) -> str:
    """Seat 1 to act with ``hand``; j5, k5, j6 black beside seat ``owner``'s king on i6.

    A black tile on k6 completes a 2x2 block (§8.1). With another seat's
    king there, seat 1's king stands on c2.
    """
    others = "".join(f"hand {s}: r k k b g g\n" for s in range(2, players + 1))
    return f"players: {players}\nhand 1: {hand}\n{others}\n" + grid(
        {
            "i6": f"{owner}K",
            "j5": "k",
            "k5": "k",
            "j6": "k",
            "c2": "1K" if owner != "1" else ".",
            "c3": "r",
            "c1": "g",
        }
    )


def test_a_block_the_rival_completes_beside_its_king_is_a_threat() -> None:
    state = parse_diagram(_block("2"))
    threats = rival_monument_threats(state, 1, rival=2)
    assert set(threats) == {K6}
    assert threats[K6] > 0
    # Seat 1 to act is no threat to seat 1 now: the rival plays next turn only.
    assert threat_cost(state, 1) == 0.0


def test_a_block_the_seat_after_next_completes_is_a_threat_too() -> None:
    """With 3 players, seat 3 plays before seat 1's next turn too (§2): its block counts
    when seat 1's turn ends, though seat 2, next to play, has no leader beside it."""
    state = parse_diagram(_block("3", players=3))
    assert rival_monument_threats(state, 1, rival=2) == {}
    assert set(rivals_monument_threats(state, 1)) == {K6}
    ended = apply(apply(state, Action.parse("tile green a1")), Action.parse("tile green b1"))
    assert ended.active_seat == 2
    assert threat_cost(ended, 1) == rivals_monument_threats(ended, 1)[K6] > 0


def test_a_block_beside_the_seat_s_own_king_is_no_threat() -> None:
    state = parse_diagram(_block("1"))
    assert rival_monument_threats(state, 1, rival=2) == {}


@pytest.mark.parametrize(("players", "owner"), [(2, "2"), (3, "3"), (4, "3")])
def test_medium_fills_the_last_square_of_the_rival_s_monument(players: int, owner: str) -> None:
    for seed in range(3):
        state = parse_diagram(_block(owner, players=players))
        while state.to_act == 1:
            state = apply(state, choose_action(view_for(state, 1), None, tier="medium", seed=seed))
        assert state.board[K6] != 0, seed
        assert rivals_monument_threats(state, 1) == {}, seed


def test_hard_s_prior_charges_the_rival_s_monument() -> None:
    """Hard's candidates and prior are medium's lines with the monument terms (§8)."""
    state = parse_diagram(_block("2"))
    lines = plan_lines(state, 1, hard_prior=True)
    for _, line in lines[:3]:  # the best lines fill k6, as medium's do
        end = state
        for action in line:
            end = apply(end, action)
        assert end.board[K6] != 0, line


def test_the_income_a_monument_brings_counts_for_the_turns_left() -> None:
    # Seat 1's own king beside the block: a black tile on k6 and a monument pay it black (§8.3).
    start = parse_diagram(_block("1", hand="r k b b g g"))
    built = apply(
        apply(start, Action.parse("tile black k6")), Action.parse("monument red-black j5")
    )
    assert monument_income(built, 1) == [BLACK]
    gain = income_gain(start, built, 1)
    assert gain > 1.0
    assert income_gain(start, start, 1) == 0.0
    assert income_gain(built, start, 1) < 0  # income lost counts against


def test_medium_builds_the_monument_that_pays_it() -> None:
    start = parse_diagram(_block("1", hand="r k b b g g"))
    for seed in range(3):
        state = start
        while state.to_act == 1:
            state = apply(state, choose_action(view_for(state, 1), None, tier="medium", seed=seed))
        assert monument_income(state, 1) == [BLACK], seed
