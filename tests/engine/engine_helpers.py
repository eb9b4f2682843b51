"""Small helpers for the engine's own tests: positions from cell overrides, random states."""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping

from engine import GameState, apply, legal_actions, new_game
from engine.board import IS_RIVER, NUM_SQUARES, SQUARE_NAMES, START_TEMPLES
from engine.diagram import parse


def grid(cells: Mapping[str, str] | None = None) -> str:
    """Return a diagram grid of the start position with ``cells`` overridden by square name."""
    cells = dict(cells or {})
    rows = []
    for r in range(11):
        toks = []
        for c in range(16):
            s = r * 16 + c
            name = SQUARE_NAMES[s]
            tok = "r*" if s in START_TEMPLES else ("~" if IS_RIVER[s] else ".")
            toks.append(cells.pop(name, tok))
        rows.append(f"{r + 1:>2} " + " ".join(f"{t:>2}" for t in toks))
    assert not cells, f"unknown squares {sorted(cells)}"
    return "\n".join(rows) + "\n"


def position(headers: str = "", cells: Mapping[str, str] | None = None) -> GameState:
    """Parse a diagram made of ``headers`` lines and a grid with ``cells`` overrides."""
    return parse(headers.strip() + "\n\n" + grid(cells))


def play(state: GameState, *moves: str) -> GameState:
    """Apply each move in notation and return the final state."""
    from engine import Action

    for move in moves:
        state = apply(state, Action.parse(move))
    return state


def random_states(
    count: int, seed: int, players: tuple[int, ...] = (2, 3, 4)
) -> Iterator[GameState]:
    """Yield ``count`` states reached by uniform random play (games restart when over)."""
    rng = random.Random(seed)
    state = new_game(players[0], seed)
    made = 0
    while made < count:
        if state.is_over:
            state = new_game(rng.choice(players), rng.randrange(10**6))
        options = legal_actions(state)
        state = apply(state, options[rng.randrange(len(options))])
        if rng.random() < 0.3:
            made += 1
            yield state


ALL_SQUARES = tuple(range(NUM_SQUARES))
