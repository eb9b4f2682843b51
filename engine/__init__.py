"""Rules engine of Tigris & Euphrates, base game (RULES.md): pure Python, stdlib only.

Public API::

    state = new_game(2, seed=7)
    while not state.is_over:
        state = apply(state, legal_actions(state)[0])
    view_for(state, 1).to_json(); final_ranking(state)
    determinize(view_for(state, 1), random.Random(0), seen_events=log)  # for search
"""

from __future__ import annotations

from . import botapi
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
from .boardview import PIECE_KINDS, SIDES, LeaderView, MonumentView, SquareView
from .determinize import Determinizer, determinize
from .errors import ERROR_CODES, DiagramError, IllegalActionError
from .events import (
    EVENT_CODES,
    ConflictOutcome,
    Event,
    conflict_outcome,
    event_squares,
    event_visible,
    visible_events,
)
from .legality import legal_actions
from .pieces import COLOR_NAMES, LEADER_NAMES, MONUMENT_COLORS, MONUMENT_NAMES
from .rules import apply, new_game
from .scoring import Placing, final_ranking
from .state import DECISION_KINDS, Conflict, Decision, GameState
from .views import PlayerView, view_for

__all__ = [
    "COLOR_NAMES",
    "DECISION_KINDS",
    "ERROR_CODES",
    "EVENT_CODES",
    "PIECE_KINDS",
    "SIDES",
    "Action",
    "BuildMonument",
    "ChooseWar",
    "CommitSupport",
    "Conflict",
    "ConflictOutcome",
    "DeclineMonument",
    "DiagramError",
    "Decision",
    "Determinizer",
    "Event",
    "GameState",
    "IllegalActionError",
    "LEADER_NAMES",
    "LeaderView",
    "MONUMENT_COLORS",
    "MONUMENT_NAMES",
    "MonumentView",
    "Pass",
    "PlaceCatastrophe",
    "PlaceLeader",
    "PlaceTile",
    "Placing",
    "PlayerView",
    "SquareView",
    "SwapTiles",
    "TakeTreasure",
    "WithdrawLeader",
    "apply",
    "botapi",
    "conflict_outcome",
    "determinize",
    "event_squares",
    "event_visible",
    "final_ranking",
    "legal_actions",
    "new_game",
    "view_for",
    "visible_events",
]
