"""Scoring a placed tile and the final ranking (RULES.md §5.2, §13.2)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .pieces import KING
from .state import GameState
from .work import Work


def score_tile(w: Work, color: int, leaders: list[tuple[int, int, int]]) -> None:
    """Score a tile of ``color`` that joined the kingdom holding ``leaders`` (§5.2).

    The leader of the tile's colour scores 1 VP of that colour; failing that,
    the king's owner scores it; otherwise nobody.
    """
    king = 0
    for seat, c, _ in leaders:
        if c == color:
            w.score(seat, color, 1, "tile")
            return
        if c == KING:
            king = seat
    if king:
        w.score(king, color, 1, "tile")


@dataclass(frozen=True, slots=True)
class Placing:
    """Give one seat's final place (RULES.md §13.2).

    ``rank`` is 1 for the best and equal for shared places (1, 2, 2, 4);
    ``colors`` are (red, black, blue, green) VP after treasures;
    ``score`` is the lowest of them.
    """

    seat: int
    rank: int
    colors: tuple[int, int, int, int]

    @property
    def score(self) -> int:
        """Return the lowest colour: the player's score (§13.2)."""
        return min(self.colors)

    def to_dict(self) -> dict[str, Any]:
        """Return the placing as a JSON-able dict."""
        return {
            "seat": self.seat,
            "rank": self.rank,
            "colors": list(self.colors),
            "score": self.score,
        }


def with_treasures(vp: tuple[int, ...], treasures: int) -> tuple[int, int, int, int]:
    """Return ``vp`` after adding each treasure to the currently lowest colour (§13.2).

    Ties for the lowest go to the first colour in red, black, blue, green order.
    """
    v = list(vp)
    for _ in range(treasures):
        i = v.index(min(v))
        v[i] += 1
    return (v[0], v[1], v[2], v[3])


def final_ranking(state: GameState) -> list[Placing]:
    """Rank every seat, best first (RULES.md §13.2); usable on any state.

    The score is the lowest colour after treasures; ties break on the
    second-lowest, then third, then highest; seats equal in all four share the
    place. Returns one ``Placing`` per seat, ordered by rank then seat.
    """
    colors = [
        with_treasures(state.vp[i], state.treasures_held[i]) for i in range(state.num_players)
    ]
    keys = [tuple(sorted(c)) for c in colors]
    out = []
    for i in range(state.num_players):
        rank = 1 + sum(1 for k in keys if k > keys[i])
        out.append(Placing(i + 1, rank, colors[i]))
    out.sort(key=lambda p: (p.rank, p.seat))
    return out
