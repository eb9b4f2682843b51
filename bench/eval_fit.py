"""Fit the evaluation's terms to game outcomes: ``python bench/eval_fit.py --games 800 --jobs 2``.

Plays 2-player games (``--tiers``, medium self-play by default, seeds from
``--seed``, one game per seed) and records, at each turn's start, the seat to
act, how full the bag is and, per seat, the terms of medium's evaluation
(``engine.bots.evaluate``): the lowest colour read softly (``soft_lowest``), the
rest of the score sheet's value, the leaders' worth, the monument income
term, catastrophes, the dangers (the seat to act exempt, as hard's rollouts
read them) and the red tiles in hand, which the evaluation does not read.
Then it fits logistic regressions (Newton's method, pure Python) of "the
seat to act wins" on the differences of those terms between the two seats,
on the even seeds, and prints each model's log loss and accuracy on the odd
seeds (one game's positions stay on one side) and its weights fitted on every
game: how well ``evaluate``'s difference predicts the winner, against what
a fit of its terms, by game phase, reaches. Tied games are left out.

``--rows FILE`` writes the positions (JSON lines, one game a line);
``--load FILE`` fits those again without playing; ``--old DIR`` and ``old:``
tiers as ``bot_ladder.py``'s (positions from another version's games).
The time guard is off (600 s): a rerun plays the same games.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import sys
from pathlib import Path
from typing import TypedDict

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot_ladder import game_plies, tier_spec  # noqa: E402

import engine  # noqa: E402
from engine.botapi import monument_income  # noqa: E402
from engine.bots.common import (  # noqa: E402
    MIN_WEIGHT,
    SHEET_SOFTNESS,
    Summary,
    colour_weights,
    score_value,
    soft_lowest,
    summary,
)
from engine.bots.evaluate import dangers, evaluate, leader_worth  # noqa: E402
from engine.scoring import with_treasures  # noqa: E402

TERMS = ("soft", "sheet", "leaders", "income", "cat", "danger", "reds")
MODELS: dict[str, tuple[str, ...]] = {
    # name: the columns; "X*p" is term X times the bag's fullness (1 at the start, 0 empty)
    "evaluate's difference": ("eval",),
    "its terms": ("soft", "sheet", "leaders", "income", "cat", "danger"),
    "its terms, lowest colour by phase": (
        "soft", "soft*p", "sheet", "leaders", "income", "cat", "danger",
    ),
    "its terms by phase, and reds in hand": (
        "soft", "soft*p", "sheet", "leaders", "income", "cat", "danger", "reds",
    ),
    "compact: soft by phase, leaders, income, danger, reds": (
        "soft", "soft*p", "leaders", "income", "danger", "reds",
    ),
}  # fmt: skip


class Position(TypedDict):
    """One turn's start: the seat to act, the bag's fullness, evaluate's difference, terms."""

    seat: int
    p: float  # tiles in the bag / tiles in it at the start
    eval: float  # evaluate's value of the seat to act minus the other's (the seat exempt)
    terms: list[list[float]]  # per seat (index seat - 1), TERMS' values


class Game(TypedDict):
    """One game's positions and final ranks (index seat - 1)."""

    seed: int
    ranks: list[int]
    positions: list[Position]


def terms(state: engine.GameState, seat: int, summ: Summary, danger: list[float]) -> list[float]:
    """Return ``seat``'s evaluation terms in ``TERMS``' order (module doc; own units of evaluate).

    ``soft`` is VP; ``sheet`` the rest of ``common.score_value`` (its concave sum of
    colours); ``leaders`` and ``income`` as ``evaluate.own_worth`` adds them; ``danger``
    as ``evaluate.dangers`` with the seat to act exempt.
    """
    i = seat - 1
    vp, held = state.vp[i], state.treasures_held[i]
    soft = soft_lowest(with_treasures(vp, held), SHEET_SOFTNESS)
    sheet = score_value(vp, held, SHEET_SOFTNESS) - MIN_WEIGHT * soft
    weights = colour_weights(state, seat, SHEET_SOFTNESS)
    leaders = sum(
        leader_worth(state, summ, c, q, weights) for c, q in enumerate(summ.leaders[i]) if q >= 0
    )
    income = sum(1.0 + weights[c] for c in monument_income(state, seat))
    cat, reds = float(state.catastrophes[i]), float(state.hands[i][0])
    return [soft, sheet, leaders, income, cat, danger[i], reds]


def play(task: tuple[int, tuple[str, ...], str | None]) -> Game:
    """Play the game of ``task`` = (seed, tiers, old); return its positions and ranks (module doc).

    ``old`` as ``bot_ladder``'s ``--old`` (for ``old:`` tiers), or None.
    """
    seed, tiers, old = task
    positions: list[Position] = []
    end = engine.new_game(2, seed)
    bag = len(end.bag)
    for ply in game_plies(seed, tiers, time_limit=600.0, old=old):
        state, end = ply.before, ply.after
        if state.pending is None and state.actions_left == 2:
            seat = ply.seat
            summ = summary(state)
            danger = dangers(state, summ, seat)
            ev = evaluate(state, exempt=seat)
            positions.append(
                {
                    "seat": seat,
                    "p": len(state.bag) / bag,
                    "eval": ev[seat - 1] - ev[2 - seat],
                    "terms": [terms(state, s, summ, danger) for s in (1, 2)],
                }
            )
    ranking = {p.seat: p.rank for p in engine.final_ranking(end)}
    return {"seed": seed, "ranks": [ranking[1], ranking[2]], "positions": positions}


