"""Rate the bot tiers on the site's scale: ``python bench/bot_calibrate.py --minutes 50``.

Plays 2-player bot-vs-bot games in rounds, each round one game seed played
in both seat orders (paired, as ``bench/bot_ladder.py`` plays them) for
every pair of neighbouring tiers (``random–easy``, ``easy–medium``,
``medium–hard``; ``--all-pairs`` plays every pair), until ``--rounds`` or
``--minutes`` runs out (a round started is finished). The hard tier plays at
the site's budget, the engine's default iterations, with the wall-clock guard
off by default: on a shared machine the guard (``BOT_HARD_TIME_LIMIT``, 2.5 s)
cuts searches by the load rather than by the budget, which makes the games
depend on the machine and weakens hard below what a site's own bot worker
(p95 decision far under the guard) plays; ``--time-limit 2.5`` keeps it.

The fit is the site's own rating (``games.play.ratings``): OpenSkill
Plackett–Luce with the site's model, every tier starting as a new player does
(μ = 25, σ = 25/3), the games rated one by one in the order played (rounds
in seed order, the pairs interleaved within a round, so no tier meets its
opponents in blocks). The anchor is therefore the new-player default: a
tier's μ and σ are what the bot account's profile would hold had these games
been rated on the site, and the figure shown is the site's
``display_rating`` (1500 + 40·(μ − 3σ)) — the same rule, with no
constant of ours, that gives every person's number: a new account's 1500
is the one point of the scale that means the same for a person and a bot.
One change: every tier is shown at the same σ, the tiers' mean
(``shown_sigma``), because the end tiers of the chain (random, hard) play
half the games of the middle ones, and 3σ would rank a tier by how often it
played rather than by its μ; so the numbers' order is the order of strength,
at the certainty of a player with the tiers' average number of games.
Why not pin the random player at a number instead: no game here measures
where a random player sits among people, so that number would be a constant
of ours passed off as a measurement; the random tier still plays, as the
floor whose strength never changes between calibrations.
Caveat: like every OpenSkill rating, the figure depends on the pool and the
number of games (σ shrinks as games are added); compare calibrations made
with the same tiers and a similar number of games.

``--write PATH`` writes the calibration (JSON, the site reads
``games/play/bot_strength.json``) after every round, so a run stopped early
keeps what it played. Prints each game, then per pair the wins with a 95%
Wilson interval, and per tier μ, σ, the shown rating, its ± (40·2σ) and a
bootstrap 95% interval of the shown rating (``--bootstrap`` resamples of
the rounds, each rated in its drawn order).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import math
import multiprocessing
import os
import random
import shlex
import sys
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from bot_ladder import play_game, tier_spec, wilson  # noqa: E402

from engine.bots.hard import DEFAULT_ITERATIONS, DEFAULT_TIME_LIMIT  # noqa: E402

FORMAT = 1
ORDER = ("random", "easy", "medium", "hard")

Game = tuple[tuple[str, ...], list[int]]  # tiers by seat, ranks by seat (1 best, ties share)


def pairs_of(tiers: Sequence[str], *, every: bool) -> list[tuple[str, str]]:
    """Return the pairs to play: neighbours in ``tiers`` order, or every pair."""
    if every:
        return [(a, b) for i, a in enumerate(tiers) for b in tiers[i + 1 :]]
    return list(zip(tiers, tiers[1:], strict=False))


def shown_sigma(sigmas: Iterable[float]) -> float:
    """Return the one σ every tier is shown at: the mean of the tiers' σ (see the module doc)."""
    values = list(sigmas)
    return sum(values) / len(values)


def fit(games: Iterable[Game], tiers: Sequence[str]) -> dict[str, dict[str, float | int]]:
    """Rate ``games`` in order with the site's model; return tier → {mu, sigma, games, shown}.

    Each tier starts at the model's defaults (a new player's μ and σ); each game is
    one ``MODEL.rate`` of its seats by rank, as ``games.play.ratings`` rates a game.
    ``shown`` is ``display_rating(mu, shown_sigma)``, every tier at the tiers' mean σ;
    ``plus_minus`` the tier's own 40·2σ. Needs Django set up (the site's module).
    """
    from games.play.ratings import MODEL, display_rating, display_uncertainty

    ratings = {t: MODEL.rating() for t in tiers}
    played = dict.fromkeys(tiers, 0)
    for seats, ranks in games:
        teams = [[ratings[t]] for t in seats]
        new = MODEL.rate(teams, ranks=[float(r) for r in ranks])
        for t, team in zip(seats, new, strict=True):
            ratings[t] = team[0]
            played[t] += 1
    common = shown_sigma(r.sigma for r in ratings.values())
    return {
        t: {
            "mu": round(r.mu, 3),
            "sigma": round(r.sigma, 3),
            "games": played[t],
            "shown": display_rating(r.mu, common),
            "plus_minus": display_uncertainty(r.sigma),
        }
        for t, r in ratings.items()
    }


