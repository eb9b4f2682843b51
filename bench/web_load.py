"""Load the web tier like a crowd of browsers: submits and polls through gunicorn on PostgreSQL.

Run from the repository root: ``python bench/web_load.py`` (``make bench`` does). Options:
``--workers N`` gunicorn workers, ``--games G`` 2-player games played by ``2·G`` simulated
players, ``--plies P`` per game, ``--poll-interval S`` seconds between a waiting player's
polls (browsers use 5 s; the default is shorter to make load), ``--think-time S`` seconds a
player looks before each action (0 by default: saturation), ``--with-worker`` to run tasks
(emails, and the waiting players' partials of ``games.prerender``) through a real Redis broker
and Celery worker with Redis as the shared cache, as in production (eager in the web process,
and no rendering ahead, by default), ``--skip-history`` to leave out the 10,000-game history
phase. Like browsers: ``--poll-interval 5 --think-time 2 --with-worker``.

``--bots N`` adds N 2-player games of one simulated person against a bot (``--bot-tier``,
medium by default) to the play phase, and reports the bots' reply time end to end: from
the person's move committed to the bot's first action committed (``Move.created_at``),
p50/p95. The bots play as in production: with ``--with-worker`` a second Celery worker
consumes the ``bots`` queue (``make bot-worker``); without, ``manage.py run_sweeps`` runs
beside gunicorn as beside ``make run``. ``--against HOST:PORT`` plays only the bot games
against a server already running (``make run``: the embedded mode, its database named by
``DATABASE_URL`` or ``var/db.sqlite3``) and reports the same figure.

At scale (issue 31): ``--database-url URL`` serves an existing PostgreSQL database (one
``bench/scale.py --fill-only`` filled: its history stays, the bench adds its own players
and games) instead of a throw-away cluster; ``--browse P`` makes a waiting player, at each
poll with probability P, open one of the pages a player browses between moves instead
(home with "My games", the leaderboard, finished games, a player's profile, a finished
game, the API's games list), each timed as its own row; ``--play-only`` stops after the
play phase (no burst, history or profile). The play phase prints the CPU seconds the
server's processes spent (gunicorn, the Celery worker, Redis; and PostgreSQL's with
``--pg-pid`` the postmaster's pid) a request: a cost the machine's load does not change.
200 players, browser-like, against 4 workers: ``--games 100 --workers 4 --poll-interval 5
--think-time 2 --browse 0.3 --with-worker --play-only --database-url URL``.

What it does, all on loopback and all thrown away at the end:

1. Re-executes itself under ``scripts/with-postgres.sh`` (a throw-away PostgreSQL cluster),
   migrates, collects static files and starts gunicorn (``tigris_site.wsgi``, DEBUG=0,
   eager Celery) on 127.0.0.1.
2. A setup subprocess creates users and games through ``games.services`` and session
   cookies with Django's ``SessionStore``.
3. **Trivial view**: ``2·G`` threads call ``GET /healthz`` back to back.
4. **Play**: ``2·G`` players poll ``/games/<id>/poll?version=N``; whoever must act submits a
   random ``data-action`` offered by the page with ``POST /games/<id>/act`` (HTMX partials,
   like the browser), until every game reached ``P`` plies.
5. **Submit burst**: one thread per game (``2·G`` games) submits back to back as whichever
   seat must act (fetching that seat's partial when the turn passes): saturated throughput.
6. Bulk-inserts 10,000 finished and 1,000 active games (with seats and every move) and
   repeats the submit burst on fresh games, to show latency does not grow with history.
7. Profiles ``play_submit.game_submit_action`` in-process (cProfile) and prints the top entries.

Throughput of a closed loop of C clients without think time is C / mean latency; the
submit/trivial ratio compares those capacities (the burst also spends time fetching pages,
so its raw submits/s is printed too).
"""

from __future__ import annotations

import argparse
import contextlib
import html
import http.client
import json
import os
import random
import re
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

MARKER = "WEB_LOAD_IN_THROWAWAY_PG"
CSRF = "benchcsrftokenbenchcsrftoken0001"  # 32 characters: an unmasked CSRF secret
GAME_TAG = re.compile(r'<div id="game"[^>]*>')
VERSION = re.compile(r'data-version="(\d+)"')
DATA_ACTION = re.compile(r'data-action="([^"]+)"')

TARGETS = {"submit_p95_ms": 60.0, "poll_p95_ms": 15.0, "submit_share": 0.25}
BOT_TAG = " (vs bot)"


# --------------------------------------------------------------------------- environment


BROKER_URL = ""  # set by --with-worker: a real Redis broker and Celery worker


def site_env() -> dict[str, str]:
    """The production-like environment of gunicorn and of the Django subprocesses.

    Tasks run eagerly in the web process unless ``--with-worker`` started a broker; then
    they go through Redis to a real Celery worker, and Redis is the shared cache, as in
    production.
    """
    broker = (
        {
            "CELERY_BROKER_URL": BROKER_URL,
            "CELERY_TASK_ALWAYS_EAGER": "0",
            # The shared cache of production, where the worker leaves the waiting players'
            # partials for their polls (games.prerender).
            "CACHE_URL": BROKER_URL.rsplit("/", 1)[0] + "/1",
        }
        if BROKER_URL
        else {}
    )
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "tigris_site.settings",
        "DEBUG": "0",
        "SECRET_KEY": "bench-" + "k" * 40,
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "SECURE_SSL_REDIRECT": "0",
        "SECURE_HSTS_SECONDS": "0",
        "CELERY_TASK_ALWAYS_EAGER": "1",
        "LOG_LEVEL": "ERROR",
        "PYTHONPATH": str(ROOT),
        **broker,
    }


