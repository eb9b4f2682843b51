"""The random, easy and medium tiers as policies over a determinized ``GameState``.

Each policy is ``policy(state, seat, rng) -> Action`` where ``state`` is what
``engine.determinize`` built from the seat's view and ``state.to_act == seat``;
the result is one of ``engine.legal_actions(state)``. ``engine.bots.choose_action``
is the entry point that builds the state; the hard tier is in ``hard.py``.
"""

from __future__ import annotations

import random
from dataclasses import replace

import engine
from engine import (
    Action,
    CommitSupport,
    GameState,
    Pass,
    PlaceTile,
    SwapTiles,
    WithdrawLeader,
)
from engine.botapi import RED

from .common import binomial_cdf, scoring_tiles, unseen_fractions
from .decisions import quick_decision, settle, support
from .evaluate import evaluate
from .heuristic import WITHDRAW_SCORE, Scorer, score_actions
from .hopeless import COLOUR_INDEX, hopeless_war_order
from .monument_threats import income_gain, rivals_monument_threats, threat_cost

EASY_NOISE = 0.35  # easy adds up to this much to each score: a little randomness
EASY_GUARD = 30  # easy's best actions looked at for one that keeps its leaders (issue 26)
MEDIUM_FIRST = 8  # medium's candidate first actions
MEDIUM_SECOND = 5  # and second actions for each first
MEDIUM_LAST = 10  # candidates when only one action is left
PASS_PENALTY = 0.3  # a pass brings the end no nearer: only when nothing else helps
STUCK_SWAP_BONUS = 1.0  # with no tile that scores, a line that swaps earns a new hand (§11)
THREAT_COST = 3.0  # a leader left to a rival's tile then leader: as evaluate's certain loss (§6.4)


def random_policy(state: GameState, seat: int, rng: random.Random) -> Action:
    """Return a uniformly random legal action."""
    options = engine.legal_actions(state)
    return options[rng.randrange(len(options))]


def easy_policy(state: GameState, seat: int, rng: random.Random) -> Action:
    """Return the best-scoring action one action ahead, with a little noise (``heuristic``).

    A turn's last action is the best of the first ``EASY_GUARD`` that leaves no
    leader of ``seat`` doomed (``leaves_doomed``), when one does.
    """
    if state.pending is not None:
        return quick_decision(state)
    scored = score_actions(state, seat)
    ranked = sorted(scored, key=lambda sa: -(sa[0] + EASY_NOISE * rng.random()))
    if state.actions_left == 1:
        # The turn's last action keeps the seat's leaders from a certain revolt if one of
        # the best few can (``keeping_leaders``, issue 26).
        for _, action in ranked[:EASY_GUARD]:
            if not leaves_doomed(state, seat, [action]):
                return action
    return ranked[0][1]


def top(scored: list[tuple[float, Action]], k: int) -> list[Action]:
    """Return the ``k`` best-scoring distinct actions, with a pass if ``scored`` offers one.

    ``heuristic.score_actions`` offers no pass while a tile would score (§5.2).

    Actions of one kind and colour with the same score almost always do the
    same thing (tiles joining one kingdom, a leader into one kingdom): only the
    first in notation order is kept, so that the ``k`` are ``k`` ideas.
    """
    ranked = sorted(scored, key=lambda sa: (-sa[0], str(sa[1])))
    out: list[Action] = []
    seen: set[tuple[object, ...]] = set()
    for score, a in ranked:
        key = (type(a).__name__, getattr(a, "color", None), round(score, 4))
        if key in seen:
            continue
        seen.add(key)
        out.append(a)
        if len(out) >= k:
            break
    if not any(isinstance(a, Pass) for a in out) and any(isinstance(a, Pass) for _, a in scored):
        out.append(Pass())
    return out


def after(state: GameState, action: Action) -> GameState:
    """Return the state after ``action`` and every decision it raised, answered by fixed rules."""
    return settle(engine.apply(state, action))


