"""The hard tier: information-set Monte Carlo tree search over determinized states.

Each iteration deals a fresh full state from the seat's view
(``engine.Determinizer.sample``), walks the tree from the root choosing at
each node, for whichever seat acts there, by UCB1 on that seat's component
of the reward vector among the children available in this deal (ISMCTS), and
adds one node. The candidates at a node are the best actions by
``heuristic.score_actions`` in this deal; progressive widening lets a node
consider ``2 + sqrt(visits)`` of them. Decisions below the root are answered
by ``decisions.quick_decision``. The game is then played on by the easy
policy until the end of the next seat's turn (rollouts cut short) and scored
by medium's ``evaluate``, squashed into (0, 1) per seat: the reward vector
(3–4 players included) backed up the path.

The budget is ``iterations``; ``time_limit`` (seconds of wall clock) stops
the search early on a slow machine, the one way a given view, history and
seed can give another answer. The root plays its most visited child.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field

import engine
from engine import Action, GameState

from .decisions import quick_decision, support
from .evaluate import evaluate, squash
from .heuristic import score_actions
from .tiers import EASY_NOISE

DEFAULT_ITERATIONS = 200  # the site's default budget
DEFAULT_TIME_LIMIT = 2.5  # seconds: the wall-clock guard
EXPLORATION = 0.6
ROLLOUT_LIMIT = 12  # plies at most after the tree, before the evaluation


@dataclass(slots=True)
class Node:
    """Hold one node: per child action (by notation) the child, and visit and reward sums."""

    seat: int = 0
    visits: int = 0
    reward: float = 0.0  # summed reward of the seat that chose the move into this node
    avail: int = 0
    children: dict[str, Node] = field(default_factory=dict)


def candidates(state: GameState, seat: int, limit: int) -> list[Action]:
    """Return up to ``limit`` actions for ``seat`` best first (all options of a decision)."""
    if state.pending is not None:
        return list(engine.legal_actions(state))
    scored = score_actions(state, seat)
    scored.sort(key=lambda sa: (-sa[0], str(sa[1])))
    return [a for _, a in scored[:limit]]


def hard_policy(
    det: engine.Determinizer,
    seat: int,
    rng: random.Random,
    *,
    iterations: int = DEFAULT_ITERATIONS,
    time_limit: float = DEFAULT_TIME_LIMIT,
) -> Action:
    """Return the action the search finds best for ``seat`` (see the module doc).

    ``det`` deals states consistent with the seat's view; ``iterations`` is
    the budget, ``time_limit`` the wall-clock guard in seconds.
    """
    started = time.perf_counter()
    first = det.sample(rng)
    p = first.pending
    if p is not None and p.kind == "support" and p.seat == p.defender:
        return support(first)  # the defender sees everything that matters: tie or give up
    root = Node(seat=seat)
    for i in range(max(1, iterations)):
        if i and time.perf_counter() - started > time_limit:
            break
        state = first if i == 0 else det.sample(rng)
        _iterate(root, state, seat, rng)
    best = max(root.children.items(), key=lambda kv: (kv[1].visits, kv[1].reward, kv[0]))
    return Action.parse(best[0])


def _iterate(root: Node, state: GameState, me: int, rng: random.Random) -> None:
    """Run one ISMCTS iteration from ``state`` (a fresh deal) and back up its rewards."""
    path: list[Node] = [root]
    node = root
    turns = [state.active_seat]
    expanded = False
    while not state.is_over:
        actor = state.to_act
        assert actor is not None
        if node is not root and state.pending is not None:
            state = engine.apply(state, quick_decision(state))
        else:
            width = 2 + int(math.sqrt(node.visits))
            options = candidates(state, actor, width)
            chosen = _select(node, options, actor)
            key = str(chosen)
            child = node.children.get(key)
            if child is None:
                child = Node(seat=actor)
                node.children[key] = child
                expanded = True
            state = engine.apply(state, chosen)
            node = child
            path.append(node)
        if state.active_seat != turns[-1]:
            turns.append(state.active_seat)
        if expanded or len(turns) > 2:
            break
    state = _rollout(state, turns, rng)
    rewards = squash(evaluate(state))
    for n in path:
        n.visits += 1
        if n.seat:
            n.reward += rewards[n.seat - 1]


def _select(node: Node, options: list[Action], actor: int) -> Action:
    """Pick by UCB1 among the ``options`` available in this deal; unvisited ones first."""
    best: Action | None = None
    best_score = -1.0
    unvisited: Action | None = None
    for a in options:
        child = node.children.get(str(a))
        if child is None:
            if unvisited is None:
                unvisited = a
        else:
            child.avail += 1
    if unvisited is not None:
        return unvisited
    for a in options:
        child = node.children[str(a)]
        mean = child.reward / child.visits if child.visits else 0.5
        score = mean + EXPLORATION * math.sqrt(math.log(max(child.avail, 1)) / (child.visits + 1))
        if score > best_score:
            best, best_score = a, score
    assert best is not None
    return best


def _rollout(state: GameState, turns: list[int], rng: random.Random) -> GameState:
    """Play on with the easy policy until two turns are over (or ``ROLLOUT_LIMIT`` plies)."""
    plies = 0
    while not state.is_over and len(turns) <= 2 and plies < ROLLOUT_LIMIT:
        if state.pending is not None:
            action = quick_decision(state)
        else:
            actor = state.active_seat
            scored = score_actions(state, actor)
            action = max(scored, key=lambda sa: sa[0] + EASY_NOISE * rng.random())[1]
        state = engine.apply(state, action)
        plies += 1
        if state.active_seat != turns[-1]:
            turns.append(state.active_seat)
    return state
