"""Account forms refuse display names that would break a header or a page."""

from __future__ import annotations

from typing import Any

import pytest
from allauth.account.models import EmailAddress
from django.test import Client

from games.models import Profile
from tests.games.factories import client_for, settings_form_data

pytestmark = pytest.mark.django_db


def test_a_display_name_with_a_line_break_is_refused(user_factory: Any) -> None:
    user = user_factory()
    client = client_for(user)
    data = settings_form_data(client)
    data["display_name"] = "Eve\r\nBcc: x@evil.example"
    response = client.post("/settings", data)
    assert response.status_code == 200
    assert "cannot contain line breaks" in response.content.decode()
    assert "\n" not in Profile.objects.get(user=user).display_name


def test_sign_up_refuses_a_display_name_with_control_characters() -> None:
    response = Client().post(
        "/accounts/signup/",
        {
            "email": "eve@example.com",
            "display_name": "Eve\tEvil",
            "password1": "tigris-and-euphrates-2026",
            "password2": "tigris-and-euphrates-2026",
        },
    )
    assert response.status_code == 200
    assert "cannot contain line breaks" in response.content.decode()


@pytest.mark.parametrize(("language", "label"), [("en", "Email"), ("zh-hans", "电子邮件")])
def test_sign_in_asks_for_the_email_address_players_signed_up_with(
    language: str, label: str
) -> None:
    page = Client(HTTP_ACCEPT_LANGUAGE=language).get("/accounts/login/").content.decode()
    assert f'<label for="id_login">{label}:' in page
    assert "Username" not in page and "Login:" not in page


def test_a_demo_accounts_name_still_signs_in(user_factory: Any) -> None:
    user = user_factory(username="alice", email="alice@example.com")
    user.set_password("tigris-and-euphrates-2026")
    user.save()
    EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
    for login in ("alice", "alice@example.com"):
        client = Client()
        response = client.post(
            "/accounts/login/", {"login": login, "password": "tigris-and-euphrates-2026"}
        )
        assert response.status_code == 302 and response.headers["Location"] == "/"
        assert client.session["_auth_user_id"] == str(user.pk)
