"""Answer every 4xx under ``/api/`` in JSON, also those Django makes before the API runs.

django-ninja answers its own refusals in JSON (``games.api.api``); an unknown path (404)
or method (405) is answered by Django's URL resolver or view dispatch as HTML or an empty
body. This middleware turns those into the API's ``{"detail", "code"}``.
"""

from __future__ import annotations

from collections.abc import Callable
from http import HTTPStatus

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext as _

API_PREFIX = "/api/"
CODES = {404: "not_found", 405: "method_not_allowed", 403: "forbidden"}


class JsonErrorsMiddleware:
    """Turn a non-JSON 4xx answer under ``/api/`` into the API's JSON refusal."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        """Standard middleware construction."""
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        """Pass the request on; rewrite a 4xx answer that is not JSON."""
        response = self.get_response(request)
        if not request.path.startswith(API_PREFIX) or not 400 <= response.status_code < 500:
            return response
        if response.get("Content-Type", "").startswith("application/json"):
            return response
        status = response.status_code
        if status == 404:
            detail = _("There is nothing here.")
        elif status == 405:
            detail = _("The API only reads: use GET.")
        else:
            detail = HTTPStatus(status).phrase
        rewritten = JsonResponse(
            {"detail": str(detail), "code": CODES.get(status, "error")}, status=status
        )
        if response.has_header("Allow"):
            rewritten["Allow"] = response["Allow"]
        return rewritten