def outcome(state: GameState, seat: int, limit: int = 40) -> tuple[float, GameState]:
    """Return ``seat``'s expected evaluation once pending decisions are answered, and a state.

    Decisions are answered by ``decisions.quick_decision``, except an
    opponent's defence in a conflict ``seat`` started: its hand in a
    determinized state is only a sample, so both outcomes are evaluated — the
    defender ties (tiles of the support colour put into its hand if need be)
    or commits nothing — and weighed by the chance that it holds enough
    (a binomial over the tiles ``seat`` cannot see; RULES.md §6.4, §7.3).
    The state returned is the settled one of the likelier branch.
    """
    while state.pending is not None and limit > 0:
        p = state.pending
        if p.kind == "support" and p.seat == p.defender and p.seat != seat:
            assert p.support_color is not None
            color = COLOUR_INDEX[p.support_color]
            need = (p.attacker_strength or 0) - (p.defender_strength or 0)
            hand = state.hands[p.seat - 1]
            size = sum(hand)
            if 0 < need <= size:
                chance = 1.0 - binomial_cdf(need - 1, size, unseen_fractions(state, seat)[color])
                v_no, s_no = outcome(engine.apply(state, CommitSupport(0)), seat, limit - 1)
                tied = _with_tiles(state, p.seat, color, need)
                v_tie, s_tie = outcome(engine.apply(tied, CommitSupport(need)), seat, limit - 1)
                value = chance * v_tie + (1.0 - chance) * v_no
                return value, (s_tie if chance >= 0.5 else s_no)
        state = engine.apply(state, quick_decision(state))
        limit -= 1
    return evaluate(state)[seat - 1], state


def _with_tiles(state: GameState, seat: int, color: int, need: int) -> GameState:
    """Return ``state`` with ``seat``'s hand holding at least ``need`` of ``color`` (same size)."""
    hand = list(state.hands[seat - 1])
    while hand[color] < need:
        donor = max((c for c in range(4) if c != color), key=lambda c: hand[c])
        hand[donor] -= 1
        hand[color] += 1
    hands = list(state.hands)
    hands[seat - 1] = (hand[0], hand[1], hand[2], hand[3])
    return replace(state, hands=tuple(hands))


def medium_decision(state: GameState, seat: int) -> Action:
    """Answer a decision: support by rule, other choices by the evaluation of each outcome."""
    p = state.pending
    assert p is not None
    if p.kind == "support":
        return support(state)
    options = engine.legal_actions(state)
    if len(options) == 1:
        return options[0]
    if p.kind == "monument":
        # Which monument, or none: its income for the turns left (§8.3), as ``plan_lines``.
        valued = []
        for option in options:
            value, end = outcome(engine.apply(state, option), seat)
            valued.append((value + income_gain(state, end, seat), option))
        return max(valued, key=lambda va: va[0])[1]
    return decision_values(state, seat)[0][1]


