"""Create the three bot accounts (issue 15): one per tier, unable to log in, no email address.

``games.accounts.bots.bot_account`` makes the same account when one is missing (a test
database flushed between tests); both give it an unusable password and no ``EmailAddress``.
A username already held by a person (allauth makes usernames from email addresses, so
``bot-easy@…`` signs up as ``bot-easy``) stays theirs: the bot takes ``bot-easy-2``.
"""

from django.conf import settings
from django.contrib.auth.hashers import make_password
from django.db import migrations

TIERS = ("easy", "medium", "hard")


def create_bots(apps, schema_editor):
    User = apps.get_model(*settings.AUTH_USER_MODEL.split("."))
    Profile = apps.get_model("games", "Profile")
    for tier in TIERS:
        name, n = f"bot-{tier}", 1
        while User.objects.filter(username=name).exists():
            n += 1
            name = f"bot-{tier}-{n}"
        user = User.objects.create(
            username=name, email="", password=make_password(None), is_active=True
        )
        Profile.objects.update_or_create(
            user=user,
            defaults={"display_name": "", "is_bot": True, "bot_tier": tier},
        )


def remove_bots(apps, schema_editor):
    Profile = apps.get_model("games", "Profile")
    Profile.objects.filter(is_bot=True).update(is_bot=False, bot_tier="")


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0009_bot_accounts_and_moves"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [migrations.RunPython(create_bots, remove_bots)]
