"""League pages (issue 30): the list, the creation form, a league's page, joining a season."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games.core.errors import GameError
from games.tournaments import league_values, leagues
from games.web.forms_leagues import LeagueForm


@require_GET
def leagues_page(request: HttpRequest) -> HttpResponse:
    """``/leagues/``: every league, its newest season and how many have joined it."""
    return render(request, "games/leagues.html", {"leagues": league_values.leagues_list()})


@require_http_methods(["GET", "POST"])
@login_required
def league_create(request: HttpRequest) -> HttpResponse:
    """Show the form; on POST create the league or show what to fix (nothing saved)."""
    form = LeagueForm(request.POST or None)
    if request.method == "POST":
        if form.is_valid():
            try:
                league = leagues.league_create(
                    creator=request.user,
                    settings=leagues.LeagueSettings(**form.settings_kwargs()),
                )
            except GameError as exc:
                form.add_error(None, str(exc))
            else:
                return redirect("games:league", league.pk)
        return render(request, "games/league_create.html", {"form": form}, status=400)
    return render(request, "games/league_create.html", {"form": form})


@require_GET
def league_page(request: HttpRequest, league_id: int) -> HttpResponse:
    """A league's page: its settings, the season open to join, a season's divisions.

    ``?season=N`` shows season N (one that has started); anything else is a 404.
    """
    raw = request.GET.get("season")
    number = int(raw) if raw and raw.isdigit() and len(raw) < 6 else None
    if raw and number is None:
        raise Http404(_("There is no such season."))
    detail = league_values.league_detail(league_id, request.user, number)
    if detail is None:
        raise Http404(_("There is no such league."))
    return render(request, "games/league.html", {"league": detail})


def _act(request: HttpRequest, league_id: int, done: str, action) -> HttpResponse:  # type: ignore[no-untyped-def]
    try:
        action()
    except GameError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, done)
    return redirect("games:league", league_id)


@require_POST
@login_required
def league_join(request: HttpRequest, league_id: int) -> HttpResponse:
    """Opt the signed-in player in for the season that opens next."""
    return _act(
        request,
        league_id,
        _("You have joined the next season."),
        lambda: leagues.league_opt_in(league_id=league_id, user=request.user),
    )


@require_POST
@login_required
def league_leave(request: HttpRequest, league_id: int) -> HttpResponse:
    """Take the signed-in player out of the season that opens next."""
    return _act(
        request,
        league_id,
        _("You have left the next season."),
        lambda: leagues.league_opt_out(league_id=league_id, user=request.user),
    )