def plan_lines(
    state: GameState, seat: int, *, hard_prior: bool = False, undo: Action | None = None
) -> list[tuple[float, list[Action]]]:
    """Return ``(evaluation, actions)`` of each candidate first action's best line, best first.

    Candidates come from ``heuristic.score_actions`` (the first actions, and
    for each the second ones when two actions are left, RULES.md §2); each
    line is valued by ``outcome``. A line with a pass loses ``PASS_PENALTY``,
    and so does one that leaves the board as it found it (a leader moved out
    and back, §4): it draws no tile either, and while a tile would score the
    seat a VP it is not played (hard against hard, bench/bot_sanity.py seed 2:
    a trader moved m5 and back to h7 in five turns, a pass run the count did
    not see). For the same reason ``undo`` (``common.undoing``: the move that
    takes back the turn's first action, each action being chosen on its own
    deal) is not a first action while a tile scores, unless it is the only one;
    when no tile would score the seat a VP (``common.scoring_tiles``), a line
    with a swap gains ``STUCK_SWAP_BONUS``: the evaluation does not read the
    hand, but a hand with nothing to do is what keeps a seat stuck. A line
    that leaves a leader of the seat to a rival's tile and then leader
    (``leaders_at_risk``'s threatened, §2, §6.4) loses ``THREAT_COST`` per
    leader, and the withdrawal of each such leader (§4) is always weighed:
    medium left leaders to two-action revolts (bench/bot_sanity.py, issue 26).
    A line that ends the turn loses ``monument_threats.threat_cost``, the
    costliest monument a rival could then build and be paid by (§8), and a
    tile on each such square is always weighed (``blockers``): easy's own
    monuments paid it 31 VP a game in medium's losses, 21 of them blockable
    (bench/results/bot_medium-study-2026-12-04.txt). A line also gains the
    monument income it brings for the turns left (``monument_threats.income_gain``),
    unless it leaves a leader doomed or threatened (``leaders_at_risk``).
    Of the lines after one first action, medium keeps one that leaves the
    fewest leaders doomed, then threatened, whatever a rival answers to a
    conflict of the line (``leaders_at_risk`` with ``branches``: the rival's
    hand is not seen), and the best valued among those; ``hard_prior=True``
    (hard's prior, as measured with it) takes the best value after
    ``THREAT_COST`` on the settled branch only. Both tiers weigh the monument
    terms and the blocking tiles: with them in hard's candidates and prior,
    hard won 133 of 200 games against medium where it had won 123 (seeds
    1-100; bench/results/hard_monuments-2026-12-05.txt).
    """
    stuck = not scoring_tiles(state, seat)
    scorer = Scorer(state, seat)
    rescues = [WithdrawLeader(c) for c in range(4) if scorer.threatened(c, unions=hard_prior)]
    two = state.actions_left >= 2
    scored = score_actions(state, seat)
    if two:
        # A swap's draw is one sample of the bag: planning a second action on it would
        # credit the line with luck. Swaps are weighed as a turn's last action only.
        scored = [sa for sa in scored if not isinstance(sa[1], SwapTiles)]
    firsts = top(scored, MEDIUM_FIRST if two else MEDIUM_LAST)
    firsts += [a for a in must_look(scored, stuck and not two) if a not in firsts]
    firsts += [a for a in rescues if a not in firsts and any(a == b for _, b in scored)]
    blocks = set(rivals_monument_threats(state, seat))
    firsts += [a for a in blockers(scored, blocks) if a not in firsts]
    if undo is not None and not stuck:
        firsts = [a for a in firsts if a != undo] or firsts
    lines: list[tuple[float, list[Action]]] = []

    def adjusted(value: float, line: list[Action], end: GameState) -> float:
        if any(isinstance(a, Pass) for a in line):
            value -= PASS_PENALTY
        if stuck and any(isinstance(a, SwapTiles) for a in line):
            value += STUCK_SWAP_BONUS
        gain = income_gain(state, end, seat)
        if gain > 0 and leaders_at_risk(state, seat, line) != (0, 0):
            gain = 0.0  # a leader a rival takes next turn earns nothing (§6.4, §8.3)
        return value - threat_cost(end, seat) + gain

    for a1 in firsts:
        value, s1 = outcome(engine.apply(state, a1), seat)
        cands = [(adjusted(value, [a1], s1), [a1])]
        if two and not s1.is_over and s1.active_seat == seat and s1.pending is None:
            scored2 = score_actions(s1, seat)
            seconds = top(scored2, MEDIUM_SECOND)
            seconds += [a for a in must_look(scored2, stuck) if a not in seconds]
            seconds += [a for a in rescues if a not in seconds and any(a == b for _, b in scored2)]
            seconds += [a for a in blockers(scored2, blocks) if a not in seconds]
            whole = []  # a turn of two actions is planned whole (§2)
            for a2 in seconds:
                moved = engine.apply(s1, a2)
                idle = moved.board == state.board  # a leader out and back: a pass (§4)
                if idle and not stuck:
                    continue  # no pass while a tile scores (``score_actions``, §5.2)
                value2, s2 = outcome(moved, seat)
                value2 -= PASS_PENALTY if idle else 0.0
                whole.append((adjusted(value2, [a1, a2], s2), [a1, a2]))
            cands = whole or cands
        if hard_prior:
            lines.append(_least_threatened(state, seat, cands))
        else:
            lines.append(_safest(state, seat, cands))
    lines.sort(key=lambda vl: -vl[0])  # stable: equal lines keep the heuristic's order
    return lines


