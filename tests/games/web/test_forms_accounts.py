"""Account forms refuse display names that would break a header or a page."""

from __future__ import annotations

from typing import Any

import pytest
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
