"""What every page, list and sweep costs as history grows (issue 31): fill, measure, compare.

Run against a throw-away PostgreSQL database (it is filled, then left for the wrapper to
remove): ``scripts/with-postgres.sh nice -n 10 .venv/bin/python bench/scale.py``.
Options: ``--sizes 0.01,0.1`` the sizes measured, as fractions of the full size below (each
size is a database of its own, a copy of the smaller one grown by COPY; every item is timed
on the sizes in turn, so a burst of load on the shared machine falls on each alike);
``--repeat N`` warm requests per item; ``--pool N`` real games played to fill from;
``--only WORD`` measure the items whose name holds WORD; ``--pg-set NAME=VALUE`` a planner
setting for every database (``random_page_cost=1.1``, as on SSDs); ``--hold S`` keep the
cluster S seconds at the end, for psql. The full size fills for half an hour, so filling and
measuring can be apart: ``--fill-only --state FILE --hold S`` fills, writes what the
measurement needs (databases, ids, the API token) to FILE and keeps the cluster up; then
``DATABASE_URL=<the printed URL> bench/scale.py --reuse FILE`` migrates each database (new
indexes), analyses it and measures it with the code as it is then.

The full size (``--sizes 1``) is the issue's: 50,000 players, 200,000 finished games with
their moves, 5,000 games in progress (500 with a bot seat), 500 open games, 20,000 outbox
rows, 100,000 chat lines, 20,000 private notes, 10,000 follows. One veteran player (the
one measured signed in) holds a seat in 1 finished game of 200 and 1 running game of 50,
so their own history grows with the database too; a typical player has about a dozen.

The rows are real: a pool of games is played by random players through the engine
(``engine.new_game``/``legal_actions``/``apply``, seeds 1..N), and each finished row takes
one pool game's seed, moves, events, final snapshot and ranking (each running row a pool
game cut at some ply, its snapshot at that ply), so every game replays from its seed to its
snapshot (``manage.py verify_games`` would pass). Rows go in with COPY.

The work each sweep finds due is the same at every size (``DUE``: reminders, deadlines,
outbox rows, batched and digest rows, games waiting on a bot), so a sweep's ratio between
sizes shows what it reads beyond the rows due, not more work done.

Per item it prints the time p50 / p95 of warm runs (ms), the cold run (the first, with a
new database connection and Django's cache cleared; PostgreSQL's and the OS's caches are
not dropped), the CPU a warm run took in this process (p50, ms: what the load does not
stretch) and in its PostgreSQL backend (mean, ms, read from ``/proc`` in 10 ms ticks), the
queries, the rows read by the slowest query (``EXPLAIN (ANALYZE,
BUFFERS)``: rows returned plus rows removed by filters, over every scan node and loop) and
the big tables it reads with a sequential scan. Then, per item, the ratio of the last size
to the first. Sweeps run in a transaction rolled back, so each run finds the same rows due.
"""

from __future__ import annotations

import argparse
import copy
import io
import json
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

FULL = {
    "players": 50_000,
    "finished": 200_000,
    "running": 5_000,
    "bot_games": 500,
    "open": 500,
    "outbox": 20_000,
    "chat": 100_000,
    "notes": 20_000,
    "follows": 10_000,
}
DUE = 5  # rows each sweep finds due, at every size
VETERAN_FINISHED_EVERY = 200
VETERAN_RUNNING_EVERY = 50
BIG_TABLES = {
    "games_game",
    "games_seat",
    "games_move",
    "games_profile",
    "auth_user",
    "games_notification",
    "games_chatmessage",
    "games_privatenote",
    "games_follow",
}
NOW = datetime.now(UTC)


def setup_django() -> None:
    """Configure Django on ``DATABASE_URL`` (PostgreSQL only) and migrate it."""
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith(("postgres://", "postgresql://")):
        sys.exit("bench/scale.py needs PostgreSQL: run it under scripts/with-postgres.sh")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tigris_site.settings")
    os.environ.setdefault("SECRET_KEY", "bench-" + "k" * 40)
    os.environ["DEBUG"] = "0"
    os.environ["CELERY_TASK_ALWAYS_EAGER"] = "1"
    os.environ["BOTS_QUEUED"] = "1"  # the bots' sweep queues (a no-op here), never thinks
    os.environ.setdefault("ALLOWED_HOSTS", "testserver")
    os.environ["SECURE_SSL_REDIRECT"] = "0"
    os.environ["SECURE_HSTS_SECONDS"] = "0"
    os.environ["LOG_LEVEL"] = "ERROR"
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)


# --------------------------------------------------------------------------- the pool


@dataclass
class PoolGame:
    """One real game played by random players: what its rows are copied from."""

    seed: int
    num_players: int
    moves: list[tuple[int, int, str, str]]  # (ply, seat, notation, events JSON)
    final: str  # the snapshot JSON after the last move
    ranks: dict[int, tuple[int, str]] = field(default_factory=dict)  # seat → (rank, sheet)
    cuts: list[tuple[int, str, int]] = field(default_factory=list)  # (ply, snapshot, to_act)


