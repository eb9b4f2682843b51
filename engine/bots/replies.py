"""The rival's best war reply to a planned turn: what medium would lose to it.

``reply_loss(state, seat)`` reads a position where ``seat``'s turn has just
ended (a rival to act, no decision pending) and returns the evaluation
``seat`` expects to lose to the one war that rival can start next, with a
tile uniting a kingdom of a leader of ``seat``'s to one of its own leader of
the same colour, and win (RULES.md §7). Medium left itself open to such
wars: easy won 56 of the 60 wars it started against it
(bench/results/bot_medium-2026-12-03.txt, issue 26). Revolts are left out:
weighed the same way they made medium shy of placing leaders and it lost
more games to easy (bench/results/bot_medium-2026-12-04.txt).

The rival's hand is hidden: in a determinized state it is only a sample, so
it is never read. A war is won by the rival when it holds enough tiles of
the war's colour to beat ``seat``'s supporters plus every such tile ``seat``
holds (ties go to the defender, §7.3); its chance is a binomial over the
tiles ``seat`` cannot see (``common.unseen_fractions``) for the rival's hand
size (public). A rival that lacks them is assumed to do something else, so
a threat costs ``chance × (value now − value after the rival wins)``, both
read by ``evaluate`` (the latter on the state where the war is played out
with the rival's hand given just enough tiles).
"""

from __future__ import annotations

from dataclasses import replace

import engine
from engine import CommitSupport, GameState, PlaceTile
from engine.botapi import BLUE, IS_RIVER, NEIGHBOURS, kingdoms_touching

from .common import binomial_cdf, summary, unseen_fractions
from .decisions import quick_decision
from .evaluate import evaluate
from .hopeless import COLOUR_INDEX

MIN_CHANCE = 0.02  # threats less likely than this are not played out


def rival_threats(state: GameState, seat: int) -> list[PlaceTile]:
    """Return the tiles the rival to act could start a war with against ``seat`` (§7.1).

    One per kingdom pair: a tile on an empty square between a kingdom and
    another, one holding a leader of ``seat``'s and the other the rival's
    leader of the same colour. The tile's colour is blue on a river, else
    green, black or red, the first that is no colour of the rival's leaders
    there (§5.1; a uniting tile is no supporter, §7.3). The rival's hand is
    not read: ``reply_loss`` gives it the tile.
    """
    rival = state.active_seat
    reg = summary(state).regions
    kid = reg.kid
    board = state.board
    nk = kingdoms_touching(state)
    wars: dict[tuple[int, int], PlaceTile] = {}
    for s in range(len(board)):
        if board[s] or nk[s] != 2:
            continue
        ks = sorted({kid[y] for y in NEIGHBOURS[s] if kid[y] >= 0})
        if len(ks) != 2 or (ks[0], ks[1]) in wars:
            continue
        leaders = reg.leaders[ks[0]] + reg.leaders[ks[1]]
        mine = {c for who, c, _ in leaders if who == seat}
        theirs = {c for who, c, _ in leaders if who == rival}
        if not mine & theirs:
            continue
        color = BLUE if IS_RIVER[s] else next((c for c in (3, 1, 0) if c not in theirs), 3)
        wars[(ks[0], ks[1])] = PlaceTile(color, s)
    return list(wars.values())


def reply_loss(state: GameState, seat: int) -> float:
    """Return what ``seat`` expects to lose to the rival's best conflict reply (module doc).

    ``state``: a rival to act, no decision pending; anything else gives 0.
    In units of ``evaluate`` (about a VP), never negative.
    """
    if state.is_over or state.pending is not None or state.to_act == seat:
        return 0.0
    now = evaluate(state)[seat - 1]
    worst = 0.0
    for move in rival_threats(state, seat):
        chance, won = _rival_wins(state, seat, move)
        if chance >= MIN_CHANCE and won is not None:
            worst = max(worst, chance * (now - evaluate(won)[seat - 1]))
    return worst


def _rival_wins(state: GameState, seat: int, move: PlaceTile) -> tuple[float, GameState | None]:
    """Return the chance the rival wins the conflict ``move`` starts, and the state if it does.

    The rival's hand gets ``move``'s tile if need be, then, at its first
    support decision in a war against ``seat``, just enough of the war's
    colour to win; the rest is answered by ``decisions.quick_decision``.
    """
    rival = state.active_seat
    state = _with_tiles(state, rival, move.color, 1)
    try:
        state = engine.apply(state, move)
    except engine.IllegalActionError:
        return 0.0, None
    fracs = unseen_fractions(state, seat)
    chance = -1.0
    for _ in range(40):
        p = state.pending
        if p is None:
            break
        if (
            chance < 0
            and p.kind == "support"
            and p.seat == rival
            and p.attacker == rival
            and p.defender == seat
        ):
            assert p.support_color is not None
            color = COLOUR_INDEX[p.support_color]
            defence = (p.defender_strength or 0) + state.hands[seat - 1][color]
            need = max(0, defence - (p.attacker_strength or 0) + 1)
            size = sum(state.hands[rival - 1])
            if need > size:
                return 0.0, None
            chance = 1.0 - binomial_cdf(need - 1, size, fracs[color])
            state = _with_tiles(state, rival, color, need)
            state = engine.apply(state, CommitSupport(need))
            continue
        state = engine.apply(state, quick_decision(state))
    if chance < 0:
        return 0.0, None
    return chance, state


def _with_tiles(state: GameState, seat: int, color: int, need: int) -> GameState:
    """Return ``state`` with ``seat``'s hand holding at least ``need`` of ``color`` (same size)."""
    hand = list(state.hands[seat - 1])
    while hand[color] < need and sum(hand) > hand[color]:
        donor = max((c for c in range(4) if c != color), key=lambda c: hand[c])
        hand[donor] -= 1
        hand[color] += 1
    if hand == list(state.hands[seat - 1]):
        return state
    hands = list(state.hands)
    hands[seat - 1] = (hand[0], hand[1], hand[2], hand[3])
    return replace(state, hands=tuple(hands))


__all__ = ["reply_loss", "rival_threats"]
