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

    .venv/bin/python bench/live_latency.py --moves 120
    .venv/bin/python bench/live_latency.py --moves 120 --redis
    .venv/bin/python bench/live_latency.py --moves 0 --bot-turns 20 --idle 1000

Check ``uptime`` first: on a shared machine the figures move with the load.
"""

from __future__ import annotations

import argparse
import os
import random
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=100)
    parser.add_argument("--poll", type=float, default=0.4, help="LIVE_POLL_SECONDS")
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
    args = parser.parse_args()
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

            env["LIVE_REDIS_URL"] = stack.enter_context(services.redis_server())
        os.environ.update(env)
        import django

        django.setup()
        from django.core.management import call_command

        call_command("migrate", verbosity=0)
        from tests import services

        port = services.free_port()
        server = subprocess.Popen(
            [sys.executable, "-m", "uvicorn", "tigris_site.asgi:application", "--port",
             str(port), "--log-level", "warning", "--timeout-graceful-shutdown", "1"],
            cwd=ROOT, env=env,
        )  # fmt: skip
        stack.callback(server.wait)
        stack.callback(server.terminate)
        services.wait_for_port(port, server, seconds=30)
        base = f"http://127.0.0.1:{port}"
        figures = play(base, args) if args.moves else {}
        if args.bot_turns:
            sweeps = subprocess.Popen(
                [sys.executable, "manage.py", "run_sweeps"], cwd=ROOT, env=env,
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            )  # fmt: skip
            stack.callback(sweeps.wait)
            stack.callback(sweeps.terminate)
            figures |= bot_turns(base, args)
        if args.idle:
            idle_streams(port, server.pid, args.idle)
    load = os.getloadavg()
    fan_out = "Redis pub/sub" if args.redis else f"the version column every {args.poll} s"
    print(f"load average at the end: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} "
          f"({os.cpu_count()} cores); fan-out: {fan_out}")  # fmt: skip
    for who, values in figures.items():
        ms = [v * 1000 for v in values]
        print(f"{who}: n={len(ms)}  p50={percentile(ms, 0.5):.0f} ms  "
              f"p95={percentile(ms, 0.95):.0f} ms  max={max(ms):.0f} ms  "
              f"mean={statistics.fmean(ms):.0f} ms")  # fmt: skip


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


def idle_streams(port: int, pid: int, count: int) -> None:
    """Open ``count`` streams on one public game and hold them; print the server's memory."""
    import asyncio

    game, _seats = new_game()
    path = f"/games/{game.pk}/live?version={game.version}"

    async def hold() -> None:
        before = rss_kib(pid)
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
        held = rss_kib(pid)
        print(f"idle streams held by one uvicorn process: {opened} of {count} opened in "
              f"{took:.1f} s; its memory {before / 1024:.0f} MiB before, {held / 1024:.0f} MiB "
              f"with them ({(held - before) / max(opened, 1):.0f} KiB a stream), "
              f"{proc_status(pid, 'Threads')} threads")  # fmt: skip
        for _reader, writer in streams:
            writer.close()

    asyncio.run(hold())


def _page_for(browser: Any, base: str, user: Any, game_id: int) -> Any:
    from django.test import Client

    client = Client()
    client.force_login(user)
    context = browser.new_context()
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
                print(f"the bot's action after v{mine_done} never showed", file=sys.stderr)
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
            time.sleep(args.gap * rng.uniform(0.5, 1.5))
        browser.close()
    return figures


if __name__ == "__main__":
    main()
