"""Positions with each seat's event log, and a game loop driven by bots through their views."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from engine import Event, GameState, apply, legal_actions, new_game, view_for
from engine.bots import choose_action

HARD_TEST_BUDGET = 3  # iterations: enough to run every path of the search, fast
NO_GUARD = 600.0  # seconds: the wall-clock guard never cuts a test search short

# Hard against hard, bench/bot_sanity.py seed 203, ply 154: seat 1's farmer on i8 has 2
# temples (h8, i7) and no red in hand; seat 2's farmer, on the board at m5, may move to e10
# beside 3 (e9, e11, f10) and take it (§4, §6.4). Hard left it there and lost it.
LEFT_TO_LOSE = """
players: 2
active: 1
actions: 1
hand 1: k b b b b
hand 2: r r k b b b
vp 1: red 9 black 33 blue 14 green 10 treasures 2
vp 2: red 20 black 27 blue 34 green 20 treasures 3
catastrophes 1: 0
catastrophes 2: 2
monument black-blue: b10
bag: r 7 k 3 b 3 g 5
seed: 680153880282415355

    a  b  c  d  e  f  g  h  i  j  k  l  m  n  o  p
 1  k  .  .  k  b  b  b  b  b  . r* 1K  b  .  .  .
 2 2K  r  .  k  b  k  k  k  .  .  .  .  b  .  . r*
 3  r  .  k  b  b  x  r  .  .  .  .  .  ~  b  .  .
 4  b  b  b  b  .  .  .  .  g  .  .  .  .  b  ~  ~
 5  k  k  .  k  .  g  .  .  .  .  g  g 2F r*  ~  ~
 6  g  .  .  k  .  g  .  .  g  .  .  .  . 1T  ~  .
 7  b  b  b  ~  .  .  .  g  r  .  .  .  ~  ~  ~  .
 8  g  x  g  b  b  ~  b  r 1F  .  .  .  ~  .  .  .
 9  g  .  .  r  r  g  b  b  b  b  ~  ~  ~  . r*  .
10  g  #  #  .  . r* 2T  .  g  .  r  r  r  .  .  .
11  r  #  #  g  r 2P  r  r  g  g  r  g  .  .  .  .
"""


@dataclass
class Seen:
    """A position and what each seat's log showed so far (public events and its own private)."""

    state: GameState
    logs: dict[int, list[dict[str, Any]]]


def visible(e: Event, seat: int) -> bool:
    """Tell whether ``seat``'s log shows ``e`` (RULES.md §14)."""
    return e.private_to is None or e.private_to == seat


def record(seen: Seen, state: GameState) -> Seen:
    """Return ``seen`` advanced to ``state``, the logs extended by its events."""
    for s, log in seen.logs.items():
        log.extend(e.to_dict() for e in state.events if visible(e, s))
    seen.state = state
    return seen


def random_positions(
    count: int, seed: int, *, late: int = 0, players: tuple[int, ...] = (2, 3, 4)
) -> Iterator[Seen]:
    """Yield ``count`` positions of random games (2–4 players) with a seat to act.

    ``late`` > 0 keeps only positions near the end — a bag of fewer than
    ``late`` tiles, soon too short for a refill — so that bots play them out
    quickly (RULES.md §13.1).
    """
    rng = random.Random(seed)
    made = 0
    g = 0
    while made < count:
        n = players[g % len(players)]
        g += 1
        seen = Seen(new_game(n, seed * 1000 + g, open_scoring=g % 5 == 4), {})
        seen.logs = {s: [] for s in range(1, n + 1)}
        stop = rng.randrange(20, 160)
        plies = 0
        while not seen.state.is_over and made < count:
            options = legal_actions(seen.state)
            record(seen, apply(seen.state, options[rng.randrange(len(options))]))
            plies += 1
            if seen.state.is_over:
                break
            if late:
                chosen = len(seen.state.bag) < late
            else:  # some positions with a decision pending, the others at a random ply
                chosen = plies >= stop or seen.state.pending is not None and rng.random() < 0.1
            if chosen:
                made += 1
                yield Seen(seen.state, {s: list(log) for s, log in seen.logs.items()})
                break


def bot_move(seen: Seen, tier: str, seed: int) -> Any:
    """Return the action ``tier`` picks for the seat to act, from its view and log only."""
    seat = seen.state.to_act
    assert seat is not None
    view = view_for(seen.state, seat)
    return choose_action(
        view,
        seen.logs[seat],
        tier=tier,
        seed=seed,
        iterations=HARD_TEST_BUDGET,
        time_limit=NO_GUARD,
    )


def play_out(seen: Seen, tiers: dict[int, str], limit: int = 2000) -> tuple[GameState, int]:
    """Play ``seen`` to the end with a bot per seat; return the final state and plies played.

    Asserts that every action is one of ``legal_actions``.
    """
    plies = 0
    while not seen.state.is_over:
        assert plies < limit, "the game does not end"
        seat = seen.state.to_act
        assert seat is not None
        action = bot_move(seen, tiers[seat], plies)
        assert action in legal_actions(seen.state), f"{tiers[seat]} played illegal {action}"
        record(seen, apply(seen.state, action))
        plies += 1
    return seen.state, plies
