"""Site-wide views that belong to no game: the health check, the CSRF failure page, and what
makes the site installable (the web app manifest, the service worker, the offline page)."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.core.cache import caches
from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control, never_cache
from django.views.decorators.http import require_safe
from django_htmx.http import HttpResponseClientRefresh

from tigris_site.cache import FallbackRedisCache
from tigris_site.celery import app as celery_app


def _database_status() -> str:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:  # noqa: BLE001 - any failure means unhealthy
        return f"error: {type(exc).__name__}"
    return "ok"


def _broker_status() -> str:
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return "not configured (tasks run eagerly)"
    try:
        with celery_app.connection_for_write() as conn:
            conn.ensure_connection(max_retries=1, timeout=2)
    except Exception as exc:  # noqa: BLE001 - any failure means unhealthy
        return f"error: {type(exc).__name__}"
    return "ok"


def _cache_status() -> str:
    backend = caches["default"]
    if isinstance(backend, FallbackRedisCache):
        return backend.redis_status()
    return "not configured (each process's memory)"


@never_cache
@require_safe  # GET, and HEAD for balancers that probe with it
def healthz(request: HttpRequest) -> JsonResponse:
    """Answer whether this process can serve: 503 only when the database does not answer.

    Body: ``{"status": "ok"|"degraded"|"unhealthy", "database": str, "broker": str,
    "cache": str}``, each part ``"ok"``, ``"not configured (…)"`` or ``"error: <class>"``
    (never a connection string). A broker or cache (Redis) that fails makes the site
    *degraded*, still 200: moves apply, emails wait in the outbox for beat's
    ``sweep_outbox``, and each process's memory stands in for the cache
    (``tigris_site.cache``), so a load balancer must not take the web machines out for it;
    alert on ``degraded`` instead. Exempt from the HTTPS redirect (``SECURE_REDIRECT_EXEMPT``).
    """
    checks = {
        "database": _database_status(),
        "broker": _broker_status(),
        "cache": _cache_status(),
    }
    failing = {part for part, value in checks.items() if value.startswith("error")}
    if "database" in failing:
        return JsonResponse({"status": "unhealthy", **checks}, status=503)
    return JsonResponse({"status": "degraded" if failing else "ok", **checks})


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """Answer a refused CSRF check (a tab open across a log-out, log-in or expired session).

    An HTMX request gets a refresh of the whole page with a message, so the player sees
    the game as it is now with a fresh token; any other request gets a styled 403 page.
    Nothing was changed either way (``CSRF_FAILURE_VIEW``).
    """
    text = _("Your session changed since this page was loaded: nothing was sent. Please try again.")
    if request.headers.get("HX-Request") == "true":
        messages.warning(request, text)
        response = HttpResponseClientRefresh()
        response.status_code = 403  # htmx reloads on HX-Refresh whatever the status
        return response
    back = request.headers.get("Referer", "")
    if not url_has_allowed_host_and_scheme(
        back, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        back = "/"
    return render(request, "403_csrf.html", {"message": text, "back": back}, status=403)


THEME_COLOR = "#c62828"  # the icon's red (static/pwa/, static/favicon.svg)
SERVICE_WORKER = settings.BASE_DIR / "static" / "pwa" / "sw.js"


@require_safe
@cache_control(max_age=3600)
def web_manifest(request: HttpRequest) -> JsonResponse:
    """The web app manifest (``/manifest.webmanifest``), in the page's language.

    Its name is the game's in that language ("Tigris & Euphrates", 《两河流域》); the app
    opens on the player's games (the lobby's "My games"); icons in ``static/pwa/``.
    """
    name = _("Tigris & Euphrates")
    icons = [
        {"src": static("pwa/icon.svg"), "sizes": "any", "type": "image/svg+xml"},
        {"src": static("pwa/icon-192.png"), "sizes": "192x192", "type": "image/png"},
        {"src": static("pwa/icon-512.png"), "sizes": "512x512", "type": "image/png"},
        {
            "src": static("pwa/icon-512.png"),
            "sizes": "512x512",
            "type": "image/png",
            "purpose": "maskable",
        },
    ]
    data = {
        "id": "/",
        "name": name,
        "short_name": name,
        "description": _("Play Tigris & Euphrates slowly: one move when it suits you."),
        "lang": get_language(),
        "start_url": reverse("games:lobby") + "#my-games",
        "scope": "/",
        "display": "standalone",
        "background_color": "#ffffff",
        "theme_color": THEME_COLOR,
        "icons": icons,
    }
    response = JsonResponse(data, json_dumps_params={"ensure_ascii": False})
    response["Content-Type"] = "application/manifest+json"
    return response


@require_safe
@never_cache
def service_worker(request: HttpRequest) -> HttpResponse:
    """The service worker (``static/pwa/sw.js``), served at ``/sw.js`` to cover the whole site."""
    response = HttpResponse(SERVICE_WORKER.read_bytes(), content_type="text/javascript")
    response["Service-Worker-Allowed"] = "/"
    return response


@require_safe
def offline(request: HttpRequest) -> HttpResponse:
    """The page the service worker keeps for when the site cannot be reached (both languages)."""
    return render(request, "site/offline.html")
