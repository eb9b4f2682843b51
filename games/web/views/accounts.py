"""Pages of accounts: profile, settings, leaderboard, and the one-click unsubscribe."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core import signing
from django.db import IntegrityError
from django.db.models import Q
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_http_methods

from games.accounts import profiles
from games.mail.sending import unsubscribe_read
from games.models import Delivery, Game, NotificationKind, Profile, Seat
from games.play import ratings
from games.web.forms_accounts import NAME_TAKEN, SettingsForm
from games.web.middleware import remember_language

LEADERBOARD_ACTIVE_DAYS = 180


@csrf_exempt  # RFC 8058: mail providers POST without a session; the signed token is the proof
@require_http_methods(["GET", "POST"])
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    """GET: confirm turning off one kind of email; POST: turn it off (RFC 8058 one-click).

    A forged or malformed token answers 400 and changes nothing.
    """
    try:
        user_id, kind = unsubscribe_read(token)
    except signing.BadSignature:
        return HttpResponseBadRequest(_("This unsubscribe link is not valid."))
    user = get_object_or_404(get_user_model(), pk=user_id)
    kind_label = NotificationKind(kind).label
    if request.method == "POST":
        profiles.preference_set(user_id=user.pk, kind=kind, delivery=Delivery.OFF)
        return render(
            request, "accounts/unsubscribe.html", {"done": True, "kind_label": kind_label}
        )
    return render(request, "accounts/unsubscribe.html", {"done": False, "kind_label": kind_label})


@login_required
@require_http_methods(["GET", "POST"])
def settings_page(request: HttpRequest) -> HttpResponse:
    """The settings page: display name, language, time zone, notification preferences."""
    if request.method == "POST":
        form = SettingsForm(request.POST, user=request.user)
        if form.is_valid():
            try:
                profiles.profile_update(
                    user=request.user,
                    display_name=form.cleaned_data["display_name"],
                    language=form.cleaned_data["language"],
                    time_zone=form.cleaned_data["time_zone"],
                    preferences=form.preferences(),
                    confirm_actions=form.cleaned_data["confirm_actions"],
                    quiet_start=form.cleaned_data.get("quiet_start"),
                    quiet_end=form.cleaned_data.get("quiet_end"),
                )
            except IntegrityError:  # a look-alike saved since the form's check: nothing saved
                form.add_error("display_name", NAME_TAKEN)
                return render(request, "accounts/settings.html", {"form": form})
            remember_language(request, form.cleaned_data["language"])
            messages.success(request, _("Your settings are saved."))
            return redirect("games:settings")
    else:
        form = SettingsForm(initial=SettingsForm.initial_for(request.user), user=request.user)
    return render(request, "accounts/settings.html", {"form": form})


def _rating_points(history: list[Seat]) -> list[float]:
    """Return the ratings to chart: the one before the first rated game, then after each.

    Starting before the first game makes a single game draw a line, not a lone point.
    """
    points = [s.rating_after for s in history if s.rating_after is not None]
    if history and history[0].rating_before is not None:
        points.insert(0, history[0].rating_before)
    return points


def rating_chart(points: list[float], *, width: int = 300, height: int = 80) -> dict[str, Any]:
    """Return the inline SVG polyline of a rating history: ``{"points", "width", "height"}``."""
    if not points:
        return {"points": "", "width": width, "height": height}
    low, high = min(points), max(points)
    span = (high - low) or 1.0
    step = width / max(len(points) - 1, 1)
    coords = [
        f"{i * step:.1f},{height - 4 - (p - low) / span * (height - 8):.1f}"
        for i, p in enumerate(points)
    ]
    return {"points": " ".join(coords), "width": width, "height": height, "low": low, "high": high}


@require_GET
def profile_page(request: HttpRequest, user_id: int) -> HttpResponse:
    """A player's profile: rating ± uncertainty, history chart, games, wins and places."""
    user = get_object_or_404(get_user_model(), pk=user_id)
    profile = profiles.profile_get(user)
    # A private game is listed only to its own players: to anyone else it is no game.
    visible = Q(game__is_public=True)
    if request.user.is_authenticated:
        visible |= Q(game_id__in=Seat.objects.filter(user_id=request.user.pk).values("game_id"))
    seats = list(
        Seat.objects.filter(user=user)
        .filter(visible)
        .select_related("game")
        .exclude(game__status__in=[Game.Status.ABORTED, Game.Status.EXPIRED])
        .order_by("-game__updated_at")
    )
    finished = [s for s in seats if s.game.status == Game.Status.FINISHED]
    running = [s for s in seats if s.game.status in (Game.Status.ACTIVE, Game.Status.OPEN)]
    history = sorted(
        (s for s in finished if s.rating_after is not None),
        key=lambda s: (s.game.finished_at or s.game.updated_at, s.game.pk),
    )
    places: dict[int, int] = {}
    for seat in finished:
        if seat.final_rank:
            places[seat.final_rank] = places.get(seat.final_rank, 0) + 1
    context = {
        "player": user,
        "profile": profile,
        "rating": ratings.display_rating(profile.rating_mu, profile.rating_sigma),
        "uncertainty": ratings.display_uncertainty(profile.rating_sigma),
        "provisional": ratings.is_provisional(profile),
        "chart": rating_chart(_rating_points(history)),
        "finished": finished,
        "running": running,
        "wins": places.get(1, 0),
        "places": sorted(places.items()),
    }
    return render(request, "accounts/profile.html", context)


@require_GET
def leaderboard(request: HttpRequest) -> HttpResponse:
    """Non-provisional people (never bots) active in the last 180 days, best rating first."""
    since = timezone.now() - timedelta(days=LEADERBOARD_ACTIVE_DAYS)
    profiles = Profile.objects.filter(
        rated_games__gte=ratings.PROVISIONAL_GAMES, last_active_at__gte=since, is_bot=False
    ).select_related("user")
    rated = sorted(
        ((ratings.display_rating(p.rating_mu, p.rating_sigma), p) for p in profiles),
        key=lambda pair: -pair[0],
    )
    rows = [
        {"profile": p, "rating": rating, "uncertainty": ratings.display_uncertainty(p.rating_sigma)}
        for rating, p in rated
    ]
    return render(request, "accounts/leaderboard.html", {"rows": rows})
