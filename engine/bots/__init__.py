"""Bots that play from what one seat sees: ``choose_action(view, history, tier=..., seed=...)``.

A bot reads only ``view_for(state, seat)`` and the events that seat's log
showed (``history``), never a ``GameState``, another hand, the bag or the
game's seed (RULES.md §14): it deals itself full states with
``engine.determinize`` and plans on those. The answer is deterministic for a
given view, history, tier, seed and budget.

Tiers (``TIERS``): ``random`` (uniform over the legal actions), ``easy`` (one
action ahead, greedy), ``medium`` (plans its whole turn with an evaluation),
``hard`` (medium's best lines compared on common deals). Every tier answers every
decision kind (ordinary actions, support, war order, monument, treasures).

The site calls::

    view = engine.view_for(state, seat)
    action = engine.bots.choose_action(view, seen_events, tier="medium", seed=ply)
    state = engine.apply(state, action)

where ``seen_events`` holds, in order, the events the seat's log showed
since the game began (``view.events`` of each view the seat was shown, flat
or one sequence per ply); ``seed`` is any integer of the caller's (the ply
number serves), never the game's seed.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import engine
from engine import Action, PlayerView

from .common import undoing
from .hard import DEFAULT_TIME_LIMIT, default_iterations, hard_policy
from .tiers import easy_policy, medium_policy

TIERS: tuple[str, ...] = ("random", "easy", "medium", "hard")

History = Iterable[Mapping[str, Any] | Sequence[Mapping[str, Any]]]


def choose_action(
    view: PlayerView,
    history: History | None = None,
    *,
    tier: str,
    seed: int = 0,
    iterations: int | None = None,
    time_limit: float | None = None,
) -> Action:
    """Return the action ``tier`` plays for ``view.seat`` (one of ``view.actions``).

    ``history`` is the seat's visible event history (see the module doc; None
    when unknown, e.g. a diagram: hidden totals are then estimated by
    ``engine.determinize``). ``iterations`` and ``time_limit`` (seconds) set
    the hard tier's budget (defaults ``hard.default_iterations`` for the
    game's players and ``DEFAULT_TIME_LIMIT``; the other tiers ignore them). Raises
    ``ValueError`` for an unknown tier or when ``view.seat`` is not the seat
    to act.
    """
    if tier not in TIERS:
        raise ValueError(f"unknown bot tier {tier!r}: use one of {', '.join(TIERS)}")
    if view.seat is None or view.to_act != view.seat or not view.actions:
        raise ValueError("a bot answers only for the seat that must act now")
    rng = random.Random(f"{tier}:{seed}")
    legal = view.actions
    if tier == "random" or len(legal) == 1:
        return legal[rng.randrange(len(legal))]
    events = None if history is None else list(history)
    seat = view.seat
    undo = undoing(view)  # the move back of a leader the turn's first action moved (common)
    if tier == "hard":
        chosen = hard_policy(
            engine.Determinizer(view, seen_events=events),
            seat,
            rng,
            iterations=default_iterations(view.num_players) if iterations is None else iterations,
            time_limit=DEFAULT_TIME_LIMIT if time_limit is None else time_limit,
            undo=undo,
        )
    else:
        state = engine.determinize(view, rng, seen_events=events)
        if tier == "easy":
            chosen = easy_policy(state, seat, rng)
        else:
            chosen = medium_policy(state, seat, rng, undo=undo)
    if chosen not in legal:  # pragma: no cover - determinized states keep the seat's legal actions
        raise AssertionError(f"bot chose {str(chosen)!r}, not legal in its view")
    return chosen


__all__ = ["TIERS", "choose_action"]
