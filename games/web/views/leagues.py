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
from games.web import forms_events
from games.web.forms_leagues import LeagueForm, NextSeasonForm
from games.web.views.events import event_act, event_create_page


@require_GET
def leagues_page(request: HttpRequest) -> HttpResponse:
    """``/leagues/``: every league, its newest season and how many have joined it."""
    return render(
        request, "games/leagues.html", {"leagues": league_values.leagues_list(request.user)}
    )


@require_http_methods(["GET", "POST"])
@login_required
def league_create(request: HttpRequest) -> HttpResponse:
    """Show the form; on POST create the league or show what to fix (nothing saved)."""
    return event_create_page(
        request,
        form_class=LeagueForm,
        create=lambda user, kwargs: leagues.league_create(
            creator=user, settings=leagues.LeagueSettings(**kwargs)
        ),
        page="games:league",
        kind="league",
    )


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
    return event_act(request, "games:league", league_id, done, action)


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


@require_http_methods(["GET", "POST"])
@login_required
def league_manage(request: HttpRequest, league_id: int) -> HttpResponse:
    """The creator's page: joining open or closed, removing a player, the next season's
    settings (POST: the settings; refused with the message, nothing changed)."""
    detail = league_values.league_detail(league_id, request.user)
    if detail is None or not detail.can_manage:
        raise Http404(_("There is no such league."))
    h = detail.header
    initial = {
        "division_size": h.division_size,
        "promote": h.promote,
        "season_weeks": h.season_weeks,
        "opt_in_days": h.opt_in_days,
        **forms_events.clock_initial(h),
        "bots_fill_seats": h.bots_fill_seats,
        # names as the site shows them, a comma between (a display name may hold spaces)
        "invited": ", ".join(p.display_name for p in detail.invited),
    }
    form = NextSeasonForm(request.POST or None, initial=initial, invite_only=h.access == "invite")
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                leagues.league_update(
                    league_id=league_id,
                    user=request.user,
                    settings=leagues.NextSeasonSettings(**form.settings_kwargs()),
                )
            except GameError as exc:
                form.add_error(None, str(exc))
            else:
                messages.success(request, _("The next season's settings are saved."))
                return redirect("games:league_manage", league_id)
        status = 400
    return render(
        request, "games/league_manage.html", {"league": detail, "form": form}, status=status
    )


@require_POST
@login_required
def league_registration(request: HttpRequest, league_id: int) -> HttpResponse:
    """Open (``open=1``) or close joining the season that opens next (the creator)."""
    is_open = request.POST.get("open") == "1"
    return event_act(
        request,
        "games:league_manage",
        league_id,
        _("Joining is open.") if is_open else _("Joining is closed."),
        lambda: leagues.league_registration_set(
            league_id=league_id, user=request.user, is_open=is_open
        ),
    )


@require_POST
@login_required
def league_remove(request: HttpRequest, league_id: int) -> HttpResponse:
    """Take the player ``username`` out of the league (the creator)."""
    name = (request.POST.get("username") or "")[:150]
    return event_act(
        request,
        "games:league_manage",
        league_id,
        _("%(name)s is out of the league.") % {"name": name},
        lambda: leagues.league_member_remove(league_id=league_id, user=request.user, username=name),
    )