def _least_threatened(
    state: GameState, seat: int, cands: list[tuple[float, list[Action]]]
) -> tuple[float, list[Action]]:
    """Return the best of ``cands`` once each line's threatened leaders cost ``THREAT_COST``.

    Hard's prior (``plan_lines``): a tile uniting two kingdoms is a threat too
    (``Scorer.union_spots``).

    ``cands`` are ``(value, line)`` from ``state``; the first of equal values
    wins. The cost only lowers a value, so lines are read best first and the
    threat (``leaders_at_risk``, a replay) is counted only while a line can
    still win.
    """
    best: tuple[float, list[Action]] | None = None
    for value, line in sorted(cands, key=lambda vl: -vl[0]):
        if best is not None and value <= best[0]:
            break
        value -= THREAT_COST * leaders_at_risk(state, seat, line, unions=True)[1]
        if best is None or value > best[0]:
            best = (value, line)
    assert best is not None
    return best


def _safest(
    state: GameState, seat: int, cands: list[tuple[float, list[Action]]]
) -> tuple[float, list[Action]]:
    """Return the best of ``cands`` among those that leave the fewest leaders at risk.

    ``cands`` are ``(value, line)`` from ``state``; risk is
    ``leaders_at_risk(..., branches=True)``, ``(doomed, threatened)`` compared
    in that order, then the higher value (less ``THREAT_COST`` per threatened leader)
    wins, the first of equals. Lines are read best value
    first and reading stops at the first that risks no leader.
    """
    best: tuple[tuple[int, int], float, list[Action]] | None = None
    for value, line in sorted(cands, key=lambda vl: -vl[0]):
        risk = leaders_at_risk(state, seat, line, branches=True)
        value -= THREAT_COST * risk[1]
        if best is None or (risk, -value) < (best[0], -best[1]):
            best = (risk, value, line)
        if risk == (0, 0):
            break
    assert best is not None
    return best[1], best[2]


def blockers(scored: list[tuple[float, Action]], squares: set[int]) -> list[Action]:
    """Return, for each of ``squares``, the best-scoring tile of ``scored`` placed there.

    ``squares`` are where the rival completes a monument that pays it
    (``monument_threats.rivals_monument_threats``, RULES.md §8): a tile of any
    colour there fills the block's last square, so the plan always weighs one.
    """
    best: dict[int, tuple[float, Action]] = {}
    for value, action in scored:
        if (
            isinstance(action, PlaceTile)
            and action.square in squares
            and (action.square not in best or value > best[action.square][0])
        ):
            best[action.square] = (value, action)
    return [a for _, a in best.values()]


def must_look(scored: list[tuple[float, Action]], stuck: bool) -> list[Action]:
    """Return the moves a turn's plan always weighs, whatever their quick score.

    ``scored`` is ``heuristic.score_actions`` output. The withdrawal of a leader
    that loses any revolt a rival starts (scored above ``WITHDRAW_SCORE``,
    ``Scorer.withdraw``, §4, §6.4), and, when ``stuck`` (no tile scores the seat
    a VP, §5.2), the swap of the tiles without use (§11): left out of the best
    few, no plan could keep the leader or change the hand, and medium and hard
    left leaders to lose and kept dead hands (``bench/bot_sanity.py``, issue 26).
    """
    return [
        action
        for value, action in scored
        if isinstance(action, WithdrawLeader)
        and value > WITHDRAW_SCORE
        or stuck
        and isinstance(action, SwapTiles)
    ]


