"""``determinize``: a full state consistent with one seat's view (RULES.md §14, issue 14)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any

import pytest

from engine import (
    Determinizer,
    Event,
    GameState,
    PlayerView,
    apply,
    determinize,
    legal_actions,
    new_game,
    view_for,
)
from engine.board import START_TEMPLES
from engine.monuments import options as monument_options
from engine.pieces import RED, TILE_TOTALS, TREASURE_COUNT
from engine.selfplay import check_invariants


@dataclass
class Seen:
    """A position reached by random play and what each seat (None: a spectator) saw so far."""

    state: GameState
    logs: dict[int | None, list[dict[str, Any]]]


def _visible(e: Event, seat: int | None) -> bool:
    return e.private_to is None or e.private_to == seat


def _positions(games: int, seed: int, keep: float) -> Iterator[Seen]:
    """Yield positions of ``games`` random games, 2–4 players, every decision and some others.

    Each seat's log is kept as the site keeps it: the public events plus its own private ones.
    """
    rng = random.Random(seed)
    for g in range(games):
        n = 2 + g % 3
        state = new_game(n, seed * 1000 + g, open_scoring=g % 4 == 3)
        seats: list[int | None] = [*range(1, n + 1), None]
        logs: dict[int | None, list[dict[str, Any]]] = {s: [] for s in seats}
        while not state.is_over:
            options = legal_actions(state)
            state = apply(state, options[rng.randrange(len(options))])
            for s in seats:
                logs[s].extend(e.to_dict() for e in state.events if _visible(e, s))
            if state.pending is not None or state.is_over or rng.random() < keep:
                yield Seen(state, {s: list(log) for s, log in logs.items()})


def _public(st: GameState) -> tuple[Any, ...]:
    """Return every field of ``st`` that no seat's screen hides (§14)."""
    return (
        st.num_players,
        st.open_scoring,
        st.board,
        st.treasures,
        st.catastrophes,
        st.monuments,
        st.active_seat,
        st.actions_left,
        st.pending,
        st.conflict,
        st.unification,
        st.is_over,
        st.end_reason,
        st.discarded,
        len(st.bag),
        tuple(sum(h) for h in st.hands),
    )


def _kind(st: GameState) -> str:
    p = st.pending
    if p is None:
        return "over" if st.is_over else "ordinary"
    if p.kind == "support":
        return f"support {p.conflict} {'attacker' if p.seat == p.attacker else 'defender'}"
    return p.kind


# Random games whose positions the round trip is checked at: 18 (6 each of 2, 3, 4 players)
# give over 3000 seat views and every kind of position below; the 36 this test once played
# are bench/engine_soak.py's (``--determinize 36``).
ROUND_TRIP_GAMES = 18


def test_view_of_a_determinized_state_is_the_view_it_came_from() -> None:
    """For every seat and a spectator, with and without history: the round trip is exact.

    The dealt state also agrees with the real one on everything public (the pending
    decision, the conflict being fought and its committed support, the unification marker),
    keeps every invariant (153 tiles, 10 treasures…), and with the seat's history its hidden
    totals are the real ones, added up from the public events.
    """
    rng = random.Random(11)
    kinds: Counter[str] = Counter()
    checked = 0
    for seen in _positions(games=ROUND_TRIP_GAMES, seed=3, keep=0.12):
        real = seen.state
        kinds[_kind(real)] += 1
        for seat, log in seen.logs.items():
            ended = real.is_over is False and rng.random() < 0.03
            view = view_for(real, seat, game_ended=ended)
            with_history = rng.random() < 0.5
            det = determinize(view, rng, seen_events=log if with_history else None)
            assert view_for(det, seat, game_ended=ended) == view
            assert _public(det) == _public(real)
            check_invariants(det, json_round_trip=False)
            if seat is not None:
                assert det.hands[seat - 1] == real.hands[seat - 1]
            if with_history:
                assert det.vp == real.vp
                assert det.treasures_held == real.treasures_held
                assert det.placed == real.placed
            else:
                assert monument_options(det.board, det.placed, det.monuments) == (
                    monument_options(real.board, real.placed, real.monuments)
                )
            checked += 1
    assert checked > 3000
    for kind in (
        "ordinary",
        "over",
        "support revolt attacker",
        "support revolt defender",
        "support war attacker",
        "support war defender",
        "war_order",
        "monument",
        "treasure",
    ):
        assert kinds[kind] > 0, (kind, kinds)


def test_a_determinized_state_plays_on_like_a_real_one() -> None:
    """From dealt states the game goes on: every legal action applies and keeps the invariants."""
    rng = random.Random(5)
    for seen in _positions(games=6, seed=8, keep=0.05):
        seat = seen.state.to_act
        det = determinize(view_for(seen.state, seat), rng, seen_events=seen.logs[seat])
        for _ in range(6):
            if det.is_over:
                break
            options = legal_actions(det)
            det = apply(det, options[rng.randrange(len(options))])
            check_invariants(det, json_round_trip=False)


