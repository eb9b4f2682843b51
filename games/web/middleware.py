"""Speak to a logged-in player in the language of their account, whatever their browser says.

Django's ``LocaleMiddleware`` picks the language from the ``django_language`` cookie (set by the
language switcher), then ``Accept-Language``. For a logged-in player the account's preference
(``Profile.language``) must win, on every device. ``ProfileLanguageMiddleware`` runs after
``AuthenticationMiddleware`` and activates that preference.

The preference is read from the cache (``profile-language:<user id>``), where
``remember_language`` puts it at login, when the switcher is used and when the settings
page is saved; a miss reads the profile once. The cache is shared by every process and
device (Redis in production), so a choice made on the phone holds on the desktop at its
next request (issue 32: a per-session copy kept the desktop in English while Settings
said 简体中文). An ordinary request (the game's 5-second poll) costs no extra query.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.contrib.auth.signals import user_logged_in
from django.core.cache import cache
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse
from django.utils import translation

from games.accounts import profiles
from games.models import Profile
from games.web.viewer import page_of

CACHE_SECONDS = 24 * 3600  # a miss costs one query; a change writes the cache at once


def _cache_key(user_id: Any) -> str:
    return f"profile-language:{user_id}"


def supported(language: str | None) -> bool:
    """Return whether ``language`` is one of ``settings.LANGUAGES`` (``"en"``, ``"zh-hans"``)."""
    return bool(language) and language in dict(settings.LANGUAGES)


def remember_language(request: HttpRequest, language: str, *, user: Any = None) -> None:
    """Note ``user``'s (default: the request's) account language for every device, and use
    it for this request."""
    if not supported(language):
        return
    user = user if user is not None else getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        cache.set(_cache_key(user.pk), language, CACHE_SECONDS)
    translation.activate(language)
    request.LANGUAGE_CODE = language


@receiver(user_logged_in, dispatch_uid="games.language_at_login")
def language_at_login(sender: Any, *, request: Any, user: Any, **kwargs: Any) -> None:
    """Speak the account's language from the first page after logging in (Django's signal;
    connected when ``GamesConfig.ready`` imports this module)."""
    if request is not None and hasattr(request, "session"):
        remember_language(request, profiles.profile_get(user).language, user=user)


class ProfileLanguageMiddleware:
    """Activate a logged-in player's ``Profile.language`` (after ``LocaleMiddleware``)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        """Wrap ``get_response``."""
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        """Activate the account's language, if the request has a logged-in user."""
        language: Any = None
        if request.user.is_authenticated:
            key = _cache_key(request.user.pk)
            language = cache.get(key)
            if language is None:
                language = (
                    Profile.objects.filter(user_id=request.user.pk)
                    .values_list("language", flat=True)
                    .first()
                ) or ""
                cache.set(key, language, CACHE_SECONDS)
        if supported(language):
            translation.activate(language)
            request.LANGUAGE_CODE = language
        return self.get_response(request)


class AllauthContextMiddleware:
    """Drop ``view`` from the context of allauth's pages (issue 27).

    A class-based view puts itself in its template's context, and ``view.request.user`` is
    the signed-in ``User`` row, from which a template reaches every game of theirs (a
    game's seed and snapshot). allauth's templates never read ``view``; the site's own
    views are functions. ``user`` and ``request`` are values there too
    (``games.web.viewer.page_values``).
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        """Wrap ``get_response``."""
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        """Answer the request unchanged (the work is in ``process_template_response``)."""
        return self.get_response(request)

    def process_template_response(self, request: HttpRequest, response: Any) -> Any:
        """Remove ``view`` from an allauth page's context before it is rendered."""
        data = getattr(response, "context_data", None)
        if isinstance(data, dict) and page_of(request) == "allauth":
            data.pop("view", None)
        return response
