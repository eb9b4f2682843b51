"""A bot's choice depends only on what its seat sees (RULES.md §14, issue 14).

For many positions, the hands of the other seats, the bag and its order and
the other seats' hidden totals are changed; the seat's view stays equal, and
each tier, given the same log and seed, chooses the same action.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from engine import Determinizer, GameState, parse_diagram, view_for
from engine.bots import choose_action
from engine.bots.hard import compare_lines, keeping_leaders
from engine.bots.tiers import plan_lines

from .bot_helpers import LEFT_TO_LOSE, NO_GUARD, Seen, bot_move, random_positions


def _scramble(state: GameState, seat: int, rng: random.Random) -> GameState:
    """Re-deal what ``seat`` cannot see: other hands and the bag, and other hidden totals."""
    pool = list(state.bag)
    others = [i for i in range(state.num_players) if i != seat - 1]
    for i in others:
        for c in range(4):
            pool += [c] * state.hands[i][c]
    rng.shuffle(pool)
    hands = list(state.hands)
    for i in others:
        size = sum(state.hands[i])
        counts = [0, 0, 0, 0]
        for c in pool[:size]:
            counts[c] += 1
        del pool[:size]
        hands[i] = (counts[0], counts[1], counts[2], counts[3])
    vp = list(state.vp)
    held = list(state.treasures_held)
    if not state.open_scoring:
        for i in others:
            vp[i] = tuple(v + rng.randrange(5) for v in vp[i])  # type: ignore[assignment]
    return replace(
        state,
        hands=tuple(hands),
        bag=tuple(pool),
        vp=tuple(vp),
        treasures_held=tuple(held),
    )


POSITIONS = list(random_positions(30, seed=99))


@pytest.mark.parametrize("tier", ["random", "easy", "medium", "hard"])
def test_choice_ignores_what_the_seat_cannot_see(tier: str) -> None:
    rng = random.Random(7)
    changed = 0
    for k, seen in enumerate(POSITIONS):
        seat = seen.state.to_act
        assert seat is not None
        other = _scramble(seen.state, seat, rng)
        if other.hands != seen.state.hands or other.bag != seen.state.bag:
            changed += 1
        assert view_for(other, seat) == view_for(seen.state, seat)
        first = bot_move(seen, tier, seed=k)
        second = bot_move(Seen(other, seen.logs), tier, seed=k)
        assert first == second
    assert changed >= len(POSITIONS) - 2


@pytest.mark.parametrize("tier", ["easy", "medium", "hard"])
def test_same_view_history_and_seed_give_the_same_choice(tier: str) -> None:
    for k, seen in enumerate(POSITIONS[:10]):
        assert bot_move(seen, tier, seed=k) == bot_move(seen, tier, seed=k)


SEARCH_BUDGET = 30  # iterations: deals enough to widen the root and grow reply nodes
LATE = list(random_positions(4, seed=17, late=25))  # near the end, where rewards saturated


def test_search_at_a_real_budget_ignores_what_the_seat_cannot_see() -> None:
    """The hard tier's search (issue 26: medium's lines played on common deals and
    play-out seeds, the next seat's best reply in each deal, successive halving,
    rewards centred per deal, finished games rewarded by place, the tie-break by
    medium's order) gives the same answer on twin positions."""
    rng = random.Random(11)
    for k, seen in enumerate(POSITIONS[:6] + LATE):
        seat = seen.state.to_act
        assert seat is not None
        other = _scramble(seen.state, seat, rng)
        assert view_for(other, seat) == view_for(seen.state, seat)
        answers = [
            choose_action(
                view_for(s, seat),
                seen.logs[seat],
                tier="hard",
                seed=k,
                iterations=SEARCH_BUDGET,
                time_limit=NO_GUARD,
            )
            for s in (seen.state, other)
        ]
        assert answers[0] == answers[1]


def test_the_guard_of_leaders_reads_only_what_the_seat_sees() -> None:
    """Which root lines keep every leader from a certain revolt (``hard.keeping_leaders``,
    issue 26) depends on the board and the seat's own hand only: twin positions, other
    hands, bag and hidden totals re-dealt, give the same lines and the same choice."""
    state = parse_diagram(LEFT_TO_LOSE)
    rng = random.Random(5)
    view = view_for(state, 1)
    twins = [state] + [_scramble(state, 1, rng) for _ in range(2)]
    kept = []
    choices = []
    for twin in twins:
        assert view_for(twin, 1) == view
        assert twin.hands[1] != state.hands[1] or twin.bag != state.bag or twin is state
        first = Determinizer(view_for(twin, 1)).sample(random.Random(1))
        lines = {" ; ".join(map(str, line)): line for _, line in plan_lines(first, 1)}
        kept.append(keeping_leaders(first, 1, lines))
        assert 0 < len(kept[-1]) < len(lines)  # some lines leave the farmer on i8 to lose
        choices.append(
            choose_action(
                view_for(twin, 1),
                None,
                tier="hard",
                seed=0,
                iterations=SEARCH_BUDGET,
                time_limit=NO_GUARD,
            )
        )
    assert kept[0] == kept[1] == kept[2]
    assert choices[0] == choices[1] == choices[2]


def test_the_paired_comparison_reads_only_what_the_seat_sees() -> None:
    """Every figure of the hard tier's comparison of its root lines (``hard.compare_lines``:
    the lines still in after the halvings, their paired means and the rounds played) is the
    same on twin positions: the deals, the next seat's replies and the play-outs come from
    the seat's view and the search's seed only, never from the hands, bag or totals it
    cannot see."""
    rng = random.Random(13)
    compared = 0
    for seen in POSITIONS[6:14] + LATE:
        seat = seen.state.to_act
        assert seat is not None
        other = _scramble(seen.state, seat, rng)
        results = []
        for twin in (seen.state, other):
            det = Determinizer(view_for(twin, seat), seen_events=seen.logs[seat])
            search = random.Random(3)
            first = det.sample(search)
            results.append(compare_lines(det, first, seat, search, SEARCH_BUDGET, float("inf")))
        assert results[0] == results[1]
        compared += results[0][0].rounds > 0
    assert compared >= 4  # most positions had lines to compare, not a single one