def child(mode: str, *args: str) -> Any:
    """Run this script's ``mode`` in a Django subprocess; return the JSON it prints last."""
    out = subprocess.run(
        [sys.executable, __file__, "--child", mode, *args],
        cwd=ROOT,
        env=site_env(),
        check=True,
        stdout=subprocess.PIPE,
        text=True,
    ).stdout
    lines = [line for line in out.splitlines() if line.strip()]
    for line in lines[:-1]:
        print(line)
    return json.loads(lines[-1]) if lines else None


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Gunicorn:
    """gunicorn serving ``tigris_site.wsgi`` on a loopback port."""

    def __init__(self, workers: int, log: Path) -> None:
        self.port = free_port()
        self.log = log
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "gunicorn",
                "tigris_site.wsgi",
                "--workers",
                str(workers),
                "--bind",
                f"127.0.0.1:{self.port}",
                "--backlog",
                "2048",
                "--timeout",
                "60",
            ],
            cwd=ROOT,
            env=site_env(),
            stdout=log.open("w"),
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + 120  # workers start slowly on a loaded machine
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"gunicorn exited:\n{log.read_text()[-3000:]}")
            try:
                if request(self.port, "GET", "/healthz", None).status == 200:
                    return
            except OSError:
                time.sleep(0.1)
        self.stop()  # not left serving when the bench gives up
        raise RuntimeError("gunicorn did not answer /healthz within 120 s")

    def stop(self) -> None:
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


# --------------------------------------------------------------------------- HTTP client


@dataclass
class Reply:
    status: int
    body: str
    seconds: float


def request(
    port: int,
    method: str,
    path: str,
    session: str | None,
    form: dict[str, Any] | None = None,
    *,
    htmx: bool = True,
) -> Reply:
    """One request on a fresh loopback connection (gunicorn's sync workers close them)."""
    headers = {"Host": "127.0.0.1"}
    if htmx:
        headers["HX-Request"] = "true"
    if session:
        headers["Cookie"] = f"sessionid={session}; csrftoken={CSRF}"
        headers["X-CSRFToken"] = CSRF
    body = None
    if form is not None:
        body = urlencode(form)
        headers["Content-Type"] = "application/x-www-form-urlencoded"
    started = time.perf_counter()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        conn.request(method, path, body=body, headers=headers)
        response = conn.getresponse()
        data = response.read().decode()
    finally:
        conn.close()
    return Reply(response.status, data, time.perf_counter() - started)


@dataclass
class View:
    """What a player's ``#game`` partial says: version, whether I act, my actions."""

    version: int
    my_turn: bool
    actions: list[str]

    @classmethod
    def parse(cls, body: str) -> View:
        tag = GAME_TAG.search(body)
        if tag is None:
            raise RuntimeError(f"no #game element in: {body[:300]!r}")
        version = VERSION.search(tag.group(0))
        assert version is not None
        mine = 'data-my-turn="1"' in tag.group(0)
        actions = (
            [html.unescape(a) for a in DATA_ACTION.findall(body) if a != "undo"] if mine else []
        )
        return cls(int(version.group(1)), mine, actions)


@dataclass
class Stats:
    """Latencies per request kind, thread-safe."""

    samples: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    errors: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, kind: str, reply: Reply, ok: tuple[int, ...] = (200,)) -> None:
        with self.lock:
            self.samples[kind].append(reply.seconds)
            if reply.status not in ok:
                self.errors[f"{kind} {reply.status}"] += 1


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def row(name: str, values: list[float], elapsed: float, clients: int) -> dict[str, float]:
    """Print one line of figures; return them."""
    n = len(values)
    mean = sum(values) / n
    fig = {
        "n": n,
        "rps": n / elapsed,
        "capacity": clients / mean,
        "p50": pct(values, 0.50) * 1000,
        "p95": pct(values, 0.95) * 1000,
        "p99": pct(values, 0.99) * 1000,
        "mean": mean * 1000,
    }
    print(
        f"  {name:<32} {n:>6} {fig['rps']:>8.1f} {fig['capacity']:>9.1f} "
        f"{fig['p50']:>8.1f} {fig['p95']:>8.1f} {fig['p99']:>8.1f}"
    )
    return fig


def header(title: str, elapsed: float, clients: int) -> None:
    print(f"\n{title} ({clients} clients, {elapsed:.1f} s)")
    print(
        f"  {'request':<32} {'n':>6} {'req/s':>8} {'C/mean':>9} "
        f"{'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8}"
    )


# --------------------------------------------------------------------------- phases


