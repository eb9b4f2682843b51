"""Which actions are legal: ``legal_actions`` (RULES.md §2, §4–§11, §15).

It and ``checks.check`` read one cached ``Analysis`` per state (``engine.analysis``),
derived from the parent state's by a local update, so a candidate action costs a few
list look-ups: a tile is legal on a square when its at most four neighbours touch at
most two kingdoms. Here too: where a leader may go (``leader_targets``, ``leader_fits``),
judged with the leader lifted.
"""

from __future__ import annotations

from bisect import bisect_left, insort

from . import monuments
from .actions import (
    COMMIT_ACTIONS,
    DECLINE,
    LEADER_ACTIONS,
    MONUMENT_ACTIONS,
    PASS,
    TREASURE_ACTIONS,
    WAR_ACTIONS,
    WITHDRAW_ACTIONS,
    Action,
    SwapTiles,
    swap_actions_for,
)
from .analysis import Analysis, analysis, by_temple, picker
from .board import (
    IS_RIVER,
    NEIGHBOURS,
    SQUARE_BY_NAME,
)
from .kingdoms import stays_whole
from .pieces import (
    COLOR_BY_NAME,
    EMPTY,
    LEADER_BASE,
)
from .state import GameState


def leader_targets(state: GameState, color: int) -> list[int]:
    """Return the squares where the active seat's leader of ``color`` may go (§4.1, §4.2).

    A leader on the board is judged with itself lifted: only its own region
    changes, so only the spots next to that region are judged again, and the
    region is flood-filled only when lifting the leader may split it between
    other leaders.
    """
    an = analysis(state)
    pos = state.leader_square(state.active_seat, color)
    if pos < 0:
        return an.free_spots()
    home = an.regions.squares[an.regions.rid[pos]]
    free = an.free_spots()
    got = an._lifted.get(pos)
    if got is not None and got[0] is home:
        if got[3] is free:
            return got[4]
        opened, closed = got[1], got[2]
    else:
        opened, closed = _lifted_flips(state.board, an, pos)
    targets = _flipped(free, opened, closed)
    an._lifted[pos] = (home, opened, closed, free, targets)
    return targets


def leader_fits(state: GameState, color: int, square: int) -> bool:
    """Return True when the active seat's leader of ``color`` may go to leader spot ``square``.

    Equals ``square in leader_targets(state, color)`` for a square of
    ``analysis(state).leader_spots`` (§4.1, §4.2), judging that one square:
    only when lifting a leader on the board may split its region are all
    its targets worked out.
    """
    an = analysis(state)
    nk = an.nk
    n = nk[square]
    pos = state.leader_square(state.active_seat, color)
    if pos < 0 or n == 0:
        return n <= 1
    if n >= 3:
        return False  # lifting takes away at most one kingdom
    regions = an.regions
    rid, kid = regions.rid, regions.kid
    home = rid[pos]
    neigh = NEIGHBOURS
    if home not in [kid[y] for y in neigh[square]]:
        return n <= 1  # lifting does not touch this square's kingdoms
    if len(regions.leaders[home]) == 1:  # the lifted leader alone
        return True  # its region is no kingdom once lifted: n - 1 <= 1 kingdoms left
    if stays_whole(rid, home, pos):
        if n == 1:
            return True
        return home not in [kid[y] for y in neigh[square] if y != pos]
    return square in leader_targets(state, color)


_PART = 1 << 20  # ids for the parts of a lifted leader's region, distinct from region ids


def _split(
    board: tuple[int, ...], rid: list[int], leaders: list[tuple[int, int, int]], pos: int
) -> tuple[dict[int, int], int]:
    """Return the parts of ``pos``'s region once ``pos`` is lifted, as kingdom ids (§3, §4.1).

    Answers ``(ids, rest)``: ``ids`` maps the squares of every part but the
    last found to a fresh id, or -1 for a part left without a leader;
    every other square of the region is in the last part, whose id is ``rest``.
    Each part touches ``pos``, so only the parts from its neighbours are
    flood-filled, and the last one never is.
    """
    home = rid[pos]
    neigh = NEIGHBOURS
    starts = [y for y in neigh[pos] if rid[y] == home]
    ids: dict[int, int] = {pos: -1}
    found_leaders = 0
    part_id = _PART
    for i, x in enumerate(starts):
        if x in ids:
            continue
        if all(y in ids for y in starts[i + 1 :]):
            # The last part: whatever the others did not reach, with the leaders they did not.
            rest = part_id if found_leaders < len(leaders) - 1 else -1
            return ids, rest
        members = [x]
        ids[x] = part_id
        for m in members:
            for y in neigh[m]:
                if rid[y] == home and y not in ids:
                    ids[y] = part_id
                    members.append(y)
        count = sum(1 for m in members if board[m] >= LEADER_BASE)
        if not count:
            for m in members:
                ids[m] = -1
        found_leaders += count
        part_id += 1
    return ids, -1