def columns(game: Game, names: tuple[str, ...]) -> tuple[list[list[float]], list[float]]:
    """Return the design rows (a 1 first) and outcomes of ``game``'s positions for ``names``."""
    ranks = game["ranks"]
    xs, ys = [], []
    for pos in game["positions"]:
        seat = pos["seat"]
        mine, other = pos["terms"][seat - 1], pos["terms"][2 - seat]
        row = [1.0]
        for name in names:
            term, _, phase = name.partition("*")
            if term == "eval":
                v = pos["eval"]
            elif term == "danger":
                v = other[TERMS.index(term)] - mine[TERMS.index(term)]  # theirs is good for me
            else:
                v = mine[TERMS.index(term)] - other[TERMS.index(term)]
            row.append(v * pos["p"] if phase else v)
        xs.append(row)
        ys.append(1.0 if ranks[seat - 1] < ranks[2 - seat] else 0.0)
    return xs, ys


def fit_logistic(xs: list[list[float]], ys: list[float], l2: float = 1e-3) -> list[float]:
    """Return the weights of a logistic regression of ``ys`` (0/1) on ``xs`` (Newton's method).

    A small ridge ``l2`` keeps the Hessian invertible; stops when no weight moves 1e-9.
    """
    k = len(xs[0])
    w = [0.0] * k
    for _ in range(50):
        grad = [l2 * v for v in w]
        hess = [[l2 if a == b else 0.0 for b in range(k)] for a in range(k)]
        for x, y in zip(xs, ys, strict=True):
            p = _sigmoid(sum(a * b for a, b in zip(w, x, strict=True)))
            h = p * (1.0 - p)
            for a in range(k):
                grad[a] += (p - y) * x[a]
                row, hx = hess[a], h * x[a]
                for b in range(a, k):
                    row[b] += hx * x[b]
        for a in range(k):
            for b in range(a):
                hess[a][b] = hess[b][a]
        step = _solve(hess, grad)
        w = [a - b for a, b in zip(w, step, strict=True)]
        if max(abs(s) for s in step) < 1e-9:
            break
    return w


def _sigmoid(z: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(-40.0, min(40.0, z))))


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """Return x with ``a x = b`` (Gauss-Jordan, partial pivoting; ``a`` small and invertible)."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        pivot = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[pivot] = m[pivot], m[c]
        for r in range(n):
            if r != c:
                f = m[r][c] / m[c][c]
                m[r] = [x - f * y for x, y in zip(m[r], m[c], strict=True)]
    return [m[i][n] / m[i][i] for i in range(n)]


def scores(xs: list[list[float]], ys: list[float], w: list[float]) -> tuple[float, float]:
    """Return the mean log loss (nats) and the accuracy of weights ``w`` on ``xs``, ``ys``."""
    loss = right = 0.0
    for x, y in zip(xs, ys, strict=True):
        p = min(1 - 1e-12, max(1e-12, _sigmoid(sum(a * b for a, b in zip(w, x, strict=True)))))
        loss -= y * math.log(p) + (1.0 - y) * math.log(1.0 - p)
        right += 1.0 if (p > 0.5) == (y > 0.5) else 0.0
    return loss / len(ys), right / len(ys)


def report(games: list[Game]) -> None:
    """Print each model's held-out log loss and accuracy and its weights (module doc)."""
    decided = [g for g in games if g["ranks"][0] != g["ranks"][1]]
    train = [g for g in decided if g["seed"] % 2 == 0]
    test = [g for g in decided if g["seed"] % 2 == 1]
    if not train or not test:
        raise SystemExit("eval_fit: need decided games of even and odd seeds (--games 2 or more)")
    n = sum(len(g["positions"]) for g in decided)
    print(f"{len(games)} games, {len(decided)} decided, {n} positions (turn starts)")
    print("held out: the odd seeds' games; weights below fitted on every game")
    for name, cols in MODELS.items():
        xs, ys = _stack(train, cols)
        tx, ty = _stack(test, cols)
        loss, acc = scores(tx, ty, fit_logistic(xs, ys))
        ax, ay = _stack(decided, cols)
        w = fit_logistic(ax, ay)
        print(f"- {name}: held-out log loss {loss:.4f}, accuracy {acc:.1%}")
        print("    " + "  ".join(f"{c} {v:+.4f}" for c, v in zip(("1", *cols), w, strict=True)))


def _stack(games: list[Game], cols: tuple[str, ...]) -> tuple[list[list[float]], list[float]]:
    xs: list[list[float]] = []
    ys: list[float] = []
    for g in games:
        x, y = columns(g, cols)
        xs += x
        ys += y
    return xs, ys


def main() -> None:
    """Parse the arguments, play or load the games, and print the fits."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1001, help="first game seed")
    parser.add_argument("--tiers", nargs=2, type=tier_spec, default=["medium", "medium"])
    parser.add_argument("--jobs", type=int, default=1, help="processes")
    parser.add_argument("--old", default=None, help="a directory with another engine/bots (old:)")
    parser.add_argument("--rows", default=None, help="write the positions here (JSON lines)")
    parser.add_argument("--load", default=None, help="fit the positions of this file")
    args = parser.parse_args()
    if args.load:
        with open(args.load) as f:
            games: list[Game] = [json.loads(line) for line in f]
    else:
        if any(t.startswith("old:") for t in args.tiers) and not args.old:
            parser.error("old: tiers need --old DIR")
        todo = [(args.seed + g, tuple(args.tiers), args.old) for g in range(args.games)]
        pool = multiprocessing.Pool(args.jobs) if args.jobs > 1 else None
        played = pool.imap(play, todo) if pool is not None else map(play, todo)
        games = list(played)
        if pool is not None:
            pool.close()
            pool.join()
        if args.rows:
            with open(args.rows, "w") as f:
                for g in games:
                    f.write(json.dumps(g) + "\n")
    report(games)


if __name__ == "__main__":
    main()
