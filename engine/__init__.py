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
    # what the site shows: a move as each viewer reads it (a swap's colours hidden), the
    # board's squares (river banks, monuments, kingdoms), leaders' colours, square order
    seen_action("swap red blue", player=2, viewer=1, game_over=False)  # → HiddenSwap(2)
    view.squares[0].banks; LEADER_COLORS["king"]; square_coords("b8")  # → (1, 8)

The names a public value carries are ``Literal`` types (``engine/kinds.py``): ``Color``,
``Leader``, ``MonumentName``, ``ActionKind`` (``Action.kind``), ``EventCode``
(``Event.code``), ``DecisionKind``, ``ConflictKind``, ``PieceKind``, ``Side``,
``EndReason``, ``ScoreKey``; the tuples ``COLOR_NAMES``, ``LEADER_NAMES``,
``MONUMENT_NAMES``, ``ACTION_KINDS``, ``EVENT_CODES``, ``DECISION_KINDS``,
``CONFLICT_KINDS``, ``PIECE_KINDS``, ``SIDES`` and ``END_REASONS`` list each in order.
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
from .board import square_coords
from .boardview import PIECE_KINDS, SIDES, LeaderView, MonumentView, SquareView
from .decisions import DECISION_KINDS, Conflict, Decision
from .determinize import Determinizer, determinize
from .diagram import parse as parse_diagram
from .diagram import render as render_diagram
from .errors import ERROR_CODES, DiagramError, IllegalActionError
from .events import (
    EVENT_CODES,
    ConflictOutcome,
    Event,
    EventDict,
    conflict_outcome,
    event_squares,
    event_visible,
    visible_events,
)
from .kinds import (
    ACTION_KINDS,
    CONFLICT_KINDS,
    END_REASONS,
    ActionKind,
    Color,
    ConflictKind,
    DecisionKind,
    EndReason,
    EventCode,
    Leader,
    MonumentName,
    PieceKind,
    ScoreKey,
    Side,
)
from .legality import legal_actions
from .orders import ORDER_SLOTS, StandingOrders, order_action, order_slot
from .pieces import (
    COLOR_LEADERS,
    COLOR_NAMES,
    LEADER_COLORS,
    LEADER_NAMES,
    MONUMENT_COLORS,
    MONUMENT_NAMES,
)
from .playout import apply_fast, random_playout, sample_action
from .previews import (
    ConflictPreview,
    LeaderLoss,
    Preview,
    Score,
    kingdom_split,
    ply_undoable,
    preview,
    undo_window,
    undoable_plies,
)
from .rules import apply, new_game
from .scoring import Placing, final_ranking
from .seen import HiddenSwap, seen_action
from .state import GameState
from .views import PlayerView, view_for

# isort: off
from . import botapi  # after the rule modules, which it re-exports (import order)
# isort: on

__all__ = [
    "ACTION_KINDS",
    "COLOR_LEADERS",
    "COLOR_NAMES",
    "CONFLICT_KINDS",
    "DECISION_KINDS",
    "END_REASONS",
    "ERROR_CODES",
    "EVENT_CODES",
    "LEADER_COLORS",
    "LEADER_NAMES",
    "MONUMENT_COLORS",
    "MONUMENT_NAMES",
    "ORDER_SLOTS",
    "PIECE_KINDS",
    "SIDES",
    "Action",
    "ActionKind",
    "BuildMonument",
    "ChooseWar",
    "Color",
    "CommitSupport",
    "Conflict",
    "ConflictKind",
    "ConflictOutcome",
    "ConflictPreview",
    "LeaderLoss",
    "Decision",
    "DecisionKind",
    "DeclineMonument",
    "Determinizer",
    "DiagramError",
    "EndReason",
    "Event",
    "EventCode",
    "EventDict",
    "GameState",
    "HiddenSwap",
    "IllegalActionError",
    "Leader",
    "LeaderView",
    "MonumentName",
    "MonumentView",
    "Pass",
    "PieceKind",
    "PlaceCatastrophe",
    "PlaceLeader",
    "PlaceTile",
    "Placing",
    "PlayerView",
    "Preview",
    "kingdom_split",
    "Score",
    "ScoreKey",
    "Side",
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
    "order_action",
    "order_slot",
    "parse_diagram",
    "ply_undoable",
    "preview",
    "random_playout",
    "render_diagram",
    "sample_action",
    "seen_action",
    "square_coords",
    "undo_window",
    "undoable_plies",
    "view_for",
    "visible_events",
]
