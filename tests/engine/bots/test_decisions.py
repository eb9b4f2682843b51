"""Every tier answers every decision kind (RULES.md §15), and support follows the tie rule."""

from __future__ import annotations

import random

import pytest

from engine import DECISION_KINDS, CommitSupport, apply, legal_actions, new_game, view_for
from engine.bots import TIERS, choose_action
from engine.bots.decisions import support

from ..engine_helpers import play, position
from .bot_helpers import HARD_TEST_BUDGET, NO_GUARD, Seen, record


def _decisions() -> dict[str, list[Seen]]:
    """Collect positions from random games where each decision kind is pending."""
    found: dict[str, list[Seen]] = {k: [] for k in DECISION_KINDS}
    rng = random.Random(3)
    g = 0
    while any(len(v) < 3 for v in found.values()):
        g += 1
        n = 2 + g % 3
        seen = Seen(new_game(n, g), {s: [] for s in range(1, n + 1)})
        while not seen.state.is_over:
            options = legal_actions(seen.state)
            record(seen, apply(seen.state, options[rng.randrange(len(options))]))
            p = seen.state.pending
            if p is not None and len(found[p.kind]) < 3:
                found[p.kind].append(Seen(seen.state, {s: list(x) for s, x in seen.logs.items()}))
    return found


DECISIONS = _decisions()


@pytest.mark.parametrize("tier", TIERS)
@pytest.mark.parametrize("kind", DECISION_KINDS)
def test_every_tier_answers_every_decision(tier: str, kind: str) -> None:
    for seen in DECISIONS[kind]:
        p = seen.state.pending
        assert p is not None and p.kind == kind
        view = view_for(seen.state, p.seat)
        action = choose_action(
            view,
            seen.logs[p.seat],
            tier=tier,
            seed=1,
            iterations=HARD_TEST_BUDGET,
            time_limit=NO_GUARD,
        )
        assert action in legal_actions(seen.state)


def _revolt(attacker_reds: str, defender_reds: str) -> Seen:
    """Seat 2's priest on g10 (one temple, f10) revolts against seat 1's on e10 (f10, e11)."""
    state = position(
        f"players: 2\nactive: 2\nhand 1: {defender_reds} k\nhand 2: {attacker_reds} k",
        {"e10": "1P", "e11": "r"},
    )
    state = play(state, "leader priest g10")
    return Seen(state, {1: [], 2: []})


def test_defender_commits_just_enough_to_tie() -> None:
    # Attacker: 1 temple + 2 red = 3; defender: 2 temples, holds 3 red: commits 1 to tie.
    seen = _revolt("r r", "r r r")
    state = play(seen.state, "commit 2")
    p = state.pending
    assert p is not None and p.seat == p.defender == 1
    need = (p.attacker_strength or 0) - (p.defender_strength or 0)
    assert need == 1
    assert support(state) == CommitSupport(1)


def test_defender_commits_nothing_when_it_cannot_tie() -> None:
    seen = _revolt("r r r r r", "r")
    state = play(seen.state, "commit 5")
    p = state.pending
    assert p is not None and p.seat == 1
    assert (p.attacker_strength or 0) - (p.defender_strength or 0) > 1
    assert support(state) == CommitSupport(0)
