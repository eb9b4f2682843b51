"""The rival's best conflict reply to a planned turn: what medium would lose to it.

``reply_loss(state, seat)`` reads a position where ``seat``'s turn has just
ended (a rival to act, no decision pending) and returns the evaluation
``seat`` expects to lose to the one war or revolt that rival can start next
against a leader of ``seat``'s and win (RULES.md §6, §7). Medium left
itself open to such conflicts: easy won 56 of the 60 wars it started
against it (bench/results/bot_medium-2026-12-03.txt, issue 26).

The rival's hand is hidden: in a determinized state it is only a sample, so
it is never read. A conflict is won by the rival when it holds enough tiles
of the support colour to beat ``seat``'s board strength plus every such
tile ``seat`` holds (ties go to the defender, §6.4, §7.3); its chance is a
binomial over the tiles ``seat`` cannot see (``common.unseen_fractions``)
for the rival's hand size (public). A rival that lacks them is assumed to
do something else, so a threat costs ``chance × (value now − value after
the rival wins)``, the latter read by ``evaluate`` on the state where the
conflict is played out with the rival's hand given just enough tiles.
"""

from __future__ import annotations

from dataclasses import replace

import engine
from engine import CommitSupport, GameState, PlaceLeader, PlaceTile
from engine.botapi import BLUE, IS_RIVER, NEIGHBOURS, kingdoms_touching

from .common import TEMPLE, binomial_cdf, summary, unseen_fractions
from .decisions import quick_decision
from .evaluate import evaluate
from .hopeless import COLOUR_INDEX

MIN_CHANCE = 0.02  # threats less likely than this are not played out
EXPOSED_CHANCE = 0.5  # a leader a rival's conflict takes this likely is worth withdrawing
SWING_RISKS = False  # the loss is read on the board and scores, without ``evaluate``'s dangers


def rival_threats(state: GameState, seat: int) -> list[engine.Action]:
    """Return the moves the rival to act could start a conflict with against ``seat``.

    See ``threats``, without the colours.
    """
    return [move for move, _ in threats(state, seat)]


def threats(state: GameState, seat: int) -> list[tuple[engine.Action, set[int]]]:
    """Return ``(move, colours)``: the rival to act's conflict moves against ``seat``.

    ``colours`` are those of ``seat``'s leaders the move attacks.

    One per kingdom pair and war colour: a tile on an empty square between a
    kingdom with a leader of ``seat``'s and one with the rival's leader of
    the same colour (§7.1; the tile's colour is one that starts no other
    war where it can, blue on a river, §5.1). One per kingdom and colour: the
    rival's leader of the colour of ``seat``'s leader there, on the empty
    land square touching that kingdom only with the most temples (§4.2,
    §4.4). The rival's hand is not read: the caller gives it the tile.
    """
    rival = state.active_seat
    reg = summary(state).regions
    kid = reg.kid
    board = state.board
    nk = kingdoms_touching(state)
    wars: dict[tuple[int, int], tuple[engine.Action, set[int]]] = {}
    revolts: dict[tuple[int, int], tuple[int, int]] = {}
    for s in range(len(board)):
        if board[s] or nk[s] == 0 or nk[s] > 2:
            continue
        ks = sorted({kid[y] for y in NEIGHBOURS[s] if kid[y] >= 0})
        if nk[s] == 2 and len(ks) == 2:
            a, b = ks
            if (a, b) in wars:
                continue
            mine = {c for who, c, _ in reg.leaders[a] if who == seat} | {
                c for who, c, _ in reg.leaders[b] if who == seat
            }
            theirs = {c for who, c, _ in reg.leaders[a] if who == rival} | {
                c for who, c, _ in reg.leaders[b] if who == rival
            }
            if not mine & theirs:
                continue
            # The uniting tile's colour: blue on a river, else green, black or red (§5.1).
            color = BLUE if IS_RIVER[s] else next((c for c in (3, 1, 0) if c not in theirs), 3)
            wars[(a, b)] = (PlaceTile(color, s), mine & theirs)
        elif nk[s] == 1 and not IS_RIVER[s]:
            t = sum(1 for y in NEIGHBOURS[s] if board[y] == TEMPLE)
            if not t:
                continue
            k = ks[0]
            for who, c, _ in reg.leaders[k]:
                if who == seat and t > revolts.get((k, c), (0, -1))[0]:
                    revolts[(k, c)] = (t, s)
    out = list(wars.values())
    out += [(PlaceLeader(c, s), {c}) for (_, c), (_, s) in revolts.items()]
    return out


def exposed(state: GameState, seat: int, chance: float = EXPOSED_CHANCE) -> list[int]:
    """Return the colours of ``seat``'s leaders the next rival could take as things stand.

    ``state``: ``seat`` to act, no decision pending. A leader is exposed when
    a conflict ``threats`` finds for the next seat in turn order, were it to
    act now, is won by it with at least ``chance`` (``reply_loss``'s odds).
    Medium always weighs withdrawing such a leader (§4.1).
    """
    if state.is_over or state.pending is not None or state.num_players < 2:
        return []
    rival = seat % state.num_players + 1
    them = replace(state, active_seat=rival, actions_left=2)
    out: set[int] = set()
    for move, colours in threats(them, seat):
        if colours - out and _rival_wins(them, seat, move)[0] >= chance:
            out |= colours
    return sorted(out)


def reply_loss(state: GameState, seat: int) -> float:
    """Return what ``seat`` expects to lose to the rival's best conflict reply (module doc).

    ``state``: a rival to act, no decision pending; anything else gives 0.
    In units of ``evaluate`` (about a VP), never negative.
    """
    if state.is_over or state.pending is not None or state.to_act == seat:
        return 0.0
    now = evaluate(state, risks=SWING_RISKS)[seat - 1]
    worst = 0.0
    for move, _ in threats(state, seat):
        chance, won = _rival_wins(state, seat, move)
        if chance >= MIN_CHANCE and won is not None:
            worst = max(worst, chance * (now - evaluate(won, risks=SWING_RISKS)[seat - 1]))
    return worst


def _rival_wins(state: GameState, seat: int, move: engine.Action) -> tuple[float, GameState | None]:
    """Return the chance the rival wins the conflict ``move`` starts, and the state if it does.

    The rival's hand gets ``move``'s tile if need be, then, at its first
    support decision against ``seat``, just enough of the support colour to
    win; the rest is answered by ``decisions.quick_decision``.
    """
    rival = state.active_seat
    if isinstance(move, PlaceTile):
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


__all__ = ["exposed", "reply_loss", "rival_threats", "threats"]
