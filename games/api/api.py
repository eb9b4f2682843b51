"""The ``NinjaAPI`` of ``/api/v1/``: its authentication, error answers and OpenAPI schema.

Every refusal is JSON ``{"detail": sentence, "code": word}`` (``ErrorOut``): 401 for a
wrong token (with ``WWW-Authenticate: Bearer``), 404, 409, 422 for a bad parameter (with
the parameter's ``errors``), 429 with ``Retry-After``. Unknown paths and methods under
``/api/`` answer the same way (``games.api.middleware``).
"""

from __future__ import annotations

import math
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from ninja import NinjaAPI
from ninja.errors import AuthenticationError, HttpError, Throttled, ValidationError
from ninja.openapi.schema import OpenAPISchema

from games.api.auth import TokenAuth
from games.api.endpoints import ApiError, router
from games.api.leagues import router as leagues_router
from games.api.tournaments import router as tournaments_router

TOKEN_ONLY = ("/me",)  # paths (under the API's root) that answer 401 without a token


class ReadAPI(NinjaAPI):
    """The API, whose schema says what is true: a token is optional but on ``/me…``."""

    def get_openapi_schema(
        self, *, path_prefix: str | None = None, path_params: dict[str, Any] | None = None
    ) -> OpenAPISchema:
        """Return django-ninja's schema with anonymous access (``{}``) allowed where it is."""
        schema = super().get_openapi_schema(path_prefix=path_prefix, path_params=path_params)
        root = self.get_root_path(path_params or {}) if path_prefix is None else path_prefix
        for path, operations in schema["paths"].items():
            if path.removeprefix(root.rstrip("/")).startswith(TOKEN_ONLY):
                continue
            for operation in operations.values():
                if "security" in operation and {} not in operation["security"]:
                    operation["security"] = [{}, *operation["security"]]
        return schema


api = ReadAPI(
    title="Tigris & Euphrates",
    version="1",
    description=(
        "Read-only API of the play-by-web site. Without a token it sees what a logged-out "
        "visitor sees; a personal access token (Settings) adds the owner's private games, "
        "their seat's hidden view and the games waiting for them. "
        "Send it as `Authorization: Bearer tep_…`."
    ),
    auth=TokenAuth(),
    urls_namespace="api-v1",
    docs_url=None,  # Swagger UI loads its scripts from a CDN, which the CSP refuses
)
api.add_router("/", router)
api.add_router("/", tournaments_router)
api.add_router("/", leagues_router)


def error(request: HttpRequest, status: int, code: str, detail: str, **extra: Any) -> HttpResponse:
    """Return the JSON refusal ``{"detail", "code", **extra}`` with ``status``."""
    return api.create_response(request, {"detail": detail, "code": code, **extra}, status=status)


@api.exception_handler(ApiError)
def _api_error(request: HttpRequest, exc: ApiError) -> HttpResponse:
    response = error(request, exc.status_code, exc.code, str(exc))
    if exc.status_code == 401:
        response["WWW-Authenticate"] = "Bearer"
    return response


@api.exception_handler(AuthenticationError)
def _unauthorized(request: HttpRequest, exc: AuthenticationError) -> HttpResponse:
    response = error(
        request, 401, "bad_token", _("The access token is not valid (wrong, malformed or revoked).")
    )
    response["WWW-Authenticate"] = 'Bearer error="invalid_token"'
    return response


@api.exception_handler(Throttled)
def _throttled(request: HttpRequest, exc: Throttled) -> HttpResponse:
    wait = math.ceil(exc.wait) if exc.wait is not None else 60
    response = error(
        request,
        429,
        "rate_limited",
        _("Too many requests: try again in %(n)s seconds.") % {"n": wait},
        retry_after=wait,
    )
    response["Retry-After"] = str(wait)
    return response


@api.exception_handler(ValidationError)
def _invalid(request: HttpRequest, exc: ValidationError) -> HttpResponse:
    errors = []
    for e in exc.errors:
        if "msg" in e:
            errors.append({"loc": [str(p) for p in e.get("loc", ())], "msg": str(e["msg"])})
        else:  # django-ninja's own shape, e.g. {"cursor": "Invalid Cursor"}
            errors += [{"loc": ["query", str(k)], "msg": str(v)} for k, v in e.items()]
    return error(request, 422, "invalid", _("A parameter is not valid."), errors=errors)


@api.exception_handler(Http404)
def _not_found(request: HttpRequest, exc: Http404) -> HttpResponse:
    return error(request, 404, "not_found", _("There is nothing here."))


@api.exception_handler(HttpError)
def _http_error(request: HttpRequest, exc: HttpError) -> HttpResponse:
    return error(request, exc.status_code, "error", str(exc))