def tree_cpu_seconds(root: int) -> dict[int, float]:
    """Return pid → CPU seconds (user + system) of ``root``'s living descendants, not ``root``.

    Read from ``/proc/<pid>/stat`` (Linux); empty elsewhere. The difference of two readings
    over a phase is what the server's processes spent, whatever the machine's load.
    """
    tick = os.sysconf("SC_CLK_TCK")
    parent: dict[int, int] = {}
    spent: dict[int, float] = {}
    for entry in Path("/proc").iterdir() if Path("/proc").exists() else []:
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parent[int(entry.name)] = int(fields[1])
        spent[int(entry.name)] = (int(fields[11]) + int(fields[12])) / tick
    out = {}
    for pid in spent:
        ancestor = parent.get(pid)
        while ancestor and ancestor != root:
            ancestor = parent.get(ancestor)
        if ancestor == root:
            out[pid] = spent[pid]
    return out


def cpu_between(before: dict[int, float], after: dict[int, float]) -> float:
    """Return the CPU seconds spent between two ``tree_cpu_seconds`` readings."""
    return sum(seconds - before.get(pid, 0.0) for pid, seconds in after.items())


def run_threads(targets: list[Any]) -> float:
    threads = [threading.Thread(target=t, daemon=True) for t in targets]
    started = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return time.perf_counter() - started


def phase_trivial(port: int, clients: int, per_client: int) -> dict[str, float]:
    stats = Stats()

    def client() -> None:
        for _ in range(per_client):
            stats.add("healthz", request(port, "GET", "/healthz", None))

    elapsed = run_threads([client] * clients)
    header("Trivial view: GET /healthz back to back", elapsed, clients)
    fig = row("GET /healthz", stats.samples["healthz"], elapsed, clients)
    report_errors(stats)
    return fig


def phase_play(
    port: int,
    games: list[dict[str, Any]],
    plies: int,
    poll_interval: float,
    limit: float,
    think_time: float = 0.0,
    bot_games: list[dict[str, Any]] | None = None,
    browse: float = 0.0,
    sample: dict[str, list[int]] | None = None,
) -> dict[str, dict[str, float]]:
    """Every seat of every game is a simulated browser: poll, and submit when it must act.

    ``think_time`` (seconds, ±50 %) is how long a player looks at the board before each
    action; 0 submits at once. ``bot_games`` hold one person each (their requests are
    counted apart, ``BOT_TAG``); something else plays the bots (a worker, ``run_sweeps``).
    ``browse`` is the share of a waiting player's polls replaced by opening a page of
    ``BROWSED`` (``sample``: the profiles and finished games to pick from), as a person
    looks around the site between moves; each kind is a row ``browse: <kind>``.
    """
    bot_games = bot_games or []
    stats = Stats()
    deadline = time.monotonic() + limit
    rng_seed = random.Random(7)

    def player(game_id: int, session: str, seed: int, tag: str = "") -> None:
        rng = random.Random(seed)
        page = request(port, "GET", f"/games/{game_id}/", session)
        stats.add("page" + tag, page)
        view = View.parse(page.body)
        while view.version < plies and time.monotonic() < deadline:
            if view.my_turn and view.actions:
                if think_time:
                    time.sleep(think_time * rng.uniform(0.5, 1.5))
                reply = request(
                    port,
                    "POST",
                    f"/games/{game_id}/act",
                    session,
                    {"action": rng.choice(view.actions), "version": view.version},
                )
                stats.add("submit" + tag, reply)
                view = View.parse(reply.body)
                continue
            time.sleep(poll_interval * rng.uniform(0.8, 1.2))
            if browse and rng.random() < browse:
                kind = rng.choice(BROWSED)
                path = browse_path(kind, sample or {"profiles": [], "finished": []}, rng)
                # a page, not a partial: a browser's navigation sends no HX-Request
                stats.add(f"browse: {kind}", request(port, "GET", path, session, htmx=False))
                continue
            reply = request(port, "GET", f"/games/{game_id}/poll?version={view.version}", session)
            if reply.status == 204:
                stats.add("poll unchanged (204)" + tag, reply, ok=(204,))
            else:
                stats.add("poll changed (partial)" + tag, reply)
                view = View.parse(reply.body)

    targets = []
    for game in [*games, *bot_games]:
        tag = BOT_TAG if game in bot_games else ""
        for session in game["sessions"].values():
            seed = rng_seed.randrange(1 << 30)
            targets.append(lambda g=game["id"], s=session, r=seed, t=tag: player(g, s, r, t))
    elapsed = run_threads(targets)
    clients = len(targets)
    with_bots = f" and {len(bot_games)} against a bot" if bot_games else ""
    header(
        f"Play: {len(games)} games{with_bots} to ply {plies}, waiting players poll every "
        f"~{poll_interval} s",
        elapsed,
        clients,
    )
    figures = {}
    kinds = ("submit", "poll unchanged (204)", "poll changed (partial)", "page")
    browsed = tuple(f"browse: {kind}" for kind in BROWSED)
    for kind in (*kinds, *(k + BOT_TAG for k in kinds), *browsed):
        if stats.samples[kind]:
            figures[kind] = row(kind, stats.samples[kind], elapsed, clients)
    every = [t for values in list(stats.samples.values()) for t in values]
    if every:
        figures["all requests"] = row("all requests", every, elapsed, clients)
        errors = sum(stats.errors.values())
        print(f"  errors: {errors} of {len(every)} requests")
    polls = stats.samples["poll unchanged (204)"] + stats.samples["poll changed (partial)"]
    if polls:  # none when only bot games are played (--against)
        figures["poll (all)"] = row("poll (all)", polls, elapsed, clients)
    report_errors(stats)
    return figures


