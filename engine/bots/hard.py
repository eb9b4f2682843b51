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

from .decisions import quick_decision, settle, support
from .evaluate import evaluate, squash
from .heuristic import score_actions, score_threats
from .tiers import EASY_NOISE, decision_values, plan_lines

DEFAULT_ITERATIONS = 200  # the site's default budget
DEFAULT_TIME_LIMIT = 2.5  # seconds: the wall-clock guard
EXPLORATION = 0.6
PRIOR_VISITS = 3  # how many visits medium's valuation of a root move is worth
ROLLOUT_LIMIT = 12  # plies at most after the tree, before the evaluation
THREAT_FLOOR = 0.5  # an opponent's threat worth less than this is not played
QUIET = "quiet"  # the key of an opponent's quiet move in the tree


@dataclass(slots=True)
class Node:
    """Hold one node: per child action (by notation) the child, and visit and reward sums."""

    seat: int = 0
    visits: int = 0
    reward: float = 0.0  # summed reward of the seat that chose the move into this node
    avail: int = 0
    children: dict[str, Node] = field(default_factory=dict)


class Candidates:
    """Score each seat's ordinary actions once per (board, hand, actions left), best first.

    Deals from one view share the board and the seat's own hand, so the root's
    candidates (and most of its children's) are scored once per search. What
    ``score_actions`` reads besides the board and the actor's hand is the mix
    of tiles unseen by the actor, which the board and that hand determine.
    """

    def __init__(self) -> None:
        """Start with an empty cache."""
        self.cache: dict[tuple[object, ...], list[tuple[float, Action]]] = {}
        self.root: list[Action] = []

    def scored(self, state: GameState, seat: int) -> list[tuple[float, Action]]:
        """Return ``[(score, action)]`` for ``seat``'s ordinary actions, best first."""
        key = (
            seat,
            state.board,
            state.hands[seat - 1],
            state.actions_left,
            state.vp,
            state.treasures_held,
            state.catastrophes,
        )
        got = self.cache.get(key)
        if got is None:
            got = score_actions(state, seat)
            got.sort(key=lambda sa: -sa[0])  # stable: ties stay in legal order
            self.cache[key] = got
        return got

    def top(self, state: GameState, seat: int, limit: int) -> list[Action]:
        """Return up to ``limit`` actions for ``seat`` best first (all options of a decision)."""
        if state.pending is not None:
            return list(engine.legal_actions(state))
        return [a for _, a in self.scored(state, seat)[:limit]]


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
    cands = Candidates()
    # Medium's valuation of each root move is the prior: PRIOR_VISITS visits' worth (module doc).
    if p is None:
        prior = [(v, line[0]) for v, line in plan_lines(first, seat)]
    else:
        prior = decision_values(first, seat)
    cands.root = [a for _, a in prior]
    for value, action in prior:
        reward = squash([value])[0]
        root.children[str(action)] = Node(seat, PRIOR_VISITS, PRIOR_VISITS * reward, PRIOR_VISITS)
    for i in range(max(1, iterations)):
        if i and time.perf_counter() - started > time_limit:
            break
        state = first if i == 0 else det.sample(rng)
        _iterate(root, state, cands, rng)
    best = max(root.children.items(), key=lambda kv: (kv[1].visits, kv[1].reward, kv[0]))
    return Action.parse(best[0])


