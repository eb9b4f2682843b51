"""The hard tier: medium's best lines compared on common deals (paired Monte Carlo).

The candidates are medium's lines — whole turns of one or two actions
(``tiers.plan_lines``), or a decision's answers — at most ``WIDTH`` of them,
best first, with medium's value of each as a prior worth ``PRIOR_VISITS``
rounds at the site's budget and the same share of a larger budget's rounds
(``prior_rounds``). The search plays in rounds. A round deals one full state from the
seat's view (``engine.Determinizer.sample``) and draws one play-out seed, and
plays every line still in on that same deal with that same seed: each line
is played while it is legal in the deal (decisions answered by
``decisions.quick_decision``, the rest of the turn by the heuristic); the
next seat then replies with its best first action in this deal by its own
value (``_reply``: its ``REPLY_THREATS`` best threats — wars, revolts,
treasure grabs, catastrophes worth ``THREAT_FLOOR`` — and its best quiet
move, each valued by medium's ``evaluate`` for that seat, a determinized best
reply), a second threat of its may follow; the other seats' turns are played
out (``_play_out``, at most ``ROLLOUT_PLIES`` plies) by the heuristic's best
moves with easy's noise (``ROLLOUT_NOISE`` on the ``score_actions`` scale,
among its 6 best) up to the searching seat's next turn, where the rollout is
scored by medium's ``evaluate``.

Lines are compared by their mean over the same rounds: what a deal or a
play-out does to every line alike cancels from their difference (common
random numbers). On 12 positions of easy self-play (``bench/bot_timing.py``'s),
24 deals each, the rewards of medium's two best lines had a standard
deviation of 0.090 between them on independent deals and 0.021 on common
ones; the search before this one (ISMCTS, a fresh deal and play-out per
iteration, UCB1 over the lines) drowned the lines' differences in the deals'
(issue 26). The budget (``iterations``, play-outs of one line in one deal) is
spread by successive halving: ``ceil(log2(lines))`` phases of equal budget,
each playing every line still in for as many rounds as its share allows,
after which the worse half is dropped; the last pair gets what is left, so a
larger budget resolves finer differences between the close lines.

The reward of a rollout is centred on its own deal: per seat, the evaluation
at the rollout's end minus the evaluation of the dealt state before the line,
squashed by a logistic into (0, 1) (``centred_rewards``); a rollout that ends
the game is rewarded by place, then margin (``final_rewards``, §13.2). What a
deal gets wrong of the hidden tiles and totals is in both terms and cancels,
and the rewards keep their spread through the whole game: a VP is worth about
the same reward at ply 20 and at ply 200, where an uncentred squash saturates
(issue 26).

Before the search, root lines that would leave one of the seat's leaders to a
revolt a rival wins outright, at once or after a tile (a tile uniting two
kingdoms included), on either answer a rival gives to the line's conflicts
(``keeping_leaders`` with ``careful`` and ``unions``: the board and the seat's
own hand decide it, §6.4), are dropped when another line keeps them all: a
play-out that does not happen to play the rival's revolt would value the
leader as if safe (issue 26: "leaders left to lose"). A line that moves a
leader back where the turn's first action took it from is not played while
a tile scores (``tiers.plan_lines``' ``undo``): the turn would be a pass. No seat of the search
starts a conflict it cannot win (``hopeless.starts_hopeless``).

The budget is ``iterations``; ``time_limit`` (seconds of wall clock) stops
the search early on a slow machine — a round cut short is not counted, so
the lines still in are compared on the same rounds — the one way a given
view, history and seed can give another answer. The root plays the first
action of the line with the best mean (prior and rounds); among equal means
medium's order of the lines (its evaluation, ``tiers.plan_lines``) decides —
never the notation.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass

import engine
from engine import Action, GameState

from .decisions import quick_decision, settle, support
from .evaluate import evaluate, squash
from .heuristic import score_actions, score_threats
from .hopeless import starts_hopeless
from .tiers import EASY_NOISE, decision_values, keeping_leaders, plan_lines

DEFAULT_ITERATIONS = 100  # the site's default budget in a 2-player game (default_iterations)
DEFAULT_TIME_LIMIT = 2.5  # seconds: the wall-clock guard
WIDTH = 8  # medium's best lines the search compares (successive halving from there)
REPLY_THREATS = 2  # the next seat's best threats weighed against its best quiet move
REWARD_SCALE = 6.0  # evaluation units (about 3 per VP) squashed into a reward (evaluate.squash)
PRIOR_VISITS = 3  # rounds medium's valuation of a root line is worth at the site's budget
ROLLOUT_LIMIT = 12  # plies at most after the tree, before the evaluation
THREAT_FLOOR = 0.5  # an opponent's threat worth less than this is not played
ROLLOUT_PLIES = 8  # plies of the other seats' turns played out after the reply (0: none)
ROLLOUT_NOISE = 0.35  # score_actions units (about 3 per VP): easy's noise in the play-out


def default_iterations(num_players: int) -> int:
    """Return the site's budget (play-outs) for a game of ``num_players`` (2–4): 200 / players.

    A play-out runs to the searching seat's next turn, so it plays about
    twice as many plies in a 4-player game as in a 2-player one: at a
    fixed budget, hard's decision CPU on ``bench/bot_timing.py``'s positions
    was p95 493 ms with 2 players, 900 ms with 3 and 1,308 ms with 4 (issue
    26: p95 within 1 s CPU). ``DEFAULT_ITERATIONS`` is the 2-player budget;
    3 players get 66, 4 players 50.
    """
    return DEFAULT_ITERATIONS * 2 // max(2, num_players)


def prior_rounds(budget: int, num_players: int) -> float:
    """Return how many rounds medium's value of a root line is worth at ``budget`` play-outs.

    ``PRIOR_VISITS`` at the site's budget (``default_iterations``) or less, and
    in proportion above it, so that the prior keeps its share of the mean at
    every halving as the budget grows: a larger budget then buys a less noisy
    estimate of the same mean. A fixed ``PRIOR_VISITS`` let a 4× budget drown the
    prior (9% of the final pair's mean at the default, 2.6% at 4×), and hard
    with 4× its budget won 23 of 62 games against hard (issue 26): the
    play-outs' mean has a bias that medium's value corrects. With the share
    kept, hard@400 won 63 of 130 (48.5%): no longer weaker, not stronger; it
    chose the first action hard@100 chose in 60 of 65 positions
    (``bench/results/hard_budget_prior-2026-12-06.txt``).
    """
    return PRIOR_VISITS * max(1.0, budget / default_iterations(num_players))


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
    undo: Action | None = None,
) -> Action:
    """Return the action the search finds best for ``seat`` (see the module doc).

    ``det`` deals states consistent with the seat's view; ``iterations`` is
    the budget (play-outs of one line in one deal), ``time_limit`` the
    wall-clock guard in seconds; ``undo`` takes back the turn's first action
    (``common.undoing``) and is not played while a tile scores
    (``tiers.plan_lines``).
    """
    started = time.perf_counter()
    first = det.sample(rng)
    p = first.pending
    if p is not None and p.kind == "support" and p.seat == p.defender:
        return support(first)  # the defender sees everything that matters: tie or give up
    compared = compare_lines(det, first, seat, rng, iterations, started + time_limit, undo)
    return compared[0].line[0]


@dataclass(frozen=True, slots=True)
class Compared:
    """One root line at the end of the search: its actions, paired mean reward and rounds."""

    key: str  # the line's notation, actions joined by " ; "
    line: list[Action]
    mean: float  # medium's prior (prior_rounds) and the rounds played, in (0, 1)
    prior: float  # medium's value of the line as a reward, in (0, 1)
    rounds: int  # deals the line was played in (0: the only line, or out of time at once)


def compare_lines(
    det: engine.Determinizer,
    first: GameState,
    seat: int,
    rng: random.Random,
    budget: int,
    deadline: float,
    undo: Action | None = None,
) -> list[Compared]:
    """Return the root lines still in at the end of the search, best first (module doc).

    ``first`` is the first deal (``det.sample(rng)``) with ``seat`` to act,
    ``budget`` the play-outs allowed, ``deadline`` a ``time.perf_counter()``
    value after which no round starts or is counted, ``undo`` as
    ``hard_policy``'s. The lines dropped by a halving are not returned. Reads
    only deals of the seat's view.
    """
    p = first.pending
    cands = Candidates()
    # Medium's lines (whole turns, or a decision's answers) and their values: the candidates
    # and the prior, worth prior_rounds rounds each (module doc).
    if p is None:
        prior = plan_lines(first, seat, hard_prior=True, undo=undo)  # as measured with hard
    else:
        prior = [(v, [a]) for v, a in decision_values(first, seat)]
    # Medium's values are centred on the position's own, dangers counted as in a rollout.
    base = evaluate(first, exempt=first.active_seat % first.num_players + 1)[seat - 1]
    lines: dict[str, list[Action]] = {}
    prior_reward: dict[str, float] = {}
    for value, line in prior:
        key = " ; ".join(str(a) for a in line)
        if key not in lines:
            lines[key] = line
            prior_reward[key] = squash([value - base], REWARD_SCALE)[0]
    keys = keeping_leaders(first, seat, lines, careful=True, unions=True)  # best first
    rank = {k: i for i, k in enumerate(keys)}
    alive = keys[:WIDTH]
    totals = dict.fromkeys(alive, 0.0)
    rounds = spent = 0
    budget = max(1, budget)
    phases = max(1, math.ceil(math.log2(len(alive))))
    weight = prior_rounds(budget, first.num_players)

    def order(k: str) -> tuple[float, int]:
        # Every line still in has been played in every round: its mean is a paired one.
        return (-(weight * prior_reward[k] + totals[k]) / (weight + rounds), rank[k])

    out_of_time = False
    while len(alive) > 1:  # one line alone needs no comparing
        for _ in range(max(1, (budget - spent) // (phases * len(alive)))):
            state = first if rounds == 0 else det.sample(rng)
            seed = rng.getrandbits(64)
            got: dict[str, float] = {}
            for k in alive:
                if rounds and time.perf_counter() > deadline:
                    out_of_time = True  # a round half played is not counted
                    break
                got[k] = _rollout(lines[k], state, seat, cands, random.Random(seed))
            if out_of_time:
                break
            for k, reward in got.items():
                totals[k] += reward
            rounds += 1
            spent += len(alive)
        phases -= 1
        alive.sort(key=order)
        if phases <= 0 or out_of_time or spent >= budget:
            break
        alive = alive[: (len(alive) + 1) // 2]  # successive halving (module doc)
    alive.sort(key=order)
    return [Compared(k, lines[k], -order(k)[0], prior_reward[k], rounds) for k in alive]


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
    # Every line of a round starts from the same deal: its evaluation is read once.
    key = f"bots:hard:before:{replier}"
    before = start.cache.get(key)
    if before is None:
        before = start.cache[key] = evaluate(start, exempt=replier)
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


def _rollout(
    line: list[Action], state: GameState, seat: int, cands: Candidates, rng: random.Random
) -> float:
    """Return ``seat``'s reward for ``line`` played in ``state`` (a deal), then the others' turns.

    The line's actions are played while legal in this deal; decisions they
    raise are answered by ``quick_decision``; the rest of the turn, if any,
    by the best ``score_actions`` move. The next seat replies (``_reply``),
    and the other seats' turns are played out (``_play_out``) with ``rng``,
    which the caller seeds alike for every line of a round. The reward is
    ``centred_rewards``' for ``seat``, dangers counted for every seat but
    ``seat``, who acts next.
    """
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
        state = _reply(state, cands, rng)
    if ROLLOUT_PLIES:
        state = _play_out(state, turn, cands, rng)
        exempt = turn
    else:
        exempt = turn % state.num_players + 1
    return centred_rewards(state, start, exempt)[seat - 1]


def _reply(state: GameState, cands: Candidates, rng: random.Random) -> GameState:
    """Return ``state`` after the seat to act's best first action in this deal, by its own value.

    The options are its ``REPLY_THREATS`` best threats worth ``THREAT_FLOOR``
    or more (``_threats``) and its best quiet move (``score_actions``); each
    is played, its decisions answered by ``quick_decision``, and valued by
    ``evaluate`` for the replying seat (every seat's dangers counted): a
    determinized best reply, so that a line that leaves an opening is charged
    with it in the deals where the rival can take it. A threat chosen may be
    followed by a second (``_second_threat``).
    """
    actor = state.active_seat
    threats = _threats(state, actor, REPLY_THREATS)
    quiet = cands.scored(state, actor)
    options = threats + [quiet[0][1]] if quiet else threats
    best: tuple[float, GameState, bool] | None = None
    for n, action in enumerate(options):
        try:
            after = settle(engine.apply(state, action))
        except engine.IllegalActionError:
            continue  # a threatening leader move that would unite kingdoms (§4.1)
        value = evaluate(after, exempt=None)[actor - 1]
        if best is None or value > best[0]:
            best = (value, after, n < len(threats))
    if best is None:
        return state
    return _second_threat(best[1], actor, rng) if best[2] else best[1]


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


def _threats(state: GameState, actor: int, limit: int) -> list[Action]:
    """Return the seat's ``limit`` best threats worth ``THREAT_FLOOR`` or more, best first.

    A threat that starts a conflict the rival cannot win (``hopeless.starts_hopeless``,
    from the rival's hand in this deal) is not one: no tier plays it (issue 26).
    """
    scored = [sa for sa in score_threats(state, actor) if sa[0] >= THREAT_FLOOR]
    scored.sort(key=lambda sa: -sa[0])
    out: list[Action] = []
    for _, a in scored:
        if len(out) >= limit:
            break
        if not starts_hopeless(state, actor, a):  # a rival starts no conflict it cannot win
            out.append(a)
    return out
