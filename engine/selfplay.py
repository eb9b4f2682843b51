"""Random self-play and the invariants checked after every action (issue 3).

Used by ``python -m engine selfplay`` and by the tests. The policy is
uniform over ``legal_actions``: never biased toward any feature.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field

from .board import IS_RIVER, NEIGHBOURS, NUM_SQUARES
from .kingdoms import label
from .legality import legal_actions
from .pieces import (
    BLUE,
    CATASTROPHE,
    CATASTROPHES_EACH,
    FACE_DOWN,
    LEADER_BASE,
    RED,
    TILE_BASE,
    TILE_TOTALS,
    TOTAL_TILES,
    TRADER,
    TREASURE_COUNT,
    cell_leader,
)
from .rules import apply, new_game
from .state import GameState


class InvariantError(AssertionError):
    """Report a broken invariant of a game state."""


def check_invariants(state: GameState, *, json_round_trip: bool = True) -> None:
    """Raise ``InvariantError`` unless ``state`` keeps every invariant of issue 3.

    Tiles (153) and catastrophes (2 per seat) conserved, 10 treasures on the
    board or held, no two same-colour leaders in a kingdom once conflicts are
    over (RULES.md §3), leaders on land next to a face-up temple (§4.2, §4.3),
    farms on rivers and other tiles on land (§5.1), no kingdom with a trader
    and two or more treasures while no decision is pending (§9), VP never
    negative, and an exact JSON round trip.
    """
    board = state.board
    faceup = [0, 0, 0, 0]
    facedown = 0
    cats = 0
    for s in range(NUM_SQUARES):
        cell = board[s]
        if TILE_BASE <= cell < FACE_DOWN:
            c = cell - TILE_BASE
            faceup[c] += 1
            if (c == BLUE) != IS_RIVER[s]:
                raise InvariantError(f"tile of colour {c} on the wrong terrain at {s}")
        elif cell == FACE_DOWN:
            facedown += 1
        elif cell == CATASTROPHE:
            cats += 1
        elif cell >= LEADER_BASE:
            if IS_RIVER[s]:
                raise InvariantError(f"leader on the river at {s}")
            if not any(board[y] == TILE_BASE + RED for y in NEIGHBOURS[s]):
                raise InvariantError(f"leader without a face-up temple at {s}")
        if s in state.treasures and cell not in (TILE_BASE + RED, FACE_DOWN):
            raise InvariantError(f"treasure on a non-temple at {s}")
    bag = [0, 0, 0, 0]
    for c in state.bag:
        bag[c] += 1
    hands = [sum(h[c] for h in state.hands) for c in range(4)]
    total = sum(faceup) + facedown + sum(hands) + len(state.bag) + state.discarded
    if total != TOTAL_TILES:
        raise InvariantError(f"{total} tiles instead of {TOTAL_TILES}")
    for c in range(4):
        if faceup[c] + hands[c] + bag[c] > TILE_TOTALS[c]:
            raise InvariantError(f"too many tiles of colour {c}")
    if any(h < 0 for hand in state.hands for h in hand) or any(sum(h) > 6 for h in state.hands):
        raise InvariantError("a hand holds a negative count or more than 6 tiles")
    if cats + sum(state.catastrophes) != CATASTROPHES_EACH * state.num_players:
        raise InvariantError("catastrophes not conserved")
    if len(state.treasures) + sum(state.treasures_held) != TREASURE_COUNT:
        raise InvariantError("treasures not conserved")
    if any(v < 0 for vp in state.vp for v in vp):
        raise InvariantError("negative VP")
    scanned = [[-1] * 4 for _ in range(state.num_players)]
    for s in range(NUM_SQUARES):
        if board[s] >= LEADER_BASE:
            seat, c = cell_leader(board[s])
            scanned[seat - 1][c] = s
    if tuple(tuple(p) for p in scanned) != state.leader_squares():
        raise InvariantError("leader positions out of step with the board")
    settled = state.conflict is None and state.unification < 0
    regions = label(board)
    for r, leaders in enumerate(regions.leaders):
        colours = [c for _, c, _ in leaders]
        if settled and len(set(colours)) != len(colours):
            raise InvariantError("two same-colour leaders in one kingdom")
        if (
            state.pending is None
            and TRADER in colours
            and sum(1 for t in state.treasures if regions.rid[t] == r) >= 2
        ):
            raise InvariantError("a kingdom with a trader keeps two or more treasures")
    if state.is_over != (state.to_act is None):
        raise InvariantError("to_act disagrees with is_over")
    if json_round_trip and GameState.from_json(state.to_json()) != state:
        raise InvariantError("JSON round trip differs")


@dataclass
class GameRecord:
    """Hold one random game: its final state, actions in notation, and feature counts."""

    final: GameState
    actions: list[str] = field(default_factory=list)
    features: Counter[str] = field(default_factory=Counter)


def play_random(
    num_players: int, seed: int, *, check: bool = True, policy_seed: int | None = None
) -> GameRecord:
    """Play one game to the end with uniformly random legal actions.

    ``seed`` sets up the game; ``policy_seed`` (default ``seed``) drives the
    choices. With ``check`` every state is checked by ``check_invariants``.
    Features counted: event codes plus ``multi_war`` (a unification with two
    or more wars), ``war_order``, ``treasure_pick`` and ``end_<reason>``.
    """
    state = new_game(num_players, seed)
    rng = random.Random(seed if policy_seed is None else policy_seed)
    rec = GameRecord(state)
    if check:
        check_invariants(state)
    while not state.is_over:
        options = legal_actions(state)
        if not options:
            raise InvariantError("no legal action in a running game")
        action = options[rng.randrange(len(options))]
        if state.pending is not None:
            rec.features[state.pending.kind] += 1
        state = apply(state, action)
        rec.actions.append(str(action))
        for e in state.events:
            rec.features[e.code] += 1
            if e.code == "unification" and len(e.params["wars"]) >= 2:
                rec.features["multi_war"] += 1
        if check:
            check_invariants(state)
    rec.features[f"end_{state.end_reason}"] += 1
    rec.final = state
    return rec
