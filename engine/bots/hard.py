"""The hard tier: information-set Monte Carlo tree search over determinized states.

The root's children are medium's candidate lines — whole turns of one or two
actions (``tiers.plan_lines``), or a decision's answers — with medium's value
of each as a prior worth ``PRIOR_VISITS`` visits. Each iteration deals a
fresh full state from the seat's view (``engine.Determinizer.sample``), picks
a line by UCB1 among the ``2 + sqrt(visits)`` best (progressive widening),
plays it while it is legal in this deal (decisions answered by
``decisions.quick_decision``, the rest of the turn by the heuristic), and then
lets the next seat reply: a node of the tree for that seat chooses, by UCB1
on *its* component of the reward vector and among the replies available in
this deal (ISMCTS), one of its best threats (``heuristic.score_threats``:
wars, revolts, treasure grabs, catastrophes), or, when it has none worth
``THREAT_FLOOR``, a quiet move. A second threat may follow greedily. The
other seats' turns are then played out (``_play_out``, at most
``ROLLOUT_PLIES`` plies) by the heuristic's best moves with easy's noise
(``ROLLOUT_NOISE`` on the ``score_actions`` scale, among its 6 best), up to
the searching seat's next turn, where the rollout is scored by medium's
``evaluate`` (the searching seat, next to act, exempt from dangers). Each
deal and each play-out differ, so more iterations average more futures:
before the play-out, rollouts of one line hardly varied and 4× the
iterations chose as 1× in 12 of 12 sampled positions (issue 26).

The reward of a rollout is centred on its own deal: per seat, the evaluation
at the rollout's end minus the evaluation of the dealt state before the line,
squashed by a logistic into (0, 1) (``centred_rewards``); a rollout that ends
the game is rewarded by place, then margin (``final_rewards``, §13.2). What a deal gets
wrong of the hidden tiles and totals is in both terms and cancels, and the
rewards keep their spread through the whole game: a VP is worth about the
same reward at ply 20 and at ply 200, where an uncentred squash saturates
(issue 26). The reward vector, 3–4 players included, is backed up the path.

Before the search, root lines that would leave one of the seat's leaders to a
revolt a rival wins outright (``keeping_leaders``: the board and the seat's
own hand decide it, §6.4) are dropped when another line keeps them all: a
play-out that does not happen to play the rival's revolt would value the
leader as if safe (issue 26: "leaders left to lose").

The budget is ``iterations``; ``time_limit`` (seconds of wall clock) stops
the search early on a slow machine, the one way a given view, history and
seed can give another answer. The root plays the first action of its most
visited line; among lines visited alike, the better mean reward, then
medium's order of the lines (its evaluation, ``tiers.plan_lines``) decide —
never the notation.
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
from .hopeless import starts_hopeless
from .tiers import EASY_NOISE, decision_values, keeping_leaders, plan_lines

DEFAULT_ITERATIONS = 100  # the site's default budget: p95 within 1 s CPU (bench/bot_timing.py)
DEFAULT_TIME_LIMIT = 2.5  # seconds: the wall-clock guard
EXPLORATION = 0.15  # rewards of lines a VP apart differ by about 0.12 (REWARD_SCALE)
REWARD_SCALE = 6.0  # evaluation units (about 3 per VP) squashed into a reward (evaluate.squash)
PRIOR_VISITS = 3  # how many visits medium's valuation of a root move is worth
ROLLOUT_LIMIT = 12  # plies at most after the tree, before the evaluation
THREAT_FLOOR = 0.5  # an opponent's threat worth less than this is not played
ROLLOUT_PLIES = 8  # plies of the other seats' turns played out after the reply (0: none)
ROLLOUT_NOISE = 0.35  # score_actions units (about 3 per VP): easy's noise in the play-out
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
            state.treasures,
        )
        got = self.cache.get(key)
        if got is None:
            got = score_actions(state, seat, look_ahead=False)  # play-outs: no move chosen
            got.sort(key=lambda sa: -sa[0])  # stable: ties stay in legal order
            self.cache[key] = got
        return got


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
    # Medium's lines (whole turns, or a decision's answers) and their values are the root's
    # children and prior: PRIOR_VISITS visits' worth each (module doc).
    if p is None:
        prior = plan_lines(first, seat)
    else:
        prior = [(v, [a]) for v, a in decision_values(first, seat)]
    # Medium's values are centred on the position's own, dangers counted as in a rollout.
    base = evaluate(first, exempt=first.active_seat % first.num_players + 1)[seat - 1]
    lines: dict[str, list[Action]] = {}
    for value, line in prior:
        key = " ; ".join(str(a) for a in line)
        if key in lines:
            continue
        lines[key] = line
        reward = squash([value - base], REWARD_SCALE)[0]
        root.children[key] = Node(seat, PRIOR_VISITS, PRIOR_VISITS * reward, PRIOR_VISITS)
    keys = keeping_leaders(first, seat, lines)  # medium's order, best first
    root.children = {k: root.children[k] for k in keys}
    rank = {k: i for i, k in enumerate(keys)}
    for i in range(max(1, iterations)):
        if i and time.perf_counter() - started > time_limit:
            break
        state = first if i == 0 else det.sample(rng)
        width = 2 + int(math.sqrt(root.visits))
        key = _select(root, keys[:width], seat)
        _iterate(root, key, lines[key], state, cands, rng)
    best = max(
        root.children.items(),
        key=lambda kv: (kv[1].visits, kv[1].reward / max(kv[1].visits, 1), -rank[kv[0]]),
    )
    return lines[best[0]][0]


def centred_rewards(end: GameState, start: GameState, replier: int) -> list[float]:
    """Return per seat (index seat - 1) a reward in (0, 1) for a rollout (module doc).

    ``start`` is the dealt state before the root's line, ``end`` the state the
    rollout reached; both are evaluated with the dangers of every seat but
    ``replier`` (``evaluate``'s ``exempt``: the seat to act at ``end``) and the
    difference squashed with ``REWARD_SCALE``: 0.5 means the seat is where it
    started. A finished ``end`` is scored by ``final_rewards``.
    """
    if end.is_over:
        return final_rewards(end)
    after = evaluate(end, exempt=replier)
    before = evaluate(start, exempt=replier)
    return squash([a - b for a, b in zip(after, before, strict=True)], REWARD_SCALE)


def final_rewards(end: GameState) -> list[float]:
    """Return per seat (index seat - 1) the reward of a finished game (RULES.md §13.2).

    The place counts most: a seat that beats every other gets 0.75–1.0, one
    beaten by every other 0–0.25, in between by the share of seats beaten;
    within that band the final-score margin over the best other seat, squashed
    (``REWARD_SCALE`` VP), keeps a safe win above a narrow one. A squash of the
    evaluation's ``WIN_BONUS`` would give every winning line the same 0.999
    (issue 26).
    """
    ranking = {p.seat: p for p in engine.final_ranking(end)}
    n = end.num_players
    out = []
    for s in range(1, n + 1):
        mine = ranking[s]
        beaten = sum(1 for o in ranking.values() if o.rank > mine.rank)
        tied = sum(1 for o in ranking.values() if o.rank == mine.rank) - 1
        share = (beaten + 0.5 * tied) / (n - 1)
        margin = mine.score - max(ranking[o].score for o in ranking if o != s)
        out.append(0.75 * share + 0.25 * squash([float(margin)], REWARD_SCALE)[0])
    return out


def _iterate(
    root: Node,
    key: str,
    line: list[Action],
    state: GameState,
    cands: Candidates,
    rng: random.Random,
) -> None:
    """Play ``line`` in ``state`` (a fresh deal), then the next seat's reply; back up rewards.

    The line's actions are played while legal in this deal; decisions they
    raise are answered by ``quick_decision``; the rest of the turn, if any,
    by the best ``score_actions`` move. The next seat then chooses in the
    tree, by UCB1 on its own reward, among its best threats (``QUIET`` when it has none);
    a second threat of its follows greedily, and the other seats' turns are played out
    (``_play_out``).
    """
    node = root.children[key]
    path = [root, node]
    start = state
    turn = state.active_seat
    for k, action in enumerate(line):
        if k:
            state = settle(state)
        if state.is_over or state.active_seat != turn:
            break
        try:
            state = engine.apply(state, action)
        except engine.IllegalActionError:
            break  # not possible in this deal: the turn goes on by the heuristic
    state = _finish_turn(state, turn, cands)
    if not state.is_over and state.pending is None:
        actor = state.active_seat
        options = _threats(state, actor, 1 + int(math.sqrt(node.visits)))
        reply = _select(node, list(options), actor)
        child = node.children.get(reply)
        if child is None:
            child = Node(seat=actor)
            node.children[reply] = child
        path.append(child)
        chosen = options[reply]
        if chosen is not None:
            try:
                state = settle(engine.apply(state, chosen))
            except engine.IllegalActionError:
                pass  # a threatening leader move that would unite kingdoms (§4.1)
            else:
                state = _second_threat(state, actor, rng)
    replier = turn % state.num_players + 1
    if ROLLOUT_PLIES:
        state = _play_out(state, turn, cands, rng)
        exempt = turn
    else:
        exempt = replier
    # Dangers are those left to every seat but ``exempt`` (who may still act), whichever
    # way the reply went, so that lines are compared alike.
    rewards = centred_rewards(state, start, exempt)
    for n in path:
        n.visits += 1
        n.reward += rewards[n.seat - 1]


def _finish_turn(state: GameState, turn: int, cands: Candidates) -> GameState:
    """Answer pending decisions and play ``turn``'s remaining actions by the heuristic."""
    plies = 0
    while not state.is_over and state.active_seat == turn and plies < ROLLOUT_LIMIT:
        if state.pending is not None:
            action = quick_decision(state)
        else:
            action = cands.scored(state, turn)[0][1]
        state = engine.apply(state, action)
        plies += 1
    return settle(state)


def _play_out(state: GameState, turn: int, cands: Candidates, rng: random.Random) -> GameState:
    """Return ``state`` after the other seats' turns, played on to ``turn``'s next (module doc).

    Ordinary actions: one of the 6 best ``score_actions`` moves (RULES.md §2),
    by score plus up to ``ROLLOUT_NOISE``; decisions by ``quick_decision``. At
    most ``ROLLOUT_PLIES`` plies; the result has no decision pending. Reads
    only ``state``, a deal from the searching seat's view.
    """
    plies = 0
    while not state.is_over and state.active_seat != turn and plies < ROLLOUT_PLIES:
        if state.pending is not None:
            action = quick_decision(state)
        else:
            scored = cands.scored(state, state.active_seat)
            action = max(scored[:6], key=lambda sa: sa[0] + ROLLOUT_NOISE * rng.random())[1]
        state = engine.apply(state, action)
        plies += 1
    return settle(state)


def _second_threat(state: GameState, actor: int, rng: random.Random) -> GameState:
    """Let ``actor`` play its best threat again if its turn goes on (``THREAT_FLOOR``)."""
    if state.is_over or state.active_seat != actor or state.pending is not None:
        return state
    threats = score_threats(state, actor)
    if not threats:
        return state
    value, action = max(threats, key=lambda sa: sa[0] + EASY_NOISE * rng.random())
    if value < THREAT_FLOOR or starts_hopeless(state, actor, action):
        return state
    try:
        return settle(engine.apply(state, action))
    except engine.IllegalActionError:
        return state


def _threats(state: GameState, actor: int, limit: int) -> dict[str, Action | None]:
    """Return the next seat's best threats worth ``THREAT_FLOOR`` or more, else ``QUIET``.

    A threat that starts a conflict the rival cannot win (``hopeless.starts_hopeless``,
    from the rival's hand in this deal) is not one: no tier plays it (issue 26).
    """
    scored = [sa for sa in score_threats(state, actor) if sa[0] >= THREAT_FLOOR]
    scored.sort(key=lambda sa: -sa[0])
    out: dict[str, Action | None] = {}
    for _, a in scored:
        if len(out) >= max(limit, 1):
            break
        if not starts_hopeless(state, actor, a):  # a rival starts no conflict it cannot win
            out[str(a)] = a
    if not out:
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
