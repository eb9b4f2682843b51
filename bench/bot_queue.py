"""The bots' queue under load (issue 31): moves a second and queue wait with 1, 2, 4 workers.

Run from the repository root: ``nice -n 10 .venv/bin/python bench/bot_queue.py``. Options:
``--games N`` games of two bot seats (300), ``--workers 1,2,4`` the bot workers of each
round, ``--tier`` the bots' tier (medium: the tier that takes over a dropped seat),
``--warmup S`` seconds before the window (the queue fills to its steady backlog),
``--seconds S`` the measured window, ``--pause S`` ``BOT_PAUSE_SECONDS`` (0.5 s, as in
production, where it parts two actions played for seats — here every action; the figures
in docs/capacity.md were measured with the 1 s it was before issue 29). ``DATABASE_URL`` of
a PostgreSQL database to use (its games are left as they are: the bench adds its own);
without it, the script re-executes itself under
``scripts/with-postgres.sh`` (a throw-away cluster holding the bench's games only).

What it does, all on loopback:

1. Starts ``redis-server`` (the broker), migrates, creates ``N`` 2-player games through
   ``games.play.lifecycle.game_create`` with a bot of ``--tier``, then gives the creator's
   seat to the same bot (``Seat.is_bot``), so every seat of every game is a bot's and the
   games play on by themselves, one queued task an action, as in production: each bot
   move queues the next (``botturns.bot_turn_queue``, ``countdown=BOT_PAUSE_SECONDS``).
2. For each worker count W: empties the queue, starts W Celery workers on the ``bots``
   queue (``--pool solo``: one action at a time each, as ``make bot-worker`` with
   ``--concurrency 1``), once they are ready queues one ``play_bot_move`` for every game in
   progress, waits ``--warmup`` seconds, then measures ``--seconds`` seconds.
3. Prints per round: actions played a second (the workers' tasks that played a move,
   checked against the ``Move`` rows of source bot written in the window), queue wait
   p50/p95/max (a task's start minus the time it was due: its ``eta``, i.e. queued time
   plus the pause), the task's run time p50/p95 (reading the game, the bot's choice, the
   submit) and the CPU it took in the worker (``time.process_time``: what the load does not
   change; PostgreSQL's side not counted), and the 1-minute load average at the window's
   start and end.

Each worker writes one JSON line a task (``task_prerun``/``task_postrun`` signals) to a
file of its own; nothing of this is in the site's code.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
MARKER = "BOT_QUEUE_IN_THROWAWAY_PG"


def site_env(broker: str, pause: float) -> dict[str, str]:
    """The environment of this process and the workers: a real broker, bots queued."""
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "tigris_site.settings",
        "DEBUG": "0",
        "SECRET_KEY": "bench-" + "k" * 40,
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "CELERY_BROKER_URL": broker,
        "CELERY_TASK_ALWAYS_EAGER": "0",
        "BOTS_QUEUED": "1",
        "BOT_PAUSE_SECONDS": str(pause),
        "BOT_GAMES_PER_ACCOUNT": "100000",
        "LOG_LEVEL": "ERROR",
        "PYTHONPATH": str(ROOT),
    }


# --------------------------------------------------------------------------- the worker


def child_worker(log_path: str, node: str) -> None:
    """Run a Celery worker on the ``bots`` queue, one JSON line a task to ``log_path``."""
    import django

    django.setup()
    from celery.signals import task_postrun, task_prerun, worker_ready

    from tigris_site.celery import app

    started: dict[str, tuple[float, float]] = {}
    out = open(log_path, "a", buffering=1)  # noqa: SIM115 - open for the worker's life

    @worker_ready.connect(weak=False)
    def ready(**_: Any) -> None:
        Path(log_path + ".ready").touch()

    @task_prerun.connect(weak=False)
    def before(task_id: str, task: Any, **_: Any) -> None:
        started[task_id] = (time.time(), time.process_time())

    @task_postrun.connect(weak=False)
    def after(task_id: str, task: Any, retval: Any = None, **_: Any) -> None:
        begin, cpu = started.pop(task_id, (time.time(), time.process_time()))
        eta = task.request.eta
        due = datetime.fromisoformat(eta).timestamp() if isinstance(eta, str) else None
        line = {"name": task.name, "due": due, "start": begin, "end": time.time()}
        line["cpu"] = time.process_time() - cpu  # the solo pool runs the task in this process
        out.write(json.dumps({**line, "played": retval is not None}) + "\n")

    app.worker_main(
        [
            "worker",
            "--pool",
            "solo",
            "--queues",
            "bots",
            "--hostname",
            node,
            "--loglevel",
            "WARNING",
            "--without-gossip",
            "--without-mingle",
            "--without-heartbeat",
        ]
    )


# --------------------------------------------------------------------------- setup


def make_games(count: int, tier: str) -> list[int]:
    """Create ``count`` started games whose two seats are both ``tier``'s bot; return ids."""
    from django.contrib.auth import get_user_model

    from games.accounts.bots import bot_account
    from games.models import Game, Seat
    from games.play import lifecycle

    bot = bot_account(tier)
    user_model = get_user_model()
    stamp = int(time.time())
    ids = []
    for i in range(count):
        person = user_model.objects.create_user(f"botq{stamp}x{i}", password=None)
        game = lifecycle.game_create(creator=person, num_players=2, bots=(tier,), is_rated=False)
        Seat.objects.filter(game=game, is_bot=False).update(user=bot, is_bot=True)
        ids.append(game.pk)
    Game.objects.filter(pk__in=ids, status=Game.Status.ACTIVE).update(bot_to_act=True)
    return ids


