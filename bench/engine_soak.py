"""Soak the engine and bots with the counts the tests once ran: ``python bench/engine_soak.py``.

The suite keeps ``make test`` within its 15 minutes with smaller counts of the same checks
(issue 3's and issue 14's tests); this bench runs the larger ones and prints what it saw:

- ``--selfplay G`` (default 300): G seeded random games (2, 3, 4 players in turn, seeds
  1000…), every invariant checked after every action (``engine.selfplay.play_random``,
  ``check=True``); prints games/s and the count of each feature seen (revolts, wars,
  monuments, treasures, the two ends…), the features whose minimums
  ``tests/engine/test_selfplay.py`` asks of its 60 games. An invariant broken raises
  ``InvariantError`` (exit status 1).
- ``--tiers`` (default every tier) with ``--positions`` per tier (default the counts
  ``tests/engine/bots/test_play.py`` once played: random 100, easy 60, medium 40, hard 30):
  random positions played to the end by the tier at every seat, each action checked to be
  legal; prints positions/s and plies per tier. An illegal action or a game that does not
  end raises ``AssertionError`` (exit status 1).

- ``--determinize G`` (default 36): ``tests/engine/test_determinize.py``'s round trip (a
  seat's view, dealt out and viewed again, is the same view; the public state and the
  invariants kept) at the positions of G random games (the test checks 18).

Figures are by the wall clock with the process's CPU time beside it: on a shared machine the
second is the steadier. Run it under ``nice -n 10`` beside other work.
"""

from __future__ import annotations

import argparse
import importlib
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine import final_ranking  # noqa: E402
from engine.selfplay import play_random  # noqa: E402

# The tests' own helpers and checks, run with larger counts. Loaded by name: mypy checks
# engine/, games/, tigris_site/ and bench/, not tests/ (pyproject.toml's [tool.mypy]).
bot_helpers = importlib.import_module("tests.engine.bots.bot_helpers")
test_determinize = importlib.import_module("tests.engine.test_determinize")

# The tests' own settings (tests/engine/bots/test_play.py): how near the end positions start.
LATE = {"random": 0, "easy": 30, "medium": 7, "hard": 7}
POSITIONS = {"random": 100, "easy": 60, "medium": 40, "hard": 30}
FEATURES = (
    "revolt_started",
    "war_started",
    "multi_war",
    "war_order",
    "war_cancelled",
    "monument_built",
    "monument_declined",
    "catastrophe_placed",
    "treasure_taken",
    "treasure",
    "tiles_removed",
    "tiles_swapped",
    "end_bag",
    "end_treasures",
)


def _clock() -> tuple[float, float]:
    return time.perf_counter(), time.process_time()


def selfplay(games: int) -> None:
    """Play ``games`` random games with every invariant checked; print the features seen."""
    wall, cpu = _clock()
    total: Counter[str] = Counter()
    for g in range(games):
        record = play_random(2 + g % 3, 1000 + g, check=True)
        assert record.final.is_over and record.final.end_reason in ("bag", "treasures")
        total += record.features
    took, used = time.perf_counter() - wall, time.process_time() - cpu
    print(
        f"selfplay: {games} games, invariants kept, {took:.1f} s ({used:.1f} s cpu), "
        f"{games / took:.1f} games/s"
    )
    for feature in FEATURES:
        print(f"  {feature:<20} {total[feature]:>6}")


def tiers(names: list[str], positions: int | None) -> None:
    """Play random positions to the end with each tier at every seat; print the rates."""
    for tier in names:
        count = positions or POSITIONS[tier]
        wall, cpu = _clock()
        plies = 0
        players: set[int] = set()
        for seen in bot_helpers.random_positions(count, seed=len(tier), late=LATE[tier]):
            n = seen.state.num_players
            players.add(n)
            final, played = bot_helpers.play_out(seen, {s: tier for s in range(1, n + 1)})
            assert final.is_over and len(final_ranking(final)) == n
            plies += played
        took, used = time.perf_counter() - wall, time.process_time() - cpu
        print(
            f"{tier:<7} {count:>4} positions ({sorted(players)} players) to the end, "
            f"{plies} plies, all legal: {took:.1f} s ({used:.1f} s cpu), "
            f"{count / took:.2f} positions/s"
        )


def determinize(games: int) -> None:
    """Run the determinization round trip over the positions of ``games`` random games."""
    wall, cpu = _clock()
    vars(test_determinize)["ROUND_TRIP_GAMES"] = games  # the test reads it when it runs
    test_determinize.test_view_of_a_determinized_state_is_the_view_it_came_from()
    took, used = time.perf_counter() - wall, time.process_time() - cpu
    print(
        f"determinize: {games} games' positions, every view kept: {took:.1f} s ({used:.1f} s cpu)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--selfplay", type=int, default=300, help="random games (0: none)")
    parser.add_argument("--tiers", nargs="*", default=list(POSITIONS), choices=list(POSITIONS))
    parser.add_argument("--positions", type=int, help="positions per tier (default: per tier)")
    parser.add_argument("--determinize", type=int, default=36, help="random games (0: none)")
    args = parser.parse_args()
    if args.selfplay:
        selfplay(args.selfplay)
    if args.determinize:
        determinize(args.determinize)
    tiers(args.tiers, args.positions)


if __name__ == "__main__":
    main()
