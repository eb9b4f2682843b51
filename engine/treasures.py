"""Treasures taken by a kingdom's trader (RULES.md §9)."""

from __future__ import annotations

from .board import SPECIAL_TREASURES, SQUARE_NAMES
from .decisions import Decision
from .pieces import TRADER
from .work import Work


def resolve(w: Work, take: int = -1, taker: int = 0) -> bool:
    """Take ``take`` for seat ``taker`` if given, then every forced take (RULES.md §9).

    Return True when a choice is pending.

    A kingdom with a trader and two or more treasures gives treasures to the
    trader's owner until one remains; special treasures first; the owner
    chooses only when there is a real choice (§9, §15).
    """
    w.pending = None
    if take >= 0:
        _take(w, take, taker)
    if len(w.treasures) < 2:
        return False
    traders = [(pos[TRADER], seat) for seat, pos in enumerate(w.leaders, start=1)]
    traders = [t for t in traders if t[0] >= 0]
    if not traders:
        return False
    traders.sort()
    rid = w.regions().rid  # taking treasures leaves the board as it is
    for square, owner in traders:
        while True:
            r = rid[square]
            here = [t for t in w.treasures if rid[t] == r]
            need = len(here) - 1
            here.sort()
            if need <= 0:
                break
            special = [t for t in here if t in SPECIAL_TREASURES]
            choices = special or here
            if len(choices) <= need:
                for t in choices:
                    _take(w, t, owner)
                continue
            w.pending = Decision(
                seat=owner,
                kind="treasure",
                options=tuple(SQUARE_NAMES[t] for t in choices),
                count=need,
            )
            return True
    return False


def _take(w: Work, square: int, owner: int) -> None:
    w.treasures = tuple(t for t in w.treasures if t != square)
    w.add("treasures_held", owner - 1, 1)
    w.emit(
        "treasure_taken",
        seat=owner,
        square=SQUARE_NAMES[square],
        special=square in SPECIAL_TREASURES,
    )
