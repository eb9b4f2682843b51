"""Create the demo accounts (known passwords) for the embedded mode; safe to run again."""

from __future__ import annotations

from typing import Any

from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

DEMO_PASSWORD = "tigris-demo"
DEMO_USERS = ("alice", "bob", "carol", "dave")


class Command(BaseCommand):
    help = "Create demo accounts with known passwords (embedded mode only)."

    @transaction.atomic
    def handle(self, *args: Any, **options: Any) -> None:
        User = get_user_model()
        for name in DEMO_USERS:
            user, created = User.objects.get_or_create(
                username=name, defaults={"email": f"{name}@example.com"}
            )
            if created:
                user.set_password(DEMO_PASSWORD)
                user.save()
            EmailAddress.objects.get_or_create(
                user=user, email=user.email, defaults={"verified": True, "primary": True}
            )
        self.stdout.write(
            f"Demo accounts (password for each: {DEMO_PASSWORD}): {', '.join(DEMO_USERS)}"
        )
