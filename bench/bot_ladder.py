"""Measure the bot tiers against each other: ``python bench/bot_ladder.py easy random --games 400``.

Two tiers play 2-player games; three or four tiers (``hard medium easy
random``) play one seat each of a 3- or 4-player game. Games come in paired
sets: each game seed is played once per seat rotation, so every tier sits in
every seat on the same deal. Each bot sees only its seat's view and the
events its log showed (``engine.bots.choose_action``); its seed is the ply
number. Fixed seeds: a rerun plays the same games, whatever ``--jobs``.

A tier may carry its own budget for the hard tier's search: ``hard@800``
plays hard with 800 iterations (``python bench/bot_ladder.py hard@800 hard``
measures what a 4x budget is worth); ``--iterations`` sets the others'.

``--old DIR`` names a directory holding another version's ``engine/bots``
(``git archive main engine/bots | tar -x -C DIR``); a tier written
``old:medium`` plays with that version's bots over this tree's engine, so
``python bench/bot_ladder.py medium old:medium --old DIR`` measures a bots
change against main in paired, seat-swapped games.

Prints one line per game, then wins/games and the win rate with a 95%
Wilson interval (2 players; a shared first place counts half), mean rank and
mean final score per tier (3–4 players), and each tier's decision CPU time (``time.process_time``)
p50/p95/max in milliseconds (decisions with a single legal action are not
timed: the bots answer them without thinking).
"""

from __future__ import annotations

import argparse
import importlib.util
import math
import multiprocessing
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine  # noqa: E402
from engine.bots import TIERS, choose_action  # noqa: E402

MAX_PLIES = 3000  # a game this long is stopped and ranked as it stands (none should be)

Task = tuple[int, tuple[str, ...], int | None, float | None, str | None]
Result = tuple[int, tuple[str, ...], list[int], list[int], dict[str, list[float]], int]


OLD_PACKAGE = "old_bots"


def old_choose_action(old: str) -> Callable[..., engine.Action]:
    """Return ``choose_action`` of the ``engine/bots`` copy under directory ``old`` (loaded once).

    The copy is imported as the package ``old_bots``: its relative imports
    stay inside it, its ``import engine`` reads this tree's engine.
    """
    module = sys.modules.get(OLD_PACKAGE)
    if module is None:
        init = Path(old) / "engine" / "bots" / "__init__.py"
        spec = importlib.util.spec_from_file_location(
            OLD_PACKAGE, init, submodule_search_locations=[str(init.parent)]
        )
        if spec is None or spec.loader is None:
            raise SystemExit(f"--old {old}: no engine/bots/__init__.py there")
        module = importlib.util.module_from_spec(spec)
        sys.modules[OLD_PACKAGE] = module
        spec.loader.exec_module(module)
    chooser: Callable[..., engine.Action] = module.choose_action
    return chooser


def tier_spec(text: str) -> str:
    """Check a tier name with an optional ``@iterations`` budget (``hard@800``) or ``old:``."""
    name, _, budget = text.removeprefix("old:").partition("@")
    if name not in TIERS or (budget and not budget.isdigit()):
        raise argparse.ArgumentTypeError(f"{text!r}: use one of {', '.join(TIERS)}, or hard@N")
    return text


def split_spec(text: str, iterations: int | None) -> tuple[str, int | None]:
    """Return the tier and the iterations of a ``tier@N`` spec (``iterations`` without one)."""
    name, _, budget = text.removeprefix("old:").partition("@")
    return name, int(budget) if budget else iterations


def bot_move(
    spec: str,
    view: engine.PlayerView,
    history: list[list[engine.EventDict]],
    *,
    seed: int,
    iterations: int | None,
    time_limit: float | None,
    old: str | None,
) -> engine.Action:
    """Return the action the bot of ``spec`` (``tier``, ``tier@N``, ``old:tier``) plays in ``view``.

    ``history`` is the seat's visible events, ``seed`` the bot's seed (the ply),
    ``iterations`` hard's budget where ``spec`` has none, ``time_limit`` hard's
    wall-clock guard in seconds (None: the bots' default), ``old`` the directory
    ``old:`` tiers' bots come from (``old_choose_action``).
    """
    tier, budget = split_spec(spec, iterations)
    chooser = old_choose_action(old or "") if spec.startswith("old:") else choose_action
    return chooser(view, history, tier=tier, seed=seed, iterations=budget, time_limit=time_limit)


class Ply(NamedTuple):
    """One ply of a bot game: the state before, the seat that acted, its action, the state after."""

    before: engine.GameState
    seat: int
    action: engine.Action
    after: engine.GameState
    cpu: float | None  # seconds of CPU the choice took; None when the seat had one legal action


def game_plies(
    seed: int,
    tiers: tuple[str, ...],
    *,
    iterations: int | None = None,
    time_limit: float | None = None,
    old: str | None = None,
) -> Iterator[Ply]:
    """Play the game of ``seed`` for ``tiers`` by seat (2-4); yield each ``Ply``.

    Each bot is seeded by the ply number and shown its seat's events (``view.events``
    of each ply); ``iterations``, ``time_limit`` and ``old`` as ``bot_move``'s. Stops
    when the game ends or after ``MAX_PLIES``.
    """
    n = len(tiers)
    state = engine.new_game(n, seed)
    history: list[list[list[engine.EventDict]]] = [[] for _ in range(n)]
    for ply in range(MAX_PLIES):
        if state.is_over:
            return
        seat = state.to_act
        assert seat is not None
        view = engine.view_for(state, seat)
        started = time.process_time()
        action = bot_move(
            tiers[seat - 1],
            view,
            history[seat - 1],
            seed=ply,
            iterations=iterations,
            time_limit=time_limit,
            old=old,
        )
        cpu = time.process_time() - started if len(view.actions) > 1 else None
        before, state = state, engine.apply(state, action)
        for s in range(1, n + 1):  # what each seat's log shows of this action (view.events)
            history[s - 1].append(
                [e.to_dict() for e in state.events if e.private_to is None or e.private_to == s]
            )
        yield Ply(before, seat, action, state, cpu)


