"""Command line: ``python -m engine selfplay …`` and ``python -m engine bot …``.

``selfplay --players N --games G --seed S`` plays uniformly random games with
every invariant checked after each action, prints one line per game (plies,
winner, final scores) and a total, and exits non-zero on any invariant
failure.

``bot --tier TIER --seat N --seed S`` reads a position diagram (``engine.diagram``)
on stdin and prints the action the bot of that tier chooses for seat N, which
must be the seat to act; the bot gets only that seat's view of the position
(no event history: hidden totals are estimated). Exits 2 on a bad diagram or
a seat that is not to act.
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
    bp = sub.add_parser("bot", help="print a bot's action for a diagram read on stdin")
    bp.add_argument("--tier", required=True, choices=("random", "easy", "medium", "hard"))
    bp.add_argument("--seat", type=int, required=True)
    bp.add_argument("--seed", type=int, default=0)
    bp.add_argument("--iterations", type=int, default=None, help="the hard tier's budget")
    args = parser.parse_args(argv)
    if args.command == "bot":
        return _bot(args.tier, args.seat, args.seed, args.iterations)
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


def _bot(tier: str, seat: int, seed: int, iterations: int | None) -> int:
    """Print the bot's action for the diagram on stdin; return the exit status."""
    from .bots import choose_action
    from .diagram import parse
    from .errors import DiagramError
    from .views import view_for

    try:
        state = parse(sys.stdin.read())
        view = view_for(state, seat)
    except (DiagramError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if state.to_act != seat:
        print(f"error: seat {seat} is not to act (seat {state.to_act} is)", file=sys.stderr)
        return 2
    print(choose_action(view, None, tier=tier, seed=seed, iterations=iterations))
    return 0


if __name__ == "__main__":
    sys.exit(main())
