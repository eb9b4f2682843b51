"""The admin's login goes through allauth's, with its attempt limits (issue 20, item 3).

Django's own ``/admin/login/`` has no attempt limit: 30 wrong passwords, then the right one,
logged a staff account in. Now it sends a visitor to the site's login (allauth: at most 5
failed attempts per account in 5 minutes), never checks a password itself, and refuses an
account that is logged in but not staff.
"""

from __future__ import annotations

from typing import Any

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.test import Client

pytestmark = pytest.mark.django_db

PASSWORD = "a-long-staff-password-2026"


@pytest.fixture
def staff() -> Any:
    user = get_user_model().objects.create_user(
        username="keeper",
        email="keeper@example.com",
        password=PASSWORD,
        is_staff=True,
        is_superuser=True,
    )
    EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
    return user


def test_the_admin_login_never_checks_a_password_itself(staff: Any) -> None:
    client = Client()
    for n in range(30):
        wrong = client.post("/admin/login/", {"username": "keeper", "password": f"guess-{n}"})
        assert wrong.status_code == 302
        assert wrong["Location"].startswith("/accounts/login/?next=")
    right = client.post("/admin/login/", {"username": "keeper", "password": PASSWORD})
    assert right.status_code == 302 and right["Location"].startswith("/accounts/login/")
    assert "_auth_user_id" not in client.session
    assert client.get("/admin/").status_code == 302  # still not logged in


def test_the_site_login_limits_attempts_and_then_opens_the_admin(staff: Any) -> None:
    client = Client()
    page = client.get("/admin/", follow=True)
    assert page.redirect_chain[-1][0].startswith("/accounts/login/?next=")
    for n in range(5):
        client.post("/accounts/login/", {"login": "keeper", "password": f"guess-{n}"})
    # allauth's login_failed limit (5 per account in 5 minutes): the right one is refused.
    limited = client.post("/accounts/login/", {"login": "keeper", "password": PASSWORD})
    assert "Too many failed login attempts" in limited.content.decode()
    assert "_auth_user_id" not in client.session
    fresh = Client()
    fresh.post("/accounts/login/", {"login": "keeper", "password": PASSWORD})
    # once the limit has passed (a fresh cache), the staff account logs in to the admin
    from django.core.cache import cache

    cache.clear()
    done = fresh.post("/accounts/login/?next=/admin/", {"login": "keeper", "password": PASSWORD})
    assert done.status_code == 302 and done["Location"] == "/admin/"
    assert fresh.get("/admin/").status_code == 200
    assert fresh.get("/admin/login/").status_code == 302  # already in: on to the index


def test_a_logged_in_player_who_is_not_staff_is_refused_the_admin_login() -> None:
    player = get_user_model().objects.create_user(username="pawn", password=PASSWORD)
    client = Client()
    client.force_login(player)
    assert client.get("/admin/login/").status_code == 403
    refused = client.post("/admin/login/", {"username": "keeper", "password": PASSWORD})
    assert refused.status_code == 403


def test_failed_sign_ins_count_per_account_whether_named_by_username_or_email(
    staff: Any,
) -> None:
    """Issue 28, finding 5: three wrong by name and two by address are the account's five."""
    from django.core.cache import cache

    cache.clear()
    client = Client()
    for n, login in enumerate(
        ["keeper", "KEEPER", "keeper", "keeper@example.com", "Keeper@Example.com"]
    ):
        answer = client.post("/accounts/login/", {"login": login, "password": f"guess-{n}"})
        assert "Too many failed login attempts" not in answer.content.decode()
    for login in ("keeper@example.com", "keeper"):
        limited = Client().post("/accounts/login/", {"login": login, "password": PASSWORD})
        assert "Too many failed login attempts" in limited.content.decode(), login
    assert "_auth_user_id" not in client.session
    cache.clear()
