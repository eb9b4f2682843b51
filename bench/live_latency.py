"""How long a move takes to reach the other open pages (issue 29): p50/p95, commit → DOM.

Serves the site as ``make run`` does — the ASGI app under uvicorn, SQLite, no Redis, the
streams reading the version column every ``LIVE_POLL_SECONDS`` — on a throw-away database,
opens two real browsers (Chromium, Playwright) on a two-player game, one per player, and
plays ``--moves`` plies from this process through the submit service, as a third device
would. For each ply it notes the wall-clock time right after the commit and the time each
page's DOM shows the new version (a ``MutationObserver`` on ``#game``'s ``data-version``),
and prints the percentiles per page: the player who moved (another tab of theirs) and the
other player. ``--redis`` runs a throw-away ``redis-server`` and sends the versions through
its pub/sub instead (the production path; ``--database-url`` for PostgreSQL).
``--bot-turns N`` plays N turns against the easy bot with ``manage.py run_sweeps`` beside
the server, as ``make run`` does: from the person's last commit of a turn to the page
showing the bot's first action and its whole turn. ``--idle N`` then holds N idle streams
on one game and prints the server process's memory and threads.

``--production`` runs the production stack instead: the README's layout — gunicorn's sync
workers for the pages and polls, uvicorn ``--workers 2`` for the streams, a small proxy in
front sending ``/games/<id>/live`` to uvicorn and the rest to gunicorn, as nginx would
(``--all-asgi``: uvicorn serves everything, no proxy) —, PostgreSQL (``DATABASE_URL``: run it under
``scripts/with-postgres.sh``), a throw-away Redis as the broker, the cache (partials
rendered ahead) and the live pub/sub, a Celery worker on the ``celery`` queue and the bots'
worker on ``bots`` (``BOT_PAUSE_SECONDS``: ``--bot-pause``); the bots' figure then comes
from the bots' worker, not ``run_sweeps``. There a move's live event waits for the worker's
partials (``LIVE_AHEAD_WAIT_SECONDS`` at most: ``--ahead-wait``); ``--compare`` serves the
stack twice in one run, first with the event at once (the default: the pages' fetches race
the worker's rendering ahead and render the partial themselves), then held for the worker
(``--ahead-wait``, 0.5 s unless given), and prints each page figure and the server's time
as a ratio to the same run's 204 baseline. ``--compare-render`` does the same with the page's
fetch rendering its board beside the worker's render of it (``RENDER_WAIT_SECONDS=0``), then
waiting for that render (one render a board, the default: ``games.web.prerender``).

Beside each figure it prints where the time went, per ply, from the other player's page:
the commit to the stream's event reaching the page (fan-out), the event to the page's
fetch of its partial leaving (script), the fetch (server time to first byte, then the
download) and the answer to the DOM (swap); and a baseline measured in the same run: the
round trip of an unchanged poll (204) from the page, which moves with the machine's load
as the figures do. ``uptime``'s load is printed with each figure.

    .venv/bin/python bench/live_latency.py --moves 120
    .venv/bin/python bench/live_latency.py --moves 120 --redis
    .venv/bin/python bench/live_latency.py --moves 0 --bot-turns 20 --idle 1000
    scripts/with-postgres.sh .venv/bin/python bench/live_latency.py --production \
        --moves 120 --bot-turns 20
    scripts/with-postgres.sh .venv/bin/python bench/live_latency.py --production \
        --compare --moves 60

Check ``uptime`` first: on a shared machine the figures move with the load.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

OBSERVER = """
window.__seen = {};
window.__event = {};
window.__streams = {opened: 0, errors: 0};
performance.setResourceTimingBufferSize(100000);
(function () {
  // the stream's events, timed as they reach the page (before game.js's own listener)
  var Native = window.EventSource;
  if (!Native) { return; }
  var Timed = function (url, init) {
    var source = new Native(url, init);
    source.addEventListener("open", function () { window.__streams.opened += 1; });
    source.addEventListener("error", function () { window.__streams.errors += 1; });
    source.addEventListener("version", function (ev) {
      if (!(ev.data in window.__event)) {
        window.__event[ev.data] = performance.timeOrigin + performance.now();
      }
    });
    return source;
  };
  Timed.prototype = Native.prototype;
  window.EventSource = Timed;
})();
new MutationObserver(function () {
  var root = document.getElementById("game");
  var v = root && root.dataset.version;
  if (v && !(v in window.__seen)) { window.__seen[v] = performance.timeOrigin + performance.now(); }
}).observe(document, {subtree: true, childList: true, attributes: true,
                                      attributeFilter: ["data-version"]});
