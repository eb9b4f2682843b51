"""What every bot tier reads of a position: a board summary, colour weights, odds in conflicts.

Everything here works on a ``GameState`` that a bot built for itself with
``engine.determinize`` from its seat's view, so nothing in it can see more
than that seat saw. Colours are ints in the order red, black, blue, green
(``engine.botapi``); seats are 1..N.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import engine
from engine import GameState
from engine.botapi import (
    BLOCKS_OF,
    FACE_DOWN,
    HAND_SIZE,
    KING,
    LEADER_BASE,
    NEIGHBOURS,
    NUM_SQUARES,
    TILE_BASE,
    Regions,
    block_squares,
    regions,
    with_treasures,
)

TEMPLE = TILE_BASE  # a face-up red tile (RULES.md §1.2)

# Weight of the lowest colour over the others in a score vector (RULES.md §13.2).
MIN_WEIGHT = 2.5
# VP: medium's and hard's evaluation read the lowest colour as a soft minimum (``score_value``).
# Medium against easy, 200 paired games: 136 wins with the hard minimum, 154 at 2.0, 162 at 3.5
# and at 5.0, 165 with monument threats in the same units; 168 on seeds 101-200
# (bench/results/bot_softmin-2026-12-05.txt).
SHEET_SOFTNESS = 3.5


@dataclass(slots=True)
class Summary:
    """Hold one board's regions with, per region, face-up tile counts and treasures.

    ``counts[r]`` is ``[red, black, blue, green]`` face-up tiles of region
    ``r``; ``treasures[r]`` how many treasures lie in it; ``leaders[seat-1][c]``
    the square of that seat's leader of colour ``c`` or -1.
    """

    regions: Regions
    counts: list[list[int]]
    treasures: list[int]
    leaders: tuple[tuple[int, ...], ...]


def summary(state: GameState) -> Summary:
    """Return the (cached) ``Summary`` of ``state``'s board (RULES.md §3)."""
    got = state.cache.get("bots:summary")
    if got is not None:
        assert isinstance(got, Summary)
        return got
    reg = regions(state)
    rid = reg.rid
    counts = [[0, 0, 0, 0] for _ in reg.squares]
    board = state.board
    for s in range(NUM_SQUARES):
        cell = board[s]
        if TILE_BASE <= cell < FACE_DOWN:
            counts[rid[s]][cell - TILE_BASE] += 1
    treasures = [0] * len(reg.squares)
    for t in state.treasures:
        treasures[rid[t]] += 1
    out = Summary(reg, counts, treasures, state.leader_squares())
    state.cache["bots:summary"] = out
    return out


def temples_next_to(board: tuple[int, ...], square: int) -> int:
    """Count the face-up red temples adjacent to ``square`` (a leader's revolt strength, §6.2)."""
    return sum(1 for y in NEIGHBOURS[square] if board[y] == TEMPLE)


def score_value(vp: tuple[int, ...], held: int, soft: float = 0.0) -> float:
    """Return how much a score sheet is worth: the lowest colour counts most (RULES.md §13.2).

    ``vp`` is (red, black, blue, green) VP and ``held`` the treasures, which
    go to the lowest colours first. Each colour adds a concave ``2*sqrt(v+1)``
    so that balanced progress beats piling up one colour. ``soft`` (VP, > 0)
    reads the lowest colour as a soft minimum, ``-soft * log(sum(exp(-v / soft)))``:
    a colour a VP or two above the lowest, or level with it, still counts
    towards it (with the hard minimum two colours level at the lowest were
    each worth a tenth of one below them; ``SHEET_SOFTNESS``).
    """
    a = with_treasures(vp, held)
    return MIN_WEIGHT * soft_lowest(a, soft) + 2.0 * sum(math.sqrt(x + 1.0) for x in a)


def soft_lowest(a: tuple[int, ...], soft: float) -> float:
    """Return the lowest of ``a`` (VP by colour, treasures added), read softly (``score_value``).

    ``soft`` (VP): ``-soft * log(sum(exp(-v / soft)))``, at most the lowest colour; 0 gives the
    hard minimum of RULES.md §13.2's score.
    """
    low: float = min(a)
    if soft > 0.0:
        low -= soft * math.log(sum(math.exp((low - x) / soft) for x in a))
    return low


def colour_weights(state: GameState, seat: int, soft: float = 0.0) -> list[float]:
    """Return, per colour, what one more VP of it adds to ``score_value(vp, held, soft)``."""
    key = f"bots:w{seat}:{soft}"
    got = state.cache.get(key)
    if got is not None:
        assert isinstance(got, list)
        return got
    vp = state.vp[seat - 1]
    held = state.treasures_held[seat - 1]
    base = score_value(vp, held, soft)
    out = []
    for c in range(4):
        v = list(vp)
        v[c] += 1
        out.append(score_value(tuple(v), held, soft) - base)
    state.cache[key] = out
    return out