def bootstrap(
    rounds: Sequence[Sequence[Game]], tiers: Sequence[str], samples: int, seed: int = 0
) -> dict[str, list[int]]:
    """Return tier → [2.5 %, 97.5 %] of the shown rating over ``samples`` resamples.

    Each resample draws as many rounds as were played, with replacement (a round, one
    seed in both seat orders for every pair, is the paired unit), and rates them in the
    drawn order: the interval covers both the games' luck and the order's.
    """
    rng = random.Random(seed)
    shown: dict[str, list[float]] = {t: [] for t in tiers}
    for _ in range(samples):
        drawn = [g for _ in rounds for g in rounds[rng.randrange(len(rounds))]]
        for t, v in fit(drawn, tiers).items():
            shown[t].append(float(v["shown"]))
    out = {}
    for t, values in shown.items():
        values.sort()
        lo = values[int(0.025 * (len(values) - 1))]
        hi = values[int(round(0.975 * (len(values) - 1)))]
        out[t] = [round(lo), round(hi)]
    return out


def pair_results(games: Iterable[Game], pairs: Sequence[tuple[str, str]]) -> list[dict[str, Any]]:
    """Return per pair: games, the first tier's wins and ties, win rate and 95% Wilson."""
    tally = {p: [0, 0, 0] for p in pairs}
    for seats, ranks in games:
        key = next(p for p in pairs if set(p) == set(seats))
        ra, rb = ranks[seats.index(key[0])], ranks[seats.index(key[1])]
        tally[key][0] += 1
        tally[key][1] += ra < rb
        tally[key][2] += ra == rb
    out = []
    for (a, b), (n, wins, ties) in tally.items():
        score = wins + 0.5 * ties
        lo, hi = wilson(score, n)
        out.append(
            {
                "tiers": [a, b],
                "games": n,
                "wins": wins,
                "ties": ties,
                "win_rate": round(score / n, 4) if n else None,
                "wilson95": [round(lo, 4) + 0.0, round(hi, 4)],  # + 0.0: no -0.0
            }
        )
    return out


