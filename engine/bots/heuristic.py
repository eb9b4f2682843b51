"""A quick score for each ordinary action, without applying it: easy's policy, medium's pruning.

``score_actions(state, seat)`` returns ``[(score, action)]`` for the legal
ordinary actions worth a look, in units of ``common.score_value`` (about 3 for
one VP in the lowest colour). It estimates the VP an action brings (RULES.md
§5.2), wars and revolts won or lost (§6, §7), treasures a trader takes (§9),
monuments (§8) and leaders stranded by a catastrophe (§10). Tiles that touch
no kingdom all score alike, so only one per colour and terrain is returned.

Some moves are never returned, whatever else is on the board: a revolt or war
the bot would start and cannot win even with every tile of the support colour
in its hand (ties go to the defender, §6.4, §7.3; ``hopeless.starts_hopeless``,
later wars of a unification included, §7.5), and a pass while a tile
would score it a VP now (§5.2). With nothing that scores, a swap of the tiles
without use (§11) is worth more than an idle tile; a leader that loses any
revolt an opponent can start is worth withdrawing or moving (§4).
"""

from __future__ import annotations

import engine
from engine import (
    GameState,
    PlaceCatastrophe,
    PlaceLeader,
    PlaceTile,
    SwapTiles,
    WithdrawLeader,
)
from engine.botapi import (
    BLUE,
    IS_RIVER,
    NEIGHBOURS,
    RED,
    TRADER,
)

from .common import TEMPLE, monument_block
from .hopeless import starts_hopeless

# The scoring model lives in ``scorer``; its names are read from here too.
from .scorer import (
    HOPELESS,
    IDLE_TILE_SCORE,
    TREASURE_VALUE,
    WITHDRAW_SCORE,
    Scorer,
    opp_factor,
)

PASS_SCORE = -0.6  # below an idle tile: a tile drawn brings the end nearer (§13.1)
STUCK_SWAP_SCORE = 0.2  # with nothing that scores, a swap beats idle tiles and a pass (§11)


def score_actions(
    state: GameState, seat: int, *, look_ahead: bool = True
) -> list[tuple[float, engine.Action]]:
    """Return ``[(score, action)]`` for ``seat``'s ordinary actions worth a look (module doc).

    ``state`` must wait for an ordinary action of ``seat`` (no decision
    pending); raises ``ValueError`` otherwise. ``look_ahead=False`` leaves out
    the play-out of a unification's later wars (``hopeless.starts_hopeless``)
    and keeps only the board's test of each war: the search's play-outs, which
    choose no move of the seat's, use it for speed.
    """
    if state.pending is not None or state.to_act != seat:
        raise ValueError("score_actions needs the seat's ordinary action")
    sc = Scorer(state, seat)
    out: list[tuple[float, engine.Action]] = []
    idle: set[tuple[int, bool]] = set()
    nk = sc.nk
    best_by_colour = [-9.0, -9.0, -9.0, -9.0]
    for action in engine.legal_actions(state):
        if isinstance(action, PlaceTile):
            s = action.square
            if nk[s] == 0:
                key = (action.color, IS_RIVER[s])
                if key in idle:
                    continue
                idle.add(key)
                value = IDLE_TILE_SCORE
                if (
                    action.color == RED
                    and sc.monuments_free[RED]
                    and monument_block(sc.board, s, RED)
                ):
                    value += 1.0
            else:
                value = sc.tile(action.color, s)
            if (
                value <= HOPELESS
                or look_ahead
                and nk[s] >= 2
                and starts_hopeless(state, seat, action)
            ):
                continue  # a war the bot would attack in and cannot win, now or later (§7.5)
            best_by_colour[action.color] = max(best_by_colour[action.color], value)
            out.append((value, action))
        elif isinstance(action, PlaceLeader):
            value = sc.leader(action.color, action.square)
            if value > HOPELESS:  # ``Scorer.leader``: a hopeless revolt by ``can_win`` (§6.4)
                out.append((value, action))
        elif isinstance(action, WithdrawLeader):
            out.append((sc.withdraw(action.color), action))
        elif isinstance(action, engine.Pass):
            out.append((PASS_SCORE, action))
    legal_cats = {a.square for a in engine.legal_actions(state) if isinstance(a, PlaceCatastrophe)}
    out.extend(sa for sa in sc.catastrophes() if sa[1].square in legal_cats)
    # One swap: give back the tiles that have no use this turn (§11), if any.
    hand = sc.hand
    counts = [
        0 if best_by_colour[c] > 0 or c == RED and hand[c] <= 2 else hand[c] for c in range(4)
    ]
    if sum(counts):
        value = PASS_SCORE - 0.05 + 0.05 * sum(counts)
        if not sc.scores_now:
            value = max(value, STUCK_SWAP_SCORE)  # stuck: a new hand beats idle tiles
        out.append((value, SwapTiles((counts[0], counts[1], counts[2], counts[3]))))
    if sc.scores_now:
        # Never pass while a tile would score the bot a VP now (§5.2).
        out = [sa for sa in out if not isinstance(sa[1], engine.Pass)]
    return out


__all__ = [
    "HOPELESS",
    "IDLE_TILE_SCORE",
    "PASS_SCORE",
    "STUCK_SWAP_SCORE",
    "TREASURE_VALUE",
    "WITHDRAW_SCORE",
    "Scorer",
    "opp_factor",
    "score_actions",
    "score_threats",
]


def score_threats(state: GameState, seat: int) -> list[tuple[float, engine.Action]]:
    """Return ``[(score, action)]`` for ``seat``'s conflict and treasure moves only, fast.

    The hard tier's model of an opponent's reply: wars started by a tile
    between two kingdoms (§7.1), revolts by a leader placed or moved next to a temple
    of a kingdom holding a rival (§4.4, §6), traders and tiles that take
    treasures (§9), and catastrophes that strand leaders (§10), without
    building the whole ``legal_actions``. The actions are legal by
    construction except a moved leader's (§4.1), which the caller checks.
    Same units as ``score_actions``.
    """
    sc = Scorer(state, seat)
    board = sc.board
    nk = sc.nk
    hand = sc.hand
    reg = sc.summ.regions
    out: list[tuple[float, engine.Action]] = []
    tiles = [c for c in range(4) if hand[c]]
    on_board = sc.summ.leaders[seat - 1]
    for s in range(len(board)):
        if board[s] or not nk[s]:
            continue
        river = IS_RIVER[s]
        if nk[s] == 2 or nk[s] == 1 and sc.square(s)[2]:
            for c in tiles:
                if (c == BLUE) == river:
                    out.append((sc.tile(c, s), PlaceTile(c, s)))
        if nk[s] == 1 and not river and any(board[y] == TEMPLE for y in NEIGHBOURS[s]):
            k = sc.square(s)[0][0]
            for who, c, _ in reg.leaders[k]:
                if who != seat:
                    # From the supply or moved from the board (§4): a leader already placed
                    # elsewhere starts the revolt as well (issue 26: left out, the search
                    # never saw a doomed leader taken, and left it to lose).
                    out.append((sc.leader(c, s), PlaceLeader(c, s)))
            if on_board[TRADER] < 0 and sc.spot(s)[2] >= 2:
                out.append((sc.leader(TRADER, s), PlaceLeader(TRADER, s)))
    out.extend(sc.catastrophes())
    return out
