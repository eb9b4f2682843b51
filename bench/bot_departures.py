"""Are a bot's departures from medium good moves? ``python bench/bot_departures.py hard``.

A cheap proxy for a hard-vs-medium ladder. Positions come from 2-player
games medium plays against itself (fixed seeds, every ``--every`` plies from
ply ``--start``). At each, medium and every tier named (``hard``, ``hard@400``,
``old:hard`` with ``--old DIR``, as ``bench/bot_ladder.py``) choose from the
seat's view, with its history and the ladder's seed (the ply number). Where a
tier's choice differs from medium's (a *departure*), the rest of the game is
played from the real position after each of the two choices, medium in every
seat, ``--continuations`` times: continuation k shuffles the bag with seed k
(the same shuffle after either choice: common random numbers), and the
outcome is the choosing seat's result (1 win, 0.5 shared first place, 0
loss; RULES.md §13.2) and its final-score margin over the other seat.

Prints one line per departure (the two actions, the mean paired difference
in result and in margin), then per tier: how many positions it departed
at, and its *gain per position*, the paired result difference summed over
its departures and divided by every position, with a standard error (the
games of one departure vary together; each departure counts as one sample).
A tier that plays medium's move everywhere gains 0; a departure whose
continuations win more than medium's counts for it. The figure reads as
"games won per decision", a rough scale of the ladder's margin over
medium, not a prediction of it: the continuations are medium's, not the
tier's, from the position on.

Its power is low, and that is a finding (bench/results/hard_depth-2026-12-04.txt):
one move's worth over a whole game is small against the continuations'
spread. At the defaults (4 games, 49 positions, 8 continuations) the gain
per position had a standard error of 0.010-0.017 games won, while hard's
whole edge over medium (+0.075 games won a game, over ~90 decisions) is
about 0.001 per position; even easy's departures (medium beats easy
~70% of games) came out +0.035 a departure over 18. Use it to find
departures with a large effect (a monument declined, a war not fought),
not to rank tiers or variants: a ladder does that.

``--set NAME=VALUE`` changes a constant of this tree's ``engine.bots.hard``
for the run (``--set WIDTH=12``): a variant tried without an edit.
The continuations of an action are cached by (game seed, ply, action, k)
in ``--cache`` (JSON): a run with another tier reuses medium's.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine  # noqa: E402
from engine.bots import choose_action, hard  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bot_ladder import bot_move, tier_spec  # noqa: E402

Histories = list[list[list[engine.EventDict]]]


@dataclass
class Position:
    """A real position of medium's self-play with what each seat's log showed."""

    game_seed: int
    ply: int
    state: engine.GameState
    histories: Histories


def seen(state: engine.GameState, histories: Histories) -> None:
    """Append to each seat's history the events its log shows of the last action."""
    for s in range(1, state.num_players + 1):
        histories[s - 1].append(
            [e.to_dict() for e in state.events if e.private_to is None or e.private_to == s]
        )


def positions(games: int, seed: int, start: int, every: int) -> list[Position]:
    """Return the positions of ``games`` medium self-play games (2 players) with a choice."""
    out: list[Position] = []
    for g in range(games):
        state = engine.new_game(2, seed + g)
        histories: Histories = [[], []]
        ply = 0
        while not state.is_over:
            seat = state.to_act
            assert seat is not None
            view = engine.view_for(state, seat)
            if ply >= start and (ply - start) % every == 0 and len(view.actions) > 1:
                out.append(Position(seed + g, ply, state, [list(h) for h in histories]))
            action = choose_action(view, histories[seat - 1], tier="medium", seed=ply)
            state = engine.apply(state, action)
            ply += 1
            seen(state, histories)
    return out


def play_on(pos: Position, action: engine.Action, k: int) -> tuple[float, int]:
    """Return (result, margin) of the seat to act after ``action`` and medium's play to the end.

    The bag is shuffled with seed ``k`` first (the seats cannot see its order).
    """
    state = pos.state
    seat = state.to_act
    assert seat is not None
    bag = list(state.bag)
    random.Random(k).shuffle(bag)
    state = replace(state, bag=tuple(bag))
    histories = [list(h) for h in pos.histories]
    state = engine.apply(state, action)
    seen(state, histories)
    ply = pos.ply + 1
    while not state.is_over and ply < pos.ply + 3000:
        s = state.to_act
        assert s is not None
        view = engine.view_for(state, s)
        chosen = choose_action(view, histories[s - 1], tier="medium", seed=ply + 7919 * (k + 1))
        state = engine.apply(state, chosen)
        ply += 1
        seen(state, histories)
    ranking = {p.seat: p for p in engine.final_ranking(state)}
    mine, other = ranking[seat], ranking[3 - seat]
    result = 1.0 if mine.rank < other.rank else 0.5 if mine.rank == other.rank else 0.0
    return result, mine.score - other.score


