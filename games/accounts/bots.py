"""The bot accounts (issue 15): one per tier, flagged on the profile, unable to log in.

Migration 0006 creates them; ``bot_account`` makes a missing one the same way (a test
database flushed between tests, a site restored from an old dump). A bot account has an
unusable password and no email address, so neither a login nor a password reset can
reach it; only ``games.play.bots`` plays for it.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction

from games.models import Profile

BOT_TIERS: tuple[str, ...] = tuple(Profile.BotTier.values)  # easy, medium, hard


def bot_username(tier: str) -> str:
    """Return a free username for a new bot of ``tier``: ``"bot-medium"``, else ``"bot-medium-2"``…

    A username already held by a person stays theirs (allauth makes usernames from email
    addresses, so ``bot-medium@…`` signs up as ``bot-medium``): a bot never takes an account.
    """
    users = get_user_model().objects
    name, n = f"bot-{tier}", 1
    while users.filter(username=name).exists():
        n += 1
        name = f"bot-{tier}-{n}"
    return name


def bot_account(tier: str) -> Any:
    """Return the user of the bot of ``tier`` (``easy``, ``medium``, ``hard``), made if missing.

    Raises ``ValueError`` for another tier. The account has an unusable password, no email
    address, and a profile with ``is_bot`` and ``bot_tier`` set.
    """
    if tier not in BOT_TIERS:
        raise ValueError(f"unknown bot tier {tier!r}: use one of {', '.join(BOT_TIERS)}")
    profile = Profile.objects.select_related("user").filter(is_bot=True, bot_tier=tier).first()
    if profile is not None:
        return profile.user
    with transaction.atomic():
        user = get_user_model()(username=bot_username(tier), email="")
        user.set_unusable_password()
        user.save()
        Profile.objects.update_or_create(
            user=user, defaults={"display_name": "", "is_bot": True, "bot_tier": tier}
        )
    return user
