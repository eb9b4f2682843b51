"""Benchmark the rules engine: random games/s, plies/s, legal_actions and apply times.

Run from the repository root: ``python bench/engine_bench.py [--games G] [--seed S]``.
Prints, for 2, 3 and 4 players, uniformly random games per second with the
full ``legal_actions`` every ply, plies per second, and the median and p99
time of ``legal_actions`` and of ``apply`` (issue 3's goal: >= 25 two-player
games/s, legal_actions median < 1 ms; issue 14's: >= 80 two-player games/s).
Then random playouts through the fast path (``sample_action`` +
``apply_fast``, as a search's rollouts run): games/s and plies/s (issue 14's
goal: >= 30k plies/s). Each figure is by the wall clock, with the process's
CPU time beside it (``cpu``): on a shared machine the second is the steadier.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import apply, apply_fast, legal_actions, new_game, sample_action  # noqa: E402


def _pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def run(players: int, games: int, seed: int) -> None:
    """Play ``games`` random games of ``players`` and print the figures."""
    t_legal: list[float] = []
    t_apply: list[float] = []
    plies = 0
    clock = time.perf_counter
    started = clock()
    cpu_started = time.process_time()
    for g in range(games):
        state = new_game(players, seed + g)
        rng = random.Random(seed + g)
        while not state.is_over:
            t0 = clock()
            options = legal_actions(state)
            t1 = clock()
            state = apply(state, options[rng.randrange(len(options))])
            t2 = clock()
            t_legal.append(t1 - t0)
            t_apply.append(t2 - t1)
            plies += 1
    elapsed = clock() - started
    cpu = time.process_time() - cpu_started
    print(
        f"{players} players: {games / elapsed:6.1f} games/s  {plies / elapsed:8.0f} plies/s  "
        f"(cpu {games / cpu:6.1f} games/s)  "
        f"({plies / games:.0f} plies/game)  "
        f"legal_actions median {statistics.median(t_legal) * 1e6:6.0f} us p99 "
        f"{_pct(t_legal, 0.99) * 1e6:6.0f} us  "
        f"apply median {statistics.median(t_apply) * 1e6:6.0f} us "
        f"p99 {_pct(t_apply, 0.99) * 1e6:6.0f} us"
    )


def run_playouts(players: int, games: int, seed: int) -> None:
    """Play ``games`` random games through the fast path and print games/s and plies/s."""
    plies = 0
    started = time.perf_counter()
    cpu_started = time.process_time()
    for g in range(games):
        state = new_game(players, seed + g)
        rng = random.Random(seed + g)
        while not state.is_over:
            state = apply_fast(state, sample_action(state, rng))
            plies += 1
    elapsed = time.perf_counter() - started
    cpu = time.process_time() - cpu_started
    print(
        f"{players} players, playouts (sample_action + apply_fast): "
        f"{games / elapsed:6.1f} games/s  {plies / elapsed:8.0f} plies/s  "
        f"(cpu {games / cpu:6.1f} games/s {plies / cpu:8.0f} plies/s)  "
        f"({plies / games:.0f} plies/game)"
    )


def main() -> None:
    """Parse the arguments and run the benchmark for 2, 3 and 4 players."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=100, help="games per player count")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for players in (2, 3, 4):
        run(players, args.games, args.seed)
    for players in (2, 3, 4):
        run_playouts(players, args.games, args.seed)


if __name__ == "__main__":
    main()
