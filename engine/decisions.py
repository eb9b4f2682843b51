"""Decisions and conflicts: who must decide what outside an ordinary action (RULES.md §6, §7, §15).

``Decision`` is public (``GameState.pending``, ``PlayerView.pending``); ``Conflict`` is the
revolt or war being fought while support is committed. Both round-trip through JSON as the
stored snapshot writes them (``to_dict``/``from_dict``); ``from_dict`` checks the kinds.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .kinds import CONFLICT_KINDS, Color, ConflictKind, DecisionKind, known
from .pieces import COLOR_NAMES

DECISION_KINDS: tuple[DecisionKind, ...] = ("support", "war_order", "monument", "treasure")


def _color(value: object) -> Color | None:
    return None if value is None else known(COLOR_NAMES, value, "colour")


@dataclass(frozen=True, slots=True)
class Decision:
    """Name who must decide what, outside an ordinary action (RULES.md §15).

    ``kind`` is one of ``support``, ``war_order``, ``monument``, ``treasure``.
    For support: ``conflict`` (``revolt``/``war``), ``color`` (the leaders'
    colour), ``support_color`` (colour of tiles to commit), the two seats and
    their strengths so far. For ``war_order``/``monument``/``treasure``:
    ``options`` lists the choices as notation arguments (``"black"``,
    ``"red-blue e4"``, ``"b2"``) and for treasures ``count`` is how many are
    still to take. Everything in a decision is public.
    """

    seat: int
    kind: DecisionKind
    conflict: ConflictKind | None = None
    color: Color | None = None
    support_color: Color | None = None
    attacker: int | None = None
    defender: int | None = None
    attacker_strength: int | None = None
    defender_strength: int | None = None
    options: tuple[str, ...] = ()
    count: int = 0

    def to_dict(self) -> dict[str, Any]:
        """Return the decision as a JSON-able dict."""
        return {
            "seat": self.seat,
            "kind": self.kind,
            "conflict": self.conflict,
            "color": self.color,
            "support_color": self.support_color,
            "attacker": self.attacker,
            "defender": self.defender,
            "attacker_strength": self.attacker_strength,
            "defender_strength": self.defender_strength,
            "options": list(self.options),
            "count": self.count,
        }

    @staticmethod
    def from_dict(d: dict[str, Any]) -> Decision:
        """Rebuild a decision written by ``to_dict``; raise ``ValueError`` for an unknown kind."""
        return Decision(
            d["seat"],
            known(DECISION_KINDS, d["kind"], "decision kind"),
            None if d["conflict"] is None else known(CONFLICT_KINDS, d["conflict"], "conflict"),
            _color(d["color"]),
            _color(d["support_color"]),
            d["attacker"],
            d["defender"],
            d["attacker_strength"],
            d["defender_strength"],
            tuple(d["options"]),
            d["count"],
        )

    def describe(self) -> str:
        """Return a one-line English description (used by diagrams)."""
        if self.kind == "support":
            return (
                f"support by seat {self.seat} in {self.conflict} {self.color}: "
                f"attacker {self.attacker} {self.attacker_strength}, "
                f"defender {self.defender} {self.defender_strength}"
            )
        if self.kind == "treasure":
            return f"treasure by seat {self.seat}: take {self.count} of {' '.join(self.options)}"
        return f"{self.kind.replace('_', ' ')} by seat {self.seat}: {', '.join(self.options)}"


@dataclass(frozen=True, slots=True)
class Conflict:
    """Hold a revolt or war being fought (RULES.md §6, §7).

    ``color`` is the leaders' colour (ints, see pieces.py); squares are where
    the two leaders stand; ``attacker_commit`` is -1 until the attacker has
    committed.
    """

    kind: ConflictKind
    color: int
    attacker: int
    defender: int
    attacker_square: int
    defender_square: int
    attacker_base: int
    defender_base: int
    attacker_commit: int = -1

    def to_dict(self) -> dict[str, Any]:
        """Return the conflict as a JSON-able dict."""
        return {
            "kind": self.kind,
            "color": self.color,
            "attacker": self.attacker,
            "defender": self.defender,
            "attacker_square": self.attacker_square,
            "defender_square": self.defender_square,
            "attacker_base": self.attacker_base,
            "defender_base": self.defender_base,
            "attacker_commit": self.attacker_commit,
        }

    @staticmethod
    def from_dict(d: dict[str, Any]) -> Conflict:
        """Rebuild a conflict written by ``to_dict``; raise ``ValueError`` for an unknown kind."""
        return Conflict(**{**d, "kind": known(CONFLICT_KINDS, d["kind"], "conflict")})