def phase_burst(
    port: int, games: list[dict[str, Any]], plies: int, limit: float, title: str
) -> dict[str, float]:
    """One thread per game submits back to back as whichever seat must act."""
    stats = Stats()
    deadline = time.monotonic() + limit

    def driver(game: dict[str, Any], seed: int) -> None:
        rng = random.Random(seed)
        sessions = game["sessions"]
        gid = game["id"]

        def find_actor() -> tuple[str, View]:
            for session in sessions.values():
                reply = request(port, "GET", f"/games/{gid}/", session)
                stats.add("page (turn passed)", reply)
                view = View.parse(reply.body)
                if view.my_turn:
                    return session, view
            raise RuntimeError(f"nobody acts in game {gid}")

        session, view = find_actor()
        done = 0
        while done < plies and time.monotonic() < deadline:
            if not (view.my_turn and view.actions):
                session, view = find_actor()
            reply = request(
                port,
                "POST",
                f"/games/{gid}/act",
                session,
                {"action": rng.choice(view.actions), "version": view.version},
            )
            stats.add("submit", reply)
            view = View.parse(reply.body)
            done += 1

    targets = [lambda g=g, i=i: driver(g, i) for i, g in enumerate(games)]
    elapsed = run_threads(targets)
    header(title, elapsed, len(targets))
    fig = row("submit", stats.samples["submit"], elapsed, len(targets))
    row("page (turn passed)", stats.samples["page (turn passed)"], elapsed, len(targets))
    report_errors(stats)
    return fig


def report_errors(stats: Stats) -> None:
    if stats.errors:
        print("  unexpected statuses: " + ", ".join(f"{k}: {v}" for k, v in stats.errors.items()))


# --------------------------------------------------------------------------- children (Django)


def django_setup() -> None:
    import django

    django.setup()


