"""``new_game`` and ``apply``: resolving one action in order (RULES.md §1.3, §12, §16).

After its main effect an action runs through the stages of §16 — wars,
monument, treasures — stopping whenever a decision is pending (§15); the
decision's answer resumes the stages. When the action is done and no action
is left, the end of turn (§12) follows.
"""

from __future__ import annotations

import random

from . import building, conflicts, treasures
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
from .analysis import analysis
from .board import NUM_SQUARES, SQUARE_NAMES, START_TEMPLES
from .checks import check
from .pieces import (
    CATASTROPHE,
    CATASTROPHES_EACH,
    COLOR_NAMES,
    EMPTY,
    HAND_SIZE,
    LEADER_NAMES,
    MAX_PLAYERS,
    MONUMENTS,
    RED,
    TILE_BASE,
    TILE_TOTALS,
    TREASURE_COUNT,
    leader_cell,
)
from .scoring import score_tile
from .state import GameState
from .work import Work


def new_game(num_players: int, seed: int, *, open_scoring: bool = False) -> GameState:
    """Set up a game for ``num_players`` (2–4) from ``seed`` (RULES.md §1.3).

    Ten temples with treasures on the starting squares, the other 143 tiles
    shuffled into the bag, 6 tiles and 2 catastrophes per seat, seat 1 to
    play with two actions. ``open_scoring`` shows every seat's totals to all
    (§14). Raises ``ValueError`` for a player count outside 2–4.
    """
    if not isinstance(num_players, int) or not 2 <= num_players <= MAX_PLAYERS:
        raise ValueError(f"a game has 2 to 4 players, not {num_players!r} (RULES.md §1.3)")
    board = [EMPTY] * NUM_SQUARES
    for s in START_TEMPLES:
        board[s] = TILE_BASE + RED
    bag = [c for c in range(4) for _ in range(TILE_TOTALS[c] - (TREASURE_COUNT if c == RED else 0))]
    random.Random(seed).shuffle(bag)
    hands = []
    for _ in range(num_players):
        hand = [0, 0, 0, 0]
        for c in bag[-HAND_SIZE:]:
            hand[c] += 1
        del bag[-HAND_SIZE:]
        hands.append((hand[0], hand[1], hand[2], hand[3]))
    return GameState(
        num_players=num_players,
        seed=seed,
        open_scoring=open_scoring,
        board=tuple(board),
        treasures=tuple(sorted(START_TEMPLES)),
        hands=tuple(hands),
        vp=tuple((0, 0, 0, 0) for _ in range(num_players)),
        treasures_held=(0,) * num_players,
        catastrophes=(CATASTROPHES_EACH,) * num_players,
        bag=tuple(bag),
        discarded=0,
        monuments=(-1,) * len(MONUMENTS),
        active_seat=1,
        actions_left=ACTIONS_PER_TURN,
    )


ACTIONS_PER_TURN = 2  # RULES.md §2: up to two actions a turn


def apply(state: GameState, action: Action) -> GameState:
    """Return the state after ``action``; never mutates ``state`` (RULES.md §16).

    Raises ``IllegalActionError`` (a ``ValueError`` with ``code`` and
    ``params``) for anything not in ``legal_actions(state)``. The new state's
    ``events`` describe what the action caused.
    """
    check(state, action)
    return resolve(state, action, log=True)


def resolve(state: GameState, action: Action, *, log: bool) -> GameState:
    """Return the state after a legal ``action``, with its events only if ``log`` (RULES.md §16).

    ``apply`` checks first; ``playout.apply_fast`` does not (its actions come
    from ``legal_actions`` or ``sample_action``). An illegal action here gives
    an undefined result.
    """
    w = Work(state, log=log)
    if state.pending is None:
        w.actions_left -= 1
    if isinstance(action, PlaceTile):
        _place_tile(w, state, action)
        stage = "war" if w.unification >= 0 else "monument"
    elif isinstance(action, PlaceLeader):
        if _place_leader(w, action):
            return w.freeze()
        stage = "treasure"
    elif isinstance(action, WithdrawLeader):
        if w.log:
            w.emit(
                "leader_withdrawn",
                seat=w.active,
                leader=LEADER_NAMES[action.color],
                square=SQUARE_NAMES[w.leaders[w.active - 1][action.color]],
                reason="action",
            )
        sq = w.leaders[w.active - 1][action.color]
        w.put(sq, EMPTY)
        w.set_leader(w.active, action.color, -1)
        stage = "treasure"
    elif isinstance(action, PlaceCatastrophe):
        _place_catastrophe(w, action.square)
        stage = "treasure"
    elif isinstance(action, SwapTiles):
        _swap(w, action)
        stage = "done"
    elif isinstance(action, Pass):
        w.actions_left = 0
        w.emit("passed", seat=w.active)
        stage = "done"
    elif isinstance(action, CommitSupport):
        if not conflicts.commit(w, action.count):
            return w.freeze()
        stage = "war"
    elif isinstance(action, ChooseWar):
        w.pending = None
        conflicts.start_war(w, action.color)
        return w.freeze()
    elif isinstance(action, BuildMonument):
        building.build(w, action.monument, action.square)
        stage = "treasure"
    elif isinstance(action, DeclineMonument):
        building.decline(w)
        stage = "treasure"
    else:
        assert isinstance(action, TakeTreasure) and state.pending is not None
        if treasures.resolve(w, action.square, state.pending.seat):
            return w.freeze()
        stage = "done"
    _run(w, stage)
    return w.freeze()


