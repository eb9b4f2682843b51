"""Which actions are legal: ``legal_actions`` (RULES.md §2, §4–§11, §15).

It and ``checks.check`` read one cached ``Analysis`` per state, derived from the
parent state's by a local update (``derive``), so a candidate action costs a
few list look-ups: a tile is legal on a square when its at most four
neighbours touch at most two kingdoms.
"""

from __future__ import annotations

from collections.abc import Sequence
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
    swap_actions_for,
)
from .board import (
    IS_RIVER,
    LAND_SQUARES,
    NEIGHBOURS,
    NUM_SQUARES,
    RIVER_SQUARES,
    SQUARE_BY_NAME,
)
from .kingdoms import Regions, label, region_of, relabel
from .pieces import (
    BLUE,
    COLOR_BY_NAME,
    EMPTY,
    FACE_DOWN,
    LEADER_BASE,
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
    """Return the cached ``Analysis`` of ``state``'s board.

    A state made by ``apply`` carries its parent's analysis (``cache["base"]``,
    set by ``Work.freeze``): its own is derived from it by ``derive``, touching
    only the squares the action changed; any other state is analysed afresh.
    """
    cache = state.cache
    got = cache.get("analysis")
    if got is None:
        base = cache.pop("base", None)
        if base is None:
            got = _analyse(state.board)
        else:
            parent, old, changed, relabelled = base
            got = derive(parent, old, state.board, changed, relabelled)
        cache["analysis"] = got
    return got  # type: ignore[no-any-return,unused-ignore]


def derive(
    parent: Analysis,
    old: tuple[int, ...],
    board: tuple[int, ...],
    changed: list[int],
    relabelled: tuple[Regions, list[int]] | None = None,
) -> Analysis:
    """Return the ``Analysis`` of ``board`` from ``parent``, the analysis of ``old`` (§3–§5).

    ``changed`` lists every square where the boards differ; ``relabelled`` is
    ``kingdoms.relabel``'s answer for them when it has already run. Only empty
    squares next to a square whose kingdom changed get a new count of
    neighbouring kingdoms; leader spots change only around changed squares
    and temples.
    """
    if not changed:
        return parent
    if relabelled is None:
        relabelled = relabel(parent.regions, old, board, changed)
    regions, moved = relabelled
    kid, old_kid = regions.kid, parent.regions.kid
    neigh = NEIGHBOURS
    nk = list(parent.nk)
    recount = {x for x in changed if not board[x]}
    for x in changed:
        if board[x]:
            nk[x] = 9
    for x in moved:
        if kid[x] != old_kid[x] or x in recount:
            for y in neigh[x]:
                if not board[y]:
                    recount.add(y)
    for y in recount:
        ks = {kid[z] for z in neigh[y]}
        ks.discard(-1)
        nk[y] = len(ks)
    land_ok = [s for s in LAND_SQUARES if nk[s] <= 2]
    river_ok = [s for s in RIVER_SQUARES if nk[s] <= 2]
    if any(board[x] == TEMPLE or old[x] == TEMPLE for x in changed):
        spots = _leader_spots(board)
    else:
        gone = set(changed)
        spots = [s for s in parent.leader_spots if s not in gone]
        spots += [
            x
            for x in changed
            if not board[x] and not IS_RIVER[x] and any(board[y] == TEMPLE for y in neigh[x])
        ]
        spots.sort()
    return Analysis(regions, nk, land_ok, river_ok, spots)


def _leader_spots(board: Sequence[int]) -> list[int]:
    """Return the empty land squares next to a face-up temple (§4.2), in square order."""
    neigh = NEIGHBOURS
    return sorted(
        {
            y
            for t, c in zip(_ALL, board, strict=True)
            if c == TEMPLE
            for y in neigh[t]
            if not board[y] and not IS_RIVER[y]
        }
    )


def _analyse(board: tuple[int, ...]) -> Analysis:
    regions = label(board)
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
    return Analysis(regions, nk, land_ok, river_ok, _leader_spots(board))


def leader_targets(state: GameState, color: int) -> list[int]:
    """Return the squares where the active seat's leader of ``color`` may go (§4.1, §4.2).

    A leader on the board is judged with itself lifted: only its own region
    changes, so only the spots next to that region are judged again, and the
    region is flood-filled only when lifting the leader may split it between
    other leaders.
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


_PART = 1 << 20  # ids for the parts of a lifted leader's region, distinct from region ids


def _lifted_targets(board: tuple[int, ...], an: Analysis, pos: int) -> list[int]:
    """Return leader spots legal once the leader on ``pos`` is lifted (§4.1)."""
    regions = an.regions
    rid, kid = regions.rid, regions.kid
    home = rid[pos]
    neigh = NEIGHBOURS
    # New kingdom ids of the home region's squares once the leader is lifted.
    lifted: dict[int, int] = {pos: -1}
    others = any(sq != pos for _, _, sq in regions.leaders[home])
    if not others:
        for x in regions.squares[home]:
            lifted[x] = -1  # no leader left: no kingdom
    elif sum(1 for y in neigh[pos] if rid[y] == home) > 1:
        # Lifting may split the region: its parts are kingdoms only if they keep a leader.
        part_id = _PART
        for x in regions.squares[home]:
            if x in lifted:
                continue
            part = region_of(board, x, pos)
            has_leader = any(board[y] >= LEADER_BASE for y in part)
            mark = part_id if has_leader else -1
            for y in part:
                lifted[y] = mark
            part_id += 1
    # else: the region stays whole and keeps a leader: only ``pos`` itself changes.
    nk = an.nk
    # Only the empty squares next to the home region can see a different kingdom count.
    near = {y for x in regions.squares[home] for y in neigh[x] if not board[y]}
    out = []
    for s in an.leader_spots:
        if s not in near:
            if nk[s] <= 1:
                out.append(s)
            continue
        first = -1
        ok = True
        for y in neigh[s]:
            k = lifted.get(y, kid[y]) if rid[y] == home else kid[y]
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