def play_game(task: Task) -> Result:
    """Play one game; return (seed, tiers by seat, ranks, scores, times by tier, plies)."""
    seed, tiers, default_iterations, time_limit, old = task
    n = len(tiers)
    state = engine.new_game(n, seed)
    times: dict[str, list[float]] = {t: [] for t in tiers}
    plies = 0
    for ply in game_plies(
        seed, tiers, iterations=default_iterations, time_limit=time_limit, old=old
    ):
        if ply.cpu is not None:
            times[tiers[ply.seat - 1]].append(ply.cpu)
        state = ply.after
        plies += 1
    ranking = {p.seat: p for p in engine.final_ranking(state)}
    ranks = [ranking[s].rank for s in range(1, n + 1)]
    scores = [ranking[s].score for s in range(1, n + 1)]
    return seed, tiers, ranks, scores, times, plies


def wilson(wins: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """Return the 95% Wilson score interval of a win rate ``wins / games``."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    denom = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denom
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denom
    return centre - half, centre + half


def percentile(values: list[float], q: float) -> float:
    """Return the ``q`` quantile (0..1) of ``values`` by the nearest rank."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


def tasks(
    tiers: list[str],
    games: int,
    seed: int,
    iterations: int | None,
    limit: float | None,
    old: str | None = None,
) -> list[Task]:
    """Return the games to play: each seed once per seat rotation of ``tiers``."""
    n = len(tiers)
    out: list[Task] = []
    g = 0
    while len(out) < games:
        for r in range(n):
            if len(out) >= games:
                break
            rotated = tuple(tiers[(i - r) % n] for i in range(n))
            out.append((seed + g, rotated, iterations, limit, old))
        g += 1
    return out


def main() -> None:
    """Parse the arguments, play the games and print the figures."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "tiers", nargs="+", type=tier_spec, help="2 tiers (2 players) or 3-4 (one seat each)"
    )
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1, help="first game seed")
    parser.add_argument("--jobs", type=int, default=1, help="processes")
    parser.add_argument("--iterations", type=int, default=None, help="hard tier's budget")
    parser.add_argument("--time-limit", type=float, default=None, help="hard tier's guard (s)")
    parser.add_argument("--old", default=None, help="a directory with another engine/bots (old:)")
    args = parser.parse_args()
    tiers = list(args.tiers)
    if not 2 <= len(tiers) <= 4:
        parser.error("name 2 to 4 tiers")
    if any(t.startswith("old:") for t in tiers) and not args.old:
        parser.error("old: tiers need --old DIR")
    todo = tasks(tiers, args.games, args.seed, args.iterations, args.time_limit, args.old)
    started = time.perf_counter()
    results: list[Result] = []
    # One job plays in this process: no pool, no pool threads competing with the games.
    pool = multiprocessing.Pool(args.jobs) if args.jobs > 1 else None
    games = pool.imap(play_game, todo) if pool is not None else map(play_game, todo)
    for res in games:
        seed, seats, ranks, scores, _, plies = res
        results.append(res)
        line = " ".join(f"{t}:{r}/{s}" for t, r, s in zip(seats, ranks, scores, strict=True))
        print(f"game {len(results)} seed {seed} plies {plies}: {line}", flush=True)
    if pool is not None:
        pool.close()
        pool.join()
    elapsed = time.perf_counter() - started
    print(
        f"\n{len(results)} games in {elapsed:.0f} s; budget iterations={args.iterations} "
        f"time_limit={args.time_limit}"
    )
    if len(tiers) == 2:
        a, b = tiers
        wins = ties = 0
        for _, seats, ranks, _, _, _ in results:
            ra = ranks[seats.index(a)]
            rb = ranks[seats.index(b)]
            wins += ra < rb
            ties += ra == rb
        score = wins + 0.5 * ties
        lo, hi = wilson(score, len(results))
        print(
            f"{a} vs {b}: {a} wins {wins}/{len(results)} (ties {ties}); "
            f"win rate {score / len(results):.1%}, 95% Wilson [{lo:.1%}, {hi:.1%}]"
        )
    for t in dict.fromkeys(tiers):
        rank = [r[2][r[1].index(t)] for r in results]
        score_t = [r[3][r[1].index(t)] for r in results]
        times = [x for r in results for x in r[4].get(t, [])]
        print(
            f"{t:>6}: mean rank {sum(rank) / len(rank):.2f}  mean final score "
            f"{sum(score_t) / len(score_t):.1f}  decisions {len(times)}  time p50 "
            f"{percentile(times, 0.5) * 1e3:.1f} ms  p95 {percentile(times, 0.95) * 1e3:.1f} ms  "
            f"max {max(times, default=float('nan')) * 1e3:.1f} ms"
        )


if __name__ == "__main__":
    main()
