"""Medium's hand-written evaluation of a position, one number per seat.

``evaluate(state)`` returns a list indexed by seat - 1: each seat's own worth
minus a share of its best opponent's, so the numbers form the reward vector
the hard tier backs up for 3–4 players. A seat's own worth, in units of about
one VP in a middling colour:

- its score sheet: the lowest colour after treasures counts most, read as a
  soft minimum so that a colour level with it counts too, each colour with
  diminishing returns (``common.score_value`` at ``SHEET_SOFTNESS``; RULES.md §13.2);
- each leader on the board: tiles of its colour in its kingdom (future VP,
  §5.2), the king's reach, and its safety — temples beside it against a
  revolt (§6.2), supporters of its colour against a war (§7.3);
- monument income: a leader of a monument's colour in its kingdom (§8.3);
- a trader beside a treasure, catastrophes left (§10).

A finished game is scored by its final ranking (§13.2).
"""

from __future__ import annotations

import math

from engine import GameState, final_ranking
from engine.botapi import (
    IS_RIVER,
    KING,
    NEIGHBOURS,
    RED,
    TILE_BASE,
    TRADER,
    kingdoms_touching,
    monument_income,
)

from .common import (
    SHEET_SOFTNESS,
    Summary,
    binomial_cdf,
    colour_weights,
    score_value,
    summary,
    temples_next_to,
    unseen_fractions,
)

WIN_BONUS = 60.0
DANGER_WEIGHT = 0.5
CERTAIN_LOSS = 4.0  # added to a revolt the leader loses whatever it holds (issue 26)


def opponent_share(num_players: int) -> float:
    """Return how much the best opponent's worth is taken off a seat's own."""
    return 0.8 if num_players == 2 else 0.55


def leader_worth(state: GameState, summ: Summary, c: int, q: int, weights: list[float]) -> float:
    """Return what a leader of colour ``c`` on square ``q`` adds to its seat's own worth.

    ``weights`` are its seat's ``colour_weights``; monument income is not included.
    """
    reg = summ.regions
    r = reg.rid[q]
    counts = summ.counts[r]
    potential = 0.5 + 0.1 * min(counts[c], 10)
    if c == KING:
        potential += 0.03 * min(len(reg.squares[r]), 25)
    temples = temples_next_to(state.board, q)
    safety = 0.5 + 0.5 * min(temples, 3) / 3.0
    if c != RED:
        safety = 0.5 * safety + 0.5 * (0.5 + 0.5 * min(counts[c], 4) / 4.0)
    value = potential * safety * (0.5 + weights[c])
    if c == TRADER and summ.treasures[r] >= 1:
        value += 0.3
    return value


def own_worth(state: GameState, seat: int, summ: Summary) -> float:
    """Return ``seat``'s own worth in ``state`` (see the module doc)."""
    i = seat - 1
    vp = state.vp[i]
    held = state.treasures_held[i]
    value = score_value(vp, held, SHEET_SOFTNESS)
    weights = colour_weights(state, seat, SHEET_SOFTNESS)
    squares = summ.leaders[i]
    for c in range(4):
        q = squares[c]
        if q >= 0:
            value += leader_worth(state, summ, c, q, weights)
    for color in monument_income(state, seat):
        value += 1.0 + weights[color]
    # Nothing for the hand: after a refill it is a sample of the bag, noise to a planner.
    value += 0.4 * state.catastrophes[i]
    return value


