"""Pairing properties (issue 30): nobody twice in a round, no avoidable rematch, byes, sizes."""

from __future__ import annotations

from itertools import combinations, permutations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.tournaments.pairing import (
    PairingImpossible,
    Standing,
    cut_from_top,
    round_robin_round,
    round_robin_rounds,
    swiss_round,
    table_sizes,
)


@st.composite
def fields(draw: st.DrawFn) -> tuple[list[Standing], int, int]:
    size = draw(st.integers(2, 4))
    smallest = draw(st.integers(2, size))
    n = draw(st.integers(smallest, 14))
    ids = list(range(1, n + 1))
    pairs = list(combinations(ids, 2))
    met_pairs = draw(st.lists(st.sampled_from(pairs), max_size=len(pairs) // 2)) if pairs else []
    met: dict[int, set[int]] = {i: set() for i in ids}
    for a, b in met_pairs:
        met[a].add(b)
        met[b].add(a)
    points = sorted((draw(st.integers(0, 6)) for _ in ids), reverse=True)
    byes = [draw(st.integers(0, 1)) for _ in ids]
    standings = [
        Standing(i, points=points[k], met=frozenset(met[i]), byes=byes[k])
        for k, i in enumerate(ids)
    ]
    return standings, size, smallest


def _rematches(tables: tuple[tuple[int, ...], ...], standings: list[Standing]) -> int:
    met = {s.player: s.met for s in standings}
    return sum(1 for t in tables for a, b in combinations(t, 2) if b in met[a])


@settings(max_examples=150, deadline=None)
@given(fields())
def test_swiss_round_seats_everyone_once_at_tables_of_the_sizes_allowed(field) -> None:
    standings, size, smallest = field
    plan = swiss_round(standings, round_number=2, size=size, smallest=smallest)
    seated = [p for t in plan.tables for p in t] + list(plan.byes)
    assert sorted(seated) == sorted(s.player for s in standings)  # nobody twice, nobody left
    assert all(smallest <= len(t) <= size for t in plan.tables)
    sizes, byes = table_sizes(len(standings), size, smallest)
    assert sorted(len(t) for t in plan.tables) == sorted(sizes)
    assert len(plan.byes) == byes


@settings(max_examples=150, deadline=None)
@given(fields())
def test_byes_go_to_the_lowest_placed_without_one(field) -> None:
    standings, size, smallest = field
    plan = swiss_round(standings, round_number=2, size=size, smallest=smallest)
    order = [s.player for s in standings]
    had = {s.player for s in standings if s.byes}
    for bye in plan.byes:
        below = order[order.index(bye) + 1 :]
        if bye in had:  # only when everyone below … had one too
            assert all(p in had or p in plan.byes for p in order)
        else:
            assert all(p in had or p in plan.byes for p in below)


def _rematch_free_exists(players: list[int], sizes: list[int], met: dict[int, frozenset]) -> bool:
    if not players:
        return True
    first, rest = players[0], players[1:]
    for size in set(sizes):
        left_sizes = list(sizes)
        left_sizes.remove(size)
        for others in combinations(rest, size - 1):
            table = (first, *others)
            if any(b in met[a] for a, b in combinations(table, 2)):
                continue
            if _rematch_free_exists([p for p in rest if p not in others], left_sizes, met):
                return True
    return False


@settings(max_examples=150, deadline=None)
@given(fields())
def test_no_rematch_when_one_is_avoidable(field) -> None:
    standings, size, smallest = field
    standings = standings[:9]  # the brute force below stays quick
    try:
        plan = swiss_round(standings, round_number=2, size=size, smallest=smallest)
    except PairingImpossible:
        return
    playing = [s for s in standings if s.player not in plan.byes]
    met = {s.player: s.met for s in playing}
    sizes = [len(t) for t in plan.tables]
    if _rematch_free_exists([s.player for s in playing], sizes, met):
        assert _rematches(plan.tables, standings) == 0


def test_equal_scores_meet_in_a_swiss_round_of_two() -> None:
    # two score groups of four: the top half of each meets its bottom half (Dutch)
    standings = [Standing(i, points=2 if i <= 4 else 0) for i in range(1, 9)]
    plan = swiss_round(standings, round_number=2, size=2, smallest=2)
    assert sorted(tuple(sorted(t)) for t in plan.tables) == [(1, 3), (2, 4), (5, 7), (6, 8)]


def test_cut_from_top_skips_a_player_met_and_keeps_the_order_otherwise() -> None:
    standings = [Standing(i, met=frozenset({2}) if i == 1 else frozenset()) for i in range(1, 7)]
    standings[1] = Standing(2, met=frozenset({1}))
    assert cut_from_top(standings, [3, 3]) == ((1, 3, 4), (2, 5, 6))


@pytest.mark.parametrize(
    ("n", "size", "smallest", "expected"),
    [
        (10, 4, 3, ((4, 3, 3), 0)),
        (5, 4, 4, ((4,), 1)),
        (5, 2, 2, ((2, 2), 1)),
        (33, 4, 3, ((4, 4, 4, 4, 4, 4, 3, 3, 3), 0)),
        (33, 4, 4, ((4,) * 8, 1)),
        (7, 3, 2, ((3, 2, 2), 0)),
    ],
)
def test_table_sizes(n: int, size: int, smallest: int, expected) -> None:
    assert table_sizes(n, size, smallest) == expected


def test_too_few_players_is_refused() -> None:
    with pytest.raises(PairingImpossible):
        table_sizes(2, 4, 3)


@pytest.mark.parametrize("n", [2, 5, 7, 8])
def test_round_robin_of_two_meets_every_pair_once(n: int) -> None:
    seeds = [Standing(i) for i in range(1, n + 1)]
    met: list[frozenset[int]] = []
    for r in range(1, round_robin_rounds(n, 2) + 1):
        plan = round_robin_round(seeds, round_number=r, size=2, smallest=2)
        seated = [p for t in plan.tables for p in t] + list(plan.byes)
        assert sorted(seated) == list(range(1, n + 1))
        met += [frozenset(t) for t in plan.tables]
    assert sorted(met, key=sorted) == sorted(
        (frozenset(p) for p in combinations(range(1, n + 1), 2)), key=sorted
    )


@pytest.mark.parametrize(("n", "size", "smallest"), [(7, 3, 2), (9, 3, 3), (10, 4, 3), (8, 4, 4)])
def test_round_robin_at_tables_covers_every_pair_with_few_repeats(n, size, smallest) -> None:
    met: dict[int, set[int]] = {i: set() for i in range(1, n + 1)}
    byes = dict.fromkeys(met, 0)
    meetings = 0
    rounds = round_robin_rounds(n, size, smallest)
    for r in range(1, rounds + 1):
        seeds = [Standing(i, met=frozenset(met[i]), byes=byes[i]) for i in met]
        plan = round_robin_round(seeds, round_number=r, size=size, smallest=smallest)
        for t in plan.tables:
            assert smallest <= len(t) <= size
            for a, b in permutations(t, 2):
                met[a].add(b)
            meetings += len(t) * (len(t) - 1) // 2
        for p in plan.byes:
            byes[p] += 1
    assert all(len(m) == n - 1 for m in met.values())  # every pair met
    assert meetings - n * (n - 1) // 2 <= 2 * n  # and few met twice
    perfect = -(-(n - 1) // (size - 1))
    assert perfect <= rounds <= perfect + 3


def test_a_hundred_at_tables_of_four_play_seven_rounds_without_a_rematch() -> None:
    # late rounds outgrow the search's budget: the greedy cut, then swaps between tables
    # (failed before the swaps: 15 rematches by round 6)
    met: dict[int, set[int]] = {i: set() for i in range(100)}
    for number in range(1, 8):
        standings = [Standing(i, points=6 * number, met=frozenset(met[i])) for i in met]
        plan = swiss_round(standings, round_number=number, size=4, smallest=3)
        assert _rematches(plan.tables, standings) == 0
        for table in plan.tables:
            for a, b in permutations(table, 2):
                met[a].add(b)