def main() -> None:
    """Parse the arguments, play the rounds, fit, print and write the calibration."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("tiers", nargs="*", type=tier_spec, default=list(ORDER))
    parser.add_argument("--rounds", type=int, default=1000, help="at most this many rounds")
    parser.add_argument("--minutes", type=float, default=None, help="start no round after this")
    parser.add_argument("--seed", type=int, default=1, help="first game seed")
    parser.add_argument("--jobs", type=int, default=1, help="processes")
    parser.add_argument(
        "--time-limit",
        type=float,
        default=None,
        help=f"hard's wall-clock guard, s (default off; the site's is {DEFAULT_TIME_LIMIT})",
    )
    parser.add_argument("--all-pairs", action="store_true", help="every pair, not neighbours")
    parser.add_argument("--write", type=Path, default=None, help="write the calibration JSON")
    parser.add_argument("--bootstrap", type=int, default=200, help="resamples for the 95% CI")
    parser.add_argument(
        "--refit",
        type=Path,
        default=None,
        help="rate the games a run printed (its output) again; keep the run's date, command, "
        "time and load from the --write file",
    )
    args = parser.parse_args()
    tiers = list(args.tiers)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tigris_site.settings")
    import django

    django.setup()
    pairs = pairs_of(tiers, every=args.all_pairs)
    guard = math.inf if args.time_limit is None else args.time_limit
    command = "python " + shlex.join(["bench/bot_calibrate.py", *sys.argv[1:]])
    if args.refit is not None:  # rate a run's printed games again, playing none
        printed = read_log(args.refit)
        if args.write is not None:
            run = json.loads(args.write.read_text()) if args.write.exists() else {}
            write(args, printed, tiers, pairs, command, os.getloadavg(), time.perf_counter(), run)
        report(printed, tiers, pairs, args.bootstrap)
        return
    load_start = os.getloadavg()
    started = time.perf_counter()
    pool = multiprocessing.Pool(args.jobs) if args.jobs > 1 else None
    games: list[Game] = []
    rounds: list[list[Game]] = []
    for r in range(args.rounds):
        if args.minutes is not None and time.perf_counter() - started > args.minutes * 60:
            break
        seed = args.seed + r
        todo = [(seed, seats, None, guard, None) for a, b in pairs for seats in ((a, b), (b, a))]
        results = pool.map(play_game, todo) if pool is not None else list(map(play_game, todo))
        rounds.append([(seats, ranks) for _, seats, ranks, _, _, _ in results])
        for _, seats, ranks, scores, _, plies in results:
            games.append((seats, ranks))
            line = " ".join(f"{t}:{k}/{s}" for t, k, s in zip(seats, ranks, scores, strict=True))
            print(f"round {r + 1} seed {seed} plies {plies}: {line}", flush=True)
        if args.write is not None:
            write(args, rounds, tiers, pairs, command, load_start, started)
    if pool is not None:
        pool.close()
        pool.join()
    print(f"\n{len(games)} games in {time.perf_counter() - started:.0f} s; load {os.getloadavg()}")
    report(rounds, tiers, pairs, args.bootstrap)


def report(
    rounds: list[list[Game]], tiers: list[str], pairs: list[tuple[str, str]], samples: int
) -> None:
    """Print per pair the wins with a Wilson interval, per tier the fit and its bootstrap."""
    games = [g for r in rounds for g in r]
    for p in pair_results(games, pairs):
        lo, hi = p["wilson95"]
        print(
            f"{p['tiers'][0]} vs {p['tiers'][1]}: {p['wins']}/{p['games']} (ties {p['ties']}), "
            f"win rate {p['win_rate']:.1%}, 95% Wilson [{lo:.1%}, {hi:.1%}]"
        )
    ci = bootstrap(rounds, tiers, samples) if samples else {}
    for t, v in fit(games, tiers).items():
        lo, hi = ci.get(t, [0, 0])
        print(
            f"{t:>6}: mu {v['mu']:.2f} sigma {v['sigma']:.2f} games {v['games']} "
            f"shown {v['shown']:.0f} ± {v['plus_minus']}  bootstrap 95% [{lo}, {hi}]"
        )


def read_log(path: Path) -> list[list[Game]]:
    """Return the rounds of games a run printed (``round R seed S plies P: t:rank/score …``)."""
    rounds: dict[int, list[Game]] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.startswith("round "):
            continue
        head, _, seats_text = line.partition(": ")
        seats, ranks = [], []
        for item in seats_text.split():
            tier, _, result = item.partition(":")
            seats.append(tier)
            ranks.append(int(result.partition("/")[0]))
        rounds.setdefault(int(head.split()[1]), []).append((tuple(seats), ranks))
    return [rounds[r] for r in sorted(rounds)]


def write(
    args: argparse.Namespace,
    rounds: list[list[Game]],
    tiers: list[str],
    pairs: list[tuple[str, str]],
    command: str,
    load_start: tuple[float, float, float],
    started: float,
    run: dict[str, Any] | None = None,
) -> None:
    """Write the calibration JSON to ``args.write`` (read by ``games/play/botstrength.py``).

    Per tier: ``mu``, ``sigma``, ``games``, ``shown`` (the site's number), ``plus_minus``
    (40·2σ) and ``bootstrap95`` (the shown number's 95% interval over resampled rounds);
    ``shown_sigma`` the σ every tier is shown at. ``run``: a refit's earlier file, whose
    date, command, time and load are kept (the refit's command is added).
    """
    games = [g for r in rounds for g in r]
    fitted = fit(games, tiers)
    for t, interval in bootstrap(rounds, tiers, args.bootstrap).items():
        fitted[t]["bootstrap95"] = interval  # type: ignore[assignment]
    data = {
        "format": FORMAT,
        "date": dt.datetime.now(dt.UTC).date().isoformat(),
        "command": command,
        "fit": "openskill PlackettLuce, the site's model (games.play.ratings.MODEL); every "
        "tier starts at a new player's mu 25, sigma 25/3; games rated one by one in play order",
        "anchor": "new-player default; shown = display_rating(mu, shown_sigma), the site's "
        "number, every tier at the tiers' mean sigma",
        "hard": {"iterations": DEFAULT_ITERATIONS, "time_limit": args.time_limit},  # None: off
        "games": len(games),
        "rounds": len(rounds),
        "seconds": round(time.perf_counter() - started),
        "load": {
            "start": [round(x, 2) for x in load_start],
            "end": [round(x, 2) for x in os.getloadavg()],
        },
        "shown_sigma": round(shown_sigma(float(v["sigma"]) for v in fitted.values()), 3),
        "tiers": fitted,
        "pairs": pair_results(games, pairs),
    }
    if run:
        data.update({k: run[k] for k in ("date", "command", "seconds", "load") if k in run})
        data["refit"] = command
    args.write.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
