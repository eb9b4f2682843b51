"""Answers to the decisions outside an ordinary action (RULES.md §15), shared by the tiers.

``quick_decision(state)`` answers whatever decision is pending, for whichever
seat must answer, by fixed rules: it is what easy plays and what medium and
hard assume of everyone while they look ahead. ``settle(state)`` applies such
answers until an ordinary action is awaited (or the game ends).
"""

from __future__ import annotations

import engine
from engine import (
    Action,
    BuildMonument,
    ChooseWar,
    CommitSupport,
    DeclineMonument,
    GameState,
    TakeTreasure,
)
from engine.botapi import MONUMENTS

from .common import colour_weights, unseen_fractions, win_chance
from .hopeless import COLOUR_INDEX, hopeless_war_order


def support(state: GameState) -> CommitSupport:
    """Answer a support decision (RULES.md §6.3–6.4, §7.3).

    The defender, who wins ties and has seen the attacker's commit, commits
    just enough to tie, or nothing if even its whole hand cannot. The
    attacker weighs each count ``x`` by the chance that the defender holds
    fewer tiles than its margin (a binomial over the tiles the attacker
    cannot see) against the tiles spent.
    """
    p = state.pending
    assert p is not None and p.kind == "support" and p.support_color is not None
    color = COLOUR_INDEX[p.support_color]
    have = state.hands[p.seat - 1][color]
    att = p.attacker_strength or 0
    dfn = p.defender_strength or 0
    if p.seat == p.defender:
        need = att - dfn
        return CommitSupport(need if 0 < need <= have else 0)
    assert p.defender is not None
    frac = unseen_fractions(state, p.seat)[color]
    theirs = sum(state.hands[p.defender - 1])
    stake = 5.0
    cost = 0.3
    best, best_x = -1.0, 0
    for x in range(have + 1):
        value = stake * win_chance(att + x - dfn, theirs, frac) - cost * x
        if value > best + 1e-9:
            best, best_x = value, x
    return CommitSupport(best_x)


def monument_choice(state: GameState) -> Action:
    """Build the monument whose colours the active seat lacks most; never decline (§8)."""
    options = [a for a in engine.legal_actions(state) if isinstance(a, BuildMonument)]
    if not options:
        return DeclineMonument()
    w = colour_weights(state, state.active_seat)
    return max(options, key=lambda a: (sum(w[c] for c in MONUMENTS[a.monument]), -a.sort_key()[1]))


def quick_decision(state: GameState) -> Action:
    """Answer the pending decision by the fixed rules of this module (module doc)."""
    p = state.pending
    assert p is not None
    if p.kind == "support":
        return support(state)
    if p.kind == "monument":
        return monument_choice(state)
    options = engine.legal_actions(state)
    if p.kind == "war_order":
        # The first order in which no war the active seat attacks is hopeless (issue 26).
        return next((a for a in options if not hopeless_war_order(state, a)), options[0])
    assert isinstance(options[0], TakeTreasure)
    return options[0]


def settle(state: GameState, limit: int = 40) -> GameState:
    """Apply ``quick_decision`` answers until no decision is pending (at most ``limit``)."""
    while state.pending is not None and limit > 0:
        state = engine.apply(state, quick_decision(state))
        limit -= 1
    return state


__all__ = ["ChooseWar", "monument_choice", "quick_decision", "settle", "support"]
