"""Simulated tournaments run to the end by time travel with scripted players (issue 30).

Run from the repository root: ``python bench/tournament_sim.py`` (SQLite in a temporary
file) or ``scripts/with-postgres.sh python bench/tournament_sim.py``. Options:
``--events swiss8-2,rr7`` (default: every event below), ``--plies N`` random plies each
scripted player's table plays per round before the clock runs out (default 10), ``--seed``.

Events (the issue's "Done when"):
- ``swiss8-2``, ``swiss33-2``, ``swiss100-2``: Swiss at tables of 2 (odd counts: byes);
- ``swiss8-4``, ``swiss33-4``, ``swiss100-4``: Swiss at tables of 4, smallest 3;
- ``rr7``: a round robin of 7 at tables of 2 (Berger: 7 rounds, one bye each);
- ``league``: two seasons of a league at tables of 2, divisions aiming at 5, one player
  up and one down: 14 players in season 1 (placed by rating), then 13 of them and two
  newcomers in season 2 (placed by season 1's result, newcomers at the bottom).
Each Swiss event has one player in ten (at least one) withdraw after round 1.

Each round: the scripted players play ``--plies`` random legal actions at each table
through the submit service, then time jumps past the event's maximum game duration and
the tournaments' sweep ends every game as the position stands (``engine.final_ranking``,
RULES.md §13.2) — which, through the game's end, starts the next round exactly once.
Prints each event's standings (top 10 and the last), its rounds, byes and withdrawals,
and the seconds it took (with the load: ``os.getloadavg``).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

EVENTS: dict[str, dict[str, Any]] = {
    "swiss8-2": {"players": 8, "table_size": 2, "min_table_size": 2, "rounds": 3},
    "swiss33-2": {"players": 33, "table_size": 2, "min_table_size": 2, "rounds": 5},
    "swiss100-2": {"players": 100, "table_size": 2, "min_table_size": 2, "rounds": 7},
    "swiss8-4": {"players": 8, "table_size": 4, "min_table_size": 3, "rounds": 3},
    "swiss33-4": {"players": 33, "table_size": 4, "min_table_size": 4, "rounds": 5},
    "swiss100-4": {"players": 100, "table_size": 4, "min_table_size": 3, "rounds": 6},
    "rr7": {"players": 7, "table_size": 2, "min_table_size": 2, "kind": "round_robin"},
    "league": {"players": 14, "league": True},
}


def setup_django() -> None:
    """Configure Django on a throw-away SQLite file unless ``DATABASE_URL`` is set."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tigris_site.settings")
    os.environ.setdefault("SECRET_KEY", "bench-" + "k" * 40)
    os.environ["CELERY_TASK_ALWAYS_EAGER"] = "1"
    os.environ["LOG_LEVEL"] = "ERROR"
    if "DATABASE_URL" not in os.environ:
        folder = tempfile.mkdtemp(prefix="tournament-sim-")
        os.environ["DATABASE_URL"] = f"sqlite:///{folder}/bench.sqlite3"
    import django
    from django.core.management import call_command

    django.setup()
    from django.conf import settings

    # the emails are composed (their cost counts) but go nowhere
    settings.MAILERS = {"default": {"BACKEND": "django.core.mail.backends.dummy.EmailBackend"}}
    call_command("migrate", verbosity=0)


def play_plies(games: Any, plies: int, rng: random.Random) -> int:
    """Play up to ``plies`` random legal actions at each game through the submit service."""
    import engine
    from games.core.states import game_state
    from games.models import Game
    from games.play import submit

    total = 0
    for game in games:
        seats = {s.position: s.user for s in game.seats.all()}
        for _ply in range(plies):
            game.refresh_from_db()
            if game.status != Game.Status.ACTIVE:
                break
            state = game_state(game)
            action = rng.choice(engine.legal_actions(state))
            submit.game_submit_action(
                game_id=game.pk,
                user=seats[state.to_act],
                action=str(action),
                expected_version=game.version,
            )
            total += 1
    return total


def run_league(name: str, spec: dict[str, Any], plies: int, rng: random.Random) -> None:
    """Run two seasons of a league by time travel; print each season's divisions."""
    import time_machine
    from django.contrib.auth import get_user_model

    from games.models import Game, LeagueSeason, Profile
    from games.tournaments import leagues, sweeps
    from games.tournaments.league_values import league_detail

    users = get_user_model()
    creator = users.objects.create(username=f"{name}-host")
    league = leagues.league_create(
        creator=creator,
        settings=leagues.LeagueSettings(
            name=name, division_size=5, promote=1, season_weeks=4, is_rated=False
        ),
    )
    count = spec["players"]
    people = []
    for i in range(count):
        person = users.objects.create(username=f"{name}-p{i:02}")
        # displayed rating 1500 + 40·(μ − 3σ), σ = 1: spread 1100..1900
        rating = rng.randint(1100, 1900)
        Profile.objects.create(user=person, rating_mu=3 + (rating - 1500) / 40, rating_sigma=1)
        people.append(person)
    started = time.perf_counter()
    total_plies = 0
    season_players = {
        1: people,
        2: [*people[1:], *(users.objects.create(username=f"{name}-new{i}") for i in range(2))],
    }
    for number in (1, 2):
        season = LeagueSeason.objects.get(league=league, number=number)
        for person in season_players[number]:
            leagues.league_opt_in(league_id=league.pk, user=person)
        now = season.starts_at + timedelta(minutes=1)
        with time_machine.travel(now, tick=False):
            sweeps.tournaments_sweep()
        season.refresh_from_db()
        while season.status == LeagueSeason.Status.RUNNING:
            games = Game.objects.filter(
                tournament_table__round__tournament__league_division__season=season,
                status=Game.Status.ACTIVE,
            )
            total_plies += play_plies(list(games), plies, rng)
            step = min(
                d.tournament.max_game_days for d in season.divisions.select_related("tournament")
            )
            now += timedelta(days=step, hours=1)
            with time_machine.travel(now, tick=False):
                sweeps.tournaments_sweep()
            season.refresh_from_db()
        detail = league_detail(league.pk, creator, number)
        assert detail is not None and detail.season is not None
        print(
            f"\n== {name}, season {number}: {len(season_players[number])} players, "
            f"{len(detail.season.divisions)} divisions, {season.status}"
        )
        for division in detail.season.divisions:
            print(
                f"-- division {division.number}: round {division.current_round}/"
                f"{division.rounds}{' (finished)' if division.finished else ''}"
            )
            print(f"{'#':>3} {'player':<16} {'pts':>4} {'buch':>5} {'game':>5} {'gp':>3}  move")
            for line in division.standings:
                print(
                    f"{line.place:>3} {line.person.display_name:<16} {line.points:>4} "
                    f"{line.buchholz:>5} {line.game_points:>5} {line.played:>3}  {line.move}"
                )
    seconds = time.perf_counter() - started
    print(f"\n{name}: two seasons, {total_plies} plies; {seconds:.1f} s")


