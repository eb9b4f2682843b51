"""The engine's closed vocabularies, as ``Literal`` types (RULES.md §1.2, §2, §14, §15).

Every name a public value carries is one of these: a colour, a leader, a monument, the kind
of an action, the code of an event, the kind of a decision or conflict, what lies on a
square, a side of a square, why the game ended. They are the strings of the notation and the
JSON (``"red"``, ``"king"``, ``"vp_scored"``), so nothing stored changes, and mypy checks
the site's tables and branches against them. The tuples beside (``COLOR_NAMES``,
``EVENT_CODES``…) list each in the engine's order; ``tests/engine/test_kinds.py`` checks
that each tuple and its type agree.
"""

from __future__ import annotations

from typing import Literal

Color = Literal["red", "black", "blue", "green"]
Leader = Literal["priest", "king", "farmer", "trader"]
MonumentName = Literal[
    "red-black", "red-blue", "red-green", "black-blue", "black-green", "blue-green"
]
# ``Action.kind``: the first word of the action's notation (``"tile red f7"`` → ``tile``).
ActionKind = Literal[
    "tile",
    "leader",
    "withdraw",
    "catastrophe",
    "swap",
    "pass",
    "commit",
    "war",
    "monument",
    "decline",
    "treasure",
]
# ``Event.code``; the parameters of each are listed with ``events.EVENT_CODES``.
EventCode = Literal[
    "tile_placed",
    "leader_placed",
    "leader_moved",
    "leader_withdrawn",
    "catastrophe_placed",
    "tiles_swapped",
    "tiles_discarded",
    "tiles_drawn",
    "vp_scored",
    "unification",
    "revolt_started",
    "war_started",
    "war_cancelled",
    "support_committed",
    "conflict_resolved",
    "tiles_removed",
    "monument_built",
    "monument_declined",
    "treasure_taken",
    "passed",
    "turn_ended",
    "game_over",
]
DecisionKind = Literal["support", "war_order", "monument", "treasure"]
ConflictKind = Literal["revolt", "war"]
PieceKind = Literal["empty", "tile", "facedown", "catastrophe", "leader"]
Side = Literal["n", "e", "s", "w"]
EndReason = Literal["treasures", "bag"]
# A seat's totals (``PlayerView.scores``): its VP of each colour, and its treasures.
ScoreKey = Literal["red", "black", "blue", "green", "treasures"]

ACTION_KINDS: tuple[ActionKind, ...] = (
    "tile",
    "leader",
    "withdraw",
    "catastrophe",
    "swap",
    "pass",
    "commit",
    "war",
    "monument",
    "decline",
    "treasure",
)
CONFLICT_KINDS: tuple[ConflictKind, ...] = ("revolt", "war")
END_REASONS: tuple[EndReason, ...] = ("treasures", "bag")


def known[T: str](names: tuple[T, ...], value: object, what: str) -> T:
    """Return ``value`` as one of ``names`` (a ``Literal`` type's values read from JSON).

    Raises ``ValueError`` naming ``what`` was expected when ``value`` is not one of them.
    """
    for name in names:
        if value == name:
            return name
    raise ValueError(f"unknown {what} {value!r}: expected one of {', '.join(names)}")
