"""The hard tier's rewards keep their spread through the game (issue 26).

A rollout's reward is its evaluation centred on the deal it started from
(``engine.bots.hard.centred_rewards``): a VP gained is worth about the same
reward early and late, where a squash of the raw evaluation saturated.
"""

from __future__ import annotations

from dataclasses import replace

from engine import GameState
from engine.bots.evaluate import evaluate, squash
from engine.bots.hard import REWARD_SCALE, centred_rewards

from ..engine_helpers import position


def _with_vp(state: GameState, seat: int, extra: tuple[int, int, int, int]) -> GameState:
    vp = list(state.vp)
    vp[seat - 1] = tuple(v + x for v, x in zip(vp[seat - 1], extra, strict=True))  # type: ignore[assignment]
    return replace(state, vp=tuple(vp))


def _early() -> GameState:
    return position("players: 2\nhand 1: r k k b g g\nhand 2: r r k b g g", {"e10": "1K"})


def _late() -> GameState:
    state = _with_vp(_early(), 1, (30, 28, 31, 29))
    return _with_vp(state, 2, (12, 14, 13, 11))


def test_a_rollout_that_changes_nothing_is_worth_one_half() -> None:
    state = _early()
    assert centred_rewards(state, state, 2) == [0.5, 0.5]


def test_a_vp_is_worth_about_as_much_late_as_early() -> None:
    gains = []
    for start in (_early(), _late()):
        end = _with_vp(start, 1, (1, 1, 1, 1))
        mine, theirs = centred_rewards(end, start, 2)
        assert mine > 0.5 > theirs
        gains.append(mine - 0.5)
    early, late = gains
    assert late > 0.5 * early > 0.02
    # The uncentred squash of the evaluation this replaces: late in a lopsided game the
    # same VPs move the reward by almost nothing.
    raw = [
        squash([evaluate(s, exempt=2)[0]], REWARD_SCALE)[0]
        for s in (_late(), _with_vp(_late(), 1, (1, 1, 1, 1)))
    ]
    assert raw[1] - raw[0] < late
