"""Account emails (allauth's confirmation and password reset) go through the Celery worker."""

from __future__ import annotations

import re
from typing import Any

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client
from kombu.exceptions import OperationalError

from games import tasks
from games.mail import deliver
from tests.games.mail_backends import FlakyBackend

pytestmark = pytest.mark.django_db

PASSWORD = "tigris-and-euphrates-2026"
FLAKY = {"default": {"BACKEND": "tests.games.mail_backends.FlakyBackend"}}
REJECTING = {"default": {"BACKEND": "tests.games.mail_backends.RejectingBackend"}}


def _sign_up(email: str) -> Any:
    # A different address per test: allauth's resend cooldown lives in the cache.
    return Client().post(
        "/accounts/signup/",
        {"email": email, "display_name": "Ana", "password1": PASSWORD, "password2": PASSWORD},
    )


def test_the_confirmation_is_queued_for_the_worker_with_the_whole_message(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    queued: list[dict[str, Any]] = []
    monkeypatch.setattr(tasks.send_account_email, "delay", queued.append)
    assert _sign_up("ana@example.com").status_code == 302
    assert mail.outbox == []  # nothing sent in the request
    (payload,) = queued
    assert payload["to"] == ["ana@example.com"]
    assert re.search(r"^[A-Z0-9]{4}-[A-Z0-9]{4}$", payload["body"], re.MULTILINE)  # the code
    assert payload["body"].startswith("Hello from Tigris & Euphrates!")  # not the host name
    assert "user Ana has given your email address" in payload["body"]  # the display name
    assert tasks.send_account_email.run(payload) == "sent"
    (message,) = mail.outbox
    assert message.subject == payload["subject"] and message.body == payload["body"]
    assert [a.mimetype for a in message.alternatives] == [m for _c, m in payload["alternatives"]]


def test_a_mail_server_that_fails_never_fails_the_sign_up(settings: Any) -> None:
    settings.MAILERS = REJECTING
    response = _sign_up("cy@example.com")
    assert response.status_code == 302  # not a 500: the account stands
    assert get_user_model().objects.filter(email="cy@example.com").exists()
    assert mail.outbox == []


def test_a_transient_failure_is_retried_by_celery(
    settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    queued: list[dict[str, Any]] = []
    monkeypatch.setattr(tasks.send_account_email, "delay", queued.append)
    user = get_user_model().objects.create_user("bo", "bo@example.com", PASSWORD)
    EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
    assert Client().post("/accounts/password/reset/", {"email": user.email}).status_code == 302
    settings.MAILERS = FLAKY
    FlakyBackend.calls, FlakyBackend.failures = 0, 1
    with pytest.raises(deliver.TransientSendError):
        tasks.send_account_email.run(queued[0])  # a worker's run: Celery retries it
    assert tasks.send_account_email.run(queued[0]) == "sent"
    assert "/accounts/password/reset/key/" in mail.outbox[0].body


def test_a_broker_that_does_not_answer_sends_in_the_request(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def down(*args: Any, **kwargs: Any) -> Any:
        raise OperationalError("Error 111 connecting to the broker")

    monkeypatch.setattr(tasks.send_account_email, "delay", down)
    assert _sign_up("di@example.com").status_code == 302
    assert [m.to for m in mail.outbox] == [["di@example.com"]]


def test_a_chinese_sign_up_gets_its_confirmation_in_chinese_throughout(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    queued: list[dict[str, Any]] = []
    monkeypatch.setattr(tasks.send_account_email, "delay", queued.append)
    response = Client(HTTP_ACCEPT_LANGUAGE="zh-hans").post(
        "/accounts/signup/",
        {
            "email": "li@example.com",
            "display_name": "Li",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )
    assert response.status_code == 302
    (payload,) = queued
    assert payload["subject"].startswith("[《两河流域》] ")  # the name Chinese players use
    assert payload["body"].startswith("你好，这里是《两河流域》！")
    assert "Tigris" not in payload["subject"] + payload["body"]
