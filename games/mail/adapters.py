"""allauth's account adapter: account emails leave the request through the Celery worker.

allauth sends its emails (address confirmation, password reset) inside the request, so an
SMTP server that is slow or down made sign-up slow or a 500. Here the request renders the
message and queues ``games.tasks.send_account_email`` by name, which Celery retries with
backoff; with a
broker that does not answer, the message is sent in the request as before.
"""

from __future__ import annotations

import logging
from types import SimpleNamespace
from typing import Any
from urllib.parse import urlsplit

from allauth.account.adapter import DefaultAccountAdapter
from allauth.core import context as allauth_context
from allauth.core import ratelimit
from allauth.core.exceptions import ImmediateHttpResponse
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.sites.shortcuts import get_current_site
from django.db.models import Q
from django.utils.translation import gettext as _
from kombu.exceptions import OperationalError

from games.core import queue
from games.mail.deliver import account_email_payload
from games.text.headers import header_safe

log = logging.getLogger(__name__)


class AccountAdapter(DefaultAccountAdapter):  # type: ignore[misc]  # allauth has no types
    """``settings.ACCOUNT_ADAPTER``: allauth's default, with emails sent by the worker."""

    def _get_login_attempts_cache_key(self, request: Any, **credentials: Any) -> str:
        """Count failed sign-ins per account, however it was named (issue 28).

        allauth keys its ``login_failed`` limit by the text typed, so a username and an
        email address of one account were counted apart (ten tries instead of five). The
        key is the account's id when the text names one (username or email, any case),
        else the text, as allauth's.
        """
        login = str(credentials.get("email", credentials.get("username", ""))).strip()
        user = (
            get_user_model()
            .objects.filter(Q(username__iexact=login) | Q(email__iexact=login))
            .values_list("pk", flat=True)
            .first()
            if login
            else None
        )
        if user is None:
            return str(super()._get_login_attempts_cache_key(request, **credentials))
        return f"{get_current_site(request).domain}:user:{user}"

    def send_confirmation_mail(self, request: Any, emailconfirmation: Any, signup: bool) -> None:
        """Send the address's confirmation code, at most once per 10 s per account and address.

        allauth's own limit (``confirm_email``) is keyed by the address alone: an account that
        kept typing someone's address refused its owner a code (issue 28, finding 5). Here
        the key is the account the code would verify and the address, so the owner's own
        sign-up is never refused for another's requests; allauth's limit is per IP instead
        (``settings.ACCOUNT_RATE_LIMITS``). Raises ``ImmediateHttpResponse`` (429, as allauth
        answers its own limit) when the same account asks again too soon.
        """
        address = emailconfirmation.email_address
        key = f"{address.user_id}:{address.email.lower()}"
        if not ratelimit.consume(request, action="confirm_email_asker", key=key):
            raise ImmediateHttpResponse(ratelimit.respond_429(request))
        super().send_confirmation_mail(request, emailconfirmation, signup)

    @staticmethod
    def _site(request: Any) -> SimpleNamespace:
        """Return what allauth's emails say of the site: its name, and the host of SITE_URL.

        allauth would name the site by the request's host ("Hello from 127.0.0.1:8000!").
        """
        host = urlsplit(settings.SITE_URL).netloc or get_current_site(request).domain
        return SimpleNamespace(name=_("Tigris & Euphrates"), domain=host)

    def format_email_subject(self, subject: str) -> str:
        """Return ``subject`` after the site's name in the reader's language: "[…] subject"."""
        return header_safe(f"[{_('Tigris & Euphrates')}] {subject}")

    def send_mail(self, template_prefix: str, email: str, context: dict[str, Any]) -> None:
        """Render allauth's ``template_prefix`` email to ``email`` and queue it for sending.

        Never raises for a mail server or broker that fails (logged instead): the account
        change stands, and allauth lets the player ask for the email again.
        """
        request = allauth_context.request
        site = {
            "request": request,
            "email": email,
            "current_site": self._site(request),
            "site_url": settings.SITE_URL,  # the confirmation's link (issue 32)
        }
        message = self.render_mail(template_prefix, email, {**site, **context})
        try:
            queue.delay(queue.SEND_ACCOUNT_EMAIL, account_email_payload(message))
        except OperationalError as exc:  # the broker does not answer: send it now instead
            log.warning("account email: broker unavailable (%s), sending in the request", exc)
            try:
                message.send()
            except Exception as send_exc:  # noqa: BLE001 - logged; the page must still answer
                log.error("account email %r failed: %s", message.subject, send_exc)
        except Exception as exc:  # noqa: BLE001 - an eager run that failed: logged
            log.error("account email %r failed: %s", message.subject, exc)
