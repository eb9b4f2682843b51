"""The fast path agrees with the plain one: local board updates, sampling, applying (issue 14)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from dataclasses import replace

import pytest

from engine import (
    GameState,
    apply,
    apply_fast,
    legal_actions,
    new_game,
    random_playout,
    sample_action,
)
from engine.board import IS_RIVER, NEIGHBOURS
from engine.kingdoms import Regions, label
from engine.legality import analysis, leader_fits, leader_targets
from engine.pieces import RED, TILE_BASE
from engine.playout import _candidate, _sizes


def _games(games: int, seed: int) -> Iterator[GameState]:
    """Yield every state of ``games`` uniformly random games, 2–4 players."""
    rng = random.Random(seed)
    for g in range(games):
        state = new_game(2 + g % 3, seed * 100 + g)
        while not state.is_over:
            options = legal_actions(state)
            state = apply(state, options[rng.randrange(len(options))])
            yield state


def _partition(regions: Regions, ids: list[int]) -> set[frozenset[int]]:
    groups: dict[int, set[int]] = {}
    for s, r in enumerate(ids):
        if r >= 0:
            groups.setdefault(r, set()).add(s)
    return {frozenset(g) for g in groups.values()}


def _leaders(regions: Regions) -> set[frozenset[tuple[int, int, int]]]:
    return {frozenset(found) for found in regions.leaders if found}


def _leader_targets_by_flood_fill(state: GameState, color: int) -> list[int]:
    """Return §4.2's squares for the active seat's leader, lifting it and labelling afresh."""
    board = list(state.board)
    pos = state.leader_square(state.active_seat, color)
    if pos >= 0:
        board[pos] = 0
    kid = label(board).kid
    out = []
    for s in range(176):
        if board[s] or IS_RIVER[s] or s == pos:
            continue
        if not any(board[y] == TILE_BASE + RED for y in NEIGHBOURS[s]):
            continue
        if len({kid[y] for y in NEIGHBOURS[s]} - {-1}) <= 1:
            out.append(s)
    return out


def test_local_updates_give_the_analysis_a_fresh_flood_fill_gives() -> None:
    """RULES.md §3: regions, kingdoms and the squares open to tiles and leaders, state by state."""
    checked = 0
    for state in _games(games=9, seed=4):
        derived = analysis(state)
        fresh_state = GameState.from_json(state.to_json())
        fresh = analysis(fresh_state)
        assert "base" not in fresh_state.cache
        assert derived.nk == fresh.nk
        assert derived.land_ok == fresh.land_ok
        assert derived.river_ok == fresh.river_ok
        assert derived.leader_spots == fresh.leader_spots
        assert derived.open_squares == fresh.open_squares
        a, b = derived.regions, fresh.regions
        assert _partition(a, a.rid) == _partition(b, b.rid)
        assert _partition(a, a.kid) == _partition(b, b.kid)
        assert _leaders(a) == _leaders(b)
        for r, found in enumerate(a.leaders):
            assert all(a.rid[s] == r for _, _, s in found)
            assert [s for _, _, s in found] == sorted(s for _, _, s in found)
            assert sorted(a.squares[r]) == sorted(s for s in range(176) if a.rid[s] == r)
        assert _partition(b, label(state.board).kid) == _partition(a, a.kid)
        assert legal_actions(state) == legal_actions(fresh_state)
        if state.pending is None and not state.is_over:
            for c in range(4):
                targets = leader_targets(state, c)
                assert targets == _leader_targets_by_flood_fill(state, c)
                fits = [s for s in derived.leader_spots if leader_fits(state, c, s)]
                assert fits == targets
        checked += 1
    assert checked > 1500


def test_every_legal_action_is_exactly_one_sampling_candidate() -> None:
    """``sample_action`` draws from candidates that hold each legal action once: uniform."""
    rng = random.Random(6)
    checked = 0
    for state in _games(games=6, seed=9):
        if state.pending is not None or state.is_over or rng.random() > 0.3:
            continue
        an = analysis(state)
        sizes = _sizes(state, an)
        drawn = [_candidate(state, an, sizes, i) for i in range(sum(sizes))]
        found = [a for a in drawn if a is not None]
        assert len(found) == len(set(found))
        assert set(found) == set(legal_actions(state))
        checked += 1
    assert checked > 200


def test_sampled_actions_are_legal_and_evenly_spread() -> None:
    """In one position every legal action comes up about equally often (RULES.md §2)."""
    state = new_game(3, 2)
    rng = random.Random(3)
    for _ in range(40):
        state = apply(state, legal_actions(state)[rng.randrange(len(legal_actions(state)))])
    while state.pending is not None:
        state = apply(state, legal_actions(state)[0])
    options = set(legal_actions(state))
    counts = Counter(sample_action(state, rng) for _ in range(100 * len(options)))
    assert set(counts) == options
    assert min(counts.values()) > 50 and max(counts.values()) < 150


def test_apply_fast_reaches_the_states_apply_reaches_but_for_the_events() -> None:
    """Whole games through the fast path: every state equals ``apply``'s with its events removed."""
    rng = random.Random(7)
    kinds: Counter[str] = Counter()
    plies = 0
    for g in range(18):
        slow = fast = new_game(2 + g % 3, 500 + g)
        while not fast.is_over:
            action = sample_action(fast, rng)
            assert action in legal_actions(slow)
            kinds[fast.pending.kind if fast.pending else "ordinary"] += 1
            slow = apply(slow, action)
            fast = apply_fast(fast, action)
            assert fast.events == ()
            assert fast == replace(slow, events=())
            plies += 1
        assert random_playout(fast, rng) is fast
    assert plies > 3000
    assert {"ordinary", "support", "treasure", "monument", "war_order"} <= set(kinds), kinds


def test_a_playout_runs_to_the_end_or_to_its_ply_limit() -> None:
    state = new_game(4, 8)
    short = random_playout(state, random.Random(1), max_plies=10)
    assert not short.is_over and short != state
    final = random_playout(state, random.Random(1))
    assert final.is_over and final.end_reason in ("bag", "treasures")
    with pytest.raises(ValueError, match="over"):
        sample_action(final, random.Random(0))
