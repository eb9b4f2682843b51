"""The fast path for search: one random legal action, an apply without the log (issue 14).

Rollouts in a tree search play thousands of random plies per decision. They
need neither the whole sorted list of legal actions nor the events a game
log shows, so:

- ``sample_action(state, rng)`` draws one action uniformly from
  ``legal_actions(state)`` without building that list;
- ``apply_fast(state, action)`` is ``apply`` without the legality check and
  without events (``state.events == ()``): the same rules code
  (``rules.resolve``), only the log is not written;
- ``random_playout(state, rng)`` plays on with both until the game ends.

Uniformity, precisely: a candidate index is drawn uniformly from a list that
holds every legal action exactly once plus, for a leader already on the
board, spots that may turn out illegal, and for a catastrophe, every square
empty or with a face-up tile (those holding a treasure are illegal);
an illegal candidate is drawn again. Rejection keeps the draw exactly
uniform over ``legal_actions(state)`` while the costly checks (a lifted
leader's targets) run only for the candidate drawn.
"""

from __future__ import annotations

import random

from .actions import (
    CATASTROPHE_ACTIONS,
    LEADER_ACTIONS,
    PASS,
    SWAP_ACTIONS,
    TILE_ACTIONS,
    WITHDRAW_ACTIONS,
    Action,
)
from .analysis import Analysis, analysis
from .legality import leader_fits, legal_actions
from .pieces import BLUE, EMPTY
from .rules import resolve
from .state import GameState


def sample_action(state: GameState, rng: random.Random) -> Action:
    """Return one action drawn uniformly from ``legal_actions(state)`` (RULES.md §2, §15).

    Uses ``rng`` only; ``state`` is not changed (its cache may grow). Raises
    ``ValueError`` when the game is over (there is no legal action).
    """
    if state.is_over:
        raise ValueError("the game is over: there is no action to sample (RULES.md §13.1)")
    if state.pending is not None:
        options = legal_actions(state)  # a decision has a handful of answers
        return options[rng.randrange(len(options))]
    an = analysis(state)
    sizes = _sizes(state, an)
    total = sum(sizes)
    while True:
        got = _candidate(state, an, sizes, rng.randrange(total))
        if got is not None:
            return got


def apply_fast(state: GameState, action: Action) -> GameState:
    """Return ``apply(state, action)`` without its events and without checking (RULES.md §16).

    ``action`` must be legal (from ``legal_actions`` or ``sample_action``):
    an illegal one gives an undefined state. The result equals ``apply``'s
    in every field but ``events``, which is empty.
    """
    return resolve(state, action, log=False)


def random_playout(
    state: GameState, rng: random.Random, *, max_plies: int | None = None
) -> GameState:
    """Play uniformly random legal actions from ``state`` until the game ends.

    Stops early after ``max_plies`` plies when given. Returns the last state
    (with no events: ``apply_fast``).
    """
    plies = 0
    while not state.is_over and (max_plies is None or plies < max_plies):
        state = apply_fast(state, sample_action(state, rng))
        plies += 1
    return state


def _sizes(state: GameState, an: Analysis) -> tuple[int, int, int, int, int, int]:
    """Return the sizes of the candidate blocks: tiles, leaders, withdrawals, catastrophes, swaps.

    The sixth block is the pass (size 1). Tiles are exact: the open squares
    of each colour in hand (§5.1). Leaders: every leader spot for a leader on
    the board (judged when drawn), the spots open to it for one in supply
    (§4.2). Catastrophes: every square empty or with a face-up tile (one
    holding a treasure is refused when drawn, §10). Swaps: every non-empty
    part of the hand (§11).
    """
    seat = state.active_seat
    hand = state.hands[seat - 1]
    land = len(an.land_ok)
    tiles = (bool(hand[0]) + bool(hand[1]) + bool(hand[3])) * land
    if hand[BLUE]:
        tiles += len(an.river_ok)
    withdraw = 4 - state.leader_squares()[seat - 1].count(-1)
    leaders = withdraw * len(an.leader_spots) + (4 - withdraw) * len(an.free_spots())
    cats = len(an.open_squares) if state.catastrophes[seat - 1] else 0
    a, b, c, d = hand
    swaps = (a + 1) * (b + 1) * (c + 1) * (d + 1) - 1
    return (tiles, leaders, withdraw, cats, swaps, 1)


def _candidate(
    state: GameState, an: Analysis, sizes: tuple[int, int, int, int, int, int], i: int
) -> Action | None:
    """Return candidate number ``i`` (0 <= i < sum(sizes)) if it is legal, else None.

    Every legal ordinary action is the candidate of exactly one ``i``.
    """
    seat = state.active_seat
    hand = state.hands[seat - 1]
    tiles, leaders, withdraw, cats, swaps, _ = sizes
    if i < tiles:
        for c in range(4):
            if hand[c]:
                squares = an.river_ok if c == BLUE else an.land_ok
                if i < len(squares):
                    return TILE_ACTIONS[c][squares[i]]
                i -= len(squares)
        raise AssertionError("tile candidates out of step")  # pragma: no cover
    i -= tiles
    if i < leaders:
        positions = state.leader_squares()[seat - 1]
        for c in range(4):
            on_board = positions[c] >= 0
            squares = an.leader_spots if on_board else an.free_spots()
            if i < len(squares):
                s = squares[i]
                if on_board and not leader_fits(state, c, s):
                    return None
                return LEADER_ACTIONS[c][s]
            i -= len(squares)
        raise AssertionError("leader candidates out of step")  # pragma: no cover
    i -= leaders
    if i < withdraw:
        positions = state.leader_squares()[seat - 1]
        placed = [c for c in range(4) if positions[c] >= 0]
        return WITHDRAW_ACTIONS[placed[i]]
    i -= withdraw
    if i < cats:
        s = an.open_squares[i]
        if state.board[s] != EMPTY and s in state.treasures:
            return None  # a treasure's tile (§10)
        return CATASTROPHE_ACTIONS[s]
    i -= cats
    if i < swaps:
        i += 1  # index 0 would swap nothing
        counts = []
        for c in (3, 2, 1, 0):
            i, k = divmod(i, hand[c] + 1)
            counts.append(k)
        d, c_, b, a = counts
        return SWAP_ACTIONS[(a, b, c_, d)]
    return PASS
