"""Pages of accounts: profile, settings, leaderboard, and the one-click unsubscribe."""

from __future__ import annotations

from typing import Any

from allauth.account import app_settings as allauth_settings
from allauth.account.views import ConfirmEmailVerificationCodeView
from allauth.account.views import email_verification_sent as allauth_email_verification_sent
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_not_required, login_required
from django.core import signing
from django.db import IntegrityError
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_http_methods

from games.accounts import profiles
from games.mail.sending import language_of, unsubscribe_read
from games.models import Delivery, NotificationKind
from games.play import ratings
from games.play.botstrength import bot_strength
from games.selectors import community
from games.selectors.people import person_of
from games.selectors.profiles import (
    BadCursor,
    leaders_page,
    player_record,
    record_against_bots,
)
from games.text.seats import BOT_TIER_NAME
from games.tournaments import values as tournament_values
from games.web.forms import keyset_after
from games.web.forms_accounts import NAME_TAKEN, SettingsForm
from games.web.middleware import remember_language


@csrf_exempt  # RFC 8058: mail providers POST without a session; the signed token is the proof
@require_http_methods(["GET", "POST"])
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    """GET: confirm turning off one kind of email; POST: turn it off (RFC 8058 one-click).

    The page is in the recipient's language (their profile's, as their emails). A forged
    or malformed token answers 400 and changes nothing.
    """
    try:
        user_id, kind = unsubscribe_read(token)
    except signing.BadSignature:
        return HttpResponseBadRequest(_("This unsubscribe link is not valid."))
    user = get_object_or_404(get_user_model(), pk=user_id)
    if request.method == "POST":
        profiles.preference_set(user_id=user.pk, kind=kind, delivery=Delivery.OFF)
    # the page speaks the recipient's language, as the email did (the link is theirs; the
    # browser opening it may be set to another language or none)
    language = language_of(user)
    with translation.override(language):
        context = {"done": request.method == "POST", "kind_label": NotificationKind(kind).label}
        response = render(request, "accounts/unsubscribe.html", context)
    response.headers["Content-Language"] = language
    return response


@login_required
@require_http_methods(["GET", "POST"])
def settings_page(request: HttpRequest) -> HttpResponse:
    """The settings page: display name, language, time zone, notification preferences."""
    if request.method == "POST":
        form = SettingsForm(request.POST, user_id=request.user.pk)
        if form.is_valid():
            try:
                profiles.profile_update(
                    user=request.user,
                    display_name=form.cleaned_data["display_name"],
                    language=form.cleaned_data["language"],
                    time_zone=form.cleaned_data["time_zone"],
                    preferences=form.preferences(),
                    confirm_actions=form.cleaned_data["confirm_actions"],
                    chat_in_email=form.cleaned_data["chat_in_email"],
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
        form = SettingsForm(initial=SettingsForm.initial_for(request.user), user_id=request.user.pk)
    return render(request, "accounts/settings.html", {"form": form})


@require_GET
def profile_page(request: HttpRequest, user_id: int) -> HttpResponse:
    """A player's profile: rating ± uncertainty and its chart (one dot per rated game), games
    by player count, wins and places, average place and lowest colour, reliability, recent
    and current games; follow and mute buttons (issue 18). A person's record against each
    bot tier; a bot's calibrated strength (issue 26)."""
    user = get_object_or_404(get_user_model(), pk=user_id)
    profile = profiles.profile_get(user)
    # A page of the games in progress (issue 31): after the previous page's last game.
    after, valid = keyset_after(request.GET.get("current_after"))
    if not valid:
        messages.error(request, _("That page of games in progress does not exist."))
    record = player_record(user.pk, request.user, current_after=after)
    strength = bot_strength() if profile.is_bot else None
    context = {
        "player": person_of(user, profile),  # a value: a row would reach every game's seed
        "rating": ratings.display_rating(profile.rating_mu, profile.rating_sigma),
        "uncertainty": ratings.display_uncertainty(profile.rating_sigma),
        "provisional": ratings.is_provisional(profile),
        "record": record,
        "rated_points": record.rated,
        "is_me": request.user.is_authenticated and request.user.pk == user.pk,
        "following": community.is_following(request.user, followed_id=user.pk),
        "muting": community.is_muting(request.user, muted_id=user.pk),
        "events": tournament_values.player_events(user.pk, request.user),
        "bot_record": [] if profile.is_bot else record_against_bots(user.pk, request.user),
        "bot_strength": strength,
        "tier_strength": strength.of(profile.bot_tier) if strength is not None else None,
        "tier_name": BOT_TIER_NAME.get(profile.bot_tier, ""),
        "current_after": after,
    }
    return render(request, "accounts/profile.html", context, status=200 if valid else 400)


@require_GET
def leaderboard(request: HttpRequest) -> HttpResponse:
    """Non-provisional people (never bots) active in the last 180 days, best rating first.

    One page of ``LEADERBOARD_PAGE`` players at a time, in keyset pages (issue 31): ``?after=``
    is the previous page's signed cursor; a cursor the site did not write answers 400 with
    the first page and a message.
    """
    status = 200
    try:
        page = leaders_page(cursor=request.GET.get("after") or None)
    except BadCursor:
        messages.error(request, _("That page of the leaderboard does not exist; here is the top."))
        page, status = leaders_page(), 400
    rows = [
        {
            "rank": leader.rank,
            "user_id": leader.user_id,
            "name": leader.name,
            "rating": ratings.display_rating(leader.rating_mu, leader.rating_sigma),
            "uncertainty": ratings.display_uncertainty(leader.rating_sigma),
            "rated_games": leader.rated_games,
        }
        for leader in page.rows
    ]
    context = {"rows": rows, "next_cursor": page.next_cursor, "first_page": "after" in request.GET}
    return render(request, "accounts/leaderboard.html", context, status=status)


class EmailCodeFromLinkView(ConfirmEmailVerificationCodeView):  # type: ignore[misc]  # allauth has no types
    """allauth's page to enter the emailed code, with the code filled in from ``?code=``.

    The confirmation email holds a link to this page (issue 32): opened in the browser
    that signed up, the code is in its field and one press confirms. A GET never confirms
    (the code is checked by allauth's form on the POST, against the session's pending
    verification); a wrong or stale code in the link is refused there with allauth's
    message, and nothing changes.
    """

    def get_initial(self) -> dict[str, Any]:
        """Return the form's initial values: ``{"code": "<the link's code>"}`` on a GET."""
        initial = dict(super().get_initial())
        if self.request.method == "GET" and self.request.GET.get("code"):
            initial["code"] = self.request.GET["code"][:64]
        return initial


@login_not_required
def email_verification_sent(request: HttpRequest) -> HttpResponse:
    """``/accounts/confirm-email/``: the code's page (its code from the link) or allauth's own."""
    if allauth_settings.EMAIL_VERIFICATION_BY_CODE_ENABLED:
        return EmailCodeFromLinkView.as_view()(request)  # type: ignore[no-any-return]
    return allauth_email_verification_sent(request)  # type: ignore[no-any-return]
