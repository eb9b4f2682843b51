"""Where one bot tier wins and loses against another: ``python bench/bot_breakdown.py medium easy``.

Plays 2-player games in seat-swapped pairs on fixed seeds, as
``bench/bot_ladder.py`` does (the same games for the same seeds and tiers:
each bot sees its seat's view and its log, its seed is the ply), and reads
every game's public events (RULES.md §14) after the end. Prints one line
per game (seat, result, final scores, VP by source), then, for the games
the first tier won and those it lost, per tier and game: VP by source
(tile §5.2, revolt §6, war §7, monument §8.3), treasures (§9), monuments
built (§8), catastrophes (§10), swaps (§11), and the conflicts by who
attacked and who won. ``--old DIR``, ``old:TIER``, ``hard@N`` (a budget) and
``--time-limit`` (hard's wall-clock guard, seconds; a large one turns it off so
that the games are bot_ladder's with the same option on any load) as in bot_ladder.

Issue 26 (medium against easy, 2026-12-03): wars easy started against
medium were won by easy in 56 of 60 (23 games), a leak of about 10 VP a
game; see bench/results/bot_medium-2026-12-03.txt.
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bot_ladder import game_plies, tier_spec  # noqa: E402

import engine  # noqa: E402

SOURCES = ("tile", "revolt", "war", "monument")
Task = tuple[int, tuple[str, str], str | None, float | None]


def play(task: Task) -> dict[str, Any]:
    """Play one game; return its seed, tiers by seat, ranks, scores and per-seat tallies."""
    seed, tiers, old, time_limit = task
    state = engine.new_game(2, seed)
    tally: list[Counter[str]] = [Counter(), Counter()]
    attacker: dict[str, int] = {}
    for ply in game_plies(seed, tiers, time_limit=time_limit, old=old):
        state = ply.after
        for e in state.events:
            p = e.params
            if e.code in ("revolt_started", "war_started"):
                attacker["kind"] = p["attacker"]
            elif e.code == "conflict_resolved":
                who = "self" if attacker.get("kind") == p["winner"] else "rival"
                by = attacker.get("kind", 0)
                tally[by - 1][f"{p['kind']} attacked, won"] += who == "self"
                tally[by - 1][f"{p['kind']} attacked, lost"] += who == "rival"
            elif e.code == "vp_scored":
                tally[p["seat"] - 1][f"vp {p['reason']}"] += p["amount"]
            elif e.code == "monument_built":
                tally[p["seat"] - 1]["monuments built"] += 1
            elif e.code == "catastrophe_placed":
                tally[p["seat"] - 1]["catastrophes"] += 1
            elif e.code == "tiles_swapped":
                tally[p["seat"] - 1]["swaps"] += 1
            elif e.code == "treasure_taken":
                tally[p["seat"] - 1]["treasures"] += 1
    ranking = {p.seat: p for p in engine.final_ranking(state)}
    return {
        "seed": seed,
        "tiers": tiers,
        "ranks": [ranking[s].rank for s in (1, 2)],
        "scores": [ranking[s].score for s in (1, 2)],
        "tally": [dict(t) for t in tally],
    }


Groups = dict[str, list[tuple[Counter[str], Counter[str]]]]


def grouped(
    res: dict[str, Any], a: str, groups: Groups
) -> tuple[int, int, Counter[str], Counter[str], bool]:
    """File a 2-player game's tallies under "won" or "lost" for tier ``a``.

    Returns ``(i, j, mine, theirs, won)``: ``a``'s seat index and the other's, their
    tallies and whether ``a`` ranked first.
    """
    i = res["tiers"].index(a)
    j = 1 - i
    mine, theirs = Counter(res["tally"][i]), Counter(res["tally"][j])
    won = res["ranks"][i] < res["ranks"][j]
    groups["won" if won else "lost"].append((mine, theirs))
    return i, j, mine, theirs, won


def print_means(a: str, b: str, groups: Groups, width: int = 22) -> None:
    """Print, for the games ``a`` won and lost, each tally's mean per game, ``a`` / ``b``."""
    keys = sorted({k for g in groups.values() for m, t in g for k in (*m, *t)})
    for name, rows in groups.items():
        print(f"\n{a} {name} {len(rows)} games; per game, {a} / {b}:")
        for k in keys:
            mean_a = sum(m[k] for m, _ in rows) / max(1, len(rows))
            mean_b = sum(t[k] for _, t in rows) / max(1, len(rows))
            print(f"  {k:<{width}} {mean_a:6.2f} / {mean_b:6.2f}")


def main() -> None:
    """Parse the arguments, play the games, print the lines and the breakdown."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("tiers", nargs=2, type=tier_spec, help="the tier studied, its rival")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1, help="first game seed")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--old", default=None, help="a directory with another engine/bots")
    parser.add_argument("--time-limit", type=float, default=None, help="hard tier's guard (s)")
    args = parser.parse_args()
    a, b = args.tiers
    todo: list[Task] = []
    for g in range(args.games):
        pair = (a, b) if g % 2 == 0 else (b, a)
        todo.append((args.seed + g // 2, pair, args.old, args.time_limit))
    pool = multiprocessing.Pool(args.jobs) if args.jobs > 1 else None
    games = pool.imap(play, todo) if pool is not None else map(play, todo)
    groups: Groups = {"won": [], "lost": []}
    for res in games:
        i, j, mine, theirs, won = grouped(res, a, groups)
        vp = " ".join(f"{s} {mine[f'vp {s}']}/{theirs[f'vp {s}']}" for s in SOURCES)
        print(
            f"seed {res['seed']} {a} seat {i + 1}: {'won ' if won else 'lost'} "
            f"{res['scores'][i]}-{res['scores'][j]}  VP {a}/{b}: {vp}",
            flush=True,
        )
    if pool is not None:
        pool.close()
        pool.join()
    print_means(a, b, groups)


if __name__ == "__main__":
    main()