def _scramble(state: GameState, viewer: int | None, rng: random.Random) -> GameState:
    """Change what ``viewer`` cannot see: other hands (same sizes), bag order, seed, totals."""
    pool = [
        c
        for i, h in enumerate(state.hands)
        if i + 1 != viewer
        for c in range(4)
        for _ in range(h[c])
    ]
    pool += state.bag
    rng.shuffle(pool)
    hands = []
    for i, hand in enumerate(state.hands):
        if i + 1 == viewer:
            hands.append(hand)
            continue
        got = [0, 0, 0, 0]
        for c in pool[: sum(hand)]:
            got[c] += 1
        del pool[: sum(hand)]
        hands.append((got[0], got[1], got[2], got[3]))
    vp, held = list(state.vp), list(state.treasures_held)
    if not state.open_scoring:
        for i in range(state.num_players):
            if i + 1 != viewer:
                vp[i] = (rng.randrange(9), rng.randrange(9), rng.randrange(9), rng.randrange(9))
    return replace(
        state,
        hands=tuple(hands),
        bag=tuple(pool),
        seed=rng.randrange(10**9),
        vp=tuple(vp),
        treasures_held=tuple(held),
        events=tuple(e for e in state.events if _visible(e, viewer)),
    )


def test_determinize_depends_only_on_the_view_and_the_seats_history() -> None:
    """Two states one seat cannot tell apart give that seat the same dealt state (§14)."""
    rng = random.Random(2)
    compared = 0
    for seen in _positions(games=6, seed=5, keep=0.1):
        if seen.state.is_over:
            continue
        seat = rng.choice([*range(1, seen.state.num_players + 1), None])
        other = _scramble(seen.state, seat, rng)
        view = view_for(seen.state, seat)
        assert view_for(other, seat) == view
        a = determinize(view, random.Random(compared), seen_events=seen.logs[seat])
        b = determinize(view_for(other, seat), random.Random(compared), seen_events=seen.logs[seat])
        assert a == b
        assert determinize(view, random.Random(compared)) == determinize(
            view_for(other, seat), random.Random(compared)
        )
        compared += 1
    assert compared > 50


def test_determinize_takes_a_view_never_a_state() -> None:
    state = new_game(2, 1)
    with pytest.raises(TypeError, match="PlayerView"):
        determinize(state, random.Random(0))  # type: ignore[arg-type]


def test_the_seed_is_fresh_and_the_dealing_follows_the_rng() -> None:
    """The real seed never comes through; the same rng seed deals the same state (§14)."""
    state = new_game(3, 123456789)
    view = view_for(state, 2)
    dealt = [determinize(view, random.Random(k)) for k in range(20)]
    assert all(d.seed != state.seed for d in dealt)
    assert dealt[0] == determinize(view, random.Random(0))
    assert len({d.bag for d in dealt}) == 20


def test_unseen_tiles_at_the_start_are_the_bag_and_the_other_hands() -> None:
    """At setup seat 1 cannot see 143 - 6 tiles: every colour's total less its own (§1.3)."""
    state = new_game(4, 9)
    view = view_for(state, 1)
    mine = state.hands[0]
    for k in range(30):
        det = determinize(view, random.Random(k), seen_events=[])
        unseen = [0, 0, 0, 0]
        for c in det.bag:
            unseen[c] += 1
        for hand in det.hands[1:]:
            for c in range(4):
                unseen[c] += hand[c]
        want = [TILE_TOTALS[c] - mine[c] - (TREASURE_COUNT if c == RED else 0) for c in range(4)]
        assert unseen == want
        assert det.hands[0] == mine
        assert [sum(h) for h in det.hands] == [6, 6, 6, 6]


def test_hidden_totals_are_estimated_without_history() -> None:
    """With no events, another seat's hidden VP are the mean of the totals the seat sees."""
    state = replace(
        new_game(3, 4),
        vp=((4, 2, 0, 6), (9, 9, 9, 9), (1, 1, 1, 1)),
        treasures=tuple(sorted(START_TEMPLES))[:7],
        treasures_held=(1, 1, 1),
    )
    det = determinize(view_for(state, 1), random.Random(0))
    assert det.vp == ((4, 2, 0, 6), (4, 2, 0, 6), (4, 2, 0, 6))
    assert det.treasures_held[0] == 1 and sum(det.treasures_held) == 3
    spectator = determinize(view_for(state, None), random.Random(0))
    assert spectator.vp == ((0, 0, 0, 0),) * 3 and sum(spectator.treasures_held) == 3


def test_a_history_that_disagrees_with_the_view_is_refused() -> None:
    """Counting the last action twice (or a foreign history) is an error, not a silent guess."""
    state = new_game(2, 3)
    rng = random.Random(0)
    log: list[dict[str, Any]] = []
    while not any(e.code == "vp_scored" and e.params["seat"] == 1 for e in state.events):
        options = legal_actions(state)
        state = apply(state, options[rng.randrange(len(options))])
        log += [e.to_dict() for e in state.events if _visible(e, 1)]
    view = view_for(state, 1)
    determinize(view, rng, seen_events=log)
    with pytest.raises(ValueError, match="seen"):
        determinize(view, rng, seen_events=log + list(view.events))


def test_per_ply_history_equals_the_flat_one() -> None:
    """``seen_events`` may be per-ply tuples (as ``view.events`` gives), flat, or Event values."""
    state = new_game(2, 17)
    rng = random.Random(1)
    plies: list[tuple[dict[str, Any], ...]] = []
    values: list[Event] = []
    for _ in range(60):
        options = legal_actions(state)
        state = apply(state, options[rng.randrange(len(options))])
        plies.append(view_for(state, 2).events)
        values += [e for e in state.events if _visible(e, 2)]
    view: PlayerView = view_for(state, 2)
    flat = [e for ply in plies for e in ply]
    d = Determinizer(view, seen_events=plies)
    dealt = d.sample(random.Random(4))
    assert dealt == determinize(view, random.Random(4), seen_events=flat)
    assert dealt == determinize(view, random.Random(4), seen_events=values)
    assert dealt.vp == state.vp
