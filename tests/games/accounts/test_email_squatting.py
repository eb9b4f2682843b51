"""An address added but never verified claims nothing (issue 20, item 6).

An account could add someone else's address unverified; the real owner then could not sign
up with it (allauth answered "you already have an account"), and a password reset for it
mailed the owner a link into the squatter's account. Added addresses are now verified by
a code before allauth stores them (``ACCOUNT_EMAIL_VERIFICATION_BY_CODE_ENABLED``), so an
unverified one is never on record.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client
from django.utils.http import int_to_base36

from tests.games.factories import client_for

pytestmark = pytest.mark.django_db

PASSWORD = "tigris-and-euphrates-2026"
VICTIM = "owner@example.com"
RESET_KEY = re.compile(r"/accounts/password/reset/key/([0-9a-z]+)-")


def _squatter(user_factory: Any) -> Any:
    """An account with its own verified address, which then adds the victim's address."""
    squatter = user_factory(email="squatter@example.com")
    EmailAddress.objects.create(user=squatter, email=squatter.email, verified=True, primary=True)
    client = client_for(squatter)
    added = client.post("/accounts/email/", {"email": VICTIM, "action_add": ""})
    assert added.status_code in (200, 302)
    mail.outbox.clear()
    return squatter


def test_an_address_added_but_not_verified_is_not_on_record(user_factory: Any) -> None:
    squatter = _squatter(user_factory)
    assert not EmailAddress.objects.filter(email=VICTIM).exists()
    assert not EmailAddress.objects.filter(user=squatter, verified=False).exists()


def test_the_owner_of_a_squatted_address_can_sign_up(user_factory: Any) -> None:
    squatter = _squatter(user_factory)
    # the squatter asked for a code to the address a moment ago: its owner is not refused
    # for that (the limit is per account and address, issue 28)
    response = Client().post(
        "/accounts/signup/",
        {
            "email": VICTIM,
            "display_name": "Real Owner",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )
    assert response.status_code == 302, response.content[:2000]
    owner = get_user_model().objects.get(email=VICTIM)
    assert owner.pk != squatter.pk
    assert EmailAddress.objects.get(email=VICTIM).user_id == owner.pk
    (message,) = mail.outbox
    assert message.to == [VICTIM] and "already" not in message.body.lower()


def test_a_reset_for_a_squatted_address_never_leads_into_the_squatters_account(
    user_factory: Any,
) -> None:
    squatter = _squatter(user_factory)
    assert Client().post("/accounts/password/reset/", {"email": VICTIM}).status_code == 302
    bodies = " ".join(m.body for m in mail.outbox if m.to == [VICTIM])
    assert f"/accounts/password/reset/key/{int_to_base36(squatter.pk)}-" not in bodies
    assert not RESET_KEY.search(bodies)  # no account has this address: no reset link at all


def test_the_migration_drops_addresses_added_before_and_never_verified(user_factory: Any) -> None:
    import importlib

    from django.apps import apps

    squatter, newcomer = user_factory(), user_factory()
    EmailAddress.objects.create(user=squatter, email=squatter.email, verified=True, primary=True)
    EmailAddress.objects.create(user=squatter, email=VICTIM, verified=False, primary=False)
    EmailAddress.objects.create(user=newcomer, email=newcomer.email, verified=False, primary=True)
    migration = importlib.import_module("games.migrations.0008_drop_pending_email_addresses")
    migration.drop_pending(apps, None)
    assert not EmailAddress.objects.filter(email=VICTIM).exists()
    assert EmailAddress.objects.filter(user=squatter, verified=True).exists()
    assert EmailAddress.objects.filter(user=newcomer, verified=False).exists()  # sign-up's own


def _add_victim(client: Client) -> int:
    """The squatter types the owner's address in their settings again; return the status."""
    return client.post("/accounts/email/", {"email": VICTIM, "action_add": ""}).status_code


def test_a_squatter_typing_the_address_again_and_again_never_refuses_its_owner_a_code(
    user_factory: Any,
) -> None:
    # issue 28, finding 5: allauth keys its confirmation limit (one code per 10 s) by the
    # address, so whoever kept typing it refused its owner a code. The limit is now per
    # account and address: the owner's sign-up, in the same seconds, gets its code.
    squatter = user_factory(email="squatter@example.com")
    EmailAddress.objects.create(user=squatter, email=squatter.email, verified=True, primary=True)
    spammer = client_for(squatter)
    assert _add_victim(spammer) in (200, 302)
    mail.outbox.clear()
    owner_client = Client()
    response = owner_client.post(
        "/accounts/signup/",
        {
            "email": VICTIM,
            "display_name": "Real Owner",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )
    assert response.status_code == 302, response.content[:2000]
    (message,) = mail.outbox
    assert message.to == [VICTIM]
    code = re.search(r"confirm-email/\?code=([A-Z0-9-]+)", message.body)
    assert code is not None, message.body
    # the squatter, still typing the address, is refused within the 10 s: no second code
    mail.outbox.clear()
    assert _add_victim(spammer) == 429
    assert mail.outbox == []
    # the owner's code works: the address is theirs, verified
    confirmed = owner_client.post("/accounts/confirm-email/", {"code": code.group(1)})
    assert confirmed.status_code == 302, confirmed.content[:2000]
    owner = get_user_model().objects.get(email=VICTIM)
    assert EmailAddress.objects.get(email=VICTIM, verified=True).user_id == owner.pk
    assert owner.pk != squatter.pk
