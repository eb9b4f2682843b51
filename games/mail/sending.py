"""Send one email to a player: signed one-click unsubscribe links and unfoldable headers.

``email_send`` renders ``emails/<template>.txt`` and ``.html`` and sends them with the
``List-Unsubscribe`` headers of RFC 8058; ``deadline_text`` writes a deadline in the
recipient's time zone. Used by ``games.mail.notification`` and ``games.mail.digest``.
"""

from __future__ import annotations

import email.policy
import logging
from collections.abc import Callable
from datetime import datetime
from typing import Any
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.conf import settings
from django.core import signing
from django.core.exceptions import ObjectDoesNotExist
from django.core.mail import EmailMultiAlternatives, mailers, make_msgid
from django.template.loader import render_to_string
from django.urls import reverse

from games.models import NotificationKind
from games.text.headers import header_safe

UNSUBSCRIBE_SALT = "games.unsubscribe"

log = logging.getLogger(__name__)


def outbox_message_id(key: str) -> str:
    """Return the Message-ID of outbox row ``key`` (``notification-12``): the same on every
    attempt, so a second copy after a crash threads with the first (issue 28, finding 8)."""
    domain = urlsplit(settings.SITE_URL).hostname or "localhost"
    return f"<tigris.{key}@{domain}>"


class OutboxSend:
    """How one outbox email is sent: its stable ``message_id`` and ``accepted``, called with
    it as soon as the mail server accepted the message, before the connection is closed."""

    def __init__(self, message_id: str, accepted: Callable[[str], None]) -> None:
        self.message_id = message_id
        self.accepted = accepted


class NotificationEmail(EmailMultiAlternatives):
    """An email whose headers are never folded into RFC 2047 encoded words.

    The standard policies fold at 78 columns and encode a long unbreakable word — the
    ``List-Unsubscribe`` URL with its signed token — which mail clients then cannot read
    (RFC 8058 needs the literal ``<https://…>``). RFC 5322 allows 998 characters a line.
    """

    def message(self, *, policy: Any = email.policy.default) -> Any:
        """Return the stdlib message built with ``policy`` allowing 998-character lines."""
        return super().message(policy=(policy or email.policy.default).clone(max_line_length=998))


def unsubscribe_token(user_id: int, kind: str) -> str:
    """Return a signed token naming ``user_id`` and ``kind`` (for List-Unsubscribe)."""
    return signing.dumps({"u": user_id, "k": kind}, salt=UNSUBSCRIBE_SALT, compress=True)


def unsubscribe_read(token: str) -> tuple[int, str]:
    """Return ``(user_id, kind)`` of a token; raise ``signing.BadSignature`` if forged."""
    data = signing.loads(token, salt=UNSUBSCRIBE_SALT)
    if (
        not isinstance(data, dict)
        or not isinstance(data.get("u"), int)
        or data.get("k") not in NotificationKind.values
    ):
        raise signing.BadSignature("malformed unsubscribe token")
    return data["u"], data["k"]


def absolute(path: str) -> str:
    """Return ``settings.SITE_URL`` + ``path``."""
    return f"{settings.SITE_URL}{path}"


def email_send(
    *,
    user: Any,
    kind: str,
    subject: str,
    template: str,
    context: dict[str, Any],
    delivery: OutboxSend | None = None,
) -> str:
    """Render ``template``.txt/.html with ``context`` and send to ``user``; return Message-ID.

    With ``delivery`` (an outbox row's): its Message-ID, and ``delivery.accepted`` is
    called the moment the server accepted the message — before the SMTP QUIT, whose
    failure is only logged then — so a crash or a dropped connection after the acceptance
    cannot leave the row to be sent again. Raises what the mail backend raises.
    """
    token = unsubscribe_token(user.pk, kind)
    unsubscribe_url = absolute(reverse("games:unsubscribe", args=[token]))
    context = {
        **context,
        "settings_url": absolute(reverse("games:settings")),
        "unsubscribe_url": unsubscribe_url,
        "site_url": settings.SITE_URL,
    }
    text = render_to_string(f"emails/{template}.txt", context)
    html = render_to_string(f"emails/{template}.html", context)
    domain = urlsplit(settings.SITE_URL).hostname or "localhost"
    message_id = delivery.message_id if delivery is not None else make_msgid(domain=domain)
    message = NotificationEmail(
        subject=header_safe(subject),  # names are in subjects: no name may break the email
        body=text,
        to=[user.email],
        headers={
            "Message-ID": message_id,
            "List-Unsubscribe": f"<{unsubscribe_url}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
            "Auto-Submitted": "auto-generated",
        },
    )
    message.attach_alternative(html, "text/html")
    mailer = mailers.default
    mailer.open()  # held open: send_messages leaves the closing (QUIT) to us
    try:
        mailer.send_messages([message])
        if delivery is not None:
            delivery.accepted(message_id)  # recorded before anything else can fail
    finally:
        try:
            mailer.close()
        except Exception as exc:  # the message was accepted: a failed QUIT changes nothing
            log.warning("closing the mail connection failed: %s", exc)
    return message_id


def _profile(user: Any) -> Any:
    """Return ``user``'s profile (read with it: ``select_related("user__profile")``), or None."""
    try:
        return user.profile
    except ObjectDoesNotExist:
        return None


def language_of(user: Any) -> str:
    """Return the language ``user``'s emails are written in (their profile's, else the site's)."""
    profile = _profile(user)
    return (profile.language if profile else "") or settings.LANGUAGE_CODE


def deadline_text(deadline: datetime | None, user: Any) -> str:
    """Return the running deadline in ``user``'s time zone (``"2026-03-04 18:00 CET"``)."""
    if deadline is None:
        return ""
    profile = _profile(user)
    try:
        local = deadline.astimezone(ZoneInfo((profile.time_zone if profile else "") or "UTC"))
    except (ZoneInfoNotFoundError, ValueError):
        local = deadline
    return local.strftime("%Y-%m-%d %H:%M %Z")