def _iterate(root: Node, state: GameState, cands: Candidates, rng: random.Random) -> None:
    """Run one ISMCTS iteration from ``state`` (a fresh deal) and back up its rewards.

    In the turn in play the actor's candidates are ``Candidates.top``; in the
    next seat's turn they are its best ``score_threats`` moves and ``QUIET``
    (a quiet move, not played: the line is scored as it stands).
    """
    path: list[Node] = [root]
    node = root
    turns = [state.active_seat]
    expanded = quiet = False
    while not state.is_over:
        actor = state.to_act
        assert actor is not None
        if node is not root and state.pending is not None:
            state = engine.apply(state, quick_decision(state))
        else:
            width = 2 + int(math.sqrt(node.visits))
            options: dict[str, Action | None]
            if node is root:
                options = {str(a): a for a in cands.root[:width]}
            elif len(turns) == 1:
                options = {str(a): a for a in cands.top(state, actor, width)}
            else:
                options = _threats(state, actor, width - 1)
            key = _select(node, list(options), actor)
            child = node.children.get(key)
            if child is None:
                child = Node(seat=actor)
                node.children[key] = child
                expanded = True
            node = child
            path.append(node)
            chosen = options.get(key)
            if chosen is None:
                quiet = True
                break
            try:
                state = engine.apply(state, chosen)
            except engine.IllegalActionError:
                quiet = True  # a threatening leader move that would unite kingdoms (§4.1)
                break
        if state.active_seat != turns[-1]:
            turns.append(state.active_seat)
        if expanded or len(turns) > 2:
            break
    if not quiet:
        state = _rollout(state, turns, cands, rng)
    rewards = squash(evaluate(state))
    for n in path:
        n.visits += 1
        if n.seat:
            n.reward += rewards[n.seat - 1]


def _threats(state: GameState, actor: int, limit: int) -> dict[str, Action | None]:
    """Return the next seat's best threats worth ``THREAT_FLOOR`` or more, and ``QUIET``."""
    scored = [sa for sa in score_threats(state, actor) if sa[0] >= THREAT_FLOOR]
    scored.sort(key=lambda sa: -sa[0])
    out: dict[str, Action | None] = {str(a): a for _, a in scored[: max(limit, 1)]}
    out[QUIET] = None
    return out


def _select(node: Node, keys: list[str], actor: int) -> str:
    """Pick by UCB1 among the ``keys`` available in this deal; unvisited ones first."""
    best = keys[0]
    best_score = -1.0
    unvisited: str | None = None
    for k in keys:
        child = node.children.get(k)
        if child is None:
            if unvisited is None:
                unvisited = k
        else:
            child.avail += 1
    if unvisited is not None:
        return unvisited
    for k in keys:
        child = node.children[k]
        mean = child.reward / child.visits if child.visits else 0.5
        score = mean + EXPLORATION * math.sqrt(math.log(max(child.avail, 1)) / (child.visits + 1))
        if score > best_score:
            best, best_score = k, score
    return best


def _rollout(
    state: GameState, turns: list[int], cands: Candidates, rng: random.Random
) -> GameState:
    """Finish the turn in play, then let the next seat play its threats (module doc).

    The rest of the current turn is played by the easy policy; the next seat
    then plays up to two of its best ``score_threats`` moves worth more than
    ``THREAT_FLOOR`` (its quiet moves are alike for every line searched, so
    they are not played). Stops after ``ROLLOUT_LIMIT`` plies.
    """
    plies = 0
    while not state.is_over and len(turns) <= 1 and plies < ROLLOUT_LIMIT:
        if state.pending is not None:
            action = quick_decision(state)
        else:
            scored = cands.scored(state, state.active_seat)
            action = max(scored, key=lambda sa: sa[0] + EASY_NOISE * rng.random())[1]
        state = engine.apply(state, action)
        plies += 1
        if state.active_seat != turns[-1]:
            turns.append(state.active_seat)
    actor = state.active_seat
    for _ in range(2):
        if state.is_over or len(turns) > 2 or state.pending is not None:
            break
        threats = score_threats(state, actor)
        if not threats:
            break
        value, action = max(threats, key=lambda sa: sa[0] + EASY_NOISE * rng.random())
        if value < THREAT_FLOOR:
            break
        try:
            state = settle(engine.apply(state, action))
        except engine.IllegalActionError:
            break  # a moved leader may not unite kingdoms (§4.1): no threat there
        if state.active_seat != actor:
            break
    return state