def keeping_leaders(
    first: GameState,
    seat: int,
    lines: dict[str, list[Action]],
    *,
    careful: bool = False,
    unions: bool = False,
) -> list[str]:
    """Return the keys of ``lines`` that leave the fewest of ``seat``'s leaders doomed.

    ``first`` is a deal of the seat's view with ``seat`` to act, ``lines``
    maps a key to a turn's actions (best first); the keys come back in that
    order. A leader is doomed when a rival leader entering an empty square
    beside its kingdom's temples wins the revolt with no red committed,
    against the leader's temples and every red left in the seat's hand at the
    end of the line, before the refill (``heuristic.Scorer.doomed``, RULES.md
    §6.2, §6.4). Where the seat can withdraw (§4), move or shield such a
    leader this turn, only such lines stay: medium's danger term and hard's
    play-outs weighed a certain loss against a tile's VP, and both left
    leaders to lose (``bench/bot_sanity.py``, issue 26). Reads the board and
    the seat's own hand; a line's decisions are answered by ``settle``.

    ``careful=True`` (medium): the lines kept are those with the fewest
    ``(doomed, threatened)`` leaders (``leaders_at_risk`` with ``branches``):
    a leader a rival's tile then leader takes (``Scorer.threatened``) is
    kept from as one a rival's leader takes, and a rival's answer to a
    conflict of the line is both answers it may give (medium against
    medium, bench/bot_sanity.py seeds 8 and 10: a conflict the rival did not
    tie left the seat's king or priest to lose, a branch its plan never
    read; the THREAT_COST charge left 11 leaders in 200 seat-games).
    Hard too, with ``unions``: a tile uniting two kingdoms is read as a
    threat (``Scorer.union_spots``; hard against hard, bench/bot_sanity.py
    seeds 15, 19 and 77: its settled-answer filter left 5 leaders in 200
    seat-games, three of them to a union then a revolt).
    """
    keys = list(lines)
    if first.pending is not None:
        return keys
    if careful:
        risks = {
            k: leaders_at_risk(first, seat, lines[k], branches=True, unions=unions) for k in keys
        }
        least = min(risks.values(), default=(0, 0))
        return [k for k in keys if risks[k] == least]
    left = {k: doomed_count(first, seat, lines[k]) for k in keys}
    fewest = min(left.values(), default=0)
    return [k for k in keys if left[k] == fewest]


def leaves_doomed(state: GameState, seat: int, line: list[Action]) -> bool:
    """Tell whether playing ``line`` in ``state`` leaves a leader of ``seat`` doomed."""
    return doomed_count(state, seat, line) > 0


def doomed_count(state: GameState, seat: int, line: list[Action]) -> int:
    """Return how many leaders of ``seat`` playing ``line`` in ``state`` leaves doomed (0–4).

    ``line`` is one turn of ``seat``'s (``state.to_act``), played while legal
    and the seat's turn; its reds (tiles, swaps, support committed in its own
    conflicts) are counted off the hand, the refill at the turn's end is not
    (§12): bench/bot_sanity.py seed 200, medium spent both reds on a revolt
    and left its trader to one. See ``keeping_leaders``.
    """
    scorer = _end_of_line(state, seat, line)
    return 0 if scorer is None else sum(1 for c in range(4) if scorer.doomed(c))


def leaders_at_risk(
    state: GameState, seat: int, line: list[Action], *, branches: bool = False, unions: bool = False
) -> tuple[int, int]:
    """Return ``(doomed, threatened)``: ``seat``'s leaders ``line`` leaves to lose (0–4 each).

    ``doomed`` as ``doomed_count`` (a rival's one leader wins the revolt,
    ``Scorer.doomed``); ``threatened`` the others a rival's tile then leader
    take (``Scorer.threatened``, §2, §5.1, §6.4). ``branches=True`` (medium): a
    rival's support in a conflict of the line (§6.3, §7.3) is both what it
    may commit — nothing, or just enough to win (tiles of the colour put in
    its sampled hand if need be) — and each count is the most over those
    ends (``_line_ends``): the seat does not see the rival's hand (§14).
    ``unions`` (hard): a tile uniting two kingdoms threatens too
    (``Scorer.threatened``).
    """
    if branches:
        ends = _line_ends(state, seat, line)
        return (
            max((sum(1 for c in range(4) if sc.doomed(c)) for sc in ends), default=0),
            max(
                (sum(1 for c in range(4) if sc.threatened(c, unions=unions)) for sc in ends),
                default=0,
            ),
        )
    scorer = _end_of_line(state, seat, line)
    if scorer is None:
        return 0, 0
    doomed = sum(1 for c in range(4) if scorer.doomed(c))
    return doomed, sum(1 for c in range(4) if scorer.threatened(c, unions=unions))