def kick(game_ids: list[int], pause: float) -> int:
    """Queue one ``play_bot_move`` for each game of ``game_ids`` in progress; return how many."""
    from games.core import queue
    from games.models import Game

    rows = Game.objects.filter(pk__in=game_ids, status=Game.Status.ACTIVE)
    queued = 0
    for pk, version in rows.values_list("pk", "version"):
        queue.enqueue(queue.PLAY_BOT_MOVE, pk, version, countdown=pause)
        queued += 1
    return queued


def bot_moves_between(game_ids: list[int], start: float, end: float) -> int:
    """Return the bot moves of ``game_ids`` written between two Unix times."""
    from datetime import UTC

    from games.models import Move

    return Move.objects.filter(
        game_id__in=game_ids,
        source=Move.Source.BOT,
        created_at__gte=datetime.fromtimestamp(start, UTC),
        created_at__lt=datetime.fromtimestamp(end, UTC),
    ).count()


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def one_round(
    workers: int, game_ids: list[int], args: argparse.Namespace, env: dict[str, str], tmp: Path
) -> dict[str, Any]:
    """Measure ``workers`` bot workers on the games; return the round's figures."""
    import redis

    redis.Redis.from_url(env["CELERY_BROKER_URL"]).flushdb()  # a round starts with no backlog
    logs = [tmp / f"w{workers}-{i}.jsonl" for i in range(workers)]
    processes = [
        subprocess.Popen(
            [sys.executable, __file__, "--child-worker", str(log), f"botq{workers}-{i}@localhost"],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=(tmp / f"w{workers}-{i}.err").open("w"),
        )
        for i, log in enumerate(logs)
    ]
    try:  # the workers' start (seconds each under load) is not the queue's wait
        deadline = time.monotonic() + 180
        while not all(Path(f"{log}.ready").exists() for log in logs):
            if time.monotonic() > deadline:
                raise RuntimeError("the bot workers did not start within 180 s")
            time.sleep(0.2)
        queued = kick(game_ids, args.pause)
        time.sleep(args.warmup)
        load_start, t0 = os.getloadavg()[0], time.time()
        time.sleep(args.seconds)
        t1, load_end = time.time(), os.getloadavg()[0]
    finally:
        for process in processes:
            process.send_signal(signal.SIGTERM)
        for process in processes:
            try:
                process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
    tasks = [json.loads(line) for log in logs if log.exists() for line in log.open()]
    if not tasks:  # the workers never ran a task: show why
        for i in range(workers):
            print((tmp / f"w{workers}-{i}.err").read_text()[-2000:])
    window = [t for t in tasks if t0 <= t["start"] < t1 and t["name"].endswith("play_bot_move")]
    played = [t for t in window if t["played"]]
    waits = [t["start"] - t["due"] for t in window if t["due"] is not None]
    runs = [(t["end"] - t["start"]) * 1000 for t in window]
    cpus = [t["cpu"] * 1000 for t in window]
    moves = bot_moves_between(game_ids, t0, t1)
    figures = {
        "workers": workers,
        "queued at start": queued,
        "tasks": len(window),
        "played": len(played),
        "moves/s": moves / (t1 - t0),
        "tasks/s": len(window) / (t1 - t0),
        "wait p50 s": pct(waits, 0.5),
        "wait p95 s": pct(waits, 0.95),
        "wait max s": max(waits) if waits else float("nan"),
        "run p50 ms": pct(runs, 0.5),
        "run p95 ms": pct(runs, 0.95),
        "run mean ms": statistics.fmean(runs) if runs else float("nan"),
        "cpu p50 ms": pct(cpus, 0.5),
        "cpu mean ms": statistics.fmean(cpus) if cpus else float("nan"),
        "load": f"{load_start:.1f} → {load_end:.1f}",
    }
    print(
        f"  {workers} worker(s): {figures['moves/s']:.2f} moves/s ({moves} Move rows; "
        f"{len(played)} of {len(window)} tasks played), queue wait p50 "
        f"{figures['wait p50 s']:.1f} s, p95 {figures['wait p95 s']:.1f} s, max "
        f"{figures['wait max s']:.1f} s; a task runs p50 {figures['run p50 ms']:.0f} ms, "
        f"p95 {figures['run p95 ms']:.0f} ms, CPU p50 {figures['cpu p50 ms']:.0f} ms, mean "
        f"{figures['cpu mean ms']:.0f} ms; load {figures['load']}",
        flush=True,
    )
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--workers", default="1,2,4")
    parser.add_argument("--tier", default="medium", choices=("easy", "medium", "hard"))
    parser.add_argument("--warmup", type=float, default=30.0)
    parser.add_argument("--seconds", type=float, default=90.0)
    parser.add_argument("--pause", type=float, default=0.5, help="BOT_PAUSE_SECONDS")
    parser.add_argument("--child-worker", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child_worker:
        child_worker(*args.child_worker)
        return
    if not os.environ.get("DATABASE_URL") and os.environ.get(MARKER) != "1":
        os.environ[MARKER] = "1"
        script = str(ROOT / "scripts" / "with-postgres.sh")
        os.execv(script, [script, sys.executable, __file__, *sys.argv[1:]])

    from tests.services import redis_server

    with redis_server() as broker, tempfile.TemporaryDirectory(prefix="bot-queue-") as tmp:
        env = site_env(broker, args.pause)
        os.environ.update(env)
        import django
        from django.core.management import call_command

        django.setup()
        call_command("migrate", verbosity=0)
        started = time.perf_counter()
        game_ids = make_games(args.games, args.tier)
        print(
            f"bot queue: {len(game_ids)} games of two {args.tier} bots made in "
            f"{time.perf_counter() - started:.0f} s; pause {args.pause} s; warm-up "
            f"{args.warmup:.0f} s, window {args.seconds:.0f} s; {os.cpu_count()} CPUs; "
            f"load {' '.join(f'{x:.1f}' for x in os.getloadavg())}",
            flush=True,
        )
        counts = [int(w) for w in args.workers.split(",")]
        rounds = [one_round(w, game_ids, args, env, Path(tmp)) for w in counts]
        print("\n| bot workers | moves/s | queue wait p50 s | p95 s | max s | task p50 ms | "
              "p95 ms | CPU mean ms | load (1 min) |")  # fmt: skip
        print("|--:|--:|--:|--:|--:|--:|--:|--:|---|")
        for r in rounds:
            print(
                f"| {r['workers']} | {r['moves/s']:.2f} | {r['wait p50 s']:.1f} | "
                f"{r['wait p95 s']:.1f} | {r['wait max s']:.1f} | {r['run p50 ms']:.0f} | "
                f"{r['run p95 ms']:.0f} | {r['cpu mean ms']:.0f} | {r['load']} |"
            )


if __name__ == "__main__":
    main()
