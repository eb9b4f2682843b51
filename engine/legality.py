"""Which actions are legal: ``legal_actions`` (RULES.md §2, §4–§11, §15).

It and ``checks.check`` read one cached ``Analysis`` per state (a single flood fill), so a
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
from .kingdoms import Regions, label, region_of
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