def _end_of_line(state: GameState, seat: int, line: list[Action]) -> Scorer | None:
    """Return a ``Scorer`` of ``seat`` where ``line`` ends (None: game over or illegal).

    The seat's reds are those left at the end of the line, before the refill
    (``doomed_count``). Remembered on ``state``'s cache per seat and line: a
    plan and its filter read each line twice.
    """
    key = f"bots:risk:{seat}:" + " ; ".join(str(a) for a in line)
    if key not in state.cache:
        state.cache[key] = _play_line(state, seat, line)
    got = state.cache[key]
    assert got is None or isinstance(got, Scorer)
    return got


def _reds_after(reds: int, in_hand: int, action: Action) -> int:
    """Return the seat's reds left after its ``action``: ``reds`` so far, at most ``in_hand``.

    A red tile placed spends one, a swap the reds it gives back (§5, §11);
    what the seat commits in a conflict is counted where it is answered.
    """
    reds = min(reds, in_hand)
    if isinstance(action, PlaceTile) and action.color == RED:
        reds -= 1
    elif isinstance(action, SwapTiles):
        reds -= action.counts[RED]
    return reds


def _play_line(state: GameState, seat: int, line: list[Action]) -> Scorer | None:
    """Play ``line`` and return the ``Scorer`` of its end (``_end_of_line``), uncached."""
    reds = state.hands[seat - 1][RED]
    for action in line:
        if state.is_over or state.active_seat != seat or state.pending is not None:
            break
        reds = _reds_after(reds, state.hands[seat - 1][RED], action)
        try:
            state = engine.apply(state, action)
        except engine.IllegalActionError:
            return None
        for _ in range(40):  # ``settle``, counting the reds the seat commits (§6.3)
            p = state.pending
            if p is None:
                break
            answer = quick_decision(state)
            if isinstance(answer, CommitSupport) and p.seat == seat and p.support_color == "red":
                reds -= answer.count  # committed, then the turn may end and refill (§12)
            state = engine.apply(state, answer)
    if state.is_over:
        return None
    return _scorer_at_end(state, seat, reds)


def _scorer_at_end(state: GameState, seat: int, reds: int) -> Scorer:
    """Return ``seat``'s ``Scorer`` at a line's end, its reds those left before the refill (§12).

    ``reds`` is what the line left of the seat's reds; while the seat's turn
    goes on its hand has not been refilled and is read as it stands.
    """
    if state.active_seat == seat:
        reds = state.hands[seat - 1][RED]  # the turn goes on: no refill yet (§12)
    hands = list(state.hands)
    hand = list(hands[seat - 1])
    hand[RED] = max(0, min(hand[RED], reds))
    hands[seat - 1] = (hand[0], hand[1], hand[2], hand[3])
    return Scorer(replace(state, hands=tuple(hands)), seat)


def _line_ends(state: GameState, seat: int, line: list[Action]) -> list[Scorer]:
    """Return a ``Scorer`` of ``seat`` at each end ``line`` may reach (none: game over).

    As ``_end_of_line`` (the seat's reds before the refill, decisions by
    ``quick_decision``), but a rival's support decision (§6.3, §7.3) branches
    on ``_rival_supports``; an action illegal on one branch (the seat would
    plan again there) leaves that branch where it stands. Remembered on
    ``state``'s cache per seat and line.
    """
    key = f"bots:ends:{seat}:" + " ; ".join(str(a) for a in line)
    if key not in state.cache:
        frontier = [(state, state.hands[seat - 1][RED])]
        for action in line:
            nxt: list[tuple[GameState, int]] = []
            for st, reds in frontier:
                if st.is_over or st.active_seat != seat or st.pending is not None:
                    nxt.append((st, reds))
                    continue
                reds = _reds_after(reds, st.hands[seat - 1][RED], action)
                try:
                    played = engine.apply(st, action)
                except engine.IllegalActionError:
                    nxt.append((st, reds))
                    continue
                nxt.extend(_settled_branches(played, seat, reds))
            frontier = nxt
        state.cache[key] = [
            _scorer_at_end(st, seat, reds) for st, reds in frontier if not st.is_over
        ]
    got = state.cache[key]
    assert isinstance(got, list)
    return got


