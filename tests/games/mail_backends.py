"""Mail backends for tests: the in-memory outbox, failing the way real SMTP servers fail."""

from __future__ import annotations

import smtplib
from collections.abc import Sequence
from typing import Any, ClassVar

from django.core.mail.backends.locmem import EmailBackend


class FlakyBackend(EmailBackend):
    """Raise ``SMTPServerDisconnected`` for the first ``failures`` sends, then deliver."""

    failures: ClassVar[int] = 1
    calls: ClassVar[int] = 0

    def send_messages(self, messages: Sequence[Any]) -> int:
        type(self).calls += 1
        if type(self).calls <= type(self).failures:
            raise smtplib.SMTPServerDisconnected("Connection unexpectedly closed")
        return int(super().send_messages(messages))


class RejectingBackend(EmailBackend):
    """Refuse every message with a permanent SMTP 550."""

    def send_messages(self, messages: Sequence[Any]) -> int:
        raise smtplib.SMTPRecipientsRefused({"x@example.com": (550, b"5.1.1 No such user")})