"""


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile (0–1) of ``values``, by nearest rank."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered)) - 1))]


BREAKDOWN = """
([v, prev]) => {
  var abs = function (t) { return performance.timeOrigin + t; };
  var fetches = performance.getEntriesByType("resource").filter(
    function (e) { return e.name.indexOf("/poll?version=" + prev) >= 0; });
  var f = fetches[fetches.length - 1];
  return {event: window.__event[v] || null, dom: window.__seen[v] || null,
          start: f ? abs(f.startTime) : null, request: f ? abs(f.requestStart) : null,
          first: f ? abs(f.responseStart) : null, end: f ? abs(f.responseEnd) : null};
}
"""

BASELINE = """
async (url) => {
  var t0 = performance.now();
  var r = await fetch(url, {headers: {"HX-Request": "true"}});
  await r.text();
  return {status: r.status, ms: performance.now() - t0};
}
"""

STAGES = (
    ("fan-out: commit → the stream's event on the page", "committed", "event"),
    ("script: event → the partial's fetch leaves", "event", "start"),
    ("server: fetch → first byte", "start", "first"),
    ("download: first → last byte", "first", "end"),
    ("swap: answer → DOM", "end", "dom"),
)


LIVE_PATH = re.compile(rb"^/games/[0-9]+/live(\?|$)")


def proxy(port: int, web: int, live: int) -> None:
    """Serve 127.0.0.1:``port``: streams (``LIVE_PATH``) to ``live``, the rest to ``web``.

    Stands in for the README's nginx: one request a connection (``Connection: close``), so
    each is routed by its own path; bytes are passed on as they come (no buffering).
    """
    import asyncio

    async def pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while data := await reader.read(65536):
                writer.write(data)
                await writer.drain()
        except (ConnectionError, OSError):
            pass
        finally:
            writer.close()

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            head = await reader.readuntil(b"\r\n\r\n")
        except (asyncio.IncompleteReadError, ConnectionError):
            writer.close()
            return
        lines = head.split(b"\r\n")
        target = lines[0].split(b" ")[1] if len(lines[0].split(b" ")) > 1 else b"/"
        kept = [line for line in lines[1:-2] if not line.lower().startswith(b"connection:")]
        head = b"\r\n".join([lines[0], *kept, b"Connection: close", b"", b""])
        upstream = live if LIVE_PATH.match(target) else web
        up_reader, up_writer = await asyncio.open_connection("127.0.0.1", upstream)
        up_writer.write(head)
        await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer))

    async def serve() -> None:
        server = await asyncio.start_server(handle, "127.0.0.1", port, backlog=1024)
        async with server:
            await server.serve_forever()

    asyncio.run(serve())


def uptime() -> str:
    """The machine's load averages (1, 5, 15 min) and its cores, as ``uptime`` gives them."""
    one, five, fifteen = os.getloadavg()
    return f"load {one:.2f} {five:.2f} {fifteen:.2f} on {os.cpu_count()} cores"


def summary(values: list[float]) -> str:
    """``n``, p50, p95, max and mean of ``values`` (milliseconds)."""
    if not values:
        return "n=0"
    return (f"n={len(values)}  p50={percentile(values, 0.5):.0f} ms  "
            f"p95={percentile(values, 0.95):.0f} ms  max={max(values):.0f} ms  "
            f"mean={statistics.fmean(values):.0f} ms")  # fmt: skip