def _settled_branches(state: GameState, seat: int, reds: int) -> list[tuple[GameState, int]]:
    """Answer ``state``'s decisions as ``settle``, a rival's support both ways: ``[(state, reds)]``.

    ``reds`` are the seat's reds left, less those it commits (§6.3).
    """
    for _ in range(40):
        p = state.pending
        if p is None:
            break
        if p.kind == "support" and p.seat != seat and p.support_color is not None:
            out: list[tuple[GameState, int]] = []
            for answered in _rival_supports(state):
                out.extend(_settled_branches(answered, seat, reds))
            return out
        answer = quick_decision(state)
        if isinstance(answer, CommitSupport) and p.seat == seat and p.support_color == "red":
            reds -= answer.count
        state = engine.apply(state, answer)
    return [(state, reds)]


def _rival_supports(state: GameState) -> list[GameState]:
    """Return the states after a rival's support: nothing, and just enough to win (§6.4, §7.3).

    Enough is a tie for the defender, one more for the attacker; it is
    weighed only when the rival's hand is big enough, its sampled hand
    given the tiles if need be (``_with_tiles``).
    """
    p = state.pending
    assert p is not None and p.support_color is not None
    color = COLOUR_INDEX[p.support_color]
    att, dfn = p.attacker_strength or 0, p.defender_strength or 0
    need = att - dfn if p.seat == p.defender else dfn - att + 1
    out = [engine.apply(state, CommitSupport(0))]
    if 0 < need <= sum(state.hands[p.seat - 1]):
        out.append(engine.apply(_with_tiles(state, p.seat, color, need), CommitSupport(need)))
    return out


def plan_turn(state: GameState, seat: int) -> tuple[float, list[Action]]:
    """Return the best ``(evaluation, actions)`` over candidate first × second actions (§2)."""
    return plan_lines(state, seat)[0]


def decision_values(state: GameState, seat: int) -> list[tuple[float, Action]]:
    """Return each answer to the pending decision with its expected evaluation, best first.

    A war order that leads the seat into a war it cannot win
    (``hopeless.hopeless_war_order``) is left out while another is not.
    """
    options = list(engine.legal_actions(state))
    if state.pending is not None and state.pending.kind == "war_order":
        # An order that leads the seat into a war it cannot win is no option (issue 26).
        options = [a for a in options if not hopeless_war_order(state, a)] or options
    scored = [(outcome(engine.apply(state, a), seat)[0], a) for a in options]
    scored.sort(key=lambda va: -va[0])
    return scored


def medium_policy(
    state: GameState, seat: int, rng: random.Random, *, undo: Action | None = None
) -> Action:
    """Return the first action of the best planned turn, or a decision's answer.

    Among the planned turns, those that leave a leader of ``seat`` to a revolt
    a rival wins outright, or after a tile, are played only when no other is
    left (``keeping_leaders`` with ``careful``). ``undo`` as ``plan_lines``'.
    """
    if state.pending is not None:
        return medium_decision(state, seat)
    lines: dict[str, list[Action]] = {}
    for _, line in plan_lines(state, seat, undo=undo):
        lines.setdefault(" ; ".join(str(a) for a in line), line)
    return lines[keeping_leaders(state, seat, lines, careful=True)[0]][0]


__all__ = ["CommitSupport", "easy_policy", "medium_policy", "plan_turn", "random_policy"]
