"""What one game request costs in-process: milliseconds, queries and bytes, per kind.

Run from the repository root: ``python bench/page_cost.py`` (SQLite in a temporary file) or
``scripts/with-postgres.sh python bench/page_cost.py`` (PostgreSQL, as in production).
Options: ``--plies 30,150`` positions measured (plies played before measuring),
``--repeat N`` requests per figure, ``--profile KIND`` to print a cProfile of one kind,
``--queries KIND`` to print the SQL of one kind's request that ran the most queries.

For each position of a 2-player game it measures, through Django's test client with the
whole middleware stack (DEBUG off, eager tasks):

- ``poll 204``: the waiting player's poll when nothing changed;
- ``poll changed``: the waiting player's poll after a move (the ``#game`` partial);
- ``poll rendered ahead``: the same, answered from the partial ``games.prerender`` keeps;
- ``poll rendered ahead, to act``: the poll of the player the move handed the turn to,
  answered from their partial kept the same way (every action they may take in it): how
  the player to act gets their board after the other's move when a worker renders ahead;
- ``partial to act``: the acting player's ``#game`` partial (what a submit answers with);
- ``submit``: ``POST /games/<id>/act`` of a random offered action, answered with the
  partial (each one is a real ply, so the position moves on by ``--repeat`` plies);
- ``floor``: the least a move can cost, measured first at each position: ``engine.apply``
  plus the minimum SQL, straight through psycopg (or sqlite3) — lock the game row, insert
  the move, update the snapshot — in one transaction, each a real ply of a copy of the
  game's row, so the requests are measured at the same positions as without it.

Then the home page (``GET /``, logged out and logged in) with ``--home-games`` open games
and as many in progress listed.

Every figure is also printed as a multiple of that position's floor (``× floor``, p50).
``queries`` is the most any request ran, with the most that tasks run eagerly in it ran
(the emails of the embedded mode, which a worker sends with a broker) and the median.

This is the server's own cost, without gunicorn, the network or a competing load;
``bench/web_load.py`` measures the same requests under load.
"""

from __future__ import annotations

import argparse
import cProfile
import html
import os
import pstats
import random
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

DATA_ACTION = re.compile(r'data-action="([^"]+)"')
VERSION = re.compile(r'id="game"[^>]*data-version="(\d+)"')


