"""Monuments a rival can build on its next turn and that would pay it (RULES.md §8).

A monument pays 1 VP of each of its colours, at the end of each of its
owner's turns, to the seat with a leader of that colour in its kingdom
(§8.3): whoever built it. Medium valued a monument as one turn's income
and never looked at the blocks the rival could complete: in a study of
medium against easy (bench/results/bot_medium-study-2026-12-04.txt), easy
took 31 VP a game from its own monuments in the games medium lost, 21 of
them from monuments whose square medium could have filled on its turn
before (three tiles of the block already there).

``rival_monument_threats(state, seat, rival)`` lists, for one rival,
each empty square where a tile completes a 2×2 block of a colour with a free
monument (§8.1), with what that monument would be worth against ``seat``;
``rivals_monument_threats`` the same for every rival, each of whom plays a
turn before the seat's next one (§2), the costliest per square. Medium's
plan (``tiers.plan_lines``, hard's candidates and prior too) charges each
line for the threats it leaves and always weighs a tile that fills such a
square. Reads the board, the monuments, the seat's colour weights and the
share of each colour among the tiles the seat cannot see
(``common.unseen_fractions``): never a rival's hand (§14).
"""

from __future__ import annotations

from engine import GameState
from engine.botapi import (
    BLUE,
    HAND_SIZE,
    IS_RIVER,
    MONUMENTS,
    NEIGHBOURS,
    TILE_BASE,
    kingdoms_touching,
    monument_income,
)

from .common import SHEET_SOFTNESS, colour_weights, monument_block, summary, unseen_fractions

MONUMENT_TURNS_CAP = 8.0  # the rival's turns of income counted at most (leaders move, wars)
MONUMENT_THREAT_WEIGHT = 0.5  # the rival may not hold or not play the tile (easy: ~55%)
OWN_INCOME_WEIGHT = 0.5  # income the seat gains lasts while its leaders stay (wars, revolts)


def turns_left(state: GameState) -> float:
    """Return about how many more turns each seat plays: the bag's draws (§12, §13.1).

    Each turn draws about two tiles (one per action) for the seat that
    played it; the game ends when the bag cannot refill a hand.
    """
    return len(state.bag) / (2.0 * state.num_players)


def rival_monument_threats(
    state: GameState, seat: int, rival: int | None = None
) -> dict[int, float]:
    """Return ``{square: cost}``: monuments ``rival`` can build there, as a loss to ``seat``.

    ``rival`` defaults to the seat to play the turn (``active_seat``); with
    none given and ``seat`` active, or the game over, ``{}``. A square
    counts when it is empty, touches at most one kingdom (no war, §7.1), a
    tile of colour ``c`` fits it (blue on a river, others on land, §5.1) and
    completes a 2×2 block of ``c`` (``common.monument_block``) while a
    monument with ``c`` is free (§8.1). Its cost, in evaluation units (about
    3 per VP), is the best such monument's income per turn to the rival
    (its leaders of the monument's colours in the kingdom the tile joins,
    each at 0.8 of the rival's colour weight, as ``evaluate`` counts a
    rival's worth) less the income to ``seat`` (§8.3), times the chance the
    rival holds a tile of ``c`` (a hand of ``HAND_SIZE`` over the unseen
    tiles), ``min(MONUMENT_TURNS_CAP, turns_left)`` turns and
    ``MONUMENT_THREAT_WEIGHT``; squares worth nothing are left out.
    """
    if rival is None:
        rival = state.active_seat
    return _threats(state, seat, () if rival == seat else (rival,))


def rivals_monument_threats(state: GameState, seat: int) -> dict[int, float]:
    """Return ``{square: cost}`` of ``rival_monument_threats`` for every rival of ``seat``.

    Every other seat plays a turn before ``seat``'s next one (§2), so in a
    3- or 4-player game a block the next seat cannot use may pay the one
    after it; a square's cost is its costliest rival's. With 2 players this
    is the rival's own.
    """
    rivals = tuple(r for r in range(1, state.num_players + 1) if r != seat)
    return _threats(state, seat, rivals)