def _run(w: Work, stage: str) -> None:
    """Run the remaining stages of §16 from ``stage``; stop at a pending decision."""
    if stage == "war":
        if conflicts.next_war(w):
            return
        stage = "monument"
    if stage == "monument":
        if building.offer(w):
            return
        stage = "treasure"
    if stage == "treasure" and treasures.resolve(w):
        return
    w.pending = None
    w.conflict = None
    w.unification = -1
    w.placed = -1
    if not w.is_over and w.actions_left <= 0:
        _end_turn(w)


def _place_tile(w: Work, state: GameState, action: PlaceTile) -> None:
    """Put the tile down and score it, or mark a unification (§5, §7.1)."""
    s, c = action.square, action.color
    regions = analysis(state).regions
    kingdoms = regions.kingdoms_next_to(s)
    w.add_tiles(w.active, c, -1)
    w.put(s, TILE_BASE + c)
    w.placed = s
    if w.log:
        w.emit("tile_placed", seat=w.active, color=COLOR_NAMES[c], square=SQUARE_NAMES[s])
    if len(kingdoms) == 2:
        w.unification = s
        if w.log:  # next_war reads the same labelling (remembered by Work.regions)
            wars = conflicts.wars_at(w.board, s, w.regions(s))
            w.emit("unification", square=SQUARE_NAMES[s], wars=[COLOR_NAMES[k] for k, _ in wars])
    elif len(kingdoms) == 1:
        score_tile(w, c, regions.leaders[kingdoms.pop()])


def _place_leader(w: Work, action: PlaceLeader) -> bool:
    """Place or move the leader; return True when a revolt now waits for support (§4, §6)."""
    seat, c, s = w.active, action.color, action.square
    old = w.leaders[seat - 1][c]
    if old >= 0:
        w.put(old, EMPTY)
        if w.log:
            w.emit(
                "leader_moved",
                seat=seat,
                leader=LEADER_NAMES[c],
                from_square=SQUARE_NAMES[old],
                square=SQUARE_NAMES[s],
            )
    elif w.log:
        w.emit("leader_placed", seat=seat, leader=LEADER_NAMES[c], square=SQUARE_NAMES[s])
    w.put(s, leader_cell(seat, c))
    w.set_leader(seat, c, s)
    regions = w.regions()
    # A legal placement joins at most one kingdom, so at most one leader of its colour (§4.4).
    for _, color, square in regions.leaders[regions.rid[s]]:
        if color == c and square != s:
            conflicts.start_revolt(w, s, square)
            return True
    return False


def _place_catastrophe(w: Work, s: int) -> None:
    """Destroy the tile on ``s`` and block the square (§10)."""
    seat = w.active
    w.add("catastrophes", seat - 1, -1)
    cell = w.board[s]
    removed = None
    if cell != EMPTY:
        removed = COLOR_NAMES[cell - TILE_BASE]
        w.discarded += 1
    w.put(s, CATASTROPHE)
    w.emit("catastrophe_placed", seat=seat, square=SQUARE_NAMES[s], removed=removed)
    if removed == "red":
        w.withdraw_stranded((s,))


def _swap(w: Work, action: SwapTiles) -> None:
    """Discard the named tiles and draw as many; a short bag ends the game (§11, §13.1)."""
    seat = w.active
    hand = list(w.hands[seat - 1])
    n = sum(action.counts)
    for c in range(4):
        hand[c] -= action.counts[c]
    w.set_hand(seat, hand)
    w.discarded += n
    if w.log:
        w.emit("tiles_swapped", seat=seat, count=n)
        w.emit(
            "tiles_discarded",
            private_to=seat,
            seat=seat,
            colors=[COLOR_NAMES[c] for c in range(4) for _ in range(action.counts[c])],
        )
    if not w.draw(seat, n):
        w.end_game("bag")


def _end_turn(w: Work) -> None:
    """Monument VP, refills, game-end check, next seat (§12, §13.1)."""
    building.score_monuments(w)
    n = w.num_players
    for k in range(n):
        seat = (w.active - 1 + k) % n + 1
        if not w.draw(seat, HAND_SIZE - sum(w.hands[seat - 1])):
            w.end_game("bag")
            return
    if len(w.treasures) <= 2:
        w.end_game("treasures")
        return
    nxt = w.active % n + 1
    if w.log:
        w.emit("turn_ended", seat=w.active, next=nxt)
    w.active = nxt
    w.actions_left = ACTIONS_PER_TURN