def play_pool(size: int) -> list[PoolGame]:
    """Play ``size`` games with random players (2–4 seats), keeping cuts for running rows."""
    import engine
    from games.core.states import events_to_db, state_to_db

    pool = []
    for seed in range(1, size + 1):
        rng = random.Random(seed)
        num = 2 + seed % 3
        state = engine.new_game(num, seed)
        moves: list[tuple[int, int, str, str]] = []
        cuts = []
        cut_at = {rng.randrange(4, 120) for _ in range(3)}
        while not state.is_over:
            seat = int(state.to_act or 0)
            action = rng.choice(engine.legal_actions(state))
            state = engine.apply(state, action)
            moves.append((len(moves) + 1, seat, str(action), json.dumps(events_to_db(state))))
            if len(moves) in cut_at and not state.is_over and state.to_act is not None:
                cuts.append((len(moves), json.dumps(state_to_db(state)), state.to_act))
        ranks = {}
        for placing in engine.final_ranking(state):
            colors = [int(c) for c in placing.colors]
            sheet: dict[str, Any] = {"colors": dict(zip(engine.COLOR_NAMES, colors, strict=True))}
            sheet["score"] = min(colors)
            ranks[placing.seat] = (placing.rank, json.dumps(sheet))
        pool.append(PoolGame(seed, num, moves, json.dumps(state_to_db(state)), ranks, cuts))
    return pool


# --------------------------------------------------------------------------- COPY


def _text(value: Any) -> str:
    """Return ``value`` in COPY's text format."""
    if value is None:
        return "\\N"
    if value is True:
        return "t"
    if value is False:
        return "f"
    if isinstance(value, datetime):
        return value.isoformat()
    text = str(value)
    return text.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r")


class Copier:
    """Buffer rows of one table in COPY text format and send them in large writes."""

    def __init__(self, table: str, columns: list[str]) -> None:
        self.table, self.columns = table, columns
        self.buffer = io.StringIO()
        self.rows = 0

    def row(self, *values: Any) -> None:
        self.buffer.write("\t".join(_text(v) for v in values))
        self.buffer.write("\n")
        self.rows += 1

    def raw(self, text: str, rows: int) -> None:
        self.buffer.write(text)
        self.rows += rows

    def send(self) -> int:
        from django.db import connection

        with connection.cursor() as cursor:
            sql = f"COPY {self.table} ({', '.join(self.columns)}) FROM STDIN"
            with cursor.cursor.copy(sql) as copy:
                copy.write(self.buffer.getvalue())
        sent, self.buffer, self.rows = self.rows, io.StringIO(), 0
        return sent


def _table_defaults(model: Any) -> dict[str, Any]:
    """Return column → the model's default for its columns with a constant default."""
    out = {}
    for f in model._meta.concrete_fields:
        if f.primary_key:
            continue
        value = f.get_default()  # a callable default (seed, token) is always given instead
        out[f.column] = json.dumps(value) if isinstance(value, list | dict) else value
    return out


def _row_of(defaults: dict[str, Any], columns: list[str], values: dict[str, Any]) -> list[Any]:
    return [values[c] if c in values else defaults[c] for c in columns]