def main() -> None:
    if sys.argv[1:2] == ["proxy"]:  # the production run's stand-in for nginx
        proxy(*(int(n) for n in sys.argv[2:5]))
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=100)
    parser.add_argument("--poll", type=float, default=0.25, help="LIVE_POLL_SECONDS")
    parser.add_argument("--redis", action="store_true", help="fan out through Redis pub/sub")
    parser.add_argument("--database-url", default="", help="default: a fresh SQLite file")
    parser.add_argument("--gap", type=float, default=0.3, help="seconds between plies")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--bot-turns",
        type=int,
        default=0,
        help="then N turns against the easy bot, run_sweeps beside the server (make run's way)",
    )
    parser.add_argument(
        "--idle", type=int, default=0, help="then hold N idle streams: the server's memory"
    )
    parser.add_argument(
        "--production",
        action="store_true",
        help="uvicorn workers, PostgreSQL (DATABASE_URL), Redis, Celery and bots' workers",
    )
    parser.add_argument("--web-workers", type=int, default=3, help="gunicorn's, --production")
    parser.add_argument(
        "--all-asgi", action="store_true", help="--production with uvicorn serving every page"
    )
    parser.add_argument(
        "--bot-pause",
        type=float,
        default=0.5,
        help="BOT_PAUSE_SECONDS, --production (0.5, the default's)",
    )
    parser.add_argument(
        "--ahead-wait", default="", help="LIVE_AHEAD_WAIT_SECONDS of the streams (--production)"
    )
    parser.add_argument(
        "--compare",
        action="store_true",
        help="--production twice in one run: the event at once (the pages race the worker's "
        "rendering ahead, as before issue 29's fix), then held for the worker",
    )
    parser.add_argument(
        "--compare-render",
        action="store_true",
        help="--production twice in one run: each page's fetch renders its board even while "
        "the worker renders it (RENDER_WAIT_SECONDS=0), then one render a board (the default)",
    )
    args = parser.parse_args()
    if args.production:
        args.redis = True
        args.database_url = args.database_url or os.environ.get("DATABASE_URL", "")
        if not args.database_url.startswith("postgres"):
            parser.error("--production needs PostgreSQL: run it under scripts/with-postgres.sh")
    with ExitStack() as stack:
        tmp = Path(stack.enter_context(tempfile.TemporaryDirectory()))
        env = {k: v for k, v in os.environ.items() if not k.startswith(("LIVE_", "CACHE_"))}
        env.pop("CELERY_BROKER_URL", None)
        env |= {
            "DATABASE_URL": args.database_url or f"sqlite:///{tmp / 'live.sqlite3'}",
            "LIVE_POLL_SECONDS": str(args.poll),
            "DJANGO_SETTINGS_MODULE": "tigris_site.settings",
        }
        # Playwright's sync API keeps an event loop in this thread; the ORM is used beside it.
        os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
        if args.redis:
            from tests import services

            env["LIVE_REDIS_URL"] = redis_url = stack.enter_context(services.redis_server())
            if args.production:
                env |= {
                    "CELERY_BROKER_URL": redis_url,
                    "CELERY_TASK_ALWAYS_EAGER": "0",
                    "CACHE_URL": redis_url.removesuffix("/0") + "/1",
                    "BOT_PAUSE_SECONDS": str(args.bot_pause),
                    "DEBUG": "0",
                    "SECRET_KEY": "bench-" + "x" * 50,
                    "ALLOWED_HOSTS": "127.0.0.1,localhost",
                    "SITE_URL": "http://127.0.0.1",
                    "SECURE_SSL_REDIRECT": "0",  # no TLS proxy in front here
                }
        os.environ.update(env)
        import django

        django.setup()
        from django.core.management import call_command

        call_command("migrate", verbosity=0)
        if args.production:
            call_command("collectstatic", interactive=False, verbosity=0)  # whitenoise's
        variants: list[tuple[str, dict[str, str]]] = [
            ("the event at once (LIVE_AHEAD_WAIT_SECONDS=0, the default)", {}),
            (
                f"held for the worker (LIVE_AHEAD_WAIT_SECONDS={args.ahead_wait or '0.5'})",
                {"LIVE_AHEAD_WAIT_SECONDS": args.ahead_wait or "0.5"},
            ),
        ]
        if args.compare_render:
            variants = [
                (
                    "a fetch renders beside the worker (RENDER_WAIT_SECONDS=0: it never waits "
                    "for the worker's render of the same board)",
                    {"RENDER_WAIT_SECONDS": "0"},
                ),
                ("one render a board (RENDER_WAIT_SECONDS=0.5, the default)", {}),
            ]
        else:
            variants[0][1]["LIVE_AHEAD_WAIT_SECONDS"] = "0"
        results = []
        only = [("", {"LIVE_AHEAD_WAIT_SECONDS": args.ahead_wait} if args.ahead_wait else {})]
        for label, extra in variants if args.compare or args.compare_render else only:
            run_env = env | extra
            with ExitStack() as servers:
                figures = serve_and_measure(servers, run_env, args)
            results.append((label, figures))
    print(f"{uptime()} at the end; stack: {stack_name(args)}")
    for label, figures in results:
        if label:
            print(f"— {label}")
        for who, values in figures.items():
            if who.startswith("  "):
                print(f"{who}: {summary(values)}")  # a stage or a baseline, already in ms
            else:
                print(f"{who}: {summary([v * 1000 for v in values])}")
    if len(results) == 2 and all(f.get("the other player") for _label, f in results):
        (_b, before), (_a, after) = results
        for who in ("the other player", "  server: fetch → first byte"):
            scale = 1 if who.startswith("  ") else 1000
            ratios = [
                percentile([v * scale for v in f[who]], 0.5)
                / percentile(f["  baseline: an unchanged poll's round trip (204)"], 0.5)
                for f in (before, after)
            ]
            print(f"{who.strip()}: p50 / the 204 baseline's p50: before {ratios[0]:.1f}×, "
                  f"after {ratios[1]:.1f}×")  # fmt: skip


