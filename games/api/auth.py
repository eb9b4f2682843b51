"""Who asks: a personal access token (``Authorization: Bearer tep_…``) or nobody.

Without the header a request is anonymous and sees what a logged-out visitor sees; a header
with a wrong, malformed or revoked token is refused (401), never treated as anonymous, so a
tool with a stale token learns it at once. The site's session cookie is not read here.

Rate limits (django-ninja's cache-backed throttles, Django's cache): anonymous requests and
refused tokens count against their address (``API_RATE_ANON``), a token's requests against
that token (``API_RATE_TOKEN``). The address is ``REMOTE_ADDR``, or the client's entry of
``X-Forwarded-For`` behind ``NINJA_NUM_PROXIES`` trusted proxies.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.http import HttpRequest
from ninja.errors import AuthenticationError, Throttled
from ninja.security import HttpBearer
from ninja.throttling import SimpleRateThrottle

from games.accounts import tokens
from games.models import AccessToken


@dataclass(frozen=True)
class Principal:
    """The requester: ``user`` (``AnonymousUser`` without a token) and the ``token`` row."""

    user: Any
    token: AccessToken | None

    def __bool__(self) -> bool:
        return True  # django-ninja takes a falsy answer for a refusal

    def __str__(self) -> str:
        return f"token:{self.token.pk}" if self.token is not None else "anonymous"


ANONYMOUS = Principal(user=AnonymousUser(), token=None)


class BadToken(AuthenticationError):
    """A token was sent but is not a live one (401)."""

    def __init__(self) -> None:
        super().__init__(message="The access token is not valid (wrong, malformed or revoked).")


class _SettingsRate(SimpleRateThrottle):
    """A throttle whose rate is read from a setting at each request (tests change it)."""

    setting = ""

    def __init__(self) -> None:
        super().__init__(rate=str(getattr(settings, self.setting)))


class AddressThrottle(_SettingsRate):
    """Anonymous requests and refused tokens, per client address."""

    setting = "API_RATE_ANON"
    scope = "api_address"

    def get_cache_key(self, request: HttpRequest) -> str | None:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class TokenThrottle(_SettingsRate):
    """A token's requests, per token, whatever the address."""

    setting = "API_RATE_TOKEN"
    scope = "api_token"

    def __init__(self, token: AccessToken) -> None:
        super().__init__()
        self.token = token

    def get_cache_key(self, request: HttpRequest) -> str | None:
        return self.cache_format % {"scope": self.scope, "ident": self.token.pk}


def _check(throttle: SimpleRateThrottle, request: HttpRequest) -> None:
    # A fresh throttle a request: the class keeps the request's history on the instance.
    if not throttle.allow_request(request):
        raise Throttled(wait=throttle.wait())  # type: ignore[arg-type]


class TokenAuth(HttpBearer):
    """The API's one authentication: a bearer token, or anonymous without the header."""

    def __call__(self, request: HttpRequest) -> Principal | None:
        """Return the requester; raise ``BadToken`` (401) or ``Throttled`` (429)."""
        header = request.headers.get(self.header)
        if not header:
            _check(AddressThrottle(), request)
            return ANONYMOUS
        scheme, _space, secret = header.partition(" ")
        row = tokens.token_authenticate(secret.strip()) if scheme.lower() == "bearer" else None
        if row is None:
            _check(AddressThrottle(), request)
            raise BadToken()
        _check(TokenThrottle(row), request)
        return Principal(user=row.user, token=row)

    def authenticate(self, request: HttpRequest, token: str) -> Principal | None:
        """Unused: ``__call__`` reads the header itself (an absent one is anonymous)."""
        return None


def principal(request: HttpRequest) -> Principal:
    """Return the requester ``TokenAuth`` found (anonymous when it ran without a header)."""
    found = getattr(request, "auth", None)
    return found if isinstance(found, Principal) else ANONYMOUS
