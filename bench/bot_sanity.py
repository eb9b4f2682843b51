"""Count the moves a good player would not make: ``python bench/bot_sanity.py --games 200``.

Each tier in ``--tiers`` plays ``--games`` 2-player games against ``--opponent``
(default: itself), the same game seeds for every tier (paired), the measured
tier in each seat in turn. Every bot sees only its seat's view and log
(``engine.bots.choose_action``). Only the measured tier's seats are counted,
from what that seat saw (the board, its own hand and VP, the events):

- ``pass runs``: runs of 3 or more of its turns in a row in which it passed
  while a tile placement that scores it a VP at once was legal (RULES.md §5.2,
  ``engine.bots.common.scoring_tiles``); a run counts once. A turn that left
  the board as it found it (a leader moved out and back, §4) is a pass too:
  it draws no tile and brings the end no nearer (§13.1);
- ``hopeless``: revolts and wars it started as the attacker where its board
  strength plus every tile of the support colour in its hand is at most the
  defender's board strength (ties go to the defender, §6.4, §7.3) — the
  bots' own test, ``engine.bots.hopeless.can_win``, read at the moment the
  conflict starts (a unification's later wars too, §7.5);
- ``stuck``: runs of 3 or more of its turns in a row that began with no
  scoring placement, in which it neither swapped (§11) nor scored any VP;
- ``left to lose``: its leaders beaten in a revolt that was already certain
  at the end of its previous turn — the attacker's square was empty with the
  same temples beside it, the defender's own leader stood where it stands,
  and the attacker's temples alone beat the defender's temples plus every red
  in the defender's hand — when withdrawing the leader (§4) would have kept
  it from the revolt;
- also swaps and withdrawals by choice per game, for reading the others.

Prints a table per tier: counts per 100 games (the measured seats of
``--games`` games; self-play counts both seats of each game).
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bot_ladder import game_plies  # noqa: E402

import engine  # noqa: E402
from engine.bots import TIERS  # noqa: E402
from engine.bots.common import scoring_tiles, temples_next_to  # noqa: E402
from engine.bots.hopeless import can_win  # noqa: E402

COLOURS = {"red": 0, "black": 1, "blue": 2, "green": 3}
RUN = 3  # turns in a row that make a run


@dataclass
class Turn:
    """One turn of a measured seat: what it could do and what it did."""

    scoring_at_start: bool
    board_before: tuple[int, ...] = ()
    passed_while_scoring: bool = False
    swapped: bool = False
    vp_before: int = 0
    vp_after: int = 0


@dataclass
class Tally:
    """Counts over the measured seats of the games played."""

    games: int = 0
    seats: int = 0
    pass_runs: int = 0
    hopeless: int = 0
    conflicts: int = 0
    stuck: int = 0
    left_to_lose: int = 0
    swaps: int = 0
    withdrawals: int = 0
    examples: dict[str, list[str]] = field(default_factory=dict)

    def note(self, kind: str, text: str) -> None:
        """Keep the first few examples of ``kind`` (seed and ply) for reading; every leader lost."""
        self.examples.setdefault(kind, [])
        if len(self.examples[kind]) < 3 or kind == "left to lose":
            self.examples[kind].append(text)


def runs(flags: list[bool]) -> int:
    """Return how many runs of ``RUN`` or more True values ``flags`` holds."""
    count = length = 0
    for f in flags:
        length = length + 1 if f else 0
        if length == RUN:
            count += 1
    return count


def play(
    seed: int,
    tiers: tuple[str, str],
    measured: set[int],
    tally: Tally,
    *,
    iterations: int | None,
    time_limit: float | None,
) -> None:
    """Play one game and add what the ``measured`` seats did to ``tally``.

    ``iterations`` and ``time_limit`` are hard's budget and wall-clock guard (None: the
    bots' defaults), as ``bot_ladder.game_plies``' which plays the game.
    """
    turns: dict[int, list[Turn]] = {s: [] for s in measured}
    end_of_turn: dict[int, engine.GameState] = {}
    current: tuple[int, Turn] | None = None
    plies = game_plies(seed, tiers, iterations=iterations, time_limit=time_limit)
    for ply, (before, seat, action, state, _cpu) in enumerate(plies):
        ordinary = before.pending is None
        new_turn = current is None or current[0] != seat or before.actions_left == 2
        if ordinary and seat in measured and new_turn:
            turn = Turn(
                bool(scoring_tiles(before, seat)),
                board_before=tuple(before.board),
                vp_before=sum(before.vp[seat - 1]),
            )
            turns[seat].append(turn)
            current = (seat, turn)
        if ordinary and seat in measured and current is not None:
            turn = current[1]
            if isinstance(action, engine.Pass) and scoring_tiles(before, seat):
                turn.passed_while_scoring = True
            if isinstance(action, engine.SwapTiles):
                turn.swapped = True
                tally.swaps += 1
            if isinstance(action, engine.WithdrawLeader):
                tally.withdrawals += 1
        if current is not None and before.active_seat == current[0]:
            turn = current[1]
            turn.vp_after = sum(state.vp[current[0] - 1])
            if (
                state.active_seat != current[0]
                and turn.scoring_at_start
                and not turn.swapped
                and tuple(state.board) == turn.board_before
            ):
                turn.passed_while_scoring = True  # a pass in disguise (module doc)
        _conflicts(before, state, measured, end_of_turn, tally, f"seed {seed} ply {ply}")
        if before.active_seat != state.active_seat:
            end_of_turn[before.active_seat] = state  # its hand refilled (§12)
    for s in measured:
        flags = [t.passed_while_scoring for t in turns[s]]
        tally.pass_runs += runs(flags)
        stuck = [
            not t.scoring_at_start and not t.swapped and t.vp_after <= t.vp_before for t in turns[s]
        ]
        tally.stuck += runs(stuck)
        if runs(flags):
            tally.note("pass runs", f"seed {seed} seat {s}")
        if runs(stuck):
            tally.note("stuck", f"seed {seed} seat {s}")
    tally.games += 1
    tally.seats += len(measured)


def _conflicts(
    before: engine.GameState,
    state: engine.GameState,
    measured: set[int],
    end_of_turn: dict[int, engine.GameState],
    tally: Tally,
    where: str,
) -> None:
    """Count the conflicts the last action started (hopeless ones) and leaders left to lose."""
    for e in state.events:
        if e.code not in ("revolt_started", "war_started"):
            continue
        p = e.params
        att, dfn = int(p["attacker"]), int(p["defender"])
        conf = state.conflict
        if att in measured and att == before.active_seat:
            tally.conflicts += 1
            colour = 0 if e.code == "revolt_started" else COLOURS[str(p["color"])]
            in_hand = state.hands[att - 1][colour]
            if not can_win(int(p["attacker_strength"]), int(p["defender_strength"]), in_hand):
                most = int(p["attacker_strength"]) + in_hand
                tally.hopeless += 1
                tally.note("hopeless", f"{where} {e.code} {most} vs {p['defender_strength']}")
        if (
            e.code == "revolt_started"
            and dfn in measured
            and conf is not None
            and conf.kind == "revolt"
            and dfn in end_of_turn
        ):
            then = end_of_turn[dfn]
            board = then.board
            a_sq, d_sq = conf.attacker_square, conf.defender_square
            if (
                board[a_sq] == 0
                and board[d_sq] == state.board[d_sq]
                and temples_next_to(board, a_sq) == conf.attacker_base
                and temples_next_to(board, d_sq) == conf.defender_base
                and conf.attacker_base > conf.defender_base + then.hands[dfn - 1][0]
            ):
                tally.left_to_lose += 1
                tally.note("left to lose", f"{where} seat {dfn}")


def main() -> None:
    """Parse the arguments, play the games and print a table per tier."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--tiers", nargs="+", choices=TIERS, default=["easy", "medium", "hard"])
    parser.add_argument("--opponent", choices=TIERS, default=None, help="default: the tier itself")
    parser.add_argument("--games", type=int, default=20, help="games per tier")
    parser.add_argument("--seed", type=int, default=1, help="first game seed")
    parser.add_argument("--iterations", type=int, default=None, help="hard tier's budget")
    parser.add_argument("--time-limit", type=float, default=None, help="hard tier's guard (s)")
    args = parser.parse_args()
    iters, limit = args.iterations, args.time_limit  # hard's budget and guard
    print(
        f"{'tier':>6} {'seats':>5} {'pass runs':>9} {'hopeless':>8} {'of confl.':>9} "
        f"{'stuck':>6} {'left':>5} {'swaps/g':>7} {'withdr/g':>8} {'s':>5}   (per 100 seat-games)"
    )
    for tier in args.tiers:
        tally = Tally()
        started = time.perf_counter()
        for g in range(args.games):
            seed = args.seed + g // 2
            opp = args.opponent or tier
            if opp == tier:
                if g % 2:
                    continue  # self-play: one game per seed, both seats measured
                play(seed, (tier, tier), {1, 2}, tally, iterations=iters, time_limit=limit)
            else:
                seats = (tier, opp) if g % 2 == 0 else (opp, tier)
                measured = {1 if g % 2 == 0 else 2}
                play(seed, seats, measured, tally, iterations=iters, time_limit=limit)
        per = 100.0 / max(tally.seats, 1)
        n_seats = max(tally.seats, 1)
        cells = [
            f"{tier:>6} {tally.seats:>5}",
            f"{tally.pass_runs * per:>9.1f} {tally.hopeless * per:>8.1f}",
            f"{tally.conflicts * per:>9.1f} {tally.stuck * per:>6.1f}",
            f"{tally.left_to_lose * per:>5.1f} {tally.swaps / n_seats:>7.2f}",
            f"{tally.withdrawals / n_seats:>8.2f} {time.perf_counter() - started:>5.0f}",
        ]
        print(
            " ".join(cells),
            flush=True,
        )
        for kind, found in tally.examples.items():
            print(f"        {kind}: {'; '.join(found)}")


if __name__ == "__main__":
    main()