def _threats(state: GameState, seat: int, rivals: tuple[int, ...]) -> dict[int, float]:
    """Return ``rival_monument_threats`` for ``rivals`` at once: each square at its costliest.

    The board is read once for all of them; only what a monument pays
    depends on the rival.
    """
    if state.is_over or not rivals:
        return {}
    free = [
        any(state.monuments[m] < 0 and c in pair for m, pair in enumerate(MONUMENTS))
        for c in range(4)
    ]
    if not any(free):
        return {}
    board = state.board
    nk = kingdoms_touching(state)
    reg = summary(state).regions
    turns = min(MONUMENT_TURNS_CAP, turns_left(state))
    if turns <= 0:
        return {}
    frac = unseen_fractions(state, seat)
    mine = colour_weights(state, seat, SHEET_SOFTNESS)
    theirs = {rival: colour_weights(state, rival, SHEET_SOFTNESS) for rival in rivals}
    out: dict[int, float] = {}
    for s in range(len(board)):
        # Beside no kingdom a monument pays no one (§8.3); beside two the tile starts a war.
        if board[s] or nk[s] != 1:
            continue
        river = IS_RIVER[s]
        beside = [board[y] for y in NEIGHBOURS[s]]
        for c in range(4):
            if not free[c] or (c == BLUE) != river or beside.count(TILE_BASE + c) < 2:
                continue  # a 2x2 block holds two of the square's neighbours
            if not monument_block(board, s, c):
                continue
            here = {(who, lc) for r in reg.regions_next_to(s) for who, lc, _ in reg.leaders[r]}
            best = 0.0
            for m, pair in enumerate(MONUMENTS):
                if state.monuments[m] >= 0 or c not in pair:
                    continue
                for rival in rivals:
                    net = sum(
                        0.8 * theirs[rival][lc] * ((rival, lc) in here)
                        - mine[lc] * ((seat, lc) in here)
                        for lc in pair
                    )
                    best = max(best, net)
            if best <= 0:
                continue
            held = 1.0 - (1.0 - frac[c]) ** HAND_SIZE
            cost = MONUMENT_THREAT_WEIGHT * held * best * turns
            out[s] = max(out.get(s, 0.0), cost)
    return out


def threat_cost(state: GameState, seat: int) -> float:
    """Return the costliest of ``rivals_monument_threats`` (0.0 with none): a rival builds one.

    ``state`` is where a line of ``seat``'s ends: with the seat still to
    play (the turn goes on) there is no cost.
    """
    if state.is_over or state.active_seat == seat:
        return 0.0
    return max(rivals_monument_threats(state, seat).values(), default=0.0)


def income_gain(start: GameState, end: GameState, seat: int) -> float:
    """Return what the monument income ``seat`` gains from ``start`` to ``end`` is worth (§8.3).

    Income is 1 VP of a colour at the end of each of the seat's turns: the
    colours paid at ``end`` less those paid at ``start``, at ``start``'s
    colour weights, for ``min(MONUMENT_TURNS_CAP, turns_left(end))`` turns,
    times ``OWN_INCOME_WEIGHT``; negative when income is lost. ``evaluate``
    counts one turn's income only.
    """
    w = colour_weights(start, seat, SHEET_SOFTNESS)
    before = sum(w[c] for c in monument_income(start, seat))
    after = 0.0 if end.is_over else sum(w[c] for c in monument_income(end, seat))
    turns = min(MONUMENT_TURNS_CAP, turns_left(end))
    return OWN_INCOME_WEIGHT * (after - before) * turns


__all__ = [
    "income_gain",
    "rival_monument_threats",
    "rivals_monument_threats",
    "threat_cost",
    "turns_left",
]