def setup_django() -> None:
    """Configure Django on a throw-away SQLite file unless ``DATABASE_URL`` is set."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tigris_site.settings")
    os.environ.setdefault("SECRET_KEY", "bench-" + "k" * 40)
    os.environ["DEBUG"] = "0"
    os.environ["CELERY_TASK_ALWAYS_EAGER"] = "1"
    os.environ.setdefault("ALLOWED_HOSTS", "testserver")
    os.environ["SECURE_SSL_REDIRECT"] = "0"
    os.environ["SECURE_HSTS_SECONDS"] = "0"
    os.environ["LOG_LEVEL"] = "ERROR"
    if "DATABASE_URL" not in os.environ:
        folder = tempfile.mkdtemp(prefix="page-cost-")
        os.environ["DATABASE_URL"] = f"sqlite:///{folder}/bench.sqlite3"
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)
    # DEBUG off serves static files through the manifest, which collectstatic writes.
    call_command("collectstatic", interactive=False, verbosity=0)


def measure(
    label: str,
    run: Any,
    repeat: int,
    profile: str | None,
    prepare: Any = None,
    floor: float | None = None,
    queries_of: str | None = None,
) -> float:
    """Call ``run(prepare())`` ``repeat`` times; print ms p50/p95/mean, queries and bytes.

    ``queries_of`` names the kind whose request with the most queries has its SQL printed.
    ``prepare`` (untimed, default none) returns what ``run`` needs, or None to stop early;
    ``run`` returns the size of the answer in bytes. ``floor`` is the floor's p50 in ms:
    the p50 is also printed as a multiple of it. Returns the p50 in ms.
    """
    from celery.signals import task_postrun, task_prerun
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    # Queries run by tasks executed eagerly in the request (the emails, in the embedded mode;
    # a worker runs them with a broker), counted apart: ``queries N (T in tasks)``.
    in_tasks: list[int] = []
    started_at: list[int] = []

    def task_started(**_kwargs: Any) -> None:
        started_at.append(len(connection.queries))

    def task_ended(**_kwargs: Any) -> None:
        if started_at:
            in_tasks[-1] += len(connection.queries) - started_at.pop()

    task_prerun.connect(task_started, weak=False)
    task_postrun.connect(task_ended, weak=False)
    times: list[float] = []
    queries: list[int] = []
    sizes: list[int] = []
    profiler = cProfile.Profile() if profile == label else None
    for _ in range(repeat):
        given = prepare() if prepare else None
        if prepare and given is None:
            break  # nothing left to measure (the game ended)
        in_tasks.append(0)
        with CaptureQueriesContext(connection) as captured:
            started = time.perf_counter()
            if profiler:
                profiler.enable()
            size = run(given) if prepare else run()
            if profiler:
                profiler.disable()
            times.append((time.perf_counter() - started) * 1000)
        if len(captured) > max(queries, default=-1):
            most = captured.captured_queries
        queries.append(len(captured))
        sizes.append(size)
    task_prerun.disconnect(task_started)
    task_postrun.disconnect(task_ended)
    times.sort()
    p50 = statistics.median(times)
    p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
    ratio = f"  {p50 / floor:5.1f} × floor" if floor else ""
    print(
        f"  {label:<28} n {len(times):>3}  p50 {p50:6.2f} ms  "
        f"p95 {p95:6.2f} ms  "
        f"mean {statistics.fmean(times):6.2f} ms  queries {max(queries):>3} "
        f"({max(in_tasks)} in tasks, median {statistics.median(queries):g})  "
        f"bytes {int(statistics.fmean(sizes)):>7}{ratio}"
    )
    if queries_of == label:
        for n, query in enumerate(most, 1):
            print(f"    {n:>2}. {query['sql'][:300]}")
    if profiler:
        stats = pstats.Stats(profiler)
        stats.sort_stats("cumulative").print_stats(35)
        stats.sort_stats("cumulative").print_stats(r"games/|engine/", 40)
        stats.sort_stats("tottime").print_stats(20)
    return p50


def floor_runner(game_id: int, rng: random.Random) -> tuple[Any, Any, Any]:
    """Return ``(prepare, run, close)`` for the floor: one ply with the least work it needs.

    ``prepare`` (untimed) reads the state and picks a random legal action; ``run`` applies
    it with ``engine.apply`` and writes it with raw SQL on its own connection (psycopg for
    PostgreSQL, sqlite3 for SQLite): lock the game row, insert the move, update the snapshot,
    the version and who acts, commit. Returns the bytes written.
    """
    import json
    from urllib.parse import urlsplit

    import engine

    url = os.environ["DATABASE_URL"]
    if url.startswith("postgres"):
        import psycopg

        conn: Any = psycopg.connect(url)  # a transaction opens with the first statement
        mark, lock, as_json, begin = "%s", " FOR UPDATE", "%s::jsonb", ""
    else:
        import sqlite3

        conn = sqlite3.connect(urlsplit(url).path, isolation_level=None)
        mark, lock, as_json, begin = "?", "", "?", "BEGIN IMMEDIATE"  # locks the database
    select = f"SELECT state, version FROM games_game WHERE id = {mark}{lock}"
    insert = (
        "INSERT INTO games_move (game_id, ply, seat, action, events, source, created_at) "
        f"VALUES ({mark}, {mark}, {mark}, {mark}, {as_json}, 'player', CURRENT_TIMESTAMP)"
    )
    update = (
        f"UPDATE games_game SET state = {as_json}, version = {mark}, to_act_seat = {mark}, "
        f"updated_at = CURRENT_TIMESTAMP WHERE id = {mark}"
    )

    def read(data: Any) -> Any:
        return engine.GameState.from_dict(data if isinstance(data, dict) else json.loads(data))

    def prepare() -> str | None:
        query = f"SELECT state FROM games_game WHERE id = {mark}"
        (data,) = conn.execute(query, (game_id,)).fetchone()
        conn.rollback()
        state = read(data)
        return None if state.is_over else str(rng.choice(engine.legal_actions(state)))

    def run(action: str) -> int:
        if begin:
            conn.execute(begin)
        data, version = conn.execute(select, (game_id,)).fetchone()
        before = read(data)
        after = engine.apply(before, engine.Action.parse(action))
        events = json.dumps([e.to_dict() for e in after.events])
        snapshot = after.to_json()
        conn.execute(insert, (game_id, version + 1, before.to_act, action, events))
        conn.execute(update, (snapshot, version + 1, after.to_act, game_id))
        if begin:
            conn.execute("COMMIT")
        else:
            conn.commit()
        return len(snapshot) + len(events)

    return prepare, run, conn.close


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--plies", default="30,150")
    parser.add_argument("--repeat", type=int, default=60)
    parser.add_argument("--profile", default=None)
    parser.add_argument("--queries", default=None)
    parser.add_argument(
        "--home-games", type=int, default=20, help="open and active games on the home page"
    )
    args = parser.parse_args()
    setup_django()

    from django.contrib.auth import get_user_model
    from django.test import Client

    import engine
    from games.core.states import game_state
    from games.models import Game
    from games.play import lifecycle
    from games.play import submit as play_submit

    print(f"database: {os.environ['DATABASE_URL'].split(':')[0]}, repeat {args.repeat}")
    users = [get_user_model().objects.create_user(f"cost{n}", password=None) for n in range(2)]
    clients = {}
    for user in users:
        client = Client(HTTP_HX_REQUEST="true")
        client.force_login(user)
        clients[user.pk] = client
    rng = random.Random(5)

    for target in (int(p) for p in args.plies.split(",")):
        game = lifecycle.game_create(creator=users[0], num_players=2, is_rated=False)
        lifecycle.game_join(game_id=game.pk, user=users[1])
        game.refresh_from_db()
        seat_user = {s.position: s.user for s in game.seats.all() if s.position is not None}
        for _ in range(target):
            seat = game.to_act_seat
            assert seat is not None  # an active game waits on a seat
            view = engine.view_for(game_state(game), seat)
            play_submit.game_submit_action(
                game_id=game.pk,
                user=seat_user[seat],
                action=str(rng.choice(view.actions)),
                expected_version=game.version,
            )
            game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            print(f"game over before ply {target}; skipped")
            continue
        print(f"\nply {game.version} (2 players)")
        measure_position(game, {n: clients[u.pk] for n, u in seat_user.items()}, rng, args)

    measure_home(users[0], args)


def measure_home(user: Any, args: Any) -> None:
    """Measure the home page (``GET /``) with ``--home-games`` open and as many active games.

    Logged out (open games, games to watch) and logged in as ``user`` (their own games too):
    each list costs two queries however many games there are.
    """
    from django.contrib.auth import get_user_model
    from django.test import Client

    from games.play import lifecycle

    make = get_user_model().objects.create_user
    for n in range(args.home_games):
        lifecycle.game_create(creator=make(f"home-open{n}", password=None), num_players=3)
        game = lifecycle.game_create(creator=make(f"home-a{n}", password=None), num_players=2)
        lifecycle.game_join(game_id=game.pk, user=make(f"home-b{n}", password=None))
    print(f"\nhome page ({args.home_games} open games, {args.home_games} more in progress)")
    visitor, player = Client(), Client()
    player.force_login(user)
    for label, client in (("home logged out", visitor), ("home logged in", player)):
        client.get("/")  # the session and the bot accounts warmed
        measure(
            label,
            lambda c=client: len(c.get("/").content),
            args.repeat,
            args.profile,
            queries_of=args.queries,
        )


def measure_position(game: Any, clients: dict[int, Any], rng: random.Random, args: Any) -> None:
    """Measure every request kind on ``game`` (seat → logged-in test client)."""
    from django.test import override_settings

    from games import tasks
    from games.models import Game

    # The floor plays on a copy of the game's row, with its own random choices: the
    # position the requests are measured at stays the one a run without it would have.
    scratch = Game.objects.get(pk=game.pk)
    scratch.pk = None
    scratch.invite_token = f"floor-{game.pk}"
    scratch.save()
    prepare_floor, run_floor, close_floor = floor_runner(scratch.pk, random.Random(game.pk))
    floor = measure(
        "floor",
        run_floor,
        args.repeat,
        args.profile,
        queries_of=args.queries,
        prepare=prepare_floor,
    )
    close_floor()

    url = f"/games/{game.pk}/"
    actor = clients[game.to_act_seat]
    waiter = next(c for c in clients.values() if c is not actor)
    version = game.version

    def poll(known: int) -> int:
        return len(waiter.get(f"{url}poll?version={known}").content)

    measure(
        "poll 204",
        lambda: poll(version),
        args.repeat,
        args.profile,
        queries_of=args.queries,
        floor=floor,
    )
    measure(
        "poll changed",
        lambda: poll(version - 1),
        args.repeat,
        args.profile,
        queries_of=args.queries,
        floor=floor,
    )
    with override_settings(PRERENDER_PARTIALS=True):
        # The waiting player's partial as the worker leaves it after a move (games.prerender;
        # here in this process's memory cache).
        tasks.prerender_partials(game.pk, version, game.to_act_seat)
        measure(
            "poll rendered ahead",
            lambda: poll(version - 1),
            args.repeat,
            args.profile,
            queries_of=args.queries,
            floor=floor,
        )
        # The player to act polls too until the move before theirs lands: their partial,
        # with every action they may take, was rendered ahead by the same task.
        waiter_seat = next(n for n, c in clients.items() if c is waiter)
        tasks.prerender_partials(game.pk, version, waiter_seat)
        measure(
            "poll rendered ahead, to act",
            lambda: len(actor.get(f"{url}poll?version={version - 1}").content),
            args.repeat,
            args.profile,
            queries_of=args.queries,
            floor=floor,
        )
    measure(
        "partial to act",
        lambda: len(actor.get(url).content),
        args.repeat,
        args.profile,
        queries_of=args.queries,
        floor=floor,
    )

    def choose() -> tuple[Any, dict[str, Any]] | None:
        game.refresh_from_db()
        if game.to_act_seat is None:
            return None
        client = clients[game.to_act_seat]
        page = client.get(url).content.decode()
        actions = [html.unescape(a) for a in DATA_ACTION.findall(page) if a != "undo"]
        found = VERSION.search(page)
        assert found, "no version on the page"
        return client, {"action": rng.choice(actions), "version": int(found.group(1))}

    def submit(given: tuple[Any, dict[str, Any]]) -> int:
        client, data = given
        reply = client.post(f"{url}act", data)
        assert reply.status_code == 200, reply.status_code
        return len(reply.content)

    measure(
        "submit",
        submit,
        args.repeat,
        args.profile,
        queries_of=args.queries,
        prepare=choose,
        floor=floor,
    )


if __name__ == "__main__":
    main()
