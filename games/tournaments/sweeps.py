"""The tournaments' and leagues' sweep (issue 30), run every minute by beat (``games.tasks``)."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from games.models import Game, Tournament, TournamentTable
from games.play import limits
from games.tournaments import leagues, rounds, services


def tournaments_sweep() -> dict[str, int]:
    """Start events whose time came, end games past their limit, advance stuck rounds.

    Then the leagues' seasons (``leagues.leagues_sweep``). Returns counts ``{"started",
    "ended", "advanced", "seasons_started", "seasons_ended"}``. Each step locks and
    re-checks, so running it twice does nothing twice.
    """
    now = timezone.now()
    counts = {"started": 0, "ended": 0, "advanced": 0}
    due = Tournament.objects.filter(status=Tournament.Status.REGISTRATION, starts_at__lte=now)
    for tournament_id in due.values_list("pk", flat=True):
        counts["started"] += services.tournament_start_due(tournament_id=tournament_id)
    running = Tournament.objects.filter(status=Tournament.Status.RUNNING)
    for tournament in running:
        limit = now - timedelta(days=tournament.max_game_days)
        overdue = Game.objects.filter(
            tournament_table__round__tournament=tournament,
            status=Game.Status.ACTIVE,
            started_at__lte=limit,
        ).values_list("pk", flat=True)
        for game_id in list(overdue):
            counts["ended"] += limits.game_end_at_limit(game_id=game_id)
        done = not TournamentTable.objects.filter(
            round__tournament=tournament,
            round__number=tournament.current_round,
            finished_at__isnull=True,
            game__status__in=(Game.Status.ACTIVE, Game.Status.OPEN),
        ).exists()
        if done:
            result = rounds.tournament_advance(tournament_id=tournament.pk)
            counts["advanced"] += result.startswith(("round", "finished"))
    counts.update(leagues.leagues_sweep())
    return counts
