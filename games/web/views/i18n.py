"""The language switcher, the players' rules page and the questions and answers (FAQ).

The switcher posts to Django's ``set_language`` view (``language`` and ``next``: the page the
player is on), which sets the language cookie and redirects back. A logged-in player's choice
is also saved to their account, so it follows them to other devices and to their emails.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import translation
from django.views import i18n
from django.views.decorators.http import require_GET, require_POST

from games.accounts import profiles
from games.web.middleware import remember_language, supported


@require_POST
def set_language(request: HttpRequest) -> HttpResponse:
    """Switch language (``language``), back to ``next``; save it to a logged-in player's profile."""
    response = i18n.set_language(request)
    language = request.POST.get("language", "")
    if supported(language) and request.user.is_authenticated:
        profiles.profile_language_set(user=request.user, language=language)
        remember_language(request, language)
    return response


@require_GET
def rules_page(request: HttpRequest) -> HttpResponse:
    """Render the rules for players, written out in the viewer's language."""
    language = translation.get_language() or "en"
    body = "rules/rules.zh-hans.html" if language.startswith("zh") else "rules/rules.en.html"
    return render(request, "rules/rules.html", {"rules_body": body})


@require_GET
def faq_page(request: HttpRequest) -> HttpResponse:
    """Render the questions and answers (the game's facts, five rules questions) in the viewer's
    language; each answer links to its section of the rules page."""
    language = translation.get_language() or "en"
    body = "faq/faq.zh-hans.html" if language.startswith("zh") else "faq/faq.en.html"
    return render(request, "faq/faq.html", {"faq_body": body})