def _lifted_flips(board: tuple[int, ...], an: Analysis, pos: int) -> tuple[list[int], list[int]]:
    """Return the leader spots that open and those that close once ``pos`` is lifted (§4.1).

    Answers ``(opened, closed)``: spots not free (``an.free_spots()``) that
    the lifted leader may go to, and free spots it may not. The leader's
    region loses its kingdom when no other leader is in it; it may split
    when ``pos`` joined parts of it, and then each part is a kingdom only if
    it keeps a leader. Other kingdoms do not change, so only spots next to
    the region flip.
    """
    regions = an.regions
    rid, kid = regions.rid, regions.kid
    home = rid[pos]
    neigh = NEIGHBOURS
    others = len(regions.leaders[home]) > 1  # the lifted leader is one of them
    nk = an.nk
    if not others:
        # The region is no kingdom once lifted: a spot next to it and one other kingdom opens.
        extra = [s for s in an.pair_spots() if home in [kid[y] for y in neigh[s]]]
        return extra, []
    if stays_whole(rid, home, pos):
        # The region stays one kingdom: only a spot touching it at ``pos`` alone opens.
        extra = []
        for s in neigh[pos]:
            if (
                nk[s] == 2
                and not IS_RIVER[s]
                and by_temple(board, s)
                and home not in [kid[y] for y in neigh[s] if y != pos]
            ):
                extra.append(s)
        return extra, []
    parts, last = _split(board, rid, regions.leaders[home], pos)
    # Only the spots next to the home region can see their count of kingdoms change.
    opened: list[int] = []
    closed: list[int] = []
    for s in an.spots_near(home):
        if nk[s] >= 3:
            continue  # lifting takes away at most one of them: still illegal
        first = -1
        ok = True
        for y in neigh[s]:
            k = kid[y]
            if k == home:
                if y == pos:
                    continue
                k = parts.get(y, last)
                if k < 0:
                    continue
            elif k < 0:
                continue
            if first < 0:
                first = k
            elif k != first:
                ok = False
                break
        if ok != (nk[s] <= 1):
            (opened if ok else closed).append(s)
    return opened, closed


def _flipped(spots: list[int], opened: list[int], closed: list[int]) -> list[int]:
    """Return the sorted ``spots`` with ``opened`` added and ``closed`` taken out.

    ``spots`` itself when both are empty, else a new list.
    """
    if not opened and not closed:
        return spots
    out = list(spots)
    for s in closed:
        i = bisect_left(out, s)
        if i < len(out) and out[i] == s:
            del out[i]
    for s in opened:
        insort(out, s)
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
            out += an.tile_actions(c)
    leaders = state.leader_squares()[seat - 1]
    free = an.free_spots()
    pick_free = None
    for c in range(4):
        targets = leader_targets(state, c)
        if targets is free:  # the same squares for every leader in supply: one getter
            if pick_free is None:
                pick_free = picker(free)
            out += pick_free(LEADER_ACTIONS[c])
        else:
            out += picker(targets)(LEADER_ACTIONS[c])
    for c in range(4):
        if leaders[c] >= 0:
            out.append(WITHDRAW_ACTIONS[c])
    if state.catastrophes[seat - 1]:
        # Anywhere empty or on a face-up tile, but not on a tile holding a treasure (§10).
        board = state.board
        base = len(out)
        out += an.catastrophe_actions()
        opened = an.open_squares
        for t in reversed(state.treasures):  # sorted: later deletions leave earlier indices
            if board[t] != EMPTY:
                i = bisect_left(opened, t)
                if i < len(opened) and opened[i] == t:
                    del out[base + i]
    swaps = _SWAPS.get(hand)
    if swaps is None:
        swaps = _SWAPS[hand] = swap_actions_for(hand)
    out += swaps
    out.append(PASS)
    return tuple(out)


# The swaps of each hand met so far (at most a few hundred hands of up to six tiles).
_SWAPS: dict[tuple[int, int, int, int], list[SwapTiles]] = {}