def serve_and_measure(
    stack: ExitStack, env: dict[str, str], args: argparse.Namespace
) -> dict[str, list[float]]:
    """Start the servers (and workers) of ``args``' stack with ``env``; play; return figures."""
    from tests import services

    port = services.free_port()
    split = args.production and not args.all_asgi
    live_port = services.free_port() if split else port
    workers = ["--workers", "2"] if args.production else []
    server = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "tigris_site.asgi:application", "--port",
         str(live_port), "--log-level", "warning", "--timeout-graceful-shutdown", "1",
         *workers],
        cwd=ROOT, env=env,
    )  # fmt: skip
    streams_pid = server.pid
    stack.callback(server.wait)
    stack.callback(server.terminate)
    if split:
        services.wait_for_port(live_port, server, seconds=120)
        web_port = services.free_port()
        pages = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "tigris_site.wsgi", "--workers",
             str(args.web_workers), "--bind", f"127.0.0.1:{web_port}", "--log-level",
             "warning", "--preload", "--timeout", "120"],
            cwd=ROOT, env=env,
        )  # fmt: skip
        stack.callback(pages.wait)
        stack.callback(pages.terminate)
        services.wait_for_port(web_port, pages, seconds=120)
        server = subprocess.Popen(
            [sys.executable, __file__, "proxy", str(port), str(web_port), str(live_port)],
            cwd=ROOT, env=env,
        )  # fmt: skip
    if args.production:
        # the email/push/render worker and the bots' worker, as the README runs them
        stack.enter_context(services.celery_worker(env["CELERY_BROKER_URL"], env))
        stack.enter_context(services.celery_worker(env["CELERY_BROKER_URL"], env, queues="bots"))
    stack.callback(server.wait)
    stack.callback(server.terminate)
    services.wait_for_port(port, server, seconds=120)
    base = f"http://127.0.0.1:{port}"
    print(f"stack: {stack_name(args)}; {uptime()} at the start", flush=True)
    figures = play(base, args) if args.moves else {}
    if args.bot_turns and args.production:
        figures |= bot_turns(base, args)
    elif args.bot_turns:
        sweeps = subprocess.Popen(
            [sys.executable, "manage.py", "run_sweeps"], cwd=ROOT, env=env,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        stack.callback(sweeps.wait)
        stack.callback(sweeps.terminate)
        figures |= bot_turns(base, args)
    if args.idle:
        idle_streams(port, streams_pid, args.idle)
    return figures


def stack_name(args: argparse.Namespace) -> str:
    """Say what serves the run: server, database, fan-out, workers."""
    if args.production:
        web = ("uvicorn --workers 2 for everything" if args.all_asgi else
               f"gunicorn --workers {args.web_workers} (pages, polls) + uvicorn --workers 2 "
               f"(streams) behind a proxy")  # fmt: skip
        return (f"production: {web}, PostgreSQL, Redis (broker, cache, pub/sub), Celery "
                f"worker + bots' worker (BOT_PAUSE_SECONDS={args.bot_pause})")  # fmt: skip
    database = "PostgreSQL" if args.database_url.startswith("postgres") else "SQLite"
    fan_out = "Redis pub/sub" if args.redis else f"the version column every {args.poll} s"
    return f"uvicorn, {database}, fan-out through {fan_out}, run_sweeps for the bots"


def new_game() -> tuple[Any, dict[int, Any]]:
    """A fresh unrated two-player game without a clock; its seats' users by position."""
    import secrets

    from django.contrib.auth import get_user_model

    from games.models import Game
    from games.play import lifecycle

    users = [
        get_user_model().objects.create_user(f"live-{secrets.token_hex(4)}", password=None)
        for _n in range(2)
    ]
    game = lifecycle.game_create(
        creator=users[0], num_players=2, is_rated=False, days_per_move=None
    )
    lifecycle.game_join(game_id=game.pk, user=users[1])
    game = Game.objects.get(pk=game.pk)
    return game, {s.position: s.user for s in game.seats.all() if s.position is not None}


def proc_status(pid: int, field: str) -> int:
    """A number of ``/proc/<pid>/status``: ``VmRSS`` (KiB), ``Threads``."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(f"{field}:"):
            return int(line.split()[1])
    raise RuntimeError(f"no {field} for process {pid}")


def rss_kib(pid: int) -> int:
    """The resident memory of process ``pid``, in KiB."""
    return proc_status(pid, "VmRSS")


def server_processes(pid: int) -> list[int]:
    """``pid`` and its children: uvicorn's supervisor and its ``--workers``, or one process."""
    children = [
        int(child)
        for task in Path(f"/proc/{pid}/task").iterdir()
        for child in (task / "children").read_text().split()
    ]
    return [pid, *children]


def open_fds(pid: int) -> int:
    """How many file descriptors process ``pid`` holds (each stream is one socket)."""
    return len(list(Path(f"/proc/{pid}/fd").iterdir()))


def idle_streams(port: int, pid: int, count: int) -> None:
    """Open ``count`` streams on one public game and hold them; print the servers' memory.

    Each process serving streams (the uvicorn process, or each of its ``--workers``) is
    read before and after: its resident memory, its threads and its open sockets (the
    streams it holds).
    """
    import asyncio

    game, _seats = new_game()
    path = f"/games/{game.pk}/live?version={game.version}"
    processes = server_processes(pid)

    def read() -> dict[int, tuple[int, int]]:
        return {p: (rss_kib(p), open_fds(p)) for p in processes}

    async def hold() -> None:
        before = read()
        streams = []
        started = time.monotonic()
        for _n in range(count):
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
            await writer.drain()
            streams.append((reader, writer))
        opened = 0
        for reader, _writer in streams:
            head = await asyncio.wait_for(reader.readuntil(b": live\n\n"), 60)
            opened += head.startswith(b"HTTP/1.1 200")
        took = time.monotonic() - started
        await asyncio.sleep(2.0)  # a few of the watch's reads
        held = read()
        print(f"idle streams: {opened} of {count} opened in {took:.1f} s")
        for p in processes:
            (rss0, fds0), (rss1, fds1) = before[p], held[p]
            streams_here = fds1 - fds0
            print(f"  process {p}: holds {streams_here} streams (open sockets); memory "
                  f"{rss0 / 1024:.0f} MiB before, {rss1 / 1024:.0f} MiB with them "
                  f"({(rss1 - rss0) / max(streams_here, 1):.0f} KiB a stream), "
                  f"{proc_status(p, 'Threads')} threads")  # fmt: skip
        total0 = sum(r for r, _f in before.values())
        total1 = sum(r for r, _f in held.values())
        print(f"  all stream processes: {total0 / 1024:.0f} MiB before, {total1 / 1024:.0f} "
              f"MiB with {opened} streams ({(total1 - total0) / max(opened, 1):.0f} KiB a "
              f"stream)")  # fmt: skip
        for _reader, writer in streams:
            writer.close()

    asyncio.run(hold())


def _page_for(browser: Any, base: str, user: Any, game_id: int) -> Any:
    from django.test import Client

    client = Client()
    client.force_login(user)
    context = browser.new_context()
    context.set_default_timeout(120_000)  # a loaded machine: pages may come slowly
    context.add_cookies(
        [{"name": "sessionid", "url": base, "value": client.cookies["sessionid"].value}]
    )
    context.add_init_script(OBSERVER)
    page = context.new_page()
    page.goto(f"{base}/games/{game_id}/")
    page.wait_for_selector("#game[data-version]")
    return page


def _seen_at(page: Any, version: int, seconds: float = 20.0) -> float | None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        seen = page.evaluate("v => window.__seen[v]", str(version))
        if seen:
            return float(seen)
        time.sleep(0.02)
    return None


def bot_turns(base: str, args: argparse.Namespace) -> dict[str, list[float]]:
    """Play ``args.bot_turns`` turns against the easy bot; seconds from the person's last
    commit of a turn to the page showing the bot's first action, and its whole turn."""
    import secrets

    from django.contrib.auth import get_user_model
    from playwright.sync_api import sync_playwright

    import engine
    from games.core.states import game_state
    from games.models import Game
    from games.play import lifecycle
    from games.play.submit import game_submit_action

    rng = random.Random(args.seed)
    first: list[float] = []
    whole: list[float] = []
    human = get_user_model().objects.create_user(f"live-{secrets.token_hex(4)}", password=None)
    game = lifecycle.game_against_bot_create(creator=human, tier="easy")
    mine = game.seats.get(user=human).position
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path="/usr/bin/chromium", args=["--no-sandbox", "--disable-gpu"]
        )
        page = _page_for(browser, base, human, game.pk)
        while len(first) < args.bot_turns:
            game = Game.objects.get(pk=game.pk)
            if game.status != Game.Status.ACTIVE:
                break
            if game.to_act_seat != mine:
                time.sleep(0.05)
                continue
            state = game_state(game)
            action = rng.choice(engine.legal_actions(state))
            game_submit_action(
                game_id=game.pk, user=human, action=str(action), expected_version=game.version
            )
            committed = time.time() * 1000
            game = Game.objects.get(pk=game.pk)
            if game.to_act_seat == mine or game.status != Game.Status.ACTIVE:
                continue  # the person's turn goes on
            mine_done = game.version
            seen = _seen_at(page, mine_done + 1)
            if seen is None:
                heard = page.evaluate("Object.keys(window.__event).join(',')")
                shown = page.evaluate("Object.keys(window.__seen).join(',')")
                now = Game.objects.get(pk=game.pk).version
                print(f"the bot's action after v{mine_done} never showed (game at v{now}; "
                      f"events heard: {heard}; versions shown: {shown})",
                      file=sys.stderr)  # fmt: skip
                continue
            first.append((seen - committed) / 1000)
            while Game.objects.get(pk=game.pk).to_act_seat not in (mine, None):
                time.sleep(0.05)
            final = Game.objects.get(pk=game.pk).version
            done = _seen_at(page, final)
            if done is not None:
                whole.append((done - committed) / 1000)
        browser.close()
    return {"a bot's first action": first, "a bot's whole turn": whole}


