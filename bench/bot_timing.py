"""Time each bot tier's decisions on fixed positions: ``python bench/bot_timing.py --positions 40``.

Positions come from 2-, 3- and 4-player games played by the easy tier
(fixed seeds; ``--players N``: N-player games only), every few plies,
with the events each seat's log showed. Each tier in ``--tiers`` answers
every position from its seat's view; the script prints per tier the
decision CPU time (``time.process_time``) and wall time p50/p95/max in
milliseconds. ``--iterations`` sets the hard tier's budget (default: the
site's, ``engine.bots.hard.default_iterations`` for the game's players).
The budgets of issue 14: easy p95 <= 50 ms, medium <= 500 ms, hard <= 3 s
at the site's default budget; issue 26: hard p95 <= 1 s CPU.

``--old DIR`` (a directory holding another version's ``engine/bots``, as
``bench/bot_ladder.py --old``) times that version's tiers too, each position
answered by the two versions in turn, and prints the ratio this/old of
their CPU per position (median, mean): a ratio taken in one run holds on a
busy machine where the absolute times do not.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine  # noqa: E402
from engine.bots import TIERS, choose_action  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bot_ladder import old_choose_action  # noqa: E402

Position = tuple[engine.PlayerView, list[list[engine.EventDict]]]


def positions(count: int, seed: int, players: int | None = None) -> list[Position]:
    """Return ``count`` (view, history) pairs from easy self-play, 2–4 players (or ``players``)."""
    out: list[Position] = []
    game = 0
    while len(out) < count:
        n = players or 2 + game % 3
        state = engine.new_game(n, seed + game)
        history: list[list[list[engine.EventDict]]] = [[] for _ in range(n)]
        plies = 0
        while not state.is_over and len(out) < count:
            seat = state.to_act
            assert seat is not None
            view = engine.view_for(state, seat)
            if plies % 9 == 4 and len(view.actions) > 1:
                out.append((view, [list(h) for h in history[seat - 1]]))
            action = choose_action(view, history[seat - 1], tier="easy", seed=plies)
            state = engine.apply(state, action)
            plies += 1
            for s in range(1, n + 1):
                history[s - 1].append(
                    [e.to_dict() for e in state.events if e.private_to is None or e.private_to == s]
                )
        game += 1
    return out


def percentile(values: list[float], q: float) -> float:
    """Return the ``q`` quantile (0..1) of ``values`` by the nearest rank."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, int(q * len(ordered) + 0.999999) - 1))]


def main() -> None:
    """Parse the arguments, time the tiers and print the figures."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--positions", type=int, default=40)
    parser.add_argument("--seed", type=int, default=300)
    parser.add_argument("--tiers", nargs="+", choices=TIERS, default=["easy", "medium", "hard"])
    parser.add_argument("--iterations", type=int, default=None, help="the hard tier's budget")
    parser.add_argument(
        "--time-limit",
        type=float,
        default=None,
        help="the hard tier's wall-clock guard (s); 600 times the whole budget on a busy machine",
    )
    parser.add_argument("--old", default=None, help="a directory with another engine/bots")
    parser.add_argument(
        "--players", type=int, choices=(2, 3, 4), default=None, help="default: 2, 3, 4 in turn"
    )
    args = parser.parse_args()
    found = positions(args.positions, args.seed, args.players)
    versions = [("", choose_action)]
    if args.old:
        versions.append(("old:", old_choose_action(args.old)))
    for tier in args.tiers:
        times: dict[str, list[float]] = {name: [] for name, _ in versions}
        walls: dict[str, list[float]] = {name: [] for name, _ in versions}
        for k, (view, history) in enumerate(found):
            for name, chooser in versions:
                started = time.process_time()
                wall = time.perf_counter()
                chooser(
                    view,
                    history,
                    tier=tier,
                    seed=k,
                    iterations=args.iterations,
                    time_limit=args.time_limit,
                )
                times[name].append(time.process_time() - started)
                walls[name].append(time.perf_counter() - wall)
        for name, _ in versions:
            cpu = times[name]
            p50, p95 = percentile(cpu, 0.5) * 1e3, percentile(cpu, 0.95) * 1e3
            mean = sum(cpu) / len(cpu) * 1e3
            print(
                f"{name + tier:>10}: {len(cpu)} decisions  CPU p50 {p50:.0f} ms  p95 {p95:.0f} ms"
                f"  max {max(cpu) * 1e3:.0f} ms  mean {mean:.0f} ms  "
                f"wall p95 {percentile(walls[name], 0.95) * 1e3:.0f} ms"
                + (f"  (iterations {args.iterations or 'default'})" if tier == "hard" else "")
            )
        if args.old:
            ratios = sorted(a / max(b, 1e-9) for a, b in zip(times[""], times["old:"], strict=True))
            print(
                f"{'':>10}  this/old CPU per position: median {ratios[len(ratios) // 2]:.2f}  "
                f"mean {sum(ratios) / len(ratios):.2f}"
            )


if __name__ == "__main__":
    main()