def unseen_fractions(state: GameState, seat: int) -> list[float]:
    """Return per colour the share of the tiles ``seat`` cannot see (bag and other hands).

    In a determinized state those tiles are a sample of what the seat cannot
    see; their colour mix is what the seat knows of the other hands (§14).
    """
    pool = [0, 0, 0, 0]
    for c in state.bag:
        pool[c] += 1
    for i, hand in enumerate(state.hands):
        if i != seat - 1:
            for c in range(4):
                pool[c] += hand[c]
    total = sum(pool) or 1
    return [p / total for p in pool]


def binomial_cdf(k: int, n: int, p: float) -> float:
    """Return P(X <= k) for X ~ Binomial(n, p): chance an unseen hand holds at most ``k``."""
    if k < 0:
        return 0.0
    if k >= n:
        return 1.0
    q = 1.0 - p
    total = 0.0
    for i in range(k + 1):
        total += math.comb(n, i) * p**i * q ** (n - i)
    return min(1.0, total)


def win_chance(margin: int, hand_size: int, frac: float) -> float:
    """Return the chance an attacker ``margin`` ahead (after its commit) still wins (§6.4, §7.3).

    The defender, who wins ties and sees the attacker's commit, adds as many
    tiles of the support colour as it holds; it holds ``Binomial(hand_size,
    frac)`` of them. The attacker wins when the defender holds fewer than
    ``margin``.
    """
    return binomial_cdf(margin - 1, min(hand_size, HAND_SIZE), frac)


def leaders_of_region(summ: Summary, r: int) -> list[tuple[int, int, int]]:
    """Return ``(seat, colour, square)`` of the leaders in region ``r`` (none for r < 0)."""
    return summ.regions.leaders[r] if r >= 0 else []


def monument_block(board: tuple[int, ...], square: int, color: int) -> bool:
    """Tell whether a tile of ``color`` on ``square`` would complete a 2x2 block (RULES.md §8.1)."""
    cell = TILE_BASE + color
    if sum(1 for y in NEIGHBOURS[square] if board[y] == cell) < 2:
        return False  # a 2x2 block holds two of the square's neighbours
    for top in BLOCKS_OF[square]:
        if all(x == square or board[x] == cell for x in block_squares(top)):
            return True
    return False


def is_leader(cell: int) -> bool:
    """Tell whether a board cell code is a leader."""
    return cell >= LEADER_BASE


def opponents(state: GameState, seat: int) -> list[int]:
    """Return the other seats, in seat order."""
    return [s for s in range(1, state.num_players + 1) if s != seat]


def legal(state: GameState) -> tuple[engine.Action, ...]:
    """Return ``engine.legal_actions(state)`` (a short name for the tiers)."""
    return engine.legal_actions(state)


def undoing(view: engine.PlayerView) -> engine.Action | None:
    """Return the move that takes back ``view.seat``'s first action of this turn, or None.

    With one action left and no decision pending, when the turn's first
    action moved a leader (``view.events``: ``leader_moved``), moving it back
    to where it came from leaves the board as the turn found it: a pass that
    draws no tile (RULES.md §4, §13.1). Hard against hard, bench/bot_sanity.py
    seed 2: a trader moved to m5 and back to h7 in five turns, each action
    chosen on its own deal.
    """
    if view.actions_left != 1 or view.pending is not None or view.seat is None:
        return None
    for event in view.events:
        p = event["params"]
        if event["code"] == "leader_moved" and p.get("seat") == view.seat:
            return engine.Action.parse(f"leader {p['leader']} {p['from_square']}")
    return None


def scoring_tiles(state: GameState, seat: int) -> list[engine.PlaceTile]:
    """Return the legal tile placements that score ``seat`` a VP at once (RULES.md §5.2).

    A tile scores when it touches exactly one kingdom (no unification) that
    holds ``seat``'s leader of the tile's colour, or ``seat``'s king and no
    leader of that colour. ``state`` must wait for ``seat``'s ordinary action
    (else the list is empty). What is read is the board and ``seat``'s own
    hand: what the seat sees (§14).
    """
    if state.pending is not None or state.to_act != seat:
        return []
    reg = regions(state)
    nk = engine.botapi.kingdoms_touching(state)
    kid = reg.kid
    out: list[engine.PlaceTile] = []
    for a in engine.legal_actions(state):
        if not isinstance(a, engine.PlaceTile) or nk[a.square] != 1:
            continue
        k = next(kid[y] for y in NEIGHBOURS[a.square] if kid[y] >= 0)
        owner = 0
        for who, c, _ in reg.leaders[k]:
            if c == a.color:
                owner = who
                break
            if c == KING:
                owner = who
        if owner == seat:
            out.append(a)
    return out
