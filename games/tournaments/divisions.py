"""A league's divisions (issue 30): who plays where, who goes up and down. Pure.

The rules (docs/tournaments.md, *Leagues*):

1. **Sizes.** ``n`` players make ``d = min(ceil(n / target), n // 4)`` divisions (at
   least one), spread as evenly as they go, larger divisions at the top: every division
   holds 4 to 8 players for a target of 4 to 8 (``division_sizes``).
2. **The ladder.** The players are put in one order and cut from the top. In a league's
   first season (and for a newcomer) the order is the rating, best first. A player of the
   last season comes before every newcomer, ordered by the division the last season's
   result sends them to (their division, minus one when promoted, plus one when
   relegated), then by the division they come from (so a relegated player goes before
   the players who stay, and they before the promoted ones), then by their place there.
3. **Promotion and relegation.** At a season's end the first ``k`` of each division but
   the top go up, the last ``k`` of each division but the bottom go down; the others
   stay. The places are the division's standings (points, Buchholz, game points, seed:
   ``standings.standings``), one place each.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import ceil
from typing import Literal

DIVISION_MIN = 4
DIVISION_MAX = 8

Move = Literal["up", "down", "stay"]


class TooFewForADivision(ValueError):
    """Fewer than ``DIVISION_MIN`` players: no division can be made."""


def division_sizes(count: int, target: int) -> tuple[int, ...]:
    """Return the sizes of the divisions of ``count`` players, top division first.

    ``target`` (4..8) is the size a division aims at. Every size is 4..8, the sizes
    differ by one at most, larger ones last. Raises ``TooFewForADivision`` when
    ``count`` < 4 and ``ValueError`` for a target outside 4..8.
    """
    if not DIVISION_MIN <= target <= DIVISION_MAX:
        raise ValueError(f"a division aims at {DIVISION_MIN} to {DIVISION_MAX} players")
    if count < DIVISION_MIN:
        raise TooFewForADivision(count)
    divisions = max(1, min(ceil(count / target), count // DIVISION_MIN))
    small, extra = divmod(count, divisions)
    return tuple(small + 1 if i >= divisions - extra else small for i in range(divisions))


@dataclass(frozen=True)
class LastResult:
    """A returning player's last season: ``division`` (1: top), ``place`` (1..), ``move``."""

    division: int
    place: int
    move: Move


def ladder(
    players: Sequence[int],
    *,
    ratings: dict[int, float],
    last: dict[int, LastResult],
) -> list[int]:
    """Return ``players`` (user ids) in the order the divisions are cut from, best first.

    ``last`` holds the previous season's result of those who played it; the others are
    newcomers, after them by ``ratings`` (best first; a missing rating counts as 0),
    then by id so the order is total.
    """
    shift = {"up": -1, "down": 1, "stay": 0}

    def returning(p: int) -> tuple[int, int, int, int]:
        r = last[p]
        return (r.division + shift[r.move], r.division, r.place, p)

    back = sorted((p for p in players if p in last), key=returning)
    new = sorted((p for p in players if p not in last), key=lambda p: (-ratings.get(p, 0), p))
    return back + new


def place_in_divisions(order: Sequence[int], target: int) -> tuple[tuple[int, ...], ...]:
    """Cut ``order`` (best first) into divisions of ``division_sizes``, top first."""
    cut: list[tuple[int, ...]] = []
    start = 0
    for size in division_sizes(len(order), target):
        cut.append(tuple(order[start : start + size]))
        start += size
    return tuple(cut)


def moves(division: int, divisions: int, places: Sequence[int], k: int) -> dict[int, Move]:
    """Return each player's move from ``division`` (1..``divisions``) by ``places``.

    ``places`` are the division's players best first; the first ``k`` go up unless this
    is the top division, the last ``k`` go down unless it is the bottom one. ``k`` is
    at most half the division, so nobody both goes up and down.
    """
    n = len(places)
    k = min(k, n // 2)
    result: dict[int, Move] = {}
    for i, player in enumerate(places):
        if division > 1 and i < k:
            result[player] = "up"
        elif division < divisions and i >= n - k:
            result[player] = "down"
        else:
            result[player] = "stay"
    return result