def run_event(name: str, spec: dict[str, Any], plies: int, rng: random.Random) -> None:
    """Create, fill and play one event to its end; print its standings."""
    if spec.get("league"):
        run_league(name, spec, plies, rng)
        return
    import time_machine
    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from games.models import Game, Tournament, TournamentEntry, TournamentPlayer
    from games.tournaments import rounds, services, sweeps
    from games.tournaments.values import tournament_detail

    users = get_user_model()
    spec = dict(spec)
    count = spec.pop("players")
    creator = users.objects.create(username=f"{name}-host")
    tournament = services.tournament_create(
        creator=creator,
        settings=services.TournamentSettings(
            name=name, max_players=count, is_rated=False, bye_points=1, **spec
        ),
    )
    people = [users.objects.create(username=f"{name}-p{i}") for i in range(count)]
    for person in people:
        services.tournament_register(tournament_id=tournament.pk, user=person)
    started = time.perf_counter()
    services.tournament_start(tournament_id=tournament.pk, user=creator)
    quitters = set()
    if spec.get("kind") != "round_robin":
        quitters = set(rng.sample(people, max(1, count // 10)))
    now = timezone.now()
    total_plies = 0
    while True:
        tournament.refresh_from_db()
        if tournament.status != Tournament.Status.RUNNING:
            break
        games = Game.objects.filter(
            tournament_table__round__tournament=tournament, status=Game.Status.ACTIVE
        )
        total_plies += play_plies(games, plies, rng)
        if tournament.current_round == 1 and quitters:
            for quitter in quitters:
                services.tournament_leave(tournament_id=tournament.pk, user=quitter)
            quitters = set()
        now += timedelta(days=tournament.max_game_days, hours=1)
        with time_machine.travel(now, tick=False):
            sweeps.tournaments_sweep()
    seconds = time.perf_counter() - started
    detail = tournament_detail(tournament.pk, creator)
    assert detail is not None
    byes = TournamentEntry.objects.filter(
        table__round__tournament=tournament, table__game__isnull=True
    ).count()
    withdrawn = TournamentPlayer.objects.filter(
        tournament=tournament, withdrawn_at__isnull=False
    ).count()
    games_played = Game.objects.filter(tournament_table__round__tournament=tournament).count()
    print(
        f"\n== {name}: {count} players, tables of {tournament.table_size} "
        f"(smallest {tournament.min_table_size}), {tournament.current_round}/{tournament.rounds} "
        f"rounds, {games_played} games, {total_plies} plies, {byes} byes, {withdrawn} withdrawn, "
        f"{tournament.status}; {seconds:.1f} s"
    )
    print(f"{'rank':>4} {'player':<16} {'pts':>4} {'buch':>5} {'game':>5} {'gp':>3} {'bye':>3}")
    lines = detail.standings
    shown = list(lines[:10]) + ([lines[-1]] if len(lines) > 10 else [])
    for line in shown:
        mark = " (withdrawn)" if line.withdrawn else ""
        print(
            f"{line.rank:>4} {line.person.display_name:<16} {line.points:>4} {line.buchholz:>5} "
            f"{line.game_points:>5} {line.played:>3} {line.byes:>3}{mark}"
        )
    rematches = _rematches(tournament.pk, rounds)
    print(f"rematches: {rematches}")


def _rematches(tournament_id: int, rounds: Any) -> int:
    from itertools import combinations

    from games.models import TournamentEntry

    tables: dict[int, list[int]] = {}
    for table_id, player_id in TournamentEntry.objects.filter(
        table__round__tournament_id=tournament_id, table__game__isnull=False
    ).values_list("table_id", "player_id"):
        tables.setdefault(table_id, []).append(player_id)
    seen: set[frozenset[int]] = set()
    repeats = 0
    for players in tables.values():
        for pair in combinations(sorted(players), 2):
            key = frozenset(pair)
            repeats += key in seen
            seen.add(key)
    return repeats


def main() -> None:
    """Parse the options, set Django up and run each event."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--events", default=",".join(EVENTS))
    parser.add_argument("--plies", type=int, default=10)
    parser.add_argument("--seed", type=int, default=30)
    args = parser.parse_args()
    setup_django()
    rng = random.Random(args.seed)
    print(f"load average: {os.getloadavg()}")
    for name in args.events.split(","):
        run_event(name, EVENTS[name], args.plies, rng)
    print(f"\nload average: {os.getloadavg()}")


if __name__ == "__main__":
    main()