class Filler:
    """Grow the database to a size, keeping the ids handed out so far."""

    def __init__(self, pool: list[PoolGame]) -> None:
        from games.accounts.bots import bot_account

        self.pool = pool
        self.finished_pool = [g for g in pool]
        self.cuts = [(g, c) for g in pool for c in g.cuts]
        self.have = dict.fromkeys(FULL, 0)
        self.user_ids: list[int] = []
        self.next_game = 1
        self.rng = random.Random(31)
        self.bot_user = bot_account("easy").pk
        self.veteran: int | None = None
        self.typical: int | None = None
        self.game_ids: dict[str, list[int]] = {"finished": [], "running": [], "open": []}
        self.due_made = False
        self.veteran_running: list[int] = []
        self.bot_waiting: list[int] = []
        # Each pool game's move rows in COPY text, without the game id and the time.
        self.move_lines = {
            g.seed: [f"\t{ply}\t{seat}\t{_text(a)}\t{_text(ev)}\t" for ply, seat, a, ev in g.moves]
            for g in pool
        }

    # ---- rows

    def _users(self, count: int) -> None:
        from django.contrib.auth.hashers import make_password
        from django.db import connection

        from games.models import Profile
        from games.text import names

        with connection.cursor() as cursor:
            cursor.execute("SELECT COALESCE(MAX(id), 0) FROM auth_user")
            start = cursor.fetchone()[0] + 1
        password = make_password(None)
        users = Copier(
            "auth_user",
            [
                "id",
                "password",
                "is_superuser",
                "username",
                "first_name",
                "last_name",
                "email",
                "is_staff",
                "is_active",
                "date_joined",
            ],
        )
        cols = [str(f.column) for f in Profile._meta.concrete_fields if not f.primary_key]
        defaults = _table_defaults(Profile)
        profiles = Copier("games_profile", cols)
        for uid in range(start, start + count):
            name = f"player{uid}"
            users.row(
                uid,
                password,
                False,
                name,
                "",
                "",
                f"{name}@example.com",
                False,
                True,
                NOW - timedelta(days=self.rng.randrange(1, 900)),
            )
            rated = self.rng.randrange(0, 60)
            sigma = max(1.0, 8.33 - rated * 0.12)
            profiles.row(
                *_row_of(
                    defaults,
                    cols,
                    {
                        "user_id": uid,
                        "display_name": name,
                        "name_key": names.name_key(name),
                        "rating_mu": self.rng.gauss(25, 4),
                        "rating_sigma": sigma,
                        "rated_games": rated,
                        "last_active_at": NOW - timedelta(days=self.rng.randrange(0, 400)),
                    },
                )
            )
            self.user_ids.append(uid)
        users.send()
        profiles.send()
        if self.veteran is None:
            self.veteran, self.typical = self.user_ids[0], self.user_ids[1]

    def _pick_players(self, num: int, *, veteran: bool) -> list[int]:
        chosen: list[int] = [int(self.veteran or 0)] if veteran else []
        while len(chosen) < num:
            uid = self.user_ids[self.rng.randrange(2, len(self.user_ids))]
            if uid not in chosen:
                chosen.append(uid)
        return chosen

    def _games(self, kind: str, count: int, games: Copier, seats: Copier, moves: Copier) -> None:
        from games.models import Game, Seat

        gcols, scols = games.columns, seats.columns
        gdef, sdef = _table_defaults(Game), _table_defaults(Seat)
        every = {"finished": VETERAN_FINISHED_EVERY, "running": VETERAN_RUNNING_EVERY}
        for _ in range(count):
            gid = self.next_game
            self.next_game += 1
            self.game_ids[kind].append(gid)
            self.have[kind] += 1
            veteran = kind in every and (self.have[kind] - 1) % every[kind] == 0
            values: dict[str, Any]
            if kind == "open":
                pool_game = self.pool[gid % len(self.pool)]
                players = self._pick_players(1, veteran=False)
                values = {
                    "status": "open",
                    "state": None,
                    "version": 0,
                    "created_at": NOW - timedelta(hours=self.rng.randrange(1, 300)),
                }
                plies: list[str] = []
            elif kind == "finished":
                pool_game = self.pool[gid % len(self.pool)]
                players = self._pick_players(pool_game.num_players, veteran=veteran)
                ended = NOW - timedelta(minutes=self.rng.randrange(60, 2 * 365 * 24 * 60))
                values = {
                    "status": "finished",
                    "state": pool_game.final,
                    "version": len(pool_game.moves),
                    "finished_at": ended,
                    "rated_at": ended,
                    "created_at": ended - timedelta(days=20),
                    "started_at": ended - timedelta(days=19),
                }
                plies = self.move_lines[pool_game.seed]
            else:  # running
                pool_game, (ply, snapshot, to_act) = self.cuts[gid % len(self.cuts)]
                players = self._pick_players(pool_game.num_players, veteran=veteran)
                # Moved within the last day: every clock (3 days, the reminder 1 day before)
                # falls due a day after the fill at the earliest, so a measurement hours
                # later finds only the bench's own due rows (``_due``; ``clocks_rebase``).
                moved = NOW - timedelta(minutes=self.rng.randrange(1, 24 * 60))
                deadline = moved + timedelta(days=3)
                values = {
                    "status": "active",
                    "state": snapshot,
                    "version": ply,
                    "to_act_seat": to_act,
                    "deadline": deadline,
                    "deadline_seat": to_act,
                    "deadline_set_at": moved,
                    "reminder_at": deadline - timedelta(days=1),
                    "days_per_move": 3,
                    "created_at": moved - timedelta(days=10),
                    "started_at": moved - timedelta(days=9),
                    "updated_at": moved,
                }
                # not due: the sweeps' due rows are made apart (``_due``)
                if values["reminder_at"] <= NOW:
                    values["reminder_at"] = None
                plies = self.move_lines[pool_game.seed][:ply]
                if veteran:
                    self.veteran_running.append(gid)
            bot_seat = kind == "running" and self.have["running"] % 10 == 0
            values.setdefault("updated_at", values.get("finished_at") or values["created_at"])
            games.row(
                *_row_of(
                    gdef,
                    gcols,
                    {
                        "id": gid,
                        "num_players": pool_game.num_players,
                        "creator_id": players[0],
                        "invite_token": f"bench{gid}",
                        "seed": pool_game.seed,
                        "is_public": gid % 10 != 0,
                        **values,
                    },
                )
            )
            for position, uid in enumerate(players, start=1):
                sv: dict[str, Any] = {
                    "game_id": gid,
                    "user_id": uid,
                    "joined_at": values["created_at"],
                    "position": None if kind == "open" else position,
                    "dynasty": ""
                    if kind == "open"
                    else ["archer", "bull", "pot", "lion"][position - 1],
                }
                # a bot's seat is never the one to act: the games due are made apart
                if bot_seat and position == values["to_act_seat"] % pool_game.num_players + 1:
                    sv["user_id"], sv["is_bot"] = self.bot_user, True
                if kind == "finished":
                    rank, sheet = pool_game.ranks[position]
                    sv.update(
                        final_rank=rank,
                        final_score=sheet,
                        rating_before=1400 + self.rng.random() * 200,
                        rating_after=1400 + self.rng.random() * 200,
                    )
                seats.row(*_row_of(sdef, scols, sv))
            if plies:
                stamp = _text(values["created_at"])
                tail = f"player\tf\t{stamp}\n"
                prefix = str(gid)
                moves.raw("".join(prefix + line + tail for line in plies), len(plies))
            if moves.rows > 200_000:
                games.send(), seats.send(), moves.send()

    def _community(self, outbox: int, chat: int, notes: int, follows: int) -> None:
        from games.models import ChatMessage, Follow, Notification, PrivateNote

        rng = self.rng
        known = self.game_ids["finished"] + self.game_ids["running"]
        ncols = [str(f.column) for f in Notification._meta.concrete_fields if not f.primary_key]
        ndef = _table_defaults(Notification)
        rows = Copier("games_notification", ncols)
        for i in range(outbox):
            gid = known[rng.randrange(len(known))]
            sent = NOW - timedelta(minutes=rng.randrange(10, 500_000))
            rows.row(
                *_row_of(
                    ndef,
                    ncols,
                    {
                        "user_id": self.user_ids[rng.randrange(len(self.user_ids))],
                        "game_id": gid,
                        "ply": 1_000_000 + self.have["outbox"] + i,
                        "kind": "your_turn",
                        "status": "sent",
                        "send_after": sent,
                        "created_at": sent,
                        "sent_at": sent,
                        "claimed_at": sent,
                        "message_id": f"<bench{gid}.{i}@example.com>",
                        "attempts": 1,
                        "delivery": "immediate",
                    },
                )
            )
        rows.send()
        ccols = [str(f.column) for f in ChatMessage._meta.concrete_fields if not f.primary_key]
        lines = Copier("games_chatmessage", ccols)
        for _ in range(chat):
            gid = known[rng.randrange(len(known))]
            lines.row(
                *_row_of(
                    {},
                    ccols,
                    {
                        "game_id": gid,
                        "author_id": self.user_ids[rng.randrange(len(self.user_ids))],
                        "text": "good game, well played",
                        "created_at": NOW - timedelta(minutes=rng.randrange(1, 500_000)),
                    },
                )
            )
        lines.send()
        pcols = [str(f.column) for f in PrivateNote._meta.concrete_fields if not f.primary_key]
        note = Copier("games_privatenote", pcols)
        start = self.have["notes"]
        for i in range(notes):
            # one note a game, by a player who may not be seated: notes are read by game and user
            gid = known[(start + i) % len(known)]
            note.row(
                *_row_of(
                    {},
                    pcols,
                    {
                        "game_id": gid,
                        "user_id": self.user_ids[(start + i) % len(self.user_ids)],
                        "text": "watch the red kingdom; keep a catastrophe",
                        "updated_at": NOW,
                    },
                )
            )
        note.send()
        fcols = [str(f.column) for f in Follow._meta.concrete_fields if not f.primary_key]
        fol = Copier("games_follow", fcols)
        seen: set[tuple[int, int]] = set()
        for _ in range(follows):
            a = self.user_ids[rng.randrange(len(self.user_ids))]
            b = self.user_ids[rng.randrange(len(self.user_ids))]
            if a == b or (a, b) in seen:
                continue
            seen.add((a, b))
            fol.row(*_row_of({}, fcols, {"follower_id": a, "followed_id": b, "created_at": NOW}))
        fol.send()

    def _due(self) -> None:
        """Make ``DUE`` rows of each sweep due now (once: the same at every size)."""
        from django.contrib.auth import get_user_model

        from games.accounts import tokens
        from games.models import Delivery, Follow, Game, Notification, Seat

        running = self.game_ids["running"]
        past = NOW - timedelta(minutes=5)
        Game.objects.filter(pk__in=running[1 : 1 + DUE]).update(reminder_at=past)
        Game.objects.filter(pk__in=running[1 + DUE : 1 + 2 * DUE]).update(deadline=past)
        bots = list(
            Seat.objects.filter(is_bot=True, game__status="active").values_list(
                "game_id", "position"
            )[:DUE]
        )
        for gid, position in bots:
            Game.objects.filter(pk=gid).update(
                to_act_seat=position, deadline_seat=position, bot_to_act=True
            )
        self.bot_waiting = [g for g, _ in bots]
        for i, delivery in enumerate([Delivery.IMMEDIATE, Delivery.BATCHED, Delivery.DIGEST]):
            for j in range(DUE):
                Notification.objects.create(
                    user_id=self.user_ids[10 + i * DUE + j],
                    game_id=running[j],
                    ply=1,
                    kind="your_turn",
                    delivery=delivery,
                    send_after=past,
                )
        Notification.objects.filter(ply=1, send_after=past).update(created_at=past)
        veteran = get_user_model().objects.get(pk=int(self.veteran or 0))
        _, self.token = tokens.token_create(user=veteran, name="bench")
        for uid in self.user_ids[2:12]:
            Follow.objects.get_or_create(follower=veteran, followed_id=uid)

    def clocks_rebase(self) -> int:
        """Push back the clocks that time made due since the fill; return how many games.

        The bench's due rows (``_due``: reminders and deadlines of ``DUE`` games each) stay
        due; any other running game whose deadline or reminder comes within the hour (the
        fill's clocks ran on meanwhile) gets a deadline 3 days away, its reminder 2 days
        away, so every sweep finds the same work at every size however long after the fill
        it is measured (the fill of 3 December at 07:09 gave 8 + 11 games due at 0.1 and
        56 + 60 at full size 45 minutes later).
        """
        from django.db.models import Q

        from games.models import Game

        now = datetime.now(UTC)
        soon = now + timedelta(hours=1)
        due = self.game_ids["running"][1 : 1 + 2 * DUE]
        return (
            Game.objects.filter(status="active")
            .filter(Q(deadline__lte=soon) | Q(reminder_at__lte=soon))
            .exclude(pk__in=due)
            .update(deadline=now + timedelta(days=3), reminder_at=now + timedelta(days=2))
        )

    _FACTS = ("veteran", "typical", "game_ids", "veteran_running", "bot_waiting", "token")

    def facts(self) -> dict[str, Any]:
        """Return what measuring needs of this filler (ids and the API token), JSON-ready."""
        return {key: getattr(self, key) for key in self._FACTS}

    def restore(self, saved: dict[str, Any]) -> None:
        """Take back what ``facts`` gave (a filler restored so can measure, not grow)."""
        for key in self._FACTS:
            setattr(self, key, saved[key])

    def grow_to(self, scale: float) -> dict[str, int]:
        """Add rows until each count is its full size × ``scale``; return the counts."""
        from django.db import connection

        from games.models import Game, Move, Seat

        want = {k: max(1, round(v * scale)) for k, v in FULL.items()}
        want["running"] = max(want["running"], 4 * DUE)
        self._users(want["players"] - self.have["players"])
        self.have["players"] = want["players"]
        gcols = [str(f.column) for f in Game._meta.concrete_fields]
        scols = [str(f.column) for f in Seat._meta.concrete_fields if not f.primary_key]
        mcols = ["game_id", "ply", "seat", "action", "events", "source", "undone", "created_at"]
        assert {str(f.column) for f in Move._meta.concrete_fields} - {"id"} == set(mcols)
        games, seats, moves = (
            Copier("games_game", gcols),
            Copier("games_seat", scols),
            Copier("games_move", mcols),
        )
        for kind in ("finished", "running", "open"):
            self._games(kind, want[kind] - self.have[kind], games, seats, moves)
        games.send(), seats.send(), moves.send()
        self._community(
            want["outbox"] - self.have["outbox"],
            want["chat"] - self.have["chat"],
            want["notes"] - self.have["notes"],
            want["follows"] - self.have["follows"],
        )
        for key in ("outbox", "chat", "notes", "follows"):
            self.have[key] = want[key]
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT setval(pg_get_serial_sequence('games_game', 'id'), %s)", [self.next_game]
            )
            cursor.execute(
                "SELECT setval(pg_get_serial_sequence('auth_user', 'id'), %s)",
                [max(self.user_ids) + 1],
            )
        if not self.due_made:
            self._due()
            self.due_made = True
        # The players' kept records (issue 31): the rows went in past the services, so they
        # are counted from history as the migration's backfill does (``records_rebuild``).
        from games.accounts.records import records_rebuild

        started = time.perf_counter()
        records_rebuild(connection)
        print(f"records counted from history in {time.perf_counter() - started:.1f} s", flush=True)
        with connection.cursor() as cursor:
            cursor.execute("VACUUM ANALYZE")
            counts = {}
            for table in sorted(BIG_TABLES):  # exact: pg_stat's n_live_tup is an estimate
                cursor.execute(f"SELECT COUNT(*) FROM {table}")
                counts[table] = cursor.fetchone()[0]
            return counts


