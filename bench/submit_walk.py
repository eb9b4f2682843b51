"""How far one HTMX submit walks through the project's code: modules entered, calls between them.

Run from the repository root: ``python bench/submit_walk.py`` (SQLite in a temporary file) or
``scripts/with-postgres.sh python bench/submit_walk.py``. Options: ``--plies N`` played before
measuring (default 30), ``--repeat N`` submits traced (default 40), ``--modules`` to print the
modules of the last traced submit with their calls (``--functions``: and the functions
entered in each, with their calls: why a submit enters a module), ``--pairs N`` the busiest
switches.

A 2-player game (seed 27) is played to ``--plies``; then the player to act posts a random offered
action to ``/games/<id>/act`` as HTMX does (``HX-Request``), through Django's test client and
the whole middleware stack (DEBUG off, eager tasks), under ``sys.setprofile``. Counted per
submit, over the Python calls whose code lies in ``engine/``, ``games/`` or ``tigris_site/``:

- ``modules``: the distinct project modules entered (a module's file, ``games/web/board.py``);
- ``switches``: calls from one project module into another (the nearest project frame below
  the callee is the caller; a call within a module, or from Django into a module, is none);
- ``calls``: every call into project code.

``--cpu`` times the same submits instead, untraced: this process's CPU time (the database
server's is not counted), which a loaded machine disturbs less than the wall clock.

Printed as the median and mean over ``--repeat`` submits (each a real ply at the position the
previous one left), with the minimum and maximum. Issue 27 asks for half the modules of before.
"""

from __future__ import annotations

import argparse
import html
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path
from types import FrameType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from page_cost import DATA_ACTION, VERSION, setup_django  # noqa: E402

PROJECT = tuple(str(ROOT / room) + "/" for room in ("engine", "games", "tigris_site"))


def _module(filename: str) -> str | None:
    """Return ``filename`` relative to the repository if it is project code, else None."""
    if filename.startswith(PROJECT):
        return filename[len(str(ROOT)) + 1 :]
    return None


class Walk:
    """A ``sys.setprofile`` hook counting project calls, modules and switches between them."""

    def __init__(self) -> None:
        self.calls = 0
        self.switches = 0
        self.modules: Counter[str] = Counter()
        self.functions: Counter[tuple[str, str]] = Counter()
        self.pairs: Counter[tuple[str, str]] = Counter()
        self._files: dict[str, str | None] = {}

    def _of(self, frame: FrameType) -> str | None:
        filename = frame.f_code.co_filename
        if filename not in self._files:
            self._files[filename] = _module(filename)
        return self._files[filename]

    def __call__(self, frame: FrameType, event: str, _arg: Any) -> None:
        if event != "call":
            return
        here = self._of(frame)
        if here is None:
            return
        self.calls += 1
        self.modules[here] += 1
        self.functions[here, frame.f_code.co_qualname] += 1
        below = frame.f_back
        while below is not None:
            caller = self._of(below)
            if caller is not None:
                if caller != here:
                    self.switches += 1
                    self.pairs[caller, here] += 1
                return
            below = below.f_back


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--plies", type=int, default=30)
    parser.add_argument("--repeat", type=int, default=40)
    parser.add_argument("--modules", action="store_true")
    parser.add_argument("--functions", action="store_true", help="with --modules: each function")
    parser.add_argument(
        "--cpu", action="store_true", help="time the submits (this process's CPU), untraced"
    )
    parser.add_argument(
        "--pairs", type=int, default=0, help="print the N busiest switches, summed over submits"
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

    users = [get_user_model().objects.create_user(f"walk{n}", password=None) for n in range(2)]
    clients = {}
    for user in users:
        client = Client(HTTP_HX_REQUEST="true")
        client.force_login(user)
        clients[user.pk] = client
    rng = random.Random(5)
    game = lifecycle.game_create(creator=users[0], num_players=2, is_rated=False)
    Game.objects.filter(pk=game.pk).update(seed=27)  # the same position on every run
    lifecycle.game_join(game_id=game.pk, user=users[1])
    game.refresh_from_db()
    seat_user = {s.position: s.user for s in game.seats.all() if s.position is not None}
    for _ in range(args.plies):
        seat = game.to_act_seat
        assert seat is not None
        play_submit.game_submit_action(
            game_id=game.pk,
            user=seat_user[seat],
            action=str(rng.choice(engine.view_for(game_state(game), seat).actions)),
            expected_version=game.version,
        )
        game.refresh_from_db()
    url = f"/games/{game.pk}/"
    figures: dict[str, list[int]] = {"modules": [], "switches": [], "calls": []}
    walk = Walk()
    pairs: Counter[tuple[str, str]] = Counter()  # over every counted submit
    cpu_ms: list[float] = []
    for n in range(args.repeat + 1):  # the first submit warms the caches: not counted
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE or game.to_act_seat is None:
            break
        client = clients[seat_user[game.to_act_seat].pk]
        page = client.get(url).content.decode()
        actions = [html.unescape(a) for a in DATA_ACTION.findall(page) if a != "undo"]
        found = VERSION.search(page)
        assert found, "no version on the page"
        data = {"action": rng.choice(actions), "version": int(found.group(1))}
        walk = Walk()
        started = time.process_time()
        if not args.cpu:
            sys.setprofile(walk)
        try:
            reply = client.post(f"{url}act", data)
        finally:
            sys.setprofile(None)
        spent = (time.process_time() - started) * 1000
        assert reply.status_code == 200, (reply.status_code, data)
        if n == 0:
            continue
        pairs.update(walk.pairs)
        cpu_ms.append(spent)
        figures["modules"].append(len(walk.modules))
        figures["switches"].append(walk.switches)
        figures["calls"].append(walk.calls)
    print(f"one HTMX submit at ply {args.plies}+, {len(figures['modules'])} submits")
    if args.cpu:
        print(
            f"  cpu ms    median {statistics.median(cpu_ms):7.2f}  "
            f"mean {statistics.fmean(cpu_ms):7.2f}  total {sum(cpu_ms):8.1f}"
        )
        return
    for name, values in figures.items():
        print(
            f"  {name:<9} median {statistics.median(values):7.0f}  "
            f"mean {statistics.fmean(values):7.1f}  "
            f"min {min(values):6d}  max {max(values):6d}"
        )
    if args.modules:
        for module, count in sorted(walk.modules.items()):
            print(f"    {count:6d}  {module}")
            if args.functions:
                entered = [(f, c) for (m, f), c in walk.functions.items() if m == module]
                print("            " + ", ".join(f"{f} {c}" for f, c in sorted(entered)))
    for (caller, callee), count in pairs.most_common(args.pairs):
        print(f"    {count:6d}  {caller} -> {callee}")


if __name__ == "__main__":
    main()
