"""Perft-style checks: legal_actions agrees with a slow, independent reading of RULES.md.

The reference below flood-fills the whole board from scratch for every
candidate action, so it shares no cache or shortcut with the engine.
"""

from __future__ import annotations

import itertools
import random

from engine import Action, IllegalActionError, apply, legal_actions, new_game
from engine.board import IS_RIVER, NEIGHBOURS, SQUARE_NAMES

from .engine_helpers import random_states

COLORS = ("red", "black", "blue", "green")
LEADERS = ("priest", "king", "farmer", "trader")


def _kingdoms_next_to(board: list[int], square: int) -> set[frozenset[int]]:
    found = set()
    for start in NEIGHBOURS[square]:
        if board[start] in (0, 6):
            continue
        seen = {start}
        stack = [start]
        while stack:
            x = stack.pop()
            for y in NEIGHBOURS[x]:
                if y not in seen and board[y] not in (0, 6):
                    seen.add(y)
                    stack.append(y)
        if any(board[x] >= 8 for x in seen):
            found.add(frozenset(seen))
    return found


def reference_ordinary(state) -> set[str]:  # type: ignore[no-untyped-def]
    board = list(state.board)
    seat = state.active_seat
    hand = state.hands[seat - 1]
    out = {"pass"}
    for s in range(176):
        if board[s] != 0:
            continue
        near = len(_kingdoms_next_to(board, s))
        for c in range(4):
            if hand[c] and (c == 2) == IS_RIVER[s] and near <= 2:
                out.add(f"tile {COLORS[c]} {SQUARE_NAMES[s]}")
    for c in range(4):
        cell = 8 + 4 * (seat - 1) + c
        lifted = [0 if x == cell else x for x in board]
        if cell in board:
            out.add(f"withdraw {LEADERS[c]}")
        for s in range(176):
            if lifted[s] != 0 or IS_RIVER[s] or board[s] == cell:
                continue
            if not any(board[y] == 1 for y in NEIGHBOURS[s]):
                continue
            if len(_kingdoms_next_to(lifted, s)) <= 1:
                out.add(f"leader {LEADERS[c]} {SQUARE_NAMES[s]}")
    if state.catastrophes[seat - 1]:
        for s in range(176):
            if board[s] == 0 or (1 <= board[s] <= 4 and s not in state.treasures):
                out.add(f"catastrophe {SQUARE_NAMES[s]}")
    for counts in itertools.product(*(range(h + 1) for h in hand)):
        if sum(counts):
            out.add("swap " + " ".join(COLORS[c] for c in range(4) for _ in range(counts[c])))
    return out


def test_legal_actions_match_the_reference_in_random_positions() -> None:
    compared = 0
    for state in random_states(120, seed=5):
        if state.is_over or state.pending is not None:
            continue
        assert {str(a) for a in legal_actions(state)} == reference_ordinary(state)
        compared += 1
    assert compared > 60


def test_apply_accepts_exactly_the_legal_actions() -> None:
    rng = random.Random(9)
    every = [
        *(f"tile {c} {s}" for c in COLORS for s in SQUARE_NAMES),
        *(f"leader {leader} {s}" for leader in LEADERS for s in SQUARE_NAMES),
        *(f"catastrophe {s}" for s in SQUARE_NAMES),
        *(f"withdraw {leader}" for leader in LEADERS),
        *(f"commit {n}" for n in range(7)),
        *(f"war {c}" for c in COLORS),
        *(f"treasure {s}" for s in SQUARE_NAMES),
        "pass",
        "decline monument",
        "swap red",
        "swap blue blue",
        "monument red-blue e4",
    ]
    for state in random_states(40, seed=17):
        legal = set(legal_actions(state))
        for text in rng.sample(every, 60):
            action = Action.parse(text)
            try:
                apply(state, action)
                accepted = True
            except IllegalActionError:
                accepted = False
            assert accepted == (action in legal), (text, state.pending)


def test_first_position_counts() -> None:
    # Perft-style anchor: the opening position's action count by kind for seed 1.
    state = new_game(2, 1)
    kinds: dict[str, int] = {}
    for action in legal_actions(state):
        head = str(action).split()[0]
        kinds[head] = kinds.get(head, 0) + 1
    hand = state.hands[0]
    land = 176 - 41 - 10
    tiles = sum(land if c != 2 else 41 for c in range(4) if hand[c])
    assert kinds["tile"] == tiles
    # Every empty land square next to one of the ten lone temples; no leader on the board yet.
    assert kinds["leader"] == 4 * 33  # 3+4+3+3+2+4+3+4+4+3 land squares by k1 b2 ... k11
    assert kinds["catastrophe"] == 166
    assert "withdraw" not in kinds and kinds["pass"] == 1
