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
from .determinize import Determinizer, determinize
from .errors import ERROR_CODES, DiagramError, IllegalActionError
from .events import EVENT_CODES, Event
from .legality import legal_actions
from .rules import apply, new_game
from .scoring import Placing, final_ranking
from .state import DECISION_KINDS, Conflict, Decision, GameState
from .views import PlayerView, view_for

__all__ = [
    "DECISION_KINDS",
    "ERROR_CODES",
    "EVENT_CODES",
    "Action",
    "BuildMonument",
    "ChooseWar",
    "CommitSupport",
    "Conflict",
    "DeclineMonument",
    "DiagramError",
    "Decision",
    "Determinizer",
    "Event",
    "GameState",
    "IllegalActionError",
    "Pass",
    "PlaceCatastrophe",
    "PlaceLeader",
    "PlaceTile",
    "Placing",
    "PlayerView",
    "SwapTiles",
    "TakeTreasure",
    "WithdrawLeader",
    "apply",
    "botapi",
    "determinize",
    "final_ranking",
    "legal_actions",
    "new_game",
    "view_for",
]
