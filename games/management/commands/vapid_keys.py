"""Make a VAPID key pair for browser push notifications and print it as settings (issue 29)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand
from py_vapid import Vapid

from games.push.keys import private_key_text, public_key_text


class Command(BaseCommand):
    help = (
        "Make a new VAPID key pair for browser push notifications and print the environment "
        "line to set (WEBPUSH_VAPID_PRIVATE_KEY) and the public key browsers will see. "
        "Changing the key makes every browser subscribe again."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        """Print ``WEBPUSH_VAPID_PRIVATE_KEY=…`` (base64url DER) and the public key."""
        vapid = Vapid()
        vapid.generate_keys()
        self.stdout.write(f"WEBPUSH_VAPID_PRIVATE_KEY={private_key_text(vapid)}")
        self.stdout.write(f"# public key (applicationServerKey): {public_key_text(vapid)}")
