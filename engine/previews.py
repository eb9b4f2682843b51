"""Previews and undo: what an action would start, and which plies may be taken back.

``preview(state, action)`` applies the action with the engine's own ``apply`` and reads
what it caused (its events and the decision it leaves pending), so a preview can never
disagree with the rules: nothing here re-derives them. ``undoable_plies`` reads the plies
of the turn so far (their actions and events) and says how many the active player may
take back (issue 16): none once something was revealed (a tile drawn, a swap), once
someone else had to answer or a decision started (a revolt, a war, a monument, a
treasure), or once the turn ended. ``undo_window`` says, from the position alone, how many
of the latest plies it could count at most, so the site reads no more of its history.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .actions import (
    Action,
    BuildMonument,
    ChooseWar,
    CommitSupport,
    DeclineMonument,
    PlaceCatastrophe,
    PlaceLeader,
    PlaceTile,
    TakeTreasure,
    WithdrawLeader,
)
from .board import NEIGHBOURS
from .determinize import determinize
from .events import Event
from .kinds import Color, ConflictKind, Leader, known
from .kingdoms import label
from .legality import legal_actions
from .pieces import COLOR_NAMES, LEADER_NAMES
from .rules import ACTIONS_PER_TURN, apply
from .state import GameState
from .views import PlayerView

# A ply whose events include one of these fixed the past: it revealed hidden information
# (tiles drawn, the colours swapped), made someone answer (a conflict, whose support is
# committed from a hidden hand), or ended the turn or the game.
UNDO_BARRIERS: frozenset[str] = frozenset(
    {
        "tiles_swapped",
        "tiles_discarded",
        "tiles_drawn",
        "revolt_started",
        "war_started",
        "support_committed",
        "conflict_resolved",
        "monument_built",
        "monument_declined",
        "treasure_taken",
        "passed",
        "turn_ended",
        "game_over",
    }
)
# Only ordinary actions may be taken back, never the answer to a decision (§15).
UNDOABLE_ACTIONS: tuple[type[Action], ...] = (
    PlaceTile,
    PlaceLeader,
    WithdrawLeader,
    PlaceCatastrophe,
)
_ANSWERS: tuple[type[Action], ...] = (
    CommitSupport,
    ChooseWar,
    BuildMonument,
    DeclineMonument,
    TakeTreasure,
)


@dataclass(frozen=True, slots=True)
class ConflictPreview:
    """A revolt or war an action starts: the leaders' colour, seats and strengths before support.

    Strengths are what ``revolt_started``/``war_started`` record (RULES.md §6.2, §7.2):
    adjacent temples for a revolt, the leader's kingdom's tiles of its colour in a war.
    """

    kind: ConflictKind
    color: Color
    attacker: int
    defender: int
    attacker_strength: int
    defender_strength: int


@dataclass(frozen=True, slots=True)
class Score:
    """Points an action scores at once: ``amount`` of ``color`` to ``seat`` (RULES.md §5.2)."""

    seat: int
    color: Color
    amount: int


@dataclass(frozen=True, slots=True)
class LeaderLoss:
    """A leader an action takes off the board: ``seat``'s ``leader`` on ``square``, and why
    (``reason``: ``no_temple``, left without a face-up temple beside it, RULES.md §4.3)."""

    seat: int
    leader: Leader
    square: str
    reason: str


@dataclass(frozen=True, slots=True)
class Preview:
    """What ``action`` would start, from the engine's own resolution of it (issue 16).

    ``conflict`` the revolt or first war it starts (None if none); ``wars`` the colours of
    every war a unification would fight (RULES.md §7.1), empty otherwise; ``monuments``
    the monuments it would offer, as the ``BuildMonument`` actions that build them (§8.1);
    ``treasures`` how many treasures the active player would have to choose; ``scores``
    the points it scores at once; ``ends_turn`` whether it is the turn's last action.
    ``undoable`` whether the player could take it back afterwards (``undoable_plies``).
    A catastrophe (RULES.md §10): ``destroyed`` the colour of the tile it destroys (None
    on an empty square), ``leaders_lost`` the leaders it leaves without a temple (§4.3),
    ``split_into`` how many parts the kingdom it lands in falls into (0: no split).
    Everything in a preview is what the player would see once the action is applied.
    """

    action: str
    seat: int
    conflict: ConflictPreview | None = None
    wars: tuple[Color, ...] = ()
    monuments: tuple[BuildMonument, ...] = ()
    treasures: int = 0
    scores: tuple[Score, ...] = ()
    ends_turn: bool = False
    undoable: bool = False
    destroyed: Color | None = None
    leaders_lost: tuple[LeaderLoss, ...] = ()
    split_into: int = 0

    @property
    def quiet(self) -> bool:
        """Return whether the action starts, removes and scores nothing (no preview to show)."""
        return not (
            self.conflict
            or self.wars
            or self.monuments
            or self.treasures
            or self.scores
            or self.destroyed
            or self.leaders_lost
            or self.split_into
        )


def kingdom_split(before: GameState, after: GameState, square: int) -> int:
    """Return how many parts the kingdom on ``square`` falls into once it is blocked (§10).

    ``before``/``after`` are the states around a catastrophe on ``square`` (0..175, the
    board's index, as in ``PlaceCatastrophe.square``); 0 when the
    square was in no kingdom or the kingdom stays whole. A part is what was joined
    through ``square`` and no longer is: its tiles and leaders, with or without a leader
    (a part without one is no kingdom any more, RULES.md §3).
    """
    s = square
    old = label(before.board)
    kingdom = old.kid[s]
    if kingdom < 0:
        return 0
    new = label(after.board)
    parts = {new.rid[y] for y in NEIGHBOURS[s] if old.kid[y] == kingdom and new.rid[y] >= 0}
    return len(parts) if len(parts) >= 2 else 0


def preview(state: GameState | PlayerView, action: Action) -> Preview:
    """Return what ``action`` would start when played in ``state`` (issue 16).

    ``state`` is a ``GameState`` or the acting seat's ``PlayerView`` (a state is dealt
    from the view with ``determinize``: what an action starts never depends on hidden
    tiles, only the end of turn's draw does, which a preview leaves out). Raises
    ``IllegalActionError`` with the engine's reason when ``action`` is illegal there.
    """
    if isinstance(state, PlayerView):
        state = determinize(state, random.Random(0))
    seat = state.to_act
    after = apply(state, action)
    conflict = None
    wars: tuple[Color, ...] = ()
    scores: list[Score] = []
    destroyed: Color | None = None
    lost: list[LeaderLoss] = []
    for event in after.events:
        p = event.params
        if event.code in ("revolt_started", "war_started") and conflict is None:
            conflict = ConflictPreview(
                kind="revolt" if event.code == "revolt_started" else "war",
                color=known(COLOR_NAMES, p["color"], "colour"),
                attacker=int(p["attacker"]),
                defender=int(p["defender"]),
                attacker_strength=int(p["attacker_strength"]),
                defender_strength=int(p["defender_strength"]),
            )
        elif event.code == "unification":
            wars = tuple(known(COLOR_NAMES, c, "colour") for c in p["wars"])
        elif event.code == "vp_scored" and event.params.get("reason") == "tile":
            color = known(COLOR_NAMES, p["color"], "colour")
            scores.append(Score(int(p["seat"]), color, int(p["amount"])))
        elif event.code == "catastrophe_placed" and p.get("removed"):
            destroyed = known(COLOR_NAMES, p["removed"], "colour")
        elif event.code == "leader_withdrawn" and p.get("reason") == "no_temple":
            lost.append(
                LeaderLoss(
                    int(p["seat"]),
                    known(LEADER_NAMES, p["leader"], "leader"),
                    str(p["square"]),
                    "no_temple",
                )
            )
        elif event.code == "turn_ended":
            break  # the end of turn's own points and draws are not this action's
    pending = after.pending
    monuments = (
        tuple(a for a in legal_actions(after) if isinstance(a, BuildMonument))
        if pending is not None and pending.kind == "monument"
        else ()
    )
    treasures = pending.count if pending is not None and pending.kind == "treasure" else 0
    return Preview(
        action=str(action),
        seat=seat or 0,
        conflict=conflict,
        wars=wars,
        monuments=monuments,
        treasures=treasures,
        scores=tuple(scores),
        ends_turn=state.pending is None
        and (after.is_over or after.active_seat != state.active_seat),
        undoable=ply_undoable(state, action, after.events, pending_after=pending is not None),
        destroyed=destroyed,
        leaders_lost=tuple(lost),
        split_into=kingdom_split(state, after, action.square)
        if isinstance(action, PlaceCatastrophe)
        else 0,
    )


def ply_undoable(
    before: GameState | None,
    action: Action,
    events: Iterable[Event | Mapping[str, Any]],
    *,
    pending_after: bool = False,
) -> bool:
    """Return whether one ply, alone, could be taken back by the seat that played it.

    ``before`` is the state it was played in (or None when unknown: the site's history
    knows only the action and its events, and an answer to a decision is told by its
    action); ``events`` what it caused (``Event`` values or their ``to_dict`` form);
    ``pending_after`` whether it left a decision waiting (a monument or treasure choice).
    """
    if not isinstance(action, UNDOABLE_ACTIONS) or isinstance(action, _ANSWERS):
        return False
    if before is not None and before.pending is not None:
        return False
    if pending_after:
        return False
    for event in events:
        code = event.code if isinstance(event, Event) else event.get("code")
        if code in UNDO_BARRIERS:
            return False
    return True


def undo_window(state: GameState | PlayerView) -> int:
    """Return how many of the latest plies could be taken back now at most (0, 1 or 2).

    From the position alone (a ``GameState`` or any seat's ``PlayerView``): the active
    seat's actions of this turn so far (RULES.md §2: two a turn), 0 when a decision is
    waiting or the game is over. Only the plies of the turn so far can be taken back, each
    an action of the active seat (a turn's end, an answer or a conflict is a barrier), so
    ``undoable_plies`` needs no more of the history than the last ``undo_window`` plies,
    and none at a turn's start.
    """
    if state.is_over or state.pending is not None:
        return 0
    return max(0, ACTIONS_PER_TURN - state.actions_left)


def undoable_plies(
    state: GameState | PlayerView,
    plies: Sequence[tuple[int, Action, Sequence[Event | Mapping[str, Any]]]],
) -> int:
    """Return how many of the last ``plies`` the active player may take back now (issue 16).

    ``state`` is the position now (a ``GameState`` or any seat's ``PlayerView``);
    ``plies`` the history so far, oldest first, each ``(seat, action, events)`` (the site
    passes the last ``undo_window(state)`` plies of its move history, the only ones that
    can count; plies already taken back must be left out).
    Counts back from the last ply while each was an ordinary action of the active seat
    that revealed nothing and asked nobody (``ply_undoable``); 0 when a decision is
    waiting or the game is over.
    """
    window = undo_window(state)
    if window == 0:
        return 0
    active = state.active_seat if isinstance(state, GameState) else _view_active(state)
    n = 0
    for seat, action, events in reversed(plies[-window:]):
        if seat != active or not ply_undoable(None, action, events):
            break
        n += 1
    return n


def _view_active(view: PlayerView) -> int:
    return int(view.active_seat)
