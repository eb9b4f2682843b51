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
    """Return the username of the bot of ``tier``: ``"bot-medium"``."""
    return f"bot-{tier}"


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
        user, created = get_user_model().objects.get_or_create(
            username=bot_username(tier), defaults={"email": ""}
        )
        if created:
            user.set_unusable_password()
            user.save(update_fields=["password"])
        Profile.objects.update_or_create(
            user=user, defaults={"display_name": "", "is_bot": True, "bot_tier": tier}
        )
    return user
