"""How one bot tier's 2-player games end: ``python bench/bot_endgame.py medium easy --games 40``.

Plays seat-swapped pairs on fixed seeds as ``bench/bot_ladder.py`` does (the
same games for the same seeds and tiers) and writes one JSON line per game to
``--out``: the seats' tiers, final colours after treasures (RULES.md §13.2),
the end (treasures or bag, §13.1), the ply and the seat whose turn it was, and
per seat VP by source (tile §5.2, revolt §6, war §7, monument §8.3),
treasures (§9), monuments built (§8), catastrophes (§10), swaps (§11),
passes, and one snapshot per turn end (ply, seat, bag size, treasures left,
each seat's colours after treasures). Prints one line per game and, for the
games the first tier won and lost, the means per game. ``--old DIR``,
``old:TIER``, ``hard@N`` and ``--time-limit`` (hard's wall-clock guard,
seconds) as in bot_ladder.

Issue 26 (2026-12-04): a study of medium's losses against easy;
bench/results/bot_medium-study-2026-12-04.txt.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bot_breakdown import Groups, grouped, print_means  # noqa: E402
from bot_ladder import game_plies, tier_spec  # noqa: E402

import engine  # noqa: E402
from engine.botapi import monument_income  # noqa: E402
from engine.scoring import with_treasures  # noqa: E402


def colours(state: engine.GameState, seat: int) -> list[int]:
    """Return ``seat``'s four colours after its treasures (§13.2)."""
    return list(with_treasures(state.vp[seat - 1], state.treasures_held[seat - 1]))


def play(
    seed: int, tiers: tuple[str, str], old: str | None, time_limit: float | None = None
) -> dict[str, Any]:
    """Play one game and return its record (see the module doc); ``time_limit`` as game_plies'."""
    state = engine.new_game(2, seed)
    tally: list[Counter[str]] = [Counter(), Counter()]
    attacker = 0
    turns: list[dict[str, Any]] = []
    actions: list[tuple[int, int, str]] = []
    built: list[tuple[int, int, str, int]] = []
    plies = 0
    last_active = 0
    for before, seat, action, state, _cpu in game_plies(
        seed, tiers, time_limit=time_limit, old=old
    ):
        last_active = before.active_seat
        actions.append((plies, seat, str(action)))
        plies += 1
        for e in state.events:
            p = e.params
            if e.code in ("revolt_started", "war_started"):
                attacker = p["attacker"]
                tally[attacker - 1][f"{e.code.split('_')[0]}s started"] += 1
            elif e.code == "conflict_resolved":
                tally[p["winner"] - 1][f"{p['kind']}s won"] += 1
                tally[p["winner"] - 1][f"{p['kind']}s won as attacker"] += p["winner"] == attacker
            elif e.code == "vp_scored":
                tally[p["seat"] - 1][f"vp {p['reason']}"] += p["amount"]
            elif e.code == "monument_built":
                tally[p["seat"] - 1]["monuments built"] += 1
                built.append((plies, p["seat"], p["monument"], p["square"]))
            elif e.code == "monument_declined":
                tally[p["seat"] - 1]["monuments declined"] += 1
            elif e.code == "catastrophe_placed":
                tally[p["seat"] - 1]["catastrophes"] += 1
            elif e.code == "tiles_swapped":
                tally[p["seat"] - 1]["swaps"] += 1
            elif e.code == "treasure_taken":
                tally[p["seat"] - 1]["treasures"] += 1
            elif e.code == "passed":
                tally[p["seat"] - 1]["passes"] += 1
            elif e.code == "leader_withdrawn":
                tally[p["seat"] - 1][f"leaders out by {p['reason']}"] += 1
            elif e.code == "turn_ended" or e.code == "game_over":
                turns.append(
                    {
                        "ply": plies,
                        "seat": last_active,
                        "bag": len(state.bag),
                        "treasures": len(state.treasures),
                        "colours": [colours(state, 1), colours(state, 2)],
                        "hands": [list(h) for h in state.hands],
                        "monument_vp": [tally[0]["vp monument"], tally[1]["vp monument"]],
                        "income": [monument_income(state, 1), monument_income(state, 2)],
                    }
                )
    ranking = {p.seat: p for p in engine.final_ranking(state)}
    return {
        "seed": seed,
        "tiers": list(tiers),
        "ranks": [ranking[s].rank for s in (1, 2)],
        "scores": [ranking[s].score for s in (1, 2)],
        "colours": [colours(state, 1), colours(state, 2)],
        "end": state.end_reason,
        "ended_by": last_active,
        "plies": plies,
        "tally": [dict(t) for t in tally],
        "turns": turns,
        "actions": actions,
        "built": built,
    }


def main() -> None:
    """Parse the arguments, play the games, write the records and print the means."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("tiers", nargs=2, type=tier_spec, help="the tier studied, its rival")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1, help="first game seed")
    parser.add_argument("--old", default=None, help="a directory with another engine/bots")
    parser.add_argument("--time-limit", type=float, default=None, help="hard tier's guard (s)")
    parser.add_argument("--out", default="var/bot_endgame.jsonl", help="JSON lines written here")
    args = parser.parse_args()
    a, b = args.tiers
    groups: Groups = {"won": [], "lost": []}
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    with open(args.out, "w", encoding="utf-8") as out:
        for g in range(args.games):
            pair = (a, b) if g % 2 == 0 else (b, a)
            res = play(args.seed + g // 2, pair, args.old, args.time_limit)
            out.write(json.dumps(res) + "\n")
            out.flush()
            i, j, _, _, won = grouped(res, a, groups)
            print(
                f"seed {res['seed']} {a} seat {i + 1}: {'won ' if won else 'lost'} "
                f"{res['colours'][i]} vs {res['colours'][j]}  end {res['end']} by seat "
                f"{res['ended_by']} ply {res['plies']}",
                flush=True,
            )
    print_means(a, b, groups, width=26)


if __name__ == "__main__":
    main()