def main() -> None:
    """Parse the arguments, find the departures, play them on and print the figures."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("tiers", nargs="+", type=tier_spec, help="tiers compared with medium")
    parser.add_argument("--games", type=int, default=4, help="medium self-play games")
    parser.add_argument("--seed", type=int, default=1000, help="first game seed")
    parser.add_argument("--start", type=int, default=12, help="first ply looked at")
    parser.add_argument("--every", type=int, default=13, help="plies between positions")
    parser.add_argument("--continuations", type=int, default=8, help="play-outs per choice")
    parser.add_argument("--iterations", type=int, default=None, help="hard tier's budget")
    parser.add_argument("--old", default=None, help="a directory with another engine/bots (old:)")
    parser.add_argument("--cache", default=None, help="JSON file of continuation outcomes")
    parser.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="set a constant of this tree's engine.bots.hard (a variant to try), e.g. WIDTH=12",
    )
    args = parser.parse_args()
    for item in args.set:
        name, _, value = item.partition("=")
        if not hasattr(hard, name) or not name.isupper():
            parser.error(f"--set {item}: engine.bots.hard has no constant {name}")
        setattr(hard, name, type(getattr(hard, name))(value))
    if any(t.startswith("old:") for t in args.tiers) and not args.old:
        parser.error("old: tiers need --old DIR")
    cache: dict[str, list[float]] = {}
    if args.cache and Path(args.cache).exists():
        cache = json.loads(Path(args.cache).read_text())
    started = time.perf_counter()
    found = positions(args.games, args.seed, args.start, args.every)
    print(f"{len(found)} positions from {args.games} games ({time.perf_counter() - started:.0f} s)")
    gains: dict[str, list[float]] = {t: [] for t in args.tiers}
    margins: dict[str, list[float]] = {t: [] for t in args.tiers}
    departed = dict.fromkeys(args.tiers, 0)
    for pos in found:
        seat = pos.state.to_act
        assert seat is not None
        view = engine.view_for(pos.state, seat)
        history = pos.histories[seat - 1]
        base = choose_action(view, history, tier="medium", seed=pos.ply)

        def outcomes(action: engine.Action, pos: Position = pos) -> list[tuple[float, int]]:
            got = []
            for k in range(args.continuations):
                key = f"{pos.game_seed}:{pos.ply}:{action}:{k}"
                if key not in cache:
                    cache[key] = list(play_on(pos, action, k))
                    if args.cache:
                        Path(args.cache).write_text(json.dumps(cache))
                r, m = cache[key]
                got.append((r, int(m)))
            return got

        for spec in args.tiers:
            action = bot_move(
                spec,
                view,
                history,
                seed=pos.ply,
                iterations=args.iterations,
                time_limit=600,
                old=args.old,
            )
            if action == base:
                gains[spec].append(0.0)
                margins[spec].append(0.0)
                continue
            departed[spec] += 1
            mine, theirs = outcomes(action), outcomes(base)
            dr = sum(a[0] - b[0] for a, b in zip(mine, theirs, strict=True)) / len(mine)
            dm = sum(a[1] - b[1] for a, b in zip(mine, theirs, strict=True)) / len(mine)
            gains[spec].append(dr)
            margins[spec].append(dm)
            print(
                f"seed {pos.game_seed} ply {pos.ply} {spec}: {action} (medium {base}): "
                f"result {dr:+.3f} margin {dm:+.2f}",
                flush=True,
            )
    print(
        f"\n{len(found)} positions, {args.continuations} continuations per choice, "
        f"{time.perf_counter() - started:.0f} s"
    )
    for spec in args.tiers:
        g, m = gains[spec], margins[spec]
        n = len(g)
        mean = sum(g) / n
        se = math.sqrt(sum((x - mean) ** 2 for x in g) / max(1, n - 1) / n)
        mm = sum(m) / n
        sem = math.sqrt(sum((x - mm) ** 2 for x in m) / max(1, n - 1) / n)
        print(
            f"{spec:>10}: departed {departed[spec]}/{n}  gain per position {mean:+.4f} ± {se:.4f} "
            f"(result)  {mm:+.3f} ± {sem:.3f} (margin)"
        )


if __name__ == "__main__":
    main()