# --------------------------------------------------------------------------- measuring


@dataclass
class Figure:
    name: str
    p50: float
    p95: float
    cold: float
    queries: int
    rows_read: int
    seq_scans: list[str]
    cpu: float = 0.0  # ms of this process's CPU, p50 of the warm runs
    db_cpu: float = 0.0  # ms of the PostgreSQL backend's CPU, mean of the warm runs
    steal: float = 0.0  # % of the machine's CPU time the host took while the item was timed


def cpu_times() -> tuple[int, int, int]:
    """Return the machine's CPU time so far as (steal, idle, total) in clock ticks.

    From the ``cpu`` line of ``/proc/stat`` (user nice system idle iowait irq softirq steal
    guest guest_nice; guest time is already counted in user, so it is left out of the
    total); ``(0, 0, 0)`` where it cannot be read (not Linux).
    """
    try:
        fields = [int(f) for f in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    except (OSError, ValueError):
        return 0, 0, 0
    total = sum(fields[:8])
    return fields[7] if len(fields) > 7 else 0, fields[3] + fields[4], total


def steal_since(before: tuple[int, int, int]) -> tuple[float, float]:
    """Return (steal %, busy %) of the machine's CPU time since ``before`` (``cpu_times``).

    Steal is the time a virtual machine's CPUs were ready to run but the host ran something
    else: while it is high, wall times stretch beyond CPU + database time. Busy is what was
    not idle (or waiting for I/O), steal included: how loaded the machine was.
    """
    steal, idle, total = (now - then for now, then in zip(cpu_times(), before, strict=True))
    if total <= 0:
        return 0.0, 0.0
    return 100 * steal / total, 100 * (total - idle) / total


def _walk(plan: dict[str, Any], out: dict[str, Any]) -> None:
    loops = plan.get("Actual Loops", 1)
    if "Relation Name" in plan or plan["Node Type"].endswith("Scan"):
        out["rows"] += (plan.get("Actual Rows", 0) + plan.get("Rows Removed by Filter", 0)) * loops
    if plan["Node Type"] == "Seq Scan" and plan.get("Relation Name") in BIG_TABLES:
        out["seq"].add(plan["Relation Name"])
    for child in plan.get("Plans", []):
        _walk(child, out)


def explain(sql: str) -> tuple[float, int, list[str]]:
    """Return ``sql``'s execution time (ms), rows read and big tables it scans in full.

    The statement runs under ``EXPLAIN (ANALYZE, BUFFERS)`` in a transaction rolled back.
    """
    from django.db import connection, transaction

    if not sql.lstrip().upper().startswith(("SELECT", "UPDATE", "DELETE", "INSERT", "WITH")):
        return 0.0, 0, []
    out: dict[str, Any] = {"rows": 0, "seq": set()}
    try:
        with transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute("EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) " + sql)
                plan = cursor.fetchone()[0]
            transaction.set_rollback(True)
    except Exception as exc:  # a statement EXPLAIN cannot run alone
        print(f"    (explain failed: {type(exc).__name__}: {str(exc)[:80]})")
        return 0.0, 0, []
    data = plan if isinstance(plan, list) else json.loads(plan)
    _walk(data[0]["Plan"], out)
    return float(data[0]["Execution Time"]), int(out["rows"]), sorted(out["seq"])


def _plans(queries: list[dict[str, str]]) -> tuple[int, list[str]]:
    """Return rows read by the slowest of ``queries`` (by EXPLAIN ANALYZE's time) and every
    big table any of them scans in full; the 40 slowest by wall time are explained."""
    distinct = {q["sql"]: float(q["time"]) for q in queries}
    slowest = sorted(distinct, key=distinct.__getitem__, reverse=True)[:40]
    seq: set[str] = set()
    best = (-1.0, 0)
    for sql in slowest:
        took, rows, scans = explain(sql)
        seq.update(scans)
        best = max(best, (took, rows))
    return best[1], sorted(seq)


def _use(database: Any) -> None:
    """Make ``database`` (a ``DatabaseWrapper``) the default connection of this thread."""
    from django.db import connections

    connections["default"] = database


def _database(name: str) -> Any:
    """Return a new connection wrapper like the default one, to database ``name``."""
    from django.db import connections

    settings = copy.deepcopy(connections["default"].settings_dict)
    settings["NAME"] = name
    return type(connections["default"])(settings, "default")


def database_copy(template: str, name: str) -> Any:
    """Create database ``name`` as a copy of ``template`` (closing the default connection:
    a template must have none) and return a connection wrapper to it."""
    from django.db import connections

    connections["default"].close()
    admin = _database("postgres")
    with admin.cursor() as cursor:
        cursor.execute(f'CREATE DATABASE "{name}" TEMPLATE "{template}"')
    admin.close()
    return _database(name)


Run = tuple[Any, Callable[[], Any], bool]  # (database, run, in a rolled-back transaction)


def measure(name: str, runs: list[Run], *, repeat: int) -> list[Figure]:
    """Time each of ``runs`` (one per size) cold, then ``repeat`` times warm, the sizes in
    turn so a burst of load falls on every size alike; explain each one's queries."""
    from django.core.cache import cache
    from django.db import connection, transaction
    from django.test.utils import CaptureQueriesContext

    def once(database: Any, run: Callable[[], Any], rollback: bool) -> tuple[float, list[Any]]:
        _use(database)
        connection.queries_log.clear()  # a full log (9,000) would capture nothing
        connection.ensure_connection()
        backend = _backend_cpu(connection)
        with CaptureQueriesContext(connection) as captured:
            started, cpu = time.perf_counter(), time.process_time()
            if rollback:
                with transaction.atomic():
                    run()
                    transaction.set_rollback(True)
            else:
                run()
            took = (time.perf_counter() - started) * 1000
            cpus.append((time.process_time() - cpu) * 1000)
        db_cpus.append(_backend_cpu(connection) - backend)
        return took, list(captured.captured_queries)

    ticks = cpu_times()
    colds = []
    cpus: list[float] = []
    db_cpus: list[float] = []
    for database, run, rollback in runs:
        database.close()
        cache.clear()
        colds.append(once(database, run, rollback)[0])
    times: list[list[float]] = [[] for _ in runs]
    queries: list[list[Any]] = [[] for _ in runs]
    cpu_of: list[list[float]] = [[] for _ in runs]
    db_cpu_of: list[list[float]] = [[] for _ in runs]
    for _ in range(repeat):
        for i, (database, run, rollback) in enumerate(runs):
            took, queries[i] = once(database, run, rollback)
            times[i].append(took)
            cpu_of[i].append(cpus[-1])
            db_cpu_of[i].append(db_cpus[-1])
    steal = steal_since(ticks)[0]
    figures = []
    for i, (database, _run, _rollback) in enumerate(runs):
        _use(database)
        real = [
            q
            for q in queries[i]
            if q["sql"] not in ("BEGIN", "COMMIT")
            and not q["sql"].startswith(("SAVEPOINT", "RELEASE", "ROLLBACK"))
        ]
        rows, seq = _plans(real)
        ordered = sorted(times[i])
        figures.append(
            Figure(
                name=name,
                p50=statistics.median(ordered),
                p95=ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))],
                cold=colds[i],
                queries=len(real),
                rows_read=rows,
                seq_scans=seq,
                cpu=statistics.median(cpu_of[i]) if cpu_of[i] else 0.0,
                db_cpu=statistics.fmean(db_cpu_of[i]) if db_cpu_of[i] else 0.0,
                steal=steal,
            )
        )
    return figures


