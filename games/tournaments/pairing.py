"""Who sits at which table in a round (issue 30): pure, no ORM, no Django.

Input: the standings (best first, ``Standing`` values: points, whom each has met, whether
they had a bye); output: a ``RoundPlan`` (tables of player ids, top table first; byes).

The rules (documented in docs/tournaments.md, tested in tests/games/tournaments/):

1. **Table sizes.** ``table_sizes(n, size, smallest)``: as few byes as possible, then
   as few tables as possible; the players left are spread as evenly as the tables allow
   (larger tables at the top). A table is never below ``smallest`` (2 ≤ smallest ≤ size).
   So 10 players at tables of 4 (smallest 3) sit 4-3-3; 5 at tables of 4 (smallest 4)
   leave one bye; 5 at tables of 2 leave one bye.
2. **Byes first.** The byes go to the lowest-placed players who have not had one; when
   everyone has had one, to the lowest-placed. They are chosen before any pairing, so no
   pairing rule can move a bye up the standings.
3. **Tables of 2: FIDE Dutch through pairing-core** (``dutch-till2026-compat``): players
   with equal points meet, top half against bottom half of each score group, floaters
   down, no rematch (an absolute criterion there). Colours do not exist in Tigris &
   Euphrates (the seat order is drawn at the start), so every colour history is empty.
   When the library finds no pairing without a rematch (late rounds, few players), the
   grouping below pairs with the fewest rematches.
4. **Tables of 3–4: cut from the top.** The players not on a bye, in standings order,
   are cut into tables top first: the highest-placed player not yet seated opens the next
   table and the next players down join it in order, skipping anyone who has already met
   someone at that table. A depth-first search backs up when the rest cannot be seated
   without a rematch (within ``SEARCH_STEPS``): a rematch happens only when none of the
   groupings searched avoids it. If the search finds none, the greedy cut with the fewest
   rematches at each seat is used.
5. **Round robin.** Tables of 2: the Berger tables (pairing-core ``round_robin``), one
   round per call, by the players' places in the seed order. Tables of 3–4 (≤ 10
   players): each round, among every way to seat the players at the round's tables, the
   first that seats the fewest pairs who have already met (enumeration order: the
   highest seed's table first, larger tables first); byes to whoever had the fewest byes, lowest
   seed first. Groups of ``ROUND_ROBIN_MAX_PLAYERS`` at most, so enumeration stays small
   (10 players at 4-3-3: 2 100 groupings).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from itertools import combinations

from pairing_core import (
    DUTCH_TILL2026_COMPAT,
    CanonicalPlayer,
    CanonicalRequest,
    pair_canonical,
    round_robin,
)
from pairing_core.errors import PairingError

SEARCH_STEPS = 5_000  # nodes of the depth-first search before the greedy fallback


class PairingImpossible(ValueError):
    """Too few players for one table of the smallest size allowed."""


@dataclass(frozen=True)
class Standing:
    """One player still in the event, as the pairing sees them.

    ``player``: an id; ``points``: tournament points so far; ``met``: ids of everyone
    they have sat at a table with; ``byes``: how many byes they had.
    """

    player: int
    points: float = 0
    met: frozenset[int] = field(default_factory=frozenset)
    byes: int = 0


@dataclass(frozen=True)
class RoundPlan:
    """One round: ``tables`` of player ids (top table first), ``byes`` (player ids)."""

    tables: tuple[tuple[int, ...], ...]
    byes: tuple[int, ...] = ()


def table_sizes(n: int, size: int, smallest: int) -> tuple[tuple[int, ...], int]:
    """Return (the sizes of the tables, largest first; the number of byes) for ``n``.

    Rule 1 above. Raises ``ValueError`` for sizes outside 2–4 or ``smallest`` above
    ``size``, ``PairingImpossible`` when fewer than ``smallest`` players are left.
    """
    if not 2 <= smallest <= size <= 4:
        raise ValueError("table size 2–4 and the smallest table 2..size")
    for byes in range(n + 1):
        seated = n - byes
        if seated < smallest:
            break
        tables = -(-seated // size)
        low, extra = divmod(seated, tables)
        if low >= smallest:
            return tuple([low + 1] * extra + [low] * (tables - extra)), byes
    raise PairingImpossible(f"{n} players cannot fill a table of {smallest}")


def bye_players(standings: Sequence[Standing], count: int) -> tuple[int, ...]:
    """Return the ``count`` players who get a bye (rule 2): lowest-placed without one."""
    if count == 0:
        return ()
    fewest = sorted(
        range(len(standings)), key=lambda i: (standings[i].byes > 0, -i)
    )  # no bye yet first, then the lowest-placed
    return tuple(standings[i].player for i in fewest[:count])


def swiss_round(
    standings: Sequence[Standing], *, round_number: int, size: int, smallest: int
) -> RoundPlan:
    """Pair one Swiss round (rules 1–4). ``standings`` best first; ids unique.

    Raises ``PairingImpossible`` (too few players) or ``ValueError`` (bad sizes).
    """
    sizes, byes_count = table_sizes(len(standings), size, smallest)
    byes = bye_players(standings, byes_count)
    playing = [s for s in standings if s.player not in set(byes)]
    if size == 2:
        tables = _dutch(playing, round_number)
        if tables is not None:
            return RoundPlan(tables=tables, byes=byes)
    return RoundPlan(tables=cut_from_top(playing, sizes), byes=byes)


def _dutch(playing: Sequence[Standing], round_number: int) -> tuple[tuple[int, ...], ...] | None:
    ids = {s.player for s in playing}
    players = tuple(
        CanonicalPlayer(
            id=s.player,
            pairing_no=i,
            rating=0,
            points=float(s.points),
            opponents=tuple(sorted(s.met & ids)),
        )
        for i, s in enumerate(playing, start=1)
    )
    request = CanonicalRequest(
        players=players, ruleset=DUTCH_TILL2026_COMPAT, round_number=round_number
    )
    try:
        result = pair_canonical(request)
    except PairingError:
        return None  # no pairing without a rematch: the grouping minimizes them
    if result.bye_player_id is not None:
        return None  # never with an even count; the byes are ours (rule 2)
    return tuple((b.white_id, b.black_id) for b in result.pairings)


def cut_from_top(playing: Sequence[Standing], sizes: Sequence[int]) -> tuple[tuple[int, ...], ...]:
    """Seat ``playing`` (best first) at tables of ``sizes`` (rule 4); top table first.

    ``sum(sizes)`` must equal ``len(playing)`` (``ValueError`` otherwise).
    """
    if sum(sizes) != len(playing):
        raise ValueError("the tables must seat every player exactly once")
    met = {s.player: s.met for s in playing}
    order = [s.player for s in playing]
    found = _search(order, list(sizes), met)
    if found is not None:
        return found
    return _improve(_greedy(order, list(sizes), met), met)


def _search(
    order: list[int], sizes: list[int], met: dict[int, frozenset[int]]
) -> tuple[tuple[int, ...], ...] | None:
    steps = 0

    def fresh(table: list[int], player: int) -> bool:
        seen = met[player]
        return not any(other in seen for other in table)

    def seat(left: list[int], sizes_left: list[int]) -> list[tuple[int, ...]] | None:
        nonlocal steps
        if not left:
            return []
        for size in sorted(set(sizes_left), reverse=True):
            rest_sizes = list(sizes_left)
            rest_sizes.remove(size)
            for table in fill([left[0]], left[1:], size):
                steps += 1
                if steps > SEARCH_STEPS:
                    return None
                rest = [p for p in left if p not in table]
                below = seat(rest, rest_sizes)
                if below is not None:
                    return [table, *below]
        return None

    def fill(table: list[int], candidates: list[int], size: int) -> Iterator[tuple[int, ...]]:
        if len(table) == size:
            yield tuple(table)
            return
        for i, player in enumerate(candidates):
            if fresh(table, player):
                yield from fill([*table, player], candidates[i + 1 :], size)

    tables = seat(order, sizes)
    return None if tables is None else tuple(tables)


def _greedy(
    order: list[int], sizes: list[int], met: dict[int, frozenset[int]]
) -> tuple[tuple[int, ...], ...]:
    left = list(order)
    tables = []
    for size in sizes:
        table = [left.pop(0)]
        while len(table) < size:
            best = min(left, key=lambda p: sum(o in met[p] for o in table))
            left.remove(best)
            table.append(best)
        tables.append(tuple(table))
    return tuple(tables)


def _improve(
    tables: tuple[tuple[int, ...], ...], met: dict[int, frozenset[int]]
) -> tuple[tuple[int, ...], ...]:
    """Swap two players of two tables while that seats fewer pairs who already met.

    The search's fallback: each swap lowers the count of rematches, so this ends; each
    table keeps its size and its place in the order.
    """
    seated = [list(t) for t in tables]

    def clashes(table: list[int]) -> int:
        return sum(1 for a, b in combinations(table, 2) if b in met[a])

    better = True
    while better:
        better = False
        for i, j in combinations(range(len(seated)), 2):
            for x in range(len(seated[i])):
                for y in range(len(seated[j])):
                    before = clashes(seated[i]) + clashes(seated[j])
                    if before == 0:
                        break
                    seated[i][x], seated[j][y] = seated[j][y], seated[i][x]
                    if clashes(seated[i]) + clashes(seated[j]) < before:
                        better = True
                    else:
                        seated[i][x], seated[j][y] = seated[j][y], seated[i][x]
    return tuple(tuple(t) for t in seated)


def round_robin_rounds(players: int, size: int, smallest: int = 2) -> int:
    """Return how many rounds a round robin of ``players`` at tables of ``size`` plays.

    Tables of 2: the Berger count (n − 1, or n when odd). Tables of 3–4: the rounds rule 5
    needs until every pair has met, found by seating them (at most 10 players).
    """
    if size == 2:
        return players - 1 if players % 2 == 0 else players
    met: dict[int, set[int]] = {p: set() for p in range(players)}
    byes = dict.fromkeys(met, 0)
    rounds = 0
    while any(len(m) < players - 1 for m in met.values()):
        rounds += 1
        seeds = [Standing(p, met=frozenset(met[p]), byes=byes[p]) for p in met]
        plan = round_robin_round(seeds, round_number=rounds, size=size, smallest=smallest)
        for table in plan.tables:
            for p in table:
                met[p].update(o for o in table if o != p)
        for p in plan.byes:
            byes[p] += 1
    return rounds


def round_robin_round(
    seeds: Sequence[Standing], *, round_number: int, size: int, smallest: int
) -> RoundPlan:
    """Seat round ``round_number`` (1..) of a round robin (rule 5); ``seeds`` in seed order.

    The seed order is fixed for the event (a withdrawn player stays in it: their
    opponent of a Berger round has a bye). Raises ``ValueError`` for more than 10 players
    at tables of 3–4 or a round past the last.
    """
    if size == 2:
        schedule = round_robin(len(seeds))
        if not 1 <= round_number <= len(schedule):
            raise ValueError("no such round")
        pairs: list[tuple[int, ...]] = []
        sitting_out: list[int] = []
        for white, black in schedule[round_number - 1]:
            if black is None:
                sitting_out.append(seeds[white - 1].player)
            else:
                pairs.append((seeds[white - 1].player, seeds[black - 1].player))
        return RoundPlan(tables=tuple(pairs), byes=tuple(sitting_out))
    if len(seeds) > 10:
        raise ValueError("a round robin at tables of 3–4 has 10 players at most")
    sizes, byes_count = table_sizes(len(seeds), size, smallest)
    fewest = sorted(range(len(seeds)), key=lambda i: (seeds[i].byes, -i))
    byes = tuple(seeds[i].player for i in fewest[:byes_count])
    playing = [s for s in seeds if s.player not in set(byes)]
    met = {s.player: s.met for s in playing}
    best: tuple[int, tuple[tuple[int, ...], ...]] | None = None
    for grouping in _groupings([s.player for s in playing], list(sizes)):
        repeats = sum(1 for t in grouping for a, b in combinations(t, 2) if b in met[a])
        if best is None or repeats < best[0]:
            best = (repeats, grouping)
            if repeats == 0:
                break
    assert best is not None
    return RoundPlan(tables=best[1], byes=byes)


def _groupings(players: list[int], sizes: list[int]) -> Iterator[tuple[tuple[int, ...], ...]]:
    if not players:
        yield ()
        return
    first, rest = players[0], players[1:]
    for size in sorted(set(sizes), reverse=True):
        rest_sizes = list(sizes)
        rest_sizes.remove(size)
        for others in combinations(rest, size - 1):
            table = (first, *others)
            left = [p for p in rest if p not in others]
            for below in _groupings(left, rest_sizes):
                yield (table, *below)
