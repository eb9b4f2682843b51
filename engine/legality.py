"""Which actions are legal: ``legal_actions`` and ``check`` (RULES.md §2, §4–§11, §15).

Both read one cached ``Analysis`` per state (a single flood fill), so a
candidate action costs a few list look-ups: a tile is legal on a square when
its at most four neighbours touch at most two kingdoms.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import monuments
from .actions import (
    CATASTROPHE_ACTIONS,
    COMMIT_ACTIONS,
    DECLINE,
    LEADER_ACTIONS,
    MONUMENT_ACTIONS,
    PASS,
    TILE_ACTIONS,
    TREASURE_ACTIONS,
    WAR_ACTIONS,
    WITHDRAW_ACTIONS,
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
    swap_actions_for,
)
from .board import (
    IS_RIVER,
    LAND_SQUARES,
    NEIGHBOURS,
    NUM_SQUARES,
    RIVER_SQUARES,
    SQUARE_BY_NAME,
    SQUARE_NAMES,
)
from .errors import IllegalActionError
from .kingdoms import Regions, label, region_of
from .pieces import (
    BLUE,
    CATASTROPHE,
    COLOR_BY_NAME,
    COLOR_NAMES,
    EMPTY,
    FACE_DOWN,
    LEADER_BASE,
    LEADER_NAMES,
    RED,
    TILE_BASE,
)
from .state import GameState

TEMPLE = TILE_BASE + RED
_ALL = range(NUM_SQUARES)


@dataclass(slots=True)
class Analysis:
    """Hold what legality needs about one board, computed once per state.

    ``nk[s]`` is the number of distinct kingdoms next to empty square ``s``
    (9 for occupied squares); ``land_ok``/``river_ok`` the empty squares where
    a tile may go (§5.1); ``leader_spots`` the empty land squares next to a
    face-up temple (§4.2).
    """

    regions: Regions
    nk: list[int]
    land_ok: list[int]
    river_ok: list[int]
    leader_spots: list[int]


def analysis(state: GameState) -> Analysis:
    """Return the cached ``Analysis`` of ``state``'s board."""
    got = state.cache.get("analysis")
    if got is None:
        got = _analyse(state.board)
        state.cache["analysis"] = got
    return got  # type: ignore[no-any-return,unused-ignore]


def _analyse(board: tuple[int, ...]) -> Analysis:
    regions = label(board)
    kid = regions.kid
    neigh = NEIGHBOURS
    # Only empty squares next to a kingdom can touch one: walk the kingdoms' edges.
    touching: dict[int, set[int]] = {}
    for r, leaders in enumerate(regions.leaders):
        if not leaders:
            continue
        for x in regions.squares[r]:
            for y in neigh[x]:
                if not board[y]:
                    got = touching.get(y)
                    if got is None:
                        touching[y] = {r}
                    else:
                        got.add(r)
    nk = [0 if not c else 9 for c in board]
    for y, ks in touching.items():
        nk[y] = len(ks)
    land_ok = [s for s in LAND_SQUARES if nk[s] <= 2]
    river_ok = [s for s in RIVER_SQUARES if nk[s] <= 2]
    spots = sorted(
        {
            y
            for t in _ALL
            if board[t] == TEMPLE
            for y in neigh[t]
            if not board[y] and not IS_RIVER[y]
        }
    )
    del kid
    return Analysis(regions, nk, land_ok, river_ok, spots)


def leader_targets(state: GameState, color: int) -> list[int]:
    """Return the squares where the active seat's leader of ``color`` may go (§4.1, §4.2).

    A leader on the board is judged with itself lifted: only its own region
    changes, so only that region is flood-filled again.
    """
    an = analysis(state)
    pos = state.leader_square(state.active_seat, color)
    nk = an.nk
    if pos < 0:
        return [s for s in an.leader_spots if nk[s] <= 1]
    key = f"lifted{pos}"
    got = state.cache.get(key)
    if got is None:
        got = _lifted_targets(state.board, an, pos)
        state.cache[key] = got
    return got  # type: ignore[no-any-return,unused-ignore]


def _lifted_targets(board: tuple[int, ...], an: Analysis, pos: int) -> list[int]:
    """Return leader spots legal once the leader on ``pos`` is lifted (§4.1)."""
    regions = an.regions
    home = regions.rid[pos]
    kid = list(regions.kid)
    # Relabel the leader's region without it: its parts are kingdoms only if they keep a leader.
    kid[pos] = -1
    part_id = NUM_SQUARES  # fresh ids, distinct from every region id
    for x in regions.squares[home]:
        if x == pos or kid[x] >= NUM_SQUARES or kid[x] == -2:
            continue
        part = region_of(board, x, pos)
        has_leader = any(board[y] >= LEADER_BASE for y in part)
        mark = part_id if has_leader else -2
        for y in part:
            kid[y] = mark
        part_id += 1
    out = []
    neigh = NEIGHBOURS
    for s in an.leader_spots:
        first = -1
        ok = True
        for y in neigh[s]:
            k = kid[y]
            if k >= 0:
                if first < 0:
                    first = k
                elif k != first:
                    ok = False
                    break
        if ok:
            out.append(s)
    return out


def legal_actions(state: GameState) -> tuple[Action, ...]:
    """Return every legal action of ``state.to_act``, sorted; empty only when the game is over.

    RULES.md §2 (ordinary actions) and §15 (decisions).
    """
    got = state.cache.get("legal")
    if got is not None:
        return got  # type: ignore[no-any-return,unused-ignore]
    out = _legal(state)
    state.cache["legal"] = out
    return out


def _legal(state: GameState) -> tuple[Action, ...]:
    if state.is_over:
        return ()
    p = state.pending
    if p is not None:
        if p.kind == "support":
            assert p.support_color is not None
            have = state.hands[p.seat - 1][COLOR_BY_NAME[p.support_color]]
            return COMMIT_ACTIONS[: have + 1]
        if p.kind == "war_order":
            return tuple(WAR_ACTIONS[COLOR_BY_NAME[c]] for c in p.options)
        if p.kind == "monument":
            found = monuments.options(state.board, state.placed, state.monuments)
            return (*(MONUMENT_ACTIONS[m][t] for m, t in sorted(found)), DECLINE)
        return tuple(TREASURE_ACTIONS[SQUARE_BY_NAME[n]] for n in p.options)
    seat = state.active_seat
    hand = state.hands[seat - 1]
    an = analysis(state)
    out: list[Action] = []
    for c in range(4):
        if hand[c]:
            table = TILE_ACTIONS[c]
            out += [table[s] for s in (an.river_ok if c == BLUE else an.land_ok)]
    leaders = state.leader_squares()[seat - 1]
    for c in range(4):
        table2 = LEADER_ACTIONS[c]
        out += [table2[s] for s in leader_targets(state, c)]
    out.extend(WITHDRAW_ACTIONS[c] for c in range(4) if leaders[c] >= 0)
    if state.catastrophes[seat - 1]:
        board = state.board
        treasures = set(state.treasures)
        out += [
            CATASTROPHE_ACTIONS[s]
            for s in _ALL
            if board[s] < FACE_DOWN and (board[s] == EMPTY or s not in treasures)
        ]
    out.extend(swap_actions_for(hand))
    out.append(PASS)
    return tuple(out)


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
