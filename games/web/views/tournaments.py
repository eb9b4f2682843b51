"""Tournament pages (issue 30): the list, the creation form, an event's page and its buttons."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games.models import Game, Tournament
from games.records.export import record_for
from games.tournaments import services, values
from games.web.forms_tournaments import TournamentForm
from games.web.views.events import event_act, event_create_page


@require_GET
def tournaments_page(request: HttpRequest) -> HttpResponse:
    """``/tournaments/``: upcoming, running and finished events the visitor may see."""
    found = values.tournaments_list(request.user)
    groups = [
        (_("Upcoming"), [t for t in found if t.status == Tournament.Status.REGISTRATION]),
        (_("Running"), [t for t in found if t.status == Tournament.Status.RUNNING]),
        (_("Finished"), [t for t in found if t.status == Tournament.Status.FINISHED]),
    ]
    return render(request, "games/tournaments.html", {"groups": groups})


@require_http_methods(["GET", "POST"])
@login_required
def tournament_create(request: HttpRequest) -> HttpResponse:
    """Show the form; on POST create the tournament or show what to fix (nothing saved)."""
    return event_create_page(
        request,
        form_class=TournamentForm,
        create=lambda user, kwargs: services.tournament_create(
            creator=user, settings=services.TournamentSettings(**kwargs)
        ),
        page="games:tournament",
        kind="tournament",
    )


@require_GET
def tournament_page(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """An event's page: settings, registration, standings, rounds and their games.

    An invitation-only event the viewer is not invited to: its header and "by invitation
    only" (status 403, ``values.tournament_outside``); any other unseen event: 404.
    """
    token = request.GET.get("token") or None
    detail = values.tournament_detail(tournament_id, request.user, token)
    if detail is None:
        # an invitation-only event shows outsiders its header and says so (403)
        detail = values.tournament_outside(tournament_id)
        if detail is None:
            raise Http404(_("There is no such tournament."))
        return render(request, "games/tournament.html", {"t": detail, "token": ""}, status=403)
    return render(request, "games/tournament.html", {"t": detail, "token": token or ""})


def _act(request: HttpRequest, tournament_id: int, done: str, action) -> HttpResponse:  # type: ignore[no-untyped-def]
    return event_act(request, "games:tournament", tournament_id, done, action)


@require_POST
@login_required
def tournament_register(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """Register the signed-in player (``token`` for a link-only event)."""
    token = request.POST.get("token") or None
    return _act(
        request,
        tournament_id,
        _("You are registered."),
        lambda: services.tournament_register(
            tournament_id=tournament_id, user=request.user, invite_token=token
        ),
    )


@require_POST
@login_required
def tournament_leave(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """Unregister before the start, or withdraw (your games are resigned)."""
    return _act(
        request,
        tournament_id,
        _("You left the tournament."),
        lambda: services.tournament_leave(tournament_id=tournament_id, user=request.user),
    )


@require_POST
@login_required
def tournament_start(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """Start the event now (its creator): round 1's games are created."""
    return _act(
        request,
        tournament_id,
        _("The tournament has started."),
        lambda: services.tournament_start(tournament_id=tournament_id, user=request.user),
    )


@require_GET
def tournament_record(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The event as one record: its settings, standings, rounds and its finished games.

    Each game is its record (docs/record-format.md, ``record_for``); a game still in
    progress is listed in its round but has no record here, so nothing of it leaks.
    """
    token = request.GET.get("token") or None
    detail = values.tournament_detail(tournament_id, request.user, token)
    if detail is None:
        raise Http404(_("There is no such tournament."))
    finished = [
        t.game_id
        for r in reversed(detail.rounds)
        for t in r.tables
        if t.game_id is not None and t.finished
    ]
    ended = set(
        Game.objects.filter(pk__in=finished, status=Game.Status.FINISHED).values_list(
            "pk", flat=True
        )
    )
    h = detail.header
    data = {
        "tournament": {
            "id": h.id,
            "name": h.name,
            "kind": h.kind,
            "status": h.status,
            "table_size": h.table_size,
            "min_table_size": h.min_table_size,
            "rounds": h.rounds,
            "points_by_rank": list(h.points_by_rank),
            "bye_points": h.bye_points,
            "days_per_move": h.days_per_move,
            "bank_days": h.bank_days,
            "bank_increment_hours": h.bank_increment_hours,
            "bank_cap_days": h.bank_cap_days,
            "max_game_days": h.max_game_days,
        },
        "standings": [
            {
                "rank": line.rank,
                "player": line.person.display_name,
                "points": line.points,
                "buchholz": line.buchholz,
                "game_points": line.game_points,
                "withdrawn": line.withdrawn,
            }
            for line in detail.standings
        ],
        "rounds": [
            {
                "number": r.number,
                "tables": [
                    {
                        "game": t.game_id,
                        "players": [s.person.display_name for s in t.seats],
                        "places": [s.place for s in t.seats],
                    }
                    for t in r.tables
                ],
            }
            for r in reversed(detail.rounds)
        ],
        "games": [record_for(game_id, request.user) for game_id in finished if game_id in ended],
    }
    response = JsonResponse(data, json_dumps_params={"indent": 1})
    response["Content-Disposition"] = f'inline; filename="tournament-{tournament_id}.json"'
    return response
