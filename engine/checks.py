"""Checking one action: ``check`` raises ``IllegalActionError`` naming the rule (RULES.md §16.1).

Each refusal has a stable ``code`` (the site translates it) and an English
sentence citing the rule. ``apply`` accepts exactly ``legal_actions``; the
tests hold the two to each other.
"""

from __future__ import annotations

from . import monuments
from .actions import (
    Action,
    BuildMonument,
    ChooseWar,
    CommitSupport,
    DeclineMonument,
    Pass,
    PlaceCatastrophe,
    PlaceLeader,
    PlaceTile,
    SwapTiles,
    TakeTreasure,
    WithdrawLeader,
)
from .analysis import TEMPLE, analysis
from .board import IS_RIVER, NEIGHBOURS, SQUARE_NAMES
from .errors import IllegalActionError
from .legality import leader_targets
from .pieces import (
    BLUE,
    CATASTROPHE,
    COLOR_BY_NAME,
    COLOR_NAMES,
    EMPTY,
    FACE_DOWN,
    LEADER_BASE,
    LEADER_NAMES,
)
from .state import GameState


def _fail(code: str, message: str, **params: object) -> IllegalActionError:
    return IllegalActionError(code, message, **params)


def check(state: GameState, action: Action) -> None:
    """Raise ``IllegalActionError`` (with a code naming the rule) unless ``action`` is legal."""
    if not isinstance(action, Action):
        raise _fail("not_an_action", "only an Action can be applied (RULES.md §2)")
    if state.is_over:
        raise _fail("game_over", "the game is over: no more actions (RULES.md §13.1)")
    p = state.pending
    decision = isinstance(
        action, (CommitSupport, ChooseWar, BuildMonument, DeclineMonument, TakeTreasure)
    )
    if p is not None and not decision:
        raise _fail(
            "decision_pending",
            f"seat {p.seat} must first decide ({p.kind.replace('_', ' ')}) (RULES.md §15)",
            seat=p.seat,
            kind=p.kind,
        )
    if p is None and decision:
        raise _fail(
            "no_decision_pending",
            f"'{action}' answers a decision, but none is pending (RULES.md §15)",
        )
    if p is not None:
        _check_decision(state, action)
    else:
        _check_ordinary(state, action)


def _check_decision(state: GameState, action: Action) -> None:
    p = state.pending
    assert p is not None
    kinds = {
        CommitSupport: "support",
        ChooseWar: "war_order",
        BuildMonument: "monument",
        DeclineMonument: "monument",
        TakeTreasure: "treasure",
    }
    want = kinds[type(action)]
    if want != p.kind:
        raise _fail(
            "wrong_decision",
            f"the pending decision is {p.kind.replace('_', ' ')}, "
            f"not {want.replace('_', ' ')} (RULES.md §15)",
            kind=p.kind,
        )
    if isinstance(action, CommitSupport):
        assert p.support_color is not None
        have = state.hands[p.seat - 1][COLOR_BY_NAME[p.support_color]]
        if action.count > have:
            rule = "§6.3" if p.conflict == "revolt" else "§7.3"
            raise _fail(
                "support_not_in_hand",
                f"cannot commit {action.count} {p.support_color} tiles: "
                f"only {have} in hand (RULES.md {rule})",
                count=action.count,
                color=p.support_color,
            )
    elif isinstance(action, ChooseWar) and COLOR_NAMES[action.color] not in p.options:
        raise _fail(
            "war_not_possible",
            f"there is no {COLOR_NAMES[action.color]} war to fight (RULES.md §7.2)",
            color=COLOR_NAMES[action.color],
        )
    elif isinstance(action, BuildMonument):
        if (action.monument, action.square) not in monuments.options(
            state.board, state.placed, state.monuments
        ):
            raise _fail(
                "monument_not_possible",
                f"'{action}' is not possible: a monument needs a completed 2x2 block of one of its"
                " colours and must still be available (RULES.md §8.1)",
                square=SQUARE_NAMES[action.square],
            )
    elif isinstance(action, TakeTreasure) and SQUARE_NAMES[action.square] not in p.options:
        raise _fail(
            "treasure_not_available",
            f"the treasure on {SQUARE_NAMES[action.square]} cannot be taken now: special"
            " treasures come first, and only treasures of the trader's kingdom (RULES.md §9)",
            square=SQUARE_NAMES[action.square],
        )