def _backend_cpu(connection: Any) -> float:
    """Return the CPU (ms, user + system) the PostgreSQL backend of ``connection`` has used.

    Read from ``/proc/<pid>/stat`` of the backend (same machine; no query), in clock ticks
    (10 ms): a mean over the warm runs is meaningful, one run is not. 0 when unreadable.
    """
    try:
        pid = connection.connection.info.backend_pid
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) * 1000 / os.sysconf("SC_CLK_TCK")
    except (AttributeError, OSError, ValueError, IndexError):
        return 0.0


def items(filler: Filler) -> list[tuple[str, Callable[[], Any], bool]]:
    """Return (name, run, in a rolled-back transaction) for every page, list and sweep."""
    from unittest import mock

    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.test import Client

    from games.mail import deliver
    from games.models import Delivery
    from games.play import bots, sweeps
    from games.webhooks import deliver as hooks

    User = get_user_model()
    anon, me = Client(), Client()
    me.force_login(User.objects.get(pk=int(filler.veteran or 0)))
    api = {"HTTP_AUTHORIZATION": f"Bearer {filler.token}"}
    finished = next(g for g in filler.game_ids["finished"] if g % 10)  # in every size
    mine = filler.veteran_running[0]
    # a keyset page of the veteran's running games: after the middle one (issue 31)
    middle = sorted(filler.veteran_running)[len(filler.veteran_running) // 2]

    def get(client: Client, url: str, **extra: Any) -> Callable[[], Any]:
        def run() -> None:
            response = client.get(url, **extra)
            if response.status_code != 200:
                raise RuntimeError(f"{url}: {response.status_code}")

        return run

    def no_queue(fn: Callable[[], Any]) -> Callable[[], Any]:
        def run() -> Any:
            with mock.patch("games.core.queue.enqueue"):
                return fn()

        return run

    def uncached(fn: Callable[[], Any]) -> Callable[[], Any]:
        """``fn`` with the home page's cached public lists dropped first (issue 31): what a
        request costs when a change has just dropped them."""
        from games.selectors.lobby import public_lists_changed

        def run() -> Any:
            public_lists_changed()
            return fn()

        return run

    def mine_changed(fn: Callable[[], Any]) -> Callable[[], Any]:
        """``fn`` with the home page's kept "My games" of every player dropped first (a new
        names' stamp): what the request after a change of one's games costs."""
        from games.core.stamps import names_changed

        def run() -> Any:
            names_changed()
            return fn()

        return run

    after = settings.BOT_SWEEP_AFTER_SECONDS
    return [
        ("page: home, anonymous", get(anon, "/"), False),
        ("page: home + my games, signed in", get(me, "/"), False),
        ("page: home signed in, lists not cached", uncached(get(me, "/")), False),
        ("page: home signed in, my games changed", mine_changed(get(me, "/")), False),
        ("page: open games", get(anon, "/games/open"), False),
        ("page: profile, veteran", get(anon, f"/players/{filler.veteran}/"), False),
        (
            "page: profile, veteran, running games' 2nd page",
            get(anon, f"/players/{filler.veteran}/?current_after={middle}"),
            False,
        ),
        ("page: profile, typical", get(anon, f"/players/{filler.typical}/"), False),
        ("page: leaderboard", get(anon, "/leaderboard"), False),
        ("page: finished games", get(anon, "/games/finished"), False),
        (
            "page: finished games of the veteran",
            get(anon, f"/games/finished?player=player{filler.veteran}"),
            False,
        ),
        ("page: game in progress, mine", get(me, f"/games/{mine}/"), False),
        ("page: finished game", get(anon, f"/games/{finished}/"), False),
        ("api: games", get(anon, "/api/v1/games", **api), False),
        ("api: games ?status=finished", get(anon, "/api/v1/games?status=finished", **api), False),
        (
            "api: games ?player=veteran",
            get(anon, f"/api/v1/games?player={filler.veteran}", **api),
            False,
        ),
        (
            "api: player's games, veteran",
            get(anon, f"/api/v1/players/{filler.veteran}/games", **api),
            False,
        ),
        ("api: leaderboard", get(anon, "/api/v1/leaderboard", **api), False),
        (
            "api: moves of a finished game",
            get(anon, f"/api/v1/games/{finished}/moves", **api),
            False,
        ),
        ("api: me/waiting", get(anon, "/api/v1/me/waiting", **api), False),
        ("api: me", get(anon, "/api/v1/me", **api), False),
        ("api: player, veteran", get(anon, f"/api/v1/players/{filler.veteran}", **api), False),
        ("api: game in progress", get(anon, f"/api/v1/games/{mine}", **api), False),
        ("sweep: deadlines (reminders, timeouts)", sweeps.deadlines_sweep, True),
        ("sweep: outbox", no_queue(deliver.outbox_sweep), True),
        ("sweep: webhooks", no_queue(hooks.webhooks_sweep), True),
        ("task: batched emails", lambda: deliver.groups_due_send(Delivery.BATCHED), True),
        ("task: daily digest", lambda: deliver.groups_due_send(Delivery.DIGEST), True),
        ("sweep: bots (queues)", no_queue(bots.bots_sweep), True),
        (
            "read: games waiting on bots",
            lambda: bots.games_waiting_on_bots(older_than=timedelta(seconds=after)),
            False,
        ),
    ]


def print_table(size: float, figures: list[Figure]) -> None:
    print(f"\n## size {size:g} of the full size")
    print(
        f"{'item':44} {'p50 ms':>8} {'p95 ms':>8} {'cold ms':>8} {'cpu ms':>7} {'db cpu':>7} "
        f"{'queries':>7} {'rows read':>10} {'steal %':>7}  seq scan of a big table"
    )
    for f in figures:
        print(
            f"{f.name:44} {f.p50:8.1f} {f.p95:8.1f} {f.cold:8.1f} {f.cpu:7.1f} {f.db_cpu:7.1f} "
            f"{f.queries:7d} {f.rows_read:10d} {f.steal:7.1f}  {', '.join(f.seq_scans) or '-'}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="0.01,0.1")
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--pool", type=int, default=24)
    parser.add_argument("--only", default="")
    parser.add_argument(
        "--pg-set",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a planner setting for every database (e.g. random_page_cost=1.1 for SSDs)",
    )
    parser.add_argument(
        "--hold", type=int, default=0, help="seconds to keep the database up at the end (psql)"
    )
    parser.add_argument(
        "--fill-only", action="store_true", help="fill, write --state, measure nothing"
    )
    parser.add_argument("--state", default="", help="file to write the filled databases' facts to")
    parser.add_argument("--reuse", default="", help="measure the databases a --state file names")
    args = parser.parse_args()
    if args.reuse:
        return measure_saved(args)
    sizes = [float(s) for s in args.sizes.split(",")]
    print(
        f"load before: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} "
        f"{os.getloadavg()[2]:.2f} on {os.cpu_count()} cores"
    )
    setup_django()
    started = time.perf_counter()
    pool = play_pool(args.pool)
    print(
        f"pool: {len(pool)} games played by random players in "
        f"{time.perf_counter() - started:.1f} s, "
        f"{sum(len(g.moves) for g in pool) / len(pool):.0f} plies a game on average"
    )
    filler = Filler(pool)
    from django.db import connections

    # One database a size, each grown from a copy of the one before, all measured in turn.
    base = str(connections["default"].settings_dict["NAME"])
    databases, names = [], []
    for i, size in enumerate(sizes):
        if i:
            names.append(f"{base}_{i}")
            _use(database_copy(names[-2] if i > 1 else base, names[-1]))
        else:
            names.append(base)
        for setting in args.pg_set:  # ALTER DATABASE … SET: new connections take it
            key, value = setting.split("=", 1)
            with connections["default"].cursor() as cursor:
                cursor.execute(f'ALTER DATABASE "{names[-1]}" SET {key} = {value}')
            connections["default"].close()
        started = time.perf_counter()
        print(f"growing {names[-1]} to size {size:g} from {_clock()}", flush=True)
        counts = filler.grow_to(size)
        print(
            f"filled to size {size:g} in {time.perf_counter() - started:.1f} s at {_clock()}: "
            + ", ".join(f"{k.removeprefix('games_')} {v}" for k, v in sorted(counts.items())),
            flush=True,
        )
        databases.append(connections["default"])
        if args.state:  # after each size: a fill stopped later still leaves the sizes done
            done = {"sizes": sizes[: i + 1], "names": list(names), **filler.facts()}
            Path(args.state).write_text(json.dumps(done))
            print(f"state written to {args.state}; DATABASE_URL={os.environ['DATABASE_URL']}")
    if args.fill_only:
        if args.hold:
            print(f"holding {os.environ['DATABASE_URL']} for {args.hold} s", flush=True)
            time.sleep(args.hold)
        return
    for database in databases:  # the fill took a while: the same due rows at every size
        _use(database)
        filler.clocks_rebase()
    measure_all(args, sizes, databases, filler)


def _clock() -> str:
    """Return the UTC time of day and the 1-minute load, for the fill's log."""
    return f"{datetime.now(UTC):%H:%M:%S} UTC, load {os.getloadavg()[0]:.1f}"


def measure_saved(args: argparse.Namespace) -> None:
    """Measure the databases a ``--state`` file names: migrate and analyse each first."""
    from django.core.management import call_command
    from django.db import connections
    from django.db.migrations.recorder import MigrationRecorder

    print(
        f"load before: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} "
        f"{os.getloadavg()[2]:.2f} on {os.cpu_count()} cores"
    )
    saved = json.loads(Path(args.reuse).read_text())
    setup_django()  # migrates the first database
    filler = Filler.__new__(Filler)
    filler.restore(saved)
    databases = []
    tokens_of: dict[str, str] = {}
    for name in saved["names"]:
        database = _database(name)
        _use(database)
        started = time.perf_counter()
        recorder = MigrationRecorder(connections["default"])
        applied = set(recorder.applied_migrations())
        call_command("migrate", verbosity=0)
        new = sorted(f"{app}.{m}" for app, m in set(recorder.applied_migrations()) - applied)
        migrated = time.perf_counter() - started
        rebased = filler.clocks_rebase()
        with connections["default"].cursor() as cursor:
            cursor.execute("ANALYZE")
        print(
            f"{name}: migrated in {migrated:.1f} s ({', '.join(new) or 'nothing new'}), "
            f"analysed, in all {time.perf_counter() - started:.1f} s; "
            f"{rebased} clocks that came due since the fill pushed back"
        )
        databases.append(database)
        if not saved.get("token"):  # a fill stopped before writing its state: a token a base
            from django.contrib.auth import get_user_model

            from games.accounts import tokens

            veteran = get_user_model().objects.get(pk=int(filler.veteran or 0))
            tokens_of[name] = tokens.token_create(user=veteran, name=f"bench {time.time():.0f}")[1]
    measure_all(args, saved["sizes"], databases, filler, tokens_of)


def measure_all(
    args: argparse.Namespace,
    sizes: list[float],
    databases: list[Any],
    filler: Filler,
    tokens_of: dict[str, str] | None = None,
) -> None:
    """Measure every item on every database, the sizes in turn; print tables and ratios.

    ``tokens_of``: database name → the API token to use there (default: the filler's)."""
    per_size = []
    for database in databases:  # each size's clients sign in to their own database
        _use(database)
        if tokens_of:
            filler.token = tokens_of[database.settings_dict["NAME"]]
        per_size.append([(database, run, rollback) for _n, run, rollback in items(filler)])
    names_of_items = [name for name, _run, _rollback in items(filler)]
    load, ticks = os.getloadavg(), cpu_times()
    results: dict[float, list[Figure]] = {size: [] for size in sizes}
    for k, name in enumerate(names_of_items):
        if args.only not in name:
            continue
        for size, figure in zip(
            sizes, measure(name, [runs[k] for runs in per_size], repeat=args.repeat), strict=True
        ):
            results[size].append(figure)
    for size in sizes:
        print_table(size, results[size])
    steal, busy = steal_since(ticks)
    print(
        f"\nload while measuring: {load[0]:.2f} (1 min) at the start → {os.getloadavg()[0]:.2f}; "
        f"over the measuring, the machine's CPUs {busy:.0f}% busy, {steal:.1f}% stolen by the "
        "host (steal, /proc/stat)"
    )
    pairs = [(sizes[i], sizes[i + 1]) for i in range(len(sizes) - 1)]
    for small, big in pairs:
        first, last = results[small], results[big]
        print(f"\n## ratio size {big:g} / size {small:g} (p50 warm; CPU p50; rows read)")
        for a, b in zip(first, last, strict=True):
            flag = "  GROWS" if b.p50 > 2 * a.p50 or b.rows_read > 2 * max(a.rows_read, 50) else ""
            print(
                f"{a.name:44} {b.p50 / max(a.p50, 0.01):6.2f}×   cpu "
                f"{b.cpu / max(a.cpu, 0.01):5.2f}×   rows "
                f"{a.rows_read:>8} → {b.rows_read:<8} queries {a.queries} → {b.queries}{flag}"
            )

    if args.hold:
        print(f"holding {os.environ['DATABASE_URL']} for {args.hold} s", flush=True)
        time.sleep(args.hold)


if __name__ == "__main__":
    main()
