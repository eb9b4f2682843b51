"""Rules engine of Tigris & Euphrates, base game (RULES.md): pure Python, stdlib only.

Public API::

    state = new_game(2, seed=7)
    while not state.is_over:
        state = apply(state, legal_actions(state)[0])
    view_for(state, 1).to_json(); final_ranking(state)
    # for search: a state dealt from one seat's view, and fast random playouts
    state = determinize(view_for(state, 1), random.Random(0), seen_events=log)
    state = apply_fast(state, sample_action(state, rng)); random_playout(state, rng)
    # positions as text diagrams (engine/diagram.py), as the rulebook's examples
    state = parse_diagram(text); text = render_diagram(state)
"""

from __future__ import annotations

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
from .diagram import parse as parse_diagram
from .diagram import render as render_diagram
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
from .orders import ORDER_SLOTS, StandingOrders, order_action, order_slot
from .pieces import COLOR_NAMES, LEADER_NAMES, MONUMENT_COLORS, MONUMENT_NAMES
from .playout import apply_fast, random_playout, sample_action
from .previews import ConflictPreview, Preview, Score, ply_undoable, preview, undoable_plies
from .rules import apply, new_game
from .scoring import Placing, final_ranking
from .state import DECISION_KINDS, Conflict, Decision, GameState
from .views import PlayerView, view_for

# isort: off
from . import botapi  # after the rule modules, which it re-exports (import order)
# isort: on

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
    "ConflictPreview",
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
    "ORDER_SLOTS",
    "Pass",
    "PlaceCatastrophe",
    "PlaceLeader",
    "PlaceTile",
    "Placing",
    "PlayerView",
    "Preview",
    "Score",
    "SquareView",
    "StandingOrders",
    "SwapTiles",
    "TakeTreasure",
    "WithdrawLeader",
    "apply",
    "apply_fast",
    "botapi",
    "conflict_outcome",
    "determinize",
    "event_squares",
    "event_visible",
    "final_ranking",
    "legal_actions",
    "new_game",
    "parse_diagram",
    "order_action",
    "order_slot",
    "ply_undoable",
    "preview",
    "random_playout",
    "render_diagram",
    "sample_action",
    "undoable_plies",
    "view_for",
    "visible_events",
]
