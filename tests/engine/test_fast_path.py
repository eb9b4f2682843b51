"""The fast path agrees with the plain one: local board updates, sampling, applying (issue 14)."""

from __future__ import annotations

import random
from collections.abc import Iterator

from engine import GameState, apply, legal_actions, new_game
from engine.board import IS_RIVER, NEIGHBOURS
from engine.kingdoms import Regions, label
from engine.legality import analysis, leader_targets
from engine.pieces import RED, TILE_BASE


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
        a, b = derived.regions, fresh.regions
        assert _partition(a, a.rid) == _partition(b, b.rid)
        assert _partition(a, a.kid) == _partition(b, b.kid)
        assert _leaders(a) == _leaders(b)
        for r, found in enumerate(a.leaders):
            assert all(a.rid[s] == r for _, _, s in found)
            assert [s for _, _, s in found] == sorted(s for _, _, s in found)
            assert sorted(a.squares[r]) == sorted(s for s in range(176) if a.rid[s] == r)
        assert _partition(b, label(state.board).kid) == _partition(a, a.kid)
        if state.pending is None and not state.is_over:
            for c in range(4):
                assert leader_targets(state, c) == _leader_targets_by_flood_fill(state, c)
        checked += 1
    assert checked > 1500
