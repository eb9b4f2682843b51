"""Personal access tokens of the read API: created, listed, revoked, and checked per request.

A token is ``tep_`` and 43 URL-safe characters (``secrets.token_urlsafe(32)``: 256 random
bits). It is shown to the player once, when created; the database keeps only its SHA-256
(``AccessToken.key_hash``). A slow password hash (PBKDF2, Argon2) protects guessable
secrets; nothing guesses 256 random bits, so it would only cost every API request its CPU
time and rule out the one indexed lookup by hash. Tokens are read-only (``Scope.READ``):
the API has no writing endpoint, and the site's pages never accept a token.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.core.errors import GameError
from games.models import AccessToken

TOKEN_PREFIX = "tep_"  # Tigris & Euphrates personal token: greppable in a leaked config
MAX_TOKENS = 10  # live tokens an account may hold
TOUCH_EVERY = timedelta(minutes=5)  # ``last_used_at`` is written at most this often


def token_hash(secret: str) -> str:
    """Return the SHA-256 hex digest of ``secret`` (what ``AccessToken.key_hash`` holds)."""
    return hashlib.sha256(secret.encode()).hexdigest()


def token_create(*, user: Any, name: str) -> tuple[AccessToken, str]:
    """Create a read-only token named ``name`` for ``user``; return the row and the secret.

    The secret is returned here only: show it once. Raises ``GameError`` when ``user``
    already holds ``MAX_TOKENS`` live tokens, or a live token of that name: the answer
    that showed a secret, sent again (a reload, a double click), creates no second token.
    Both are checked under the user's row lock, so two concurrent requests cannot both pass.
    """
    name = name.strip()[:60]
    with transaction.atomic():
        get_user_model().objects.select_for_update().filter(pk=user.pk).first()
        live = AccessToken.objects.filter(user=user, revoked_at__isnull=True)
        if live.filter(name=name).exists():
            raise GameError(
                _(
                    "You already have a token called “%(name)s”; its secret was shown once, "
                    "when it was made. Revoke it to make a new one."
                )
                % {"name": name}
            )
        if live.count() >= MAX_TOKENS:
            raise GameError(_("You hold as many tokens as an account may: revoke one first."))
        secret = TOKEN_PREFIX + secrets.token_urlsafe(32)
        row = AccessToken.objects.create(
            user=user,
            name=name,
            key_hash=token_hash(secret),
            prefix=secret[: len(TOKEN_PREFIX) + 6],
        )
    return row, secret


def token_revoke(*, user: Any, token_id: int) -> bool:
    """Revoke ``user``'s token ``token_id``; return whether a live token was revoked.

    Idempotent: revoking twice, or someone else's token, changes nothing.
    """
    done = AccessToken.objects.filter(pk=token_id, user=user, revoked_at__isnull=True).update(
        revoked_at=timezone.now()
    )
    return bool(done)


@dataclass(frozen=True)
class TokenLine:
    """A live token as the settings page lists it: never the row (its user reaches every
    game's seed, issue 27) nor its secret. ``prefix`` its first characters; dates aware."""

    pk: int
    name: str
    prefix: str
    created_at: datetime
    last_used_at: datetime | None


def tokens_of(user: Any) -> list[TokenLine]:
    """Return ``user``'s live tokens, newest first (name, prefix, dates; never a secret)."""
    rows = AccessToken.objects.filter(user=user, revoked_at__isnull=True).order_by("-created_at")
    return [
        TokenLine(
            pk=t.pk,
            name=t.name,
            prefix=t.prefix,
            created_at=t.created_at,
            last_used_at=t.last_used_at,
        )
        for t in rows
    ]


def token_authenticate(secret: str) -> AccessToken | None:
    """Return the live token whose secret is ``secret`` with its user, or None.

    A revoked token, an unknown one or a malformed string gives None. Notes the use at
    most every ``TOUCH_EVERY`` (one UPDATE then, none otherwise).
    """
    if not secret.startswith(TOKEN_PREFIX) or len(secret) > 100:
        return None
    row = (
        AccessToken.objects.select_related("user")
        .filter(key_hash=token_hash(secret), revoked_at__isnull=True, user__is_active=True)
        .first()
    )
    if row is None:
        return None
    now = timezone.now()
    if row.last_used_at is None or row.last_used_at < now - TOUCH_EVERY:
        AccessToken.objects.filter(pk=row.pk).update(last_used_at=now)
        row.last_used_at = now
    return row
