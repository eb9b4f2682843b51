"""Events: what one action caused, for the game log (RULES.md §14).

Every event is a ``code`` with JSON-able ``params``. An event with
``private_to`` set is shown only to that seat (e.g. the colours of a swap,
RULES.md §14) until the game ends; all others are public.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, NotRequired, TypedDict

from .kinds import CONFLICT_KINDS, Color, ConflictKind, EventCode, known
from .pieces import COLOR_NAMES

EVENT_CODES: tuple[EventCode, ...] = (
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


class EventDict(TypedDict):
    """An event as stored with a move and shown in views (``Event.to_dict``; RULES.md §14)."""

    code: EventCode
    params: dict[str, Any]
    private_to: NotRequired[int]


@dataclass(frozen=True, slots=True)
class Event:
    """Record one thing that happened: ``Event("vp_scored", {"seat": 2, ...})``.

    ``private_to`` is the seat allowed to see a secret event, else ``None``
    (public). RULES.md §14.
    """

    code: EventCode
    params: dict[str, Any] = field(default_factory=dict)
    private_to: int | None = None

    def __hash__(self) -> int:
        """Hash by code and private seat (params is a dict)."""
        return hash((self.code, self.private_to))

    def to_dict(self) -> EventDict:
        """Return the event as a JSON-able dict with stable keys."""
        out: EventDict = {"code": self.code, "params": self.params}
        if self.private_to is not None:
            out["private_to"] = self.private_to
        return out

    @staticmethod
    def from_dict(data: Mapping[str, Any]) -> Event:
        """Rebuild an event written by ``to_dict``; raise ``ValueError`` for an unknown code."""
        code = known(EVENT_CODES, data["code"], "event")
        return Event(code, dict(data["params"]), data.get("private_to"))


def event_visible(event: Event | Mapping[str, Any], seat: int | None, *, game_over: bool) -> bool:
    """Return whether ``seat`` (1..N, or None for a spectator) may see ``event`` (RULES.md §14).

    ``event`` is an ``Event`` or its ``to_dict`` form (as stored with a move). A public
    event is seen by all; a private one (``private_to``) by that seat alone until the game
    is over (``game_over``), when everything is public.
    """
    private_to = event.private_to if isinstance(event, Event) else event.get("private_to")
    return game_over or private_to is None or private_to == seat


def visible_events(
    events: Iterable[Mapping[str, Any]], seat: int | None, *, game_over: bool
) -> list[Mapping[str, Any]]:
    """Return the events (``to_dict`` form) ``seat`` may see, in order (``event_visible``)."""
    return [e for e in events if event_visible(e, seat, game_over=game_over)]


@dataclass(frozen=True, slots=True)
class ConflictOutcome:
    """Read how a revolt or war ended, from its ``conflict_resolved`` event (§6.4, §7.3).

    ``kind`` ``revolt``/``war``; ``color`` the leaders' colour name; ``winner``/``loser``
    seats; ``winner_strength``/``loser_strength`` leaders' strength plus support; ``tie``
    whether both were equal, which the defender wins (RULES.md §6.4, §7.3), so the
    winner's strength is never the smaller.
    """

    kind: ConflictKind
    color: Color
    winner: int
    loser: int
    attacker_strength: int
    defender_strength: int

    @property
    def tie(self) -> bool:
        """Return whether the strengths were equal (the defender won the tie)."""
        return self.attacker_strength == self.defender_strength

    @property
    def attacker_won(self) -> bool:
        """Return whether the attacker won: only with the greater strength (§6.4, §7.3)."""
        return self.attacker_strength > self.defender_strength

    @property
    def winner_strength(self) -> int:
        """Return the winner's strength."""
        return self.attacker_strength if self.attacker_won else self.defender_strength

    @property
    def loser_strength(self) -> int:
        """Return the loser's strength."""
        return self.defender_strength if self.attacker_won else self.attacker_strength


def conflict_outcome(event: Event | Mapping[str, Any]) -> ConflictOutcome:
    """Return the outcome a ``conflict_resolved`` event records; raise ``ValueError`` otherwise.

    ``event`` is an ``Event`` or its ``to_dict`` form.
    """
    code = event.code if isinstance(event, Event) else event.get("code")
    if code != "conflict_resolved":
        raise ValueError(f"not a conflict_resolved event: {code!r}")
    p = event.params if isinstance(event, Event) else event["params"]
    return ConflictOutcome(
        kind=known(CONFLICT_KINDS, p["kind"], "conflict"),
        color=known(COLOR_NAMES, p["color"], "colour"),
        winner=int(p["winner"]),
        loser=int(p["loser"]),
        attacker_strength=int(p["attacker_strength"]),
        defender_strength=int(p["defender_strength"]),
    )


def event_squares(events: Iterable[Event | Mapping[str, Any]]) -> frozenset[str]:
    """Return the names of every square ``events`` touch (placed on, moved from, removed)."""
    out: set[str] = set()
    for event in events:
        p = event.params if isinstance(event, Event) else event.get("params", {})
        for key in ("square", "from_square"):
            if isinstance(p.get(key), str):
                out.add(p[key])
        out.update(s for s in p.get("squares", ()) if isinstance(s, str))
    return frozenset(out)