def _check_ordinary(state: GameState, action: Action) -> None:
    seat = state.active_seat
    board = state.board
    if isinstance(action, PlaceTile):
        c, s, name = action.color, action.square, SQUARE_NAMES[action.square]
        if not state.hands[seat - 1][c]:
            raise _fail(
                "tile_not_in_hand",
                f"you have no {COLOR_NAMES[c]} tile in hand (RULES.md §5.1)",
                color=COLOR_NAMES[c],
            )
        if board[s] != EMPTY:
            raise _fail(
                "square_occupied", f"the square {name} is not empty (RULES.md §5.1)", square=name
            )
        if c == BLUE and not IS_RIVER[s]:
            raise _fail(
                "farm_on_land",
                "a farm must be placed on a river square (RULES.md §5.1)",
                square=name,
            )
        if c != BLUE and IS_RIVER[s]:
            raise _fail(
                "tile_on_river",
                f"a {COLOR_NAMES[c]} tile must be placed on a land square (RULES.md §5.1)",
                square=name,
            )
        if analysis(state).nk[s] > 2:
            raise _fail(
                "three_kingdoms",
                "a tile may not touch three or more kingdoms (RULES.md §5.1)",
                square=name,
            )
    elif isinstance(action, PlaceLeader):
        c, s, name = action.color, action.square, SQUARE_NAMES[action.square]
        leader = LEADER_NAMES[c]
        if state.leader_square(seat, c) == s:
            raise _fail(
                "leader_same_square",
                f"your {leader} already stands on {name}: that is not an action (RULES.md §4.1)",
                square=name,
            )
        if board[s] != EMPTY:
            raise _fail(
                "square_occupied", f"the square {name} is not empty (RULES.md §4.2)", square=name
            )
        if IS_RIVER[s]:
            raise _fail(
                "leader_on_river",
                "a leader must be placed on a land square (RULES.md §4.2)",
                square=name,
            )
        if not any(board[y] == TEMPLE for y in NEIGHBOURS[s]):
            raise _fail(
                "leader_no_temple",
                "a leader must be placed next to a face-up red temple (RULES.md §4.2)",
                square=name,
            )
        if s not in leader_targets(state, c):
            raise _fail(
                "leader_unites_kingdoms",
                "a leader may not touch two kingdoms (RULES.md §4.2)",
                square=name,
            )
    elif isinstance(action, WithdrawLeader):
        if state.leader_square(seat, action.color) < 0:
            raise _fail(
                "leader_not_on_board",
                f"your {LEADER_NAMES[action.color]} is not on the board (RULES.md §4.1)",
                leader=LEADER_NAMES[action.color],
            )
    elif isinstance(action, PlaceCatastrophe):
        s, name = action.square, SQUARE_NAMES[action.square]
        if not state.catastrophes[seat - 1]:
            raise _fail("no_catastrophe_left", "you have no catastrophe left (RULES.md §10)")
        cell = board[s]
        if cell >= LEADER_BASE:
            raise _fail(
                "catastrophe_on_leader",
                "a catastrophe may not be placed on a leader (RULES.md §10)",
                square=name,
            )
        if cell == CATASTROPHE:
            raise _fail(
                "catastrophe_on_catastrophe",
                "a catastrophe may not be placed on another catastrophe (RULES.md §10)",
                square=name,
            )
        if cell == FACE_DOWN:
            raise _fail(
                "catastrophe_on_monument",
                "a catastrophe may not be placed on a tile under a monument (RULES.md §10)",
                square=name,
            )
        if s in state.treasures:
            raise _fail(
                "catastrophe_on_treasure",
                "a catastrophe may not be placed on a tile holding a treasure (RULES.md §10)",
                square=name,
            )
    elif isinstance(action, SwapTiles):
        hand = state.hands[seat - 1]
        if any(action.counts[c] > hand[c] for c in range(4)):
            raise _fail(
                "swap_not_in_hand", f"'{action}' names tiles you do not hold (RULES.md §11)"
            )
    elif isinstance(action, Pass):
        return
    else:  # pragma: no cover - the action set is closed
        raise _fail("not_an_action", "unknown action (RULES.md §2)")
