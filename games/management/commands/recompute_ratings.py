"""``manage.py recompute_ratings``: rebuild every rating from the finished games, in order."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from games.play import ratings


class Command(BaseCommand):
    """Reset all ratings and replay every rated game in finish order."""

    help = "Rebuild every player's rating from the history of finished rated games."

    def handle(self, *args: Any, **options: Any) -> None:
        """Run ``ratings.rebuild_all`` and report how many games were rated."""
        count = ratings.rebuild_all()
        self.stdout.write(f"rated {count} games")
