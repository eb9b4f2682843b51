"""Start and end a vacation from the settings page (issue 6, ``games/accounts/vacations.py``)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games.accounts import vacations
from games.selectors.people import vacation_current
from games.web.forms import VacationForm


@require_POST
@login_required
def vacation_start(request: HttpRequest) -> HttpResponse:
    """Start a vacation of ``days`` (form field) now; back to the settings page."""
    form = VacationForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose how many days of vacation to take."))
        return redirect("games:settings")
    user_id = request.user.pk
    assert user_id is not None  # login_required
    try:
        vacations.vacation_start(user_id=user_id, days=form.cleaned_data["days"])
    except vacations.VacationRefused as exc:
        messages.error(request, str(exc))
        return redirect("games:settings")
    messages.success(request, _("Enjoy your vacation: your deadlines are paused."))
    return redirect("games:settings")


@require_POST
@login_required
def vacation_end(request: HttpRequest) -> HttpResponse:
    """End the running vacation now: the paused deadlines resume with the time they had."""
    current = vacation_current(user_id=request.user.pk)
    if current is not None:
        vacations.vacation_end(vacation_id=current.pk)
        messages.success(request, _("Welcome back: your deadlines are running again."))
    return redirect("games:settings")
