"""Standings and tie-breaks (issue 30): pure, from the results of the tables played.

The order, best first (docs/tournaments.md):

1. **points** — the tournament points: by place at each table (the event's points by
   rank for that table's size), plus the points of each bye;
2. **Buchholz** — the sum, over every opponent met, of that opponent's points now (at a
   table of 3–4 every other player is an opponent; a player met twice counts twice; a
   bye adds nothing);
3. **game points** — the sum of the player's scores at their tables (the score of
   RULES.md §13.2: the lowest colour after treasures);
4. the seed order (rating at the start, then registration) — so the order is total.

Players share a rank only when points, Buchholz and game points are all equal.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Result:
    """One player's result at one table: ``place`` 1.., ``points``, ``game_points``."""

    player: int
    points: int
    game_points: int = 0
    place: int | None = None


@dataclass(frozen=True)
class TableResult:
    """The results of one finished table (a game), or of a bye (one result, ``bye``)."""

    round: int
    results: tuple[Result, ...]
    bye: bool = False


@dataclass(frozen=True)
class Row:
    """One line of the standings; ``rank`` 1.., shared only on equal tie-breaks."""

    rank: int
    player: int
    points: int
    buchholz: int
    game_points: int
    played: int
    byes: int


def standings(players: Sequence[int], tables: Iterable[TableResult]) -> tuple[Row, ...]:
    """Return the standings of ``players`` (in seed order) after ``tables``, best first.

    Results of ids not in ``players`` are ignored. Pure: the same input gives the same rows.
    """
    seed = {p: i for i, p in enumerate(players)}
    points = dict.fromkeys(players, 0)
    game_points = dict.fromkeys(players, 0)
    played = dict.fromkeys(players, 0)
    byes = dict.fromkeys(players, 0)
    opponents: dict[int, list[int]] = {p: [] for p in players}
    for table in tables:
        ids = [r.player for r in table.results]
        for result in table.results:
            if result.player not in seed:
                continue
            points[result.player] += result.points
            game_points[result.player] += result.game_points
            if table.bye:
                byes[result.player] += 1
            else:
                played[result.player] += 1
                opponents[result.player] += [o for o in ids if o != result.player]
    buchholz = {p: sum(points.get(o, 0) for o in opponents[p]) for p in players}

    def key(p: int) -> tuple[int, int, int]:
        return (-points[p], -buchholz[p], -game_points[p])

    order = sorted(players, key=lambda p: (*key(p), seed[p]))
    rows: list[Row] = []
    for i, p in enumerate(order):
        rank = rows[-1].rank if i and key(order[i - 1]) == key(p) else i + 1
        rows.append(
            Row(
                rank=rank,
                player=p,
                points=points[p],
                buchholz=buchholz[p],
                game_points=game_points[p],
                played=played[p],
                byes=byes[p],
            )
        )
    return tuple(rows)


def place_points(points_by_rank: Sequence[int], place: int) -> int:
    """Return the tournament points of ``place`` (1..) from ``points_by_rank`` (best first).

    Places past the list score its last value (a shared last place at a full table).
    """
    return points_by_rank[min(place, len(points_by_rank)) - 1]


# The default points by place, by table size (the creator may edit them): BGA's spread.
DEFAULT_POINTS: dict[int, tuple[int, ...]] = {
    2: (2, 0),
    3: (4, 2, 0),
    4: (6, 4, 2, 0),
}
