"""Events: what one action caused, for the game log (RULES.md §14).

Every event is a ``code`` with JSON-able ``params``. An event with
``private_to`` set is shown only to that seat (e.g. the colours of a swap,
RULES.md §14) until the game ends; all others are public.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

EVENT_CODES: tuple[str, ...] = (
    "tile_placed",  # seat, color, square
    "leader_placed",  # seat, leader, square
    "leader_moved",  # seat, leader, from_square, square
    "leader_withdrawn",  # seat, leader, square, reason: action|no_temple|revolt|war
    "catastrophe_placed",  # seat, square, removed: color|None
    "tiles_swapped",  # seat, count
    "tiles_discarded",  # seat, colors (private to seat)
    "tiles_drawn",  # seat, count
    "vp_scored",  # seat, color, amount, reason: tile|revolt|war|monument
    "unification",  # square, wars: [colors]
    "revolt_started",  # color, attacker, defender, attacker_strength, defender_strength
    "war_started",  # color, attacker, defender, attacker_strength, defender_strength
    "war_cancelled",  # color
    "support_committed",  # seat, color, count
    "conflict_resolved",  # kind, color, winner, loser, attacker_strength, defender_strength
    "tiles_removed",  # color, squares, count
    "monument_built",  # seat, monument, square
    "monument_declined",  # seat
    "treasure_taken",  # seat, square, special
    "passed",  # seat
    "turn_ended",  # seat, next
    "game_over",  # reason: treasures|bag
)


@dataclass(frozen=True, slots=True)
class Event:
    """Record one thing that happened: ``Event("vp_scored", {"seat": 2, ...})``.

    ``private_to`` is the seat allowed to see a secret event, else ``None``
    (public). RULES.md §14.
    """

    code: str
    params: dict[str, Any] = field(default_factory=dict)
    private_to: int | None = None

    def __hash__(self) -> int:
        """Hash by code and private seat (params is a dict)."""
        return hash((self.code, self.private_to))

    def to_dict(self) -> dict[str, Any]:
        """Return the event as a JSON-able dict with stable keys."""
        out: dict[str, Any] = {"code": self.code, "params": self.params}
        if self.private_to is not None:
            out["private_to"] = self.private_to
        return out

    @staticmethod
    def from_dict(data: dict[str, Any]) -> Event:
        """Rebuild an event written by ``to_dict``."""
        return Event(data["code"], dict(data["params"]), data.get("private_to"))
