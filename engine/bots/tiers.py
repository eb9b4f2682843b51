"""The random, easy and medium tiers as policies over a determinized ``GameState``.

Each policy is ``policy(state, seat, rng) -> Action`` where ``state`` is what
``engine.determinize`` built from the seat's view and ``state.to_act == seat``;
the result is one of ``engine.legal_actions(state)``. ``engine.bots.choose_action``
is the entry point that builds the state; the hard tier is in ``hard.py``.
"""

from __future__ import annotations

import random

import engine
from engine import Action, CommitSupport, GameState, Pass

from .decisions import quick_decision, settle, support
from .evaluate import evaluate
from .heuristic import score_actions

EASY_NOISE = 0.35  # easy adds up to this much to each score: a little randomness
MEDIUM_FIRST = 12  # medium's candidate first actions
MEDIUM_SECOND = 6  # and second actions for each first
MEDIUM_LAST = 10  # candidates when only one action is left
PASS_PENALTY = 0.3  # a pass brings the end no nearer: only when nothing else helps


def random_policy(state: GameState, seat: int, rng: random.Random) -> Action:
    """Return a uniformly random legal action."""
    options = engine.legal_actions(state)
    return options[rng.randrange(len(options))]


def easy_policy(state: GameState, seat: int, rng: random.Random) -> Action:
    """Return the best-scoring action one action ahead, with a little noise (``heuristic``)."""
    if state.pending is not None:
        return quick_decision(state)
    scored = score_actions(state, seat)
    best = max(scored, key=lambda sa: sa[0] + EASY_NOISE * rng.random())
    return best[1]


def top(scored: list[tuple[float, Action]], k: int) -> list[Action]:
    """Return the ``k`` best-scoring actions (ties in notation order), always with a pass."""
    ranked = sorted(scored, key=lambda sa: (-sa[0], str(sa[1])))
    out = [a for _, a in ranked[:k]]
    if not any(isinstance(a, Pass) for a in out):
        out.append(Pass())
    return out


def after(state: GameState, action: Action) -> GameState:
    """Return the state after ``action`` and every decision it raised, answered by fixed rules."""
    return settle(engine.apply(state, action))


def medium_decision(state: GameState, seat: int) -> Action:
    """Answer a decision: support by rule, other choices by the evaluation of each outcome."""
    p = state.pending
    assert p is not None
    if p.kind == "support":
        return support(state)
    options = engine.legal_actions(state)
    if len(options) == 1:
        return options[0]
    return max(options, key=lambda a: evaluate(after(state, a))[seat - 1])


def plan_turn(state: GameState, seat: int) -> tuple[float, list[Action]]:
    """Return the best ``(evaluation, actions)`` over candidate first × second actions (§2).

    Candidates come from ``heuristic.score_actions``; decisions that the
    actions raise are answered by ``decisions.quick_decision``.
    """
    two = state.actions_left >= 2
    firsts = top(score_actions(state, seat), MEDIUM_FIRST if two else MEDIUM_LAST)
    best: tuple[float, list[Action]] = (float("-inf"), [firsts[0]])
    for a1 in firsts:
        s1 = after(state, a1)
        value = evaluate(s1)[seat - 1]
        line = [a1]
        if two and not s1.is_over and s1.active_seat == seat and s1.pending is None:
            for a2 in top(score_actions(s1, seat), MEDIUM_SECOND):
                v2 = evaluate(after(s1, a2))[seat - 1]
                if v2 > value or len(line) == 1:
                    value, line = v2, [a1, a2]
        if any(isinstance(a, Pass) for a in line):
            value -= PASS_PENALTY
        if value > best[0]:
            best = (value, line)
    return best


def medium_policy(state: GameState, seat: int, rng: random.Random) -> Action:
    """Return the first action of the best planned turn, or a decision's answer."""
    if state.pending is not None:
        return medium_decision(state, seat)
    return plan_turn(state, seat)[1][0]


__all__ = ["CommitSupport", "easy_policy", "medium_policy", "plan_turn", "random_policy"]