def child_setup(prefix: str, games: int, players: int) -> None:
    """Create ``games`` started games of ``players`` seats; print ids and session keys."""
    django_setup()
    from django.contrib.auth import (
        BACKEND_SESSION_KEY,
        HASH_SESSION_KEY,
        SESSION_KEY,
        get_user_model,
    )
    from django.contrib.sessions.backends.db import SessionStore

    from games.play import lifecycle

    user_model = get_user_model()
    out = []
    for g in range(games):
        users = [
            user_model.objects.create_user(f"{prefix}{g}x{p}", password=None)
            for p in range(players)
        ]
        game = lifecycle.game_create(creator=users[0], num_players=players, is_rated=False)
        for user in users[1:]:
            lifecycle.game_join(game_id=game.pk, user=user)
        sessions = {}
        for user in users:
            store = SessionStore()
            store[SESSION_KEY] = str(user.pk)
            store[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
            store[HASH_SESSION_KEY] = user.get_session_auth_hash()
            store.create()
            sessions[str(user.pk)] = store.session_key
        out.append({"id": game.pk, "sessions": sessions})
    print(json.dumps(out))


def _session_for(user: Any) -> str:
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    store = SessionStore()
    store[SESSION_KEY] = str(user.pk)
    store[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    store[HASH_SESSION_KEY] = user.get_session_auth_hash()
    store.create()
    return str(store.session_key)


def child_bot_setup(prefix: str, games: int, tier: str) -> None:
    """Create ``games`` started 2-player games of a new person against the ``tier`` bot."""
    django_setup()
    from django.contrib.auth import get_user_model

    from games.play import lifecycle

    user_model = get_user_model()
    out = []
    for g in range(games):
        user = user_model.objects.create_user(f"{prefix}{g}-{secrets.token_hex(3)}", password=None)
        game = lifecycle.game_create(creator=user, num_players=2, bots=(tier,), is_rated=False)
        out.append({"id": game.pk, "sessions": {str(user.pk): _session_for(user)}})
    print(json.dumps(out))


def child_bot_replies(*game_ids: str) -> None:
    """Print the bots' reply times in these games: person's move → the bot's next, in s.

    From ``Move.created_at``, set as each move is written in its submit's transaction:
    each bot move right after a person's is one reply. ``gaps`` are the bot's later actions
    of the same turn, each after the bot's previous one.
    """
    django_setup()
    from games.models import Move

    replies: list[float] = []
    gaps: list[float] = []
    for game_id in game_ids:
        moves = Move.objects.filter(game_id=int(game_id)).order_by("ply")
        previous = None
        for move in moves.only("source", "created_at"):
            if previous is not None and move.source == Move.Source.BOT:
                spent = (move.created_at - previous.created_at).total_seconds()
                (replies if previous.source == Move.Source.PLAYER else gaps).append(spent)
            previous = move
    print(json.dumps({"replies": replies, "gaps": gaps}))


def bot_figures(bot_games: list[dict[str, Any]], label: str) -> dict[str, float] | None:
    """Print the bots' end-to-end reply times in ``bot_games``; return p50/p95 (s)."""
    if not bot_games:
        return None
    times = child("botreplies", *(str(g["id"]) for g in bot_games))
    replies, gaps = times["replies"], times["gaps"]
    if not replies:
        print(f"\nBots' replies ({label}): none (did anything play the bots?)")
        return None
    fig = {"n": len(replies), "p50": pct(replies, 0.5), "p95": pct(replies, 0.95)}
    print(
        f"\nBots' reply time, end to end ({label}): person's move committed → the bot's "
        f"first action committed, {fig['n']} replies: p50 {fig['p50']:.2f} s, "
        f"p95 {fig['p95']:.2f} s, max {max(replies):.2f} s"
    )
    if gaps:
        print(
            f"  the bot's next action of the same turn, after its previous one: "
            f"p50 {pct(gaps, 0.5):.2f} s, p95 {pct(gaps, 0.95):.2f} s ({len(gaps)} actions)"
        )
    return fig


def child_sample(count: int) -> None:
    """Print the URLs a browsing player opens: site pages, ``count`` profiles and finished games.

    Profiles and games are drawn among existing rows by random ids (the history of a filled
    database), public finished games only.
    """
    django_setup()
    from django.contrib.auth import get_user_model
    from django.db.models import Max

    from games.models import Game

    rng = random.Random(31)
    top_user = get_user_model().objects.aggregate(m=Max("pk"))["m"] or 1
    users = list(
        get_user_model()
        .objects.filter(pk__in=[rng.randrange(1, top_user + 1) for _ in range(count * 3)])
        .values_list("pk", flat=True)[:count]
    )
    top_game = Game.objects.aggregate(m=Max("pk"))["m"] or 1
    finished = list(
        Game.objects.filter(
            pk__in=[rng.randrange(1, top_game + 1) for _ in range(count * 5)],
            status=Game.Status.FINISHED,
            is_public=True,
        ).values_list("pk", flat=True)[:count]
    )
    print(json.dumps({"profiles": users, "finished": finished}))


BROWSED = ("home", "leaderboard", "finished games", "profile", "finished game", "api games")


def browse_path(kind: str, sample: dict[str, list[int]], rng: random.Random) -> str:
    """Return the URL of a page of ``kind`` (one of ``BROWSED``)."""
    if kind == "profile" and sample["profiles"]:
        return f"/players/{rng.choice(sample['profiles'])}/"
    if kind == "finished game" and sample["finished"]:
        return f"/games/{rng.choice(sample['finished'])}/"
    paths = {
        "home": "/",
        "leaderboard": "/leaderboard",
        "finished games": "/games/finished",
        "api games": "/api/v1/games",
    }
    return paths.get(kind, "/")


def _random_game(players: int, seed: int, stop_at: int | None) -> tuple[Any, list[Any]]:
    """Play a random game (to its end, or to ``stop_at`` plies); return it and its plies."""
    import engine
    from games.core.states import events_to_db

    state = engine.new_game(players, seed)
    rng = random.Random(seed)
    plies: list[tuple[int | None, str, Any]] = []
    while not state.is_over and (stop_at is None or len(plies) < stop_at):
        seat = state.to_act
        action = rng.choice(engine.legal_actions(state))
        state = engine.apply(state, action)
        plies.append((seat, str(action), events_to_db(state)))
    return state, plies


def child_bulk(finished: int, active: int) -> None:
    """Bulk-insert ``finished`` finished and ``active`` active games with seats and moves."""
    django_setup()
    from datetime import timedelta

    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.utils import timezone

    import engine
    from games.core.states import state_to_db
    from games.models import Game, Move, Seat

    started = time.perf_counter()
    user_model = get_user_model()
    users = user_model.objects.bulk_create(
        [user_model(username=f"hist{i}", password="!") for i in range(300)]
    )
    templates_done = [_random_game(2, 1000 + i, None) for i in range(8)]
    templates_live = [_random_game(2, 2000 + i, 40 + 10 * i) for i in range(8)]
    rng = random.Random(3)
    now = timezone.now()
    dynasties = [d.value for d in Seat.Dynasty]
    counts: dict[str, float] = {"games": 0, "seats": 0, "moves": 0}
    batch = 500
    for kind, total, templates in (
        ("finished", finished, templates_done),
        ("active", active, templates_live),
    ):
        for first in range(0, total, batch):
            rows = []
            chosen = []
            for _ in range(min(batch, total - first)):
                state, plies = rng.choice(templates)
                a, b = rng.sample(users, 2)
                begun = now - timedelta(days=rng.randint(1, 700))
                rows.append(
                    Game(
                        status=Game.Status.FINISHED if kind == "finished" else Game.Status.ACTIVE,
                        num_players=2,
                        days_per_move=3,
                        is_rated=True,
                        creator=a,
                        seed=secrets.randbits(63),
                        state=state_to_db(state),
                        version=len(plies),
                        to_act_seat=None if state.is_over else state.to_act,
                        deadline=None if state.is_over else now + timedelta(days=2),
                        started_at=begun,
                        finished_at=begun + timedelta(days=60) if state.is_over else None,
                    )
                )
                chosen.append((state, plies, a, b))
            created = Game.objects.bulk_create(rows)
            seats, moves = [], []
            for game, (state, plies, a, b) in zip(created, chosen, strict=True):
                ranking = {p.seat: p for p in engine.final_ranking(state)} if state.is_over else {}
                for position, user in ((1, a), (2, b)):
                    placing = ranking.get(position)
                    seats.append(
                        Seat(
                            game=game,
                            user=user,
                            position=position,
                            dynasty=dynasties[position],
                            final_rank=placing.rank if placing else None,
                            final_score={"score": min(int(c) for c in placing.colors)}
                            if placing
                            else None,
                        )
                    )
                for ply, (seat, action, events) in enumerate(plies, start=1):
                    moves.append(Move(game=game, ply=ply, seat=seat, action=action, events=events))
            Seat.objects.bulk_create(seats)
            Move.objects.bulk_create(moves, batch_size=5000)
            counts["games"] += len(created)
            counts["seats"] += len(seats)
            counts["moves"] += len(moves)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    counts["seconds"] = round(time.perf_counter() - started, 1)
    print(json.dumps(counts))


def child_profile(submissions: int, games: int) -> None:
    """cProfile ``game_submit_action`` over ``submissions`` random legal submissions."""
    django_setup()
    import cProfile
    import io
    import pstats

    from django.contrib.auth import get_user_model

    import engine
    from games.core.states import game_state
    from games.models import Game
    from games.play import lifecycle
    from games.play import submit as play_submit

    user_model = get_user_model()
    tables = []
    for g in range(games):
        users = [user_model.objects.create_user(f"prof{g}x{p}", password=None) for p in range(2)]
        game = lifecycle.game_create(creator=users[0], num_players=2, is_rated=False)
        lifecycle.game_join(game_id=game.pk, user=users[1])
        game.refresh_from_db()
        tables.append((game.pk, {s.position: s.user for s in game.seats.all()}))
    rng = random.Random(11)
    profiler = cProfile.Profile()
    spent = 0.0
    done = 0
    while done < submissions:
        for game_id, seats in tables:
            game = Game.objects.get(pk=game_id)
            if game.status != Game.Status.ACTIVE or game.to_act_seat is None:
                continue
            view = engine.view_for(game_state(game), game.to_act_seat)
            action = str(rng.choice(view.actions))
            user = seats[game.to_act_seat]
            t0 = time.perf_counter()
            profiler.enable()
            play_submit.game_submit_action(
                game_id=game_id, user=user, action=action, expected_version=game.version
            )
            profiler.disable()
            spent += time.perf_counter() - t0
            done += 1
    buffer = io.StringIO()
    stats = pstats.Stats(profiler, stream=buffer).strip_dirs()
    buffer.write(f"{done} submissions, {spent / done * 1000:.2f} ms each under cProfile\n")
    stats.sort_stats("cumulative").print_stats(22)
    stats.sort_stats("tottime").print_stats(15)
    print(buffer.getvalue())
    view_ms = _profile_act_view(tables[:2], rng, max(20, submissions // 10))
    print(json.dumps({"submissions": done, "ms_each": spent / done * 1000, "view_ms": view_ms}))


def _profile_act_view(tables: list[Any], rng: random.Random, submissions: int) -> float:
    """cProfile the whole ``POST /games/<id>/act`` view (HTMX), service plus rendering."""
    import cProfile
    import io
    import pstats

    from django.test import Client

    from games.models import Game

    clients: dict[Any, Client] = {}
    profiler = cProfile.Profile()
    spent = 0.0
    done = 0
    while done < submissions:
        for game_id, seats in tables:
            game = Game.objects.get(pk=game_id)
            if game.status != Game.Status.ACTIVE or game.to_act_seat is None:
                continue
            user = seats[game.to_act_seat]
            if user.pk not in clients:
                clients[user.pk] = Client(HTTP_HOST="127.0.0.1")
                clients[user.pk].force_login(user)
            client = clients[user.pk]
            page = client.get(f"/games/{game_id}/", HTTP_HX_REQUEST="true").content.decode()
            view = View.parse(page)
            t0 = time.perf_counter()
            profiler.enable()
            reply = client.post(
                f"/games/{game_id}/act",
                {"action": rng.choice(view.actions), "version": view.version},
                HTTP_HX_REQUEST="true",
            )
            profiler.disable()
            spent += time.perf_counter() - t0
            assert reply.status_code == 200, reply.status_code
            done += 1
    buffer = io.StringIO()
    buffer.write(
        f"Whole act view (HTMX, in-process): {done} submissions, "
        f"{spent / done * 1000:.2f} ms each under cProfile, partial {len(reply.content)} bytes\n"
    )
    stats = pstats.Stats(profiler, stream=buffer).strip_dirs()
    stats.sort_stats("cumulative").print_stats(
        r"views.py|pages.py|presenters.py|services.py|"
        r"shortcuts.py|selectors.py|tasks.py"
    )
    print(buffer.getvalue())
    return spent / done * 1000


# --------------------------------------------------------------------------- main


def verdict(name: str, value: float, target: float, *, at_most: bool) -> str:
    ok = value <= target if at_most else value >= target
    sign = "≤" if at_most else "≥"
    return f"  {'ok  ' if ok else 'MISS'} {name}: {value:.2f} (target {sign} {target})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--workers", type=int, default=5)
    parser.add_argument("--games", type=int, default=10, help="2-player games played (2·G players)")
    parser.add_argument("--plies", type=int, default=30, help="plies per game in each phase")
    parser.add_argument("--poll-interval", type=float, default=0.5)
    parser.add_argument(
        "--think-time", type=float, default=0.0, help="seconds before each action (browsers: ~2)"
    )
    parser.add_argument(
        "--with-worker",
        action="store_true",
        help="send emails through a real Redis broker and Celery worker instead of eagerly",
    )
    parser.add_argument("--trivial-requests", type=int, default=100, help="per client")
    parser.add_argument("--phase-seconds", type=float, default=180, help="time limit per phase")
    parser.add_argument("--finished", type=int, default=10_000)
    parser.add_argument("--active", type=int, default=1_000)
    parser.add_argument("--profile-submissions", type=int, default=300)
    parser.add_argument("--skip-history", action="store_true")
    parser.add_argument("--bots", type=int, default=0, help="games of a person against a bot")
    parser.add_argument("--bot-tier", default="medium", choices=("easy", "medium", "hard"))
    parser.add_argument(
        "--against",
        metavar="HOST:PORT",
        help="play only the --bots games against this running server (make run)",
    )
    parser.add_argument(
        "--database-url", default="", help="serve this PostgreSQL database, not a throw-away one"
    )
    parser.add_argument(
        "--pg-pid", type=int, default=0, help="the postmaster's pid: count its processes' CPU"
    )
    parser.add_argument("--browse", type=float, default=0.0, help="share of polls that browse")
    parser.add_argument("--play-only", action="store_true", help="stop after the play phase")
    parser.add_argument("--child", nargs="+", help=argparse.SUPPRESS)
    args = parser.parse_args()

    if args.child:
        mode, *rest = args.child
        {"setup": lambda: child_setup(rest[0], int(rest[1]), int(rest[2])),
         "bulk": lambda: child_bulk(int(rest[0]), int(rest[1])),
         "botsetup": lambda: child_bot_setup(rest[0], int(rest[1]), rest[2]),
         "botreplies": lambda: child_bot_replies(*rest),
         "sample": lambda: child_sample(int(rest[0])),
         "profile": lambda: child_profile(int(rest[0]), int(rest[1]))}[mode]()  # fmt: skip
        return

    if args.against:
        run_against(args)
        return

    if args.database_url:
        os.environ["DATABASE_URL"] = args.database_url
        os.environ[MARKER] = "1"
    if os.environ.get(MARKER) != "1":
        os.environ[MARKER] = "1"
        script = str(ROOT / "scripts" / "with-postgres.sh")
        os.execv(script, [script, sys.executable, __file__, *sys.argv[1:]])

    clients = 2 * args.games
    with contextlib.ExitStack() as services:
        if args.with_worker:
            from tests.services import celery_worker, redis_server

            global BROKER_URL
            BROKER_URL = services.enter_context(redis_server())
            services.enter_context(celery_worker(BROKER_URL, site_env()))
            if args.bots:  # the bots' own worker, as in production (make bot-worker)
                services.enter_context(celery_worker(BROKER_URL, site_env(), queues="bots"))
        run(args, clients)


def run_against(args: argparse.Namespace) -> None:
    """Play ``args.bots`` bot games against a running server; print the bots' reply time.

    The games are made in this environment's database (``DATABASE_URL``, else the embedded
    mode's ``var/db.sqlite3``): the one the server at ``args.against`` serves.
    """
    host, _, port = args.against.rpartition(":")
    if host not in ("127.0.0.1", "localhost"):
        raise SystemExit("--against serves loopback only (request() dials 127.0.0.1)")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tigris_site.settings")
    out = subprocess.run(
        [sys.executable, __file__, "--child", "botsetup", "against", str(args.bots), args.bot_tier],
        cwd=ROOT,
        check=True,
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT), "LOG_LEVEL": "ERROR"},
    ).stdout
    bot_games = json.loads(out.strip().splitlines()[-1])
    print(f"{args.bots} games against the {args.bot_tier} bot on {args.against}")
    phase_play(
        int(port),
        [],
        args.plies,
        args.poll_interval,
        args.phase_seconds,
        args.think_time,
        bot_games,
    )
    bot_figures(bot_games, f"against {args.against}")


@contextlib.contextmanager
def bot_player(needed: bool, log: Path) -> Any:
    """Without a broker, run ``manage.py run_sweeps`` (it plays the bots) while inside."""
    if not needed or BROKER_URL:
        yield
        return
    process = subprocess.Popen(
        [sys.executable, "manage.py", "run_sweeps"],
        cwd=ROOT,
        env=site_env(),
        stdout=log.open("w"),
        stderr=subprocess.STDOUT,
    )
    try:
        yield
    finally:
        process.terminate()
        process.wait(timeout=20)


def run(args: argparse.Namespace, clients: int) -> None:
    """Set up the games, serve them with gunicorn and run every phase; print the figures."""
    print(
        f"web load: {args.workers} gunicorn workers, {clients} simulated players, "
        f"{os.cpu_count()} CPUs, polls every {args.poll_interval} s, think time "
        f"{args.think_time} s, emails {'through a Celery worker' if BROKER_URL else 'eager'}"
    )
    env = site_env()
    for command in (["migrate", "--no-input", "-v0"], ["collectstatic", "--no-input", "-v0"]):
        subprocess.run([sys.executable, "manage.py", *command], cwd=ROOT, env=env, check=True)
    stamp = secrets.token_hex(3)  # a reused database may hold an earlier run's players
    play_games = child("setup", f"play{stamp}", str(args.games), "2")
    burst_games = [] if args.play_only else child("setup", f"burst{stamp}", str(clients), "2")
    bot_games = child("botsetup", "bot", str(args.bots), args.bot_tier) if args.bots else []
    sample = child("sample", "50") if args.browse else None

    with tempfile.TemporaryDirectory(prefix="web-load-") as tmp:
        server = Gunicorn(args.workers, Path(tmp) / "gunicorn.log")
        try:
            phase_trivial(server.port, clients, 5)  # warm every worker
            trivial = phase_trivial(server.port, clients, args.trivial_requests)
            servers = tree_cpu_seconds(os.getpid())
            database = tree_cpu_seconds(args.pg_pid) if args.pg_pid else {}
            client = os.times()
            with bot_player(bool(bot_games), Path(tmp) / "sweeps.log"):
                play = phase_play(
                    server.port,
                    play_games,
                    args.plies,
                    args.poll_interval,
                    args.phase_seconds,
                    args.think_time,
                    bot_games,
                    args.browse,
                    sample,
                )
            print(f"  load (1 min) after the play phase: {os.getloadavg()[0]:.2f}")
            served = play.get("all requests", {}).get("n", 0) or 1
            web = cpu_between(servers, tree_cpu_seconds(os.getpid()))
            spent = os.times()
            mine = spent.user + spent.system - client.user - client.system
            line = (
                f"  CPU spent in the play phase: gunicorn, Celery worker and Redis {web:.1f} s "
                f"= {web / served * 1000:.0f} ms a request"
            )
            if args.pg_pid:
                pg = cpu_between(database, tree_cpu_seconds(args.pg_pid))
                line += f"; PostgreSQL {pg:.1f} s = {pg / served * 1000:.0f} ms a request"
            print(line + f"; the simulated browsers {mine:.1f} s")
            if args.play_only:
                bot_figures(bot_games, "a Celery worker" if BROKER_URL else "run_sweeps")
                return
            bots = bot_figures(
                bot_games, "a Celery worker on the bots queue" if BROKER_URL else "run_sweeps"
            )
            burst = phase_burst(
                server.port,
                burst_games,
                args.plies,
                args.phase_seconds,
                f"Submit burst: {clients} games, back to back, {args.plies} plies each",
            )
            after = None
            if not args.skip_history:
                counts = child("bulk", str(args.finished), str(args.active))
                print(
                    f"\nHistory inserted: {counts['games']} games, {counts['seats']} seats, "
                    f"{counts['moves']} moves in {counts['seconds']} s (then ANALYZE)"
                )
                fresh = child("setup", f"after{stamp}", str(clients), "2")
                after = phase_burst(
                    server.port,
                    fresh,
                    args.plies,
                    args.phase_seconds,
                    f"Submit burst with {args.finished} finished + {args.active} active games",
                )
        finally:
            server.stop()

    print("\nSubmit path profile (in-process, cProfile):")
    child("profile", str(args.profile_submissions), "10")

    share = burst["capacity"] / trivial["capacity"]
    print("\nSummary")
    print(f"  trivial view: {trivial['rps']:.1f} req/s, p95 {trivial['p95']:.1f} ms")
    print(
        f"  submit (burst): {burst['rps']:.1f} submits/s measured, capacity "
        f"{burst['capacity']:.1f}/s (C/mean), p95 {burst['p95']:.1f} ms"
    )
    print(
        f"  submit/trivial throughput ratio: {share:.2f} (raw submits/s ratio "
        f"{burst['rps'] / trivial['rps']:.2f})"
    )
    if bots is not None:
        print(f"  bots' reply: p50 {bots['p50']:.2f} s, p95 {bots['p95']:.2f} s")
    if after is not None:
        print(
            f"  submit with history: p50 {after['p50']:.1f} ms, p95 {after['p95']:.1f} ms "
            f"(before: p50 {burst['p50']:.1f}, p95 {burst['p95']:.1f})"
        )
    checks = [
        ("play submit p95 ms", play.get("submit", {}).get("p95"), "submit_p95_ms", True),
        ("burst submit p95 ms", burst["p95"], "submit_p95_ms", True),
        ("poll 204 p95 ms", play.get("poll unchanged (204)", {}).get("p95"), "poll_p95_ms", True),
        ("poll (all) p95 ms", play.get("poll (all)", {}).get("p95"), "poll_p95_ms", True),
        ("submit/trivial ratio", share, "submit_share", False),
    ]
    for name, value, target, at_most in checks:
        if value is not None:
            print(verdict(name, value, TARGETS[target], at_most=at_most))


if __name__ == "__main__":
    main()
