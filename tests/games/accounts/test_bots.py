"""Bot accounts (issue 15): one per tier, flagged, shown with their mark, unable to log in."""

from __future__ import annotations

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import authenticate, get_user_model
from django.test import Client

from games.accounts.bots import BOT_TIERS, bot_account
from games.models import Profile
from games.text.seats import BOT_MARK, display_name

pytestmark = pytest.mark.django_db


def test_the_migration_made_one_flagged_bot_a_tier() -> None:
    bots = Profile.objects.filter(is_bot=True).select_related("user")
    assert sorted(p.bot_tier for p in bots) == sorted(BOT_TIERS) == ["easy", "hard", "medium"]
    for profile in bots:
        assert not profile.user.has_usable_password()
        assert profile.user.email == ""
        assert bot_account(profile.bot_tier) == profile.user  # found, not made again


def test_a_missing_bot_is_made_again_the_same_way() -> None:
    Profile.objects.filter(is_bot=True, bot_tier="hard").delete()
    user = bot_account("hard")
    assert user.profile.is_bot and user.profile.bot_tier == "hard"
    assert not user.has_usable_password()
    with pytest.raises(ValueError, match="unknown bot tier"):
        bot_account("random")


def test_a_bot_made_again_never_takes_a_persons_account() -> None:
    """allauth names ``bot-hard@example.org`` ``bot-hard``: that person stays a person."""
    Profile.objects.filter(is_bot=True, bot_tier="hard").delete()
    get_user_model().objects.filter(username="bot-hard").delete()
    person = get_user_model().objects.create_user(
        "bot-hard", email="bot-hard@example.org", password="a long password"
    )
    bot = bot_account("hard")
    assert bot != person and bot.username == "bot-hard-2"
    person.refresh_from_db()
    assert person.has_usable_password() and person.email == "bot-hard@example.org"
    assert not Profile.objects.filter(user=person, is_bot=True).exists()


@pytest.mark.parametrize("password", ["", "!", "bot-medium", "password"])
def test_bots_cannot_log_in(password: str) -> None:
    bot = bot_account("medium")
    assert authenticate(username=bot.username, password=password) is None
    client = Client()
    response = client.post("/accounts/login/", {"login": bot.username, "password": password})
    assert "_auth_user_id" not in client.session
    assert response.status_code in (200, 400)  # the form again, with its error
    assert not EmailAddress.objects.filter(user=bot).exists()


def test_a_bot_shows_its_mark_and_tier_wherever_its_name_shows() -> None:
    assert display_name(bot_account("easy")) == f"{BOT_MARK} Bot (easy)"
    assert display_name(bot_account("hard")) == f"{BOT_MARK} Bot (hard)"