def dangers(state: GameState, summ: Summary, exempt: int | None) -> list[float]:
    """Return per seat the expected loss from the revolts and wars others can start next (§6, §7).

    A leader is exposed to a revolt when an empty land square next to a
    temple touches only its kingdom (§4.2): the attacker adds the temples
    there and its red tiles, the defender its own temples and all the red it
    holds. It is exposed to a war when one empty square touches its kingdom
    and another kingdom with an opponent's leader of its colour (§7.1): each
    side counts its supporters, the defender adds its tiles of that colour.
    The attacker's hand is a binomial over the tiles its owner holds; the
    loss is the leader's potential and, in a war, its supporters; a revolt the
    attacker wins with no red committed adds ``CERTAIN_LOSS`` (the leader and
    the red VP it hands over), so that withdrawing such a leader is valued. Seat
    ``exempt`` (the next to move, who can answer first) risks nothing.
    """
    n = state.num_players
    out = [0.0] * n
    reg = summ.regions
    kid = reg.kid
    board = state.board
    nk = kingdoms_touching(state)
    temple = TILE_BASE
    # The best revolt square (most temples) of each kingdom, and the kingdom pairs at war risk.
    revolt_spot: dict[int, int] = {}
    pairs: set[tuple[int, int]] = set()
    for s in range(len(board)):
        if board[s] or nk[s] == 0:
            continue
        if nk[s] == 1:
            if IS_RIVER[s]:
                continue
            t = sum(1 for y in NEIGHBOURS[s] if board[y] == temple)
            if t:
                k = next(kid[y] for y in NEIGHBOURS[s] if kid[y] >= 0)
                if t > revolt_spot.get(k, 0):
                    revolt_spot[k] = t
        elif nk[s] == 2:
            a, b = sorted({kid[y] for y in NEIGHBOURS[s] if kid[y] >= 0})
            pairs.add((a, b))
    fracs = [unseen_fractions(state, s) for s in range(1, n + 1)]
    hand_sizes = [sum(h) for h in state.hands]
    to_act = exempt
    for k, t_spot in revolt_spot.items():
        for seat, c, q in reg.leaders[k]:
            if seat == to_act:
                continue
            defence = temples_next_to(board, q) + state.hands[seat - 1][RED]
            need = defence - t_spot + 1  # red tiles the attacker must commit to win
            worst = 0.0
            for o in range(1, n + 1):
                if o == seat:
                    continue
                p = 1.0 - binomial_cdf(need - 1, hand_sizes[o - 1], fracs[seat - 1][RED])
                worst = max(worst, p)
            loss = 1.0 + 0.1 * min(summ.counts[k][c], 10)
            if need <= 0:
                # Lost without a red committed: the leader and a red VP to the attacker (§6.4).
                loss += CERTAIN_LOSS
            # Never more than the leader adds to its seat's worth (after DANGER_WEIGHT): else
            # losing the leader would rate above keeping it (issue 26).
            cap = leader_worth(state, summ, c, q, colour_weights(state, seat, SHEET_SOFTNESS))
            cap /= DANGER_WEIGHT
            out[seat - 1] += min(worst * loss, cap)
    for a, b in pairs:
        for k, other in ((a, b), (b, a)):
            for seat, c, _q in reg.leaders[k]:
                if seat == to_act:
                    continue
                for o, oc, _ in reg.leaders[other]:
                    if oc != c or o == seat:
                        continue
                    defence = summ.counts[k][c] + state.hands[seat - 1][c]
                    need = defence - summ.counts[other][c] + 1
                    p = 1.0 - binomial_cdf(need - 1, hand_sizes[o - 1], fracs[seat - 1][c])
                    out[seat - 1] += p * (1.5 + 0.5 * min(summ.counts[k][c], 10))
    return out


def evaluate(state: GameState, *, exempt: int | None = -1) -> list[float]:
    """Return each seat's evaluation (index seat - 1); higher is better for that seat.

    Own worth minus ``opponent_share`` of the best opponent's, less the
    dangers of every seat but ``exempt`` (default: the seat to act); a finished
    game gives ``WIN_BONUS`` per place ahead plus the final-score margin.
    """
    n = state.num_players
    if state.is_over:
        ranking = {p.seat: p for p in final_ranking(state)}
        out = []
        for s in range(1, n + 1):
            mine = ranking[s]
            best_other = max(ranking[o].score for o in range(1, n + 1) if o != s)
            places = sum(1 for o in ranking.values() if o.rank > mine.rank) - sum(
                1 for o in ranking.values() if o.rank < mine.rank
            )
            out.append(WIN_BONUS * places + 3.0 * (mine.score - best_other))
        return out
    summ = summary(state)
    own = [own_worth(state, s, summ) for s in range(1, n + 1)]
    for i, loss in enumerate(dangers(state, summ, state.to_act if exempt == -1 else exempt)):
        own[i] -= DANGER_WEIGHT * loss
    share = opponent_share(n)
    out = []
    for i in range(n):
        best = max(own[j] for j in range(n) if j != i)
        out.append(own[i] - share * best)
    return out


def squash(values: list[float], scale: float = 6.0) -> list[float]:
    """Map evaluations to rewards in (0, 1) for the hard tier's search (a logistic)."""
    return [1.0 / (1.0 + math.exp(-v / scale)) for v in values]
