"""A played action as each viewer may read it: a swap's colours hidden (RULES.md §11, §14).

Every action is public once played except a swap's colours, which are its player's alone
until the game is over: anyone else reads how many tiles were swapped. The site's records,
API and admin write a move through ``seen_action`` and format its answer as each needs, so
the rule is written once.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from .actions import Action, SwapTiles, parse_action
from .kinds import ActionKind


@dataclass(frozen=True, slots=True)
class HiddenSwap:
    """Another seat's swap before the end: ``tiles`` swapped, their colours hidden (§14).

    ``str()`` is ``"swap 2"``, the notation with a count for the colours; it is not an
    action (it cannot be parsed nor played).
    """

    tiles: int
    kind: ClassVar[ActionKind] = "swap"

    def __str__(self) -> str:
        return f"swap {self.tiles}"


def seen_action(
    action: Action | str, *, player: int | None, viewer: int | None, game_over: bool
) -> Action | HiddenSwap:
    """Return ``action`` (or its notation), played by seat ``player``, as ``viewer`` reads it.

    ``viewer`` is a seat 1..N or None (a spectator, the admin); ``game_over`` says the game
    has ended (everything is public then, §14). A swap reads as ``HiddenSwap`` to anyone but
    its player before the end; every other action, and any action after the end, as itself.
    Raises ``ValueError`` when ``action`` is notation that is not an action.
    """
    played = parse_action(action) if isinstance(action, str) else action
    if game_over or viewer == player or not isinstance(played, SwapTiles):
        return played
    return HiddenSwap(sum(played.counts))