def play(base: str, args: argparse.Namespace) -> dict[str, list[float]]:
    """Play ``args.moves`` plies; return seconds from each commit to each page's DOM."""
    from django.test import Client
    from playwright.sync_api import sync_playwright

    import engine
    from games.core.states import game_state
    from games.play.submit import game_submit_action

    rng = random.Random(args.seed)
    figures: dict[str, list[float]] = {"the mover's other tab": [], "the other player": []}
    stages: dict[str, list[float]] = {f"  {name}": [] for name, _a, _b in STAGES}
    baseline: list[float] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path="/usr/bin/chromium", args=["--no-sandbox", "--disable-gpu"]
        )
        pages: dict[int, object] = {}
        game = None
        played = 0
        while played < args.moves:
            if game is None or game_state(game).is_over:
                game, seats = new_game()
                for page in pages.values():
                    page.context.close()  # type: ignore[attr-defined]
                pages = {}
                for n, user in seats.items():
                    client = Client()
                    client.force_login(user)
                    context = browser.new_context()
                    context.set_default_timeout(120_000)  # a loaded machine: pages may come slowly
                    context.add_cookies([{"name": "sessionid", "url": base,
                                          "value": client.cookies["sessionid"].value}])  # fmt: skip
                    context.add_init_script(OBSERVER)
                    page = context.new_page()
                    page.goto(f"{base}/games/{game.pk}/")
                    page.wait_for_selector("#game[data-version]")
                    pages[n] = page
                time.sleep(1.0)  # the streams are open
            state = game_state(game)
            mover = state.to_act
            assert mover is not None  # the game is not over
            action = rng.choice(engine.legal_actions(state))
            game_submit_action(
                game_id=game.pk, user=seats[mover], action=str(action),
                expected_version=game.version,
            )  # fmt: skip
            committed = time.time() * 1000
            game.refresh_from_db()
            played += 1
            version = str(game.version)
            for n, page in pages.items():
                seen = None
                for _try in range(200):
                    seen = page.evaluate("v => window.__seen[v]", version)  # type: ignore[attr-defined]
                    if seen:
                        break
                    time.sleep(0.02)
                if seen is None:
                    print(f"ply {version}: seat {n}'s page never showed it", file=sys.stderr)
                    continue
                who = "the mover's other tab" if n == mover else "the other player"
                figures[who].append((seen - committed) / 1000)
                if n != mover:
                    times = page.evaluate(BREAKDOWN, [version, str(game.version - 1)])  # type: ignore[attr-defined]
                    times["committed"] = committed
                    for name, since, until in STAGES:
                        if times.get(since) and times.get(until):
                            stages[f"  {name}"].append(times[until] - times[since])
                    answer = page.evaluate(  # type: ignore[attr-defined]
                        BASELINE, f"/games/{game.pk}/poll?version={version}"
                    )
                    if answer["status"] == 204:
                        baseline.append(answer["ms"])
            time.sleep(args.gap * rng.uniform(0.5, 1.5))
        for n, page in pages.items():
            streams = page.evaluate("window.__streams")  # type: ignore[attr-defined]
            print(f"seat {n}'s page in the last game: its stream opened {streams['opened']} "
                  f"times, failed {streams['errors']} times")  # fmt: skip
        browser.close()
    return figures | stages | {"  baseline: an unchanged poll's round trip (204)": baseline}


if __name__ == "__main__":
    main()
