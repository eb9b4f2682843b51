"""Accounts through allauth, and the profile, settings and leaderboard pages."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client
from django.utils import timezone

from games.accounts import profiles
from games.mail import sending
from games.models import Delivery, Profile
from games.selectors import people
from games.text import seats as seat_text
from tests.games.factories import client_for

pytestmark = pytest.mark.django_db

PASSWORD = "tigris-and-euphrates-2026"


# issue 30: a tournament's round, bye and end, and a league season's end
TOURNAMENT_KINDS = (
    "tournament_round",
    "tournament_bye",
    "tournament_over",
    "season_over",
    "tournament_invite",
    "league_invite",
)


def test_sign_up_sends_a_verification_email_that_verifies_the_account() -> None:
    client = Client()
    page = client.get("/accounts/signup/")
    assert page.status_code == 200 and b"display_name" in page.content
    assert b'id="nav-waiting"' not in page.content and b"Tigris" in page.content
    response = client.post(
        "/accounts/signup/",
        {
            "email": "ana@example.com",
            "display_name": "Ana of Ur",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )
    assert response.status_code == 302, response.content[:2000]
    user = get_user_model().objects.get(email="ana@example.com")
    assert Profile.objects.get(user=user).display_name == "Ana of Ur"
    assert not EmailAddress.objects.get(user=user).verified
    # Mandatory verification: logging in is refused until the address is confirmed.
    assert b'name="username"' not in page.content  # email and display name only (issue 5)
    assert response.headers["Location"] == "/accounts/confirm-email/"
    login = Client().post("/accounts/login/", {"login": "ana@example.com", "password": PASSWORD})
    assert "_auth_user_id" not in login.wsgi_request.session
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["ana@example.com"]
    # The address is verified by the code the email gives, typed in the signing-up browser.
    code = re.search(r"^([A-Z0-9]{4}-[A-Z0-9]{4})$", mail.outbox[0].body, re.MULTILINE)
    assert code is not None, mail.outbox[0].body
    assert client.get("/accounts/confirm-email/").status_code == 200
    wrong = client.post("/accounts/confirm-email/", {"code": "AAAA-AAAA"})
    assert wrong.status_code == 200 and not EmailAddress.objects.get(user=user).verified
    assert client.post("/accounts/confirm-email/", {"code": code.group(1)}).status_code == 302
    assert EmailAddress.objects.get(user=user).verified
    assert client.get("/settings").status_code == 200  # the signing-up browser is logged in
    login = Client().post("/accounts/login/", {"login": "ana@example.com", "password": PASSWORD})
    assert login.status_code == 302 and login.headers["Location"] == "/"


def test_password_reset_sends_a_link(user_factory: Any) -> None:
    user = user_factory(email="bo@example.com")
    EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
    response = Client().post("/accounts/password/reset/", {"email": "bo@example.com"})
    assert response.status_code == 302
    assert len(mail.outbox) == 1
    assert "/accounts/password/reset/key/" in mail.outbox[0].body


def test_settings_page_saves_preferences_language_and_time_zone(user_factory: Any) -> None:
    user = user_factory()
    client = client_for(user)
    page = client.get("/settings")
    assert page.status_code == 200 and b"delivery_your_turn" in page.content
    assert "sends one email a day, at 8:00 in your time zone" in page.content.decode()
    data = {
        "display_name": "Gilgamesh",
        "language": "zh-hans",
        "time_zone": "Asia/Baghdad",
    }
    kinds = ("your_turn", "decision", "game_started", "game_over", "reminder", "seat_dropped")
    for kind in (*kinds, "timed_out", "invitation", *TOURNAMENT_KINDS):
        data[f"delivery_{kind}"] = "immediate"
        data[f"minutes_{kind}"] = "15"
    data["delivery_your_turn"], data["minutes_your_turn"] = "batched", "30"
    data["delivery_game_started"], data["minutes_game_started"] = "off", ""  # not needed
    data["delivery_reminder"], data["minutes_reminder"] = "batched", ""  # the default then
    response = client.post("/settings", data)
    assert response.status_code == 302
    profile = Profile.objects.get(user=user)
    assert (profile.display_name, profile.language, profile.time_zone) == (
        "Gilgamesh",
        "zh-hans",
        "Asia/Baghdad",
    )
    assert people.preference_get(user.pk, "your_turn") == (Delivery.BATCHED, 30)
    assert people.preference_get(user.pk, "game_started")[0] == Delivery.OFF
    assert people.preference_get(user.pk, "reminder") == (
        Delivery.BATCHED,
        people.DEFAULT_BATCH_MINUTES,
    )
    # "immediately" for decisions is a choice (the default is after a delay): kept as chosen.
    assert people.preference_get(user.pk, "decision")[0] == Delivery.IMMEDIATE
    bad = client.post("/settings", {**data, "delivery_decision": "hourly"})
    assert bad.status_code == 200
    assert people.preference_get(user.pk, "decision")[0] == Delivery.IMMEDIATE


def test_profile_page_and_leaderboard(user_factory: Any) -> None:
    veteran, newcomer, idle = user_factory(), user_factory(), user_factory()
    now = timezone.now()
    for user, games, active in (
        (veteran, 7, now),
        (newcomer, 2, now),
        (idle, 9, now - timedelta(days=200)),
    ):
        profile = profiles.profile_get(user)
        profile.rated_games, profile.last_active_at = games, active
        profile.rating_mu, profile.rating_sigma = 30.0, 3.0
        profile.save()
    page = Client().get(f"/players/{newcomer.pk}/")
    assert page.status_code == 200 and b"provisional" in page.content
    page = Client().get(f"/players/{veteran.pk}/")
    assert b"provisional" not in page.content and b"2340" in page.content
    board = Client().get("/leaderboard").content.decode()
    assert veteran.username in board
    assert newcomer.username not in board and idle.username not in board


def test_the_confirm_setting_reaches_the_game_page(user_factory: Any) -> None:
    from tests.games.factories import settings_form_data, started_game

    game, seats = started_game(2)
    client = client_for(seats[1])
    assert 'data-confirm="1"' in client.get(f"/games/{game.pk}/").content.decode()
    data = settings_form_data(client)
    data.pop("confirm_actions")  # an unticked box sends nothing
    assert client.post("/settings", data).status_code == 302
    assert Profile.objects.get(user=seats[1]).confirm_actions is False
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert 'data-confirm="0"' in page and "sent as soon as you choose them" in page
    assert 'data-confirm="1"' in Client().get(f"/games/{game.pk}/").content.decode()


def test_two_players_cannot_show_the_same_display_name(user_factory: Any) -> None:
    ben = user_factory()
    profiles.profile_update(
        user=ben, display_name="Ben Player", language="en", time_zone="UTC", preferences={}
    )
    taken = Client().post(
        "/accounts/signup/",
        {
            "email": "other@example.com",
            "display_name": " ben player ",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )
    assert taken.status_code == 200
    assert "Another player already uses this display name." in taken.content.decode()
    assert not get_user_model().objects.filter(email="other@example.com").exists()
    # In the settings: another's name is refused, one's own is kept.
    cy = user_factory()
    data = {"display_name": "BEN PLAYER", "language": "en", "time_zone": "UTC"}
    kinds = ("your_turn", "decision", "game_started", "game_over", "reminder", "seat_dropped")
    for kind in (*kinds, "timed_out", "invitation", *TOURNAMENT_KINDS):
        data[f"delivery_{kind}"] = "immediate"
    refused = client_for(cy).post("/settings", data)
    assert refused.status_code == 200
    assert "Another player already uses this display name." in refused.content.decode()
    assert seat_text.display_name(cy) != "BEN PLAYER"
    kept = client_for(ben).post("/settings", {**data, "display_name": "Ben Player"})
    assert kept.status_code == 302


@pytest.mark.parametrize(
    ("language", "said", "unsaid"),
    [("zh-hans", "退订", "Unsubscribe"), ("en", "Unsubscribe", "退订")],
)
def test_the_unsubscribe_page_speaks_the_recipients_language(
    language: str, said: str, unsaid: str
) -> None:
    """The link is the recipient's: their language, whatever the browser opening it says."""
    me = get_user_model().objects.create_user("reader", "reader@example.com", "pw")
    Profile.objects.update_or_create(user=me, defaults={"language": language})
    path = f"/unsubscribe/{sending.unsubscribe_token(me.pk, 'your_turn')}"
    other = "en" if language == "zh-hans" else "zh-hans"
    browser = Client(headers={"accept-language": other})
    for response in (browser.get(path), browser.post(path)):
        page = response.content.decode()
        assert response.status_code == 200
        assert f'<html lang="{language}">' in page and response["Content-Language"] == language
        heading = page.split("<h1>")[1].split("</h1>")[0]
        assert said in heading and unsaid not in heading
    assert people.preference_get(me.pk, "your_turn")[0] == Delivery.OFF
