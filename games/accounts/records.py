"""Keep each player's record as counts (issue 31): ``PlayerRecordCount``, ``BotRecordCount``.

The rule is the one the profile read from history before (``games.selectors.profiles``),
applied to one game at a time:

- a **finished** game counts for each of its seats: finished, its place, its player count,
  its place and final score in the averages, completed (not dropped, another person in the
  game), rated (a rating after); and for each person's seat, each bot seat with a place
  once against that bot's tier: won above it, lost below, tied on a shared place
  (RULES.md §13.2);
- a **dropped** seat (resigned, or timed out ``play.timeouts.TIMEOUTS_TO_DROP`` times) in
  a game with another person counts as dropped (and timed out) from the drop on, while the
  game is in progress or finished;
- an **aborted** game counts for nobody's record (a drop counted while it ran is taken
  back), except a person's seat dropped in it — the game given up: against the bots, a
  loss against each bot seat in it (an operator's abort of a game nobody gave up counts
  nothing); an **expired** game never started.

``game_changed(before=…, after=…)`` applies the difference of one game's counts between
two states (``game_facts``) as atomic ``F()`` increments of the rows, created first when
missing (``INSERT … ON CONFLICT DO NOTHING``): two games of the same player ending at
once are both counted, whatever the order of their transactions. ``games.play.effects``
calls it in the transaction that changes the game. ``records_rebuild`` recounts every row
from history in two set-based statements (the migration's backfill; the tests' recount).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from django.db import connection as default_connection
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import F

from games.models import BotRecordCount, Game, PlayerRecordCount, Seat

FINISHED, ABORTED = Game.Status.FINISHED.value, Game.Status.ABORTED.value
TIMEOUTS = Seat.DropReason.TIMEOUTS.value
PLACES = range(1, 5)  # a game seats 2 to 4 (``game_num_players_2_to_4``)
PLAYER_COUNTS = range(2, 5)


@dataclass(frozen=True)
class SeatFacts:
    """What the record reads of one seat: its player, a bot's tier ('' for a person), its
    place and final score (None before the end), whether dropped and why, rated after."""

    position: int | None
    user_id: int
    is_bot: bool
    tier: str
    final_rank: int | None
    score: float | None
    dropped: bool
    timed_out: bool
    rated: bool


@dataclass(frozen=True)
class GameFacts:
    """One game as the record reads it: its status (``Game.Status`` value), kind, player
    count and seats."""

    status: str
    is_public: bool
    num_players: int
    seats: tuple[SeatFacts, ...]

    def with_status(self, status: str) -> GameFacts:
        """The same game with another status (the state before or after an end)."""
        return replace(self, status=status)

    def with_seat_undropped(self, position: int | None) -> GameFacts:
        """The same game before the seat at ``position`` was dropped (before a drop)."""
        seats = tuple(
            replace(s, dropped=False, timed_out=False) if s.position == position else s
            for s in self.seats
        )
        return replace(self, seats=seats)


def _score(final_score: object) -> float | None:
    if isinstance(final_score, dict) and final_score.get("score") is not None:
        return float(final_score["score"])
    return None


def game_facts(game: Game) -> GameFacts:
    """Return ``game``'s facts as they are in the database now (one query: its seats with
    the bots' tiers). Call it under the game's row lock."""
    seats = Seat.objects.filter(game_id=game.pk).values_list(
        "position",
        "user_id",
        "is_bot",
        "user__profile__bot_tier",
        "final_rank",
        "final_score",
        "dropped_at",
        "drop_reason",
        "rating_after",
    )
    return GameFacts(
        status=str(game.status),
        is_public=game.is_public,
        num_players=game.num_players,
        seats=tuple(
            SeatFacts(
                position=position,
                user_id=user_id,
                is_bot=is_bot,
                tier=(tier or "") if is_bot else "",
                final_rank=rank,
                score=_score(final_score),
                dropped=dropped_at is not None,
                timed_out=dropped_at is not None and reason == TIMEOUTS,
                rated=rating_after is not None,
            )
            for (
                position,
                user_id,
                is_bot,
                tier,
                rank,
                final_score,
                dropped_at,
                reason,
                rating_after,
            ) in seats
        ),
    )


Amounts = defaultdict[str, float]  # field → amount
Counts = dict[tuple[int, bool], Amounts]
BotCounts = dict[tuple[int, bool, str], Amounts]


def _amounts() -> Amounts:
    return defaultdict(float)


def game_counts(game: GameFacts) -> tuple[Counts, BotCounts]:
    """Return what ``game`` adds to each record (see the module): ``{(user id, is public):
    {PlayerRecordCount field: amount}}`` and ``{(user id, is public, tier): {won/lost/tied:
    amount}}``."""
    counts: Counts = {}
    bots: BotCounts = {}
    if game.status in (ABORTED, Game.Status.EXPIRED.value):
        if game.status == ABORTED:
            for person in game.seats:
                if person.is_bot or not person.dropped:
                    continue
                for bot in (s for s in game.seats if s.is_bot and s.tier):
                    key = (person.user_id, game.is_public, bot.tier)
                    bots.setdefault(key, _amounts())["lost"] += 1
        return counts, bots
    finished = game.status == FINISHED
    for seat in game.seats:
        people = any(not o.is_bot and o.user_id != seat.user_id for o in game.seats)
        c = counts.setdefault((seat.user_id, game.is_public), _amounts())
        if seat.dropped and people:
            c["dropped"] += 1
            c["timed_out"] += seat.timed_out
        if not finished:
            continue
        c["finished"] += 1
        c[f"players_{game.num_players}"] += game.num_players in PLAYER_COUNTS
        if seat.final_rank is not None and seat.final_rank > 0:
            c["place_sum"] += seat.final_rank
            c["place_n"] += 1
            if seat.final_rank in PLACES:
                c[f"place_{seat.final_rank}"] += 1
        if seat.score is not None:
            c["lowest_sum"] += seat.score
            c["lowest_n"] += 1
        c["completed"] += not seat.dropped and people
        c["rated"] += seat.rated
        if seat.is_bot or seat.final_rank is None:
            continue
        for bot in game.seats:
            if not bot.is_bot or not bot.tier or bot.final_rank is None:
                continue
            key = (seat.user_id, game.is_public, bot.tier)
            outcome = (
                "won"
                if seat.final_rank < bot.final_rank
                else "lost"
                if seat.final_rank > bot.final_rank
                else "tied"
            )
            bots.setdefault(key, _amounts())[outcome] += 1
    return counts, bots


Deltas = dict[Any, dict[str, float]]  # key → field → amount


def _difference(after: dict[Any, Amounts], before: dict[Any, Amounts]) -> Deltas:
    out: Deltas = {}
    for key in after.keys() | before.keys():
        a, b = after.get(key, _amounts()), before.get(key, _amounts())
        delta = {f: a[f] - b[f] for f in a.keys() | b.keys() if a[f] != b[f]}
        if delta:
            out[key] = delta
    return out


def game_changed(*, before: GameFacts, after: GameFacts) -> None:
    """Add to the kept records what changed between ``before`` and ``after`` of one game
    (an end, an abort, a seat dropped). Atomic increments (``F()``), so concurrent ends of
    two games of one player are both counted; the missing rows are created first, each
    insert ignoring a row another transaction created meanwhile. Call it in the
    transaction that makes the change."""
    counts_after, bots_after = game_counts(after)
    counts_before, bots_before = game_counts(before)
    _apply(PlayerRecordCount, ("user_id", "is_public"), _difference(counts_after, counts_before))
    _apply(BotRecordCount, ("user_id", "is_public", "tier"), _difference(bots_after, bots_before))


def _apply(model: Any, key_fields: Sequence[str], deltas: Deltas) -> None:
    if not deltas:
        return
    model.objects.bulk_create(
        [model(**dict(zip(key_fields, key, strict=True))) for key in sorted(deltas)],
        ignore_conflicts=True,
    )
    for key in sorted(deltas):  # one order in every transaction: no deadlock between two
        model.objects.filter(**dict(zip(key_fields, key, strict=True))).update(
            **{field: F(field) + amount for field, amount in deltas[key].items()}
        )


# --------------------------------------------------------------------------- from history

_SCORE = {
    "postgresql": "CAST(s.final_score ->> 'score' AS DOUBLE PRECISION)",
    "sqlite": "CAST(json_extract(s.final_score, '$.score') AS REAL)",
}


def _record_sql(vendor: str) -> str:
    score = _SCORE[vendor]
    fin = "g.status = %(finished)s"
    people = (
        "EXISTS (SELECT 1 FROM games_seat o WHERE o.game_id = s.game_id"
        " AND o.is_bot = %(no)s AND o.user_id <> s.user_id)"
    )
    dropped = f"s.dropped_at IS NOT NULL AND {people}"

    def count(cond: str) -> str:
        return f"SUM(CASE WHEN {cond} THEN 1 ELSE 0 END)"

    columns = {
        "finished": count(fin),
        **{f"place_{p}": count(f"{fin} AND s.final_rank = {p}") for p in PLACES},
        **{f"players_{n}": count(f"{fin} AND g.num_players = {n}") for n in PLAYER_COUNTS},
        "place_sum": f"SUM(CASE WHEN {fin} AND s.final_rank > 0 THEN s.final_rank ELSE 0 END)",
        "place_n": count(f"{fin} AND s.final_rank > 0"),
        "lowest_sum": f"COALESCE(SUM(CASE WHEN {fin} THEN {score} END), 0)",
        "lowest_n": count(f"{fin} AND {score} IS NOT NULL"),
        "completed": count(f"{fin} AND s.dropped_at IS NULL AND {people}"),
        "dropped": count(dropped),
        "timed_out": count(f"{dropped} AND s.drop_reason = %(timeouts)s"),
        "rated": count(f"{fin} AND s.rating_after IS NOT NULL"),
    }
    return (
        f"INSERT INTO games_playerrecordcount (user_id, is_public, {', '.join(columns)}) "
        f"SELECT s.user_id, g.is_public, {', '.join(columns.values())} "
        "FROM games_seat s JOIN games_game g ON g.id = s.game_id "
        "WHERE g.status NOT IN (%(aborted)s, %(expired)s) "
        "GROUP BY s.user_id, g.is_public"
    )


# Each person's seat of a finished game against each bot seat with a place, by places; of
# a game given up (aborted, the person's seat dropped) against each bot seat, a loss.
_BOT_SQL = (
    "INSERT INTO games_botrecordcount (user_id, is_public, tier, won, lost, tied) "
    "SELECT p.user_id, g.is_public, bp.bot_tier, "
    "SUM(CASE WHEN g.status = %(finished)s AND p.final_rank < b.final_rank THEN 1 ELSE 0 END), "
    "SUM(CASE WHEN g.status = %(aborted)s OR p.final_rank > b.final_rank THEN 1 ELSE 0 END), "
    "SUM(CASE WHEN g.status = %(finished)s AND p.final_rank = b.final_rank THEN 1 ELSE 0 END) "
    "FROM games_seat p JOIN games_game g ON g.id = p.game_id "
    "JOIN games_seat b ON b.game_id = p.game_id AND b.is_bot = %(yes)s "
    "JOIN games_profile bp ON bp.user_id = b.user_id AND bp.bot_tier <> '' "
    "WHERE p.is_bot = %(no)s AND ("
    "(g.status = %(finished)s AND p.final_rank IS NOT NULL AND b.final_rank IS NOT NULL) "
    "OR (g.status = %(aborted)s AND p.dropped_at IS NOT NULL)) "
    "GROUP BY p.user_id, g.is_public, bp.bot_tier"
)


def records_rebuild(connection: BaseDatabaseWrapper | None = None) -> None:
    """Recount every kept record from history: delete the rows, then one ``INSERT …
    SELECT … GROUP BY`` a table over all seats (no row read into Python; PostgreSQL and
    SQLite). The migration that adds the tables runs it (the backfill); the tests compare
    its counts with the ones kept game by game. Run it with no game ending meanwhile (a
    migration, or a maintenance window): an end between the delete and the insert is
    counted by the insert, but one committing after its snapshot would be lost."""
    connection = connection or default_connection
    params: dict[str, str | bool] = {
        "finished": FINISHED,
        "aborted": ABORTED,
        "expired": Game.Status.EXPIRED.value,
        "timeouts": TIMEOUTS,
        "yes": True,
        "no": False,
    }
    with connection.cursor() as cursor:
        cursor.execute("DELETE FROM games_playerrecordcount")
        cursor.execute("DELETE FROM games_botrecordcount")
        cursor.execute(_record_sql(connection.vendor), params)
        cursor.execute(_BOT_SQL, params)
