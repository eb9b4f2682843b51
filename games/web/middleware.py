"""Speak to a logged-in player in the language of their account, whatever their browser says.

Django's ``LocaleMiddleware`` picks the language from the ``django_language`` cookie (set by the
language switcher), then ``Accept-Language``. For a logged-in player the account's preference
(``Profile.language``) must win, on every device. ``ProfileLanguageMiddleware`` runs after
``AuthenticationMiddleware`` and activates that preference.

The preference is read from the session, where ``remember_language`` puts it at login, when
the switcher is used and when the settings page is saved; so an ordinary request (the game's
5-second poll included) costs no extra query. A session from before this middleware existed
is filled in from the profile once.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse
from django.utils import translation

from games.accounts import profiles
from games.models import Profile

SESSION_KEY = "profile_language"


def supported(language: str | None) -> bool:
    """Return whether ``language`` is one of ``settings.LANGUAGES`` (``"en"``, ``"zh-hans"``)."""
    return bool(language) and language in dict(settings.LANGUAGES)


def remember_language(request: HttpRequest, language: str) -> None:
    """Store the player's account language in their session and use it for this request."""
    if not supported(language):
        return
    request.session[SESSION_KEY] = language
    translation.activate(language)
    request.LANGUAGE_CODE = language


@receiver(user_logged_in, dispatch_uid="games.language_at_login")
def language_at_login(sender: Any, *, request: Any, user: Any, **kwargs: Any) -> None:
    """Speak the account's language from the first page after logging in (Django's signal;
    connected when ``GamesConfig.ready`` imports this module)."""
    if request is not None and hasattr(request, "session"):
        remember_language(request, profiles.profile_get(user).language)


class ProfileLanguageMiddleware:
    """Activate a logged-in player's ``Profile.language`` (after ``LocaleMiddleware``)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        """Wrap ``get_response``."""
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        """Activate the account's language, if the request has a logged-in user."""
        language: Any = request.session.get(SESSION_KEY)
        if language is None and request.user.is_authenticated:
            language = (
                Profile.objects.filter(user_id=request.user.pk)
                .values_list("language", flat=True)
                .first()
            )
            if language:
                request.session[SESSION_KEY] = language
        if supported(language):
            translation.activate(language)
            request.LANGUAGE_CODE = language
        return self.get_response(request)
