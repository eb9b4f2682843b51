"""Command line: ``python -m engine selfplay --players N --games G --seed S``.

Plays uniformly random games with every invariant checked after each action,
prints one line per game (plies, winner, final scores) and a total, and exits
non-zero on any invariant failure.
"""

from __future__ import annotations

import argparse
import sys
import time

from .scoring import final_ranking
from .selfplay import InvariantError, play_random


def main(argv: list[str] | None = None) -> int:
    """Run the command line; return the process exit status."""
    parser = argparse.ArgumentParser(prog="python -m engine")
    sub = parser.add_subparsers(dest="command", required=True)
    sp = sub.add_parser("selfplay", help="play random games and check the invariants")
    sp.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    sp.add_argument("--games", type=int, default=10)
    sp.add_argument("--seed", type=int, default=0)
    sp.add_argument("--no-check", action="store_true", help="skip the invariant checks")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    plies = 0
    for g in range(args.games):
        seed = args.seed + g
        try:
            rec = play_random(args.players, seed, check=not args.no_check)
        except InvariantError as exc:
            print(f"game {g + 1} seed {seed}: INVARIANT FAILED: {exc}", file=sys.stderr)
            return 1
        plies += len(rec.actions)
        ranking = final_ranking(rec.final)
        winners = ",".join(str(p.seat) for p in ranking if p.rank == 1)
        scores = " ".join(f"{p.seat}:{p.score}{list(p.colors)}" for p in ranking)
        print(
            f"game {g + 1} seed {seed}: {len(rec.actions)} plies, end {rec.final.end_reason}, "
            f"winner {winners}, scores {scores}"
        )
    elapsed = time.perf_counter() - started
    print(f"total: {args.games} games, {plies} plies, {elapsed:.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
