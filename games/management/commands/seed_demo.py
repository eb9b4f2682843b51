"""Create the demo accounts (known passwords) and a demo game in progress; safe to run again."""

from __future__ import annotations

import random
from typing import Any

from allauth.account.models import EmailAddress
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

import engine
from games.core.states import game_state
from games.models import Game
from games.play import lifecycle, submit

DEMO_PASSWORD = "tigris-demo"
DEMO_USERS = ("alice", "bob", "carol", "dave")
DEMO_PLAYERS = ("alice", "bob", "carol")
DEMO_PLIES = 12


class Command(BaseCommand):
    help = "Create demo accounts with known passwords and a 3-player demo game (embedded mode)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument(
            "--force",
            action="store_true",
            help="seed even with DEBUG off (the demo accounts' password is public)",
        )

    @transaction.atomic
    def handle(self, *args: Any, **options: Any) -> None:
        if not settings.DEBUG and not options["force"]:
            raise CommandError(
                "seed_demo creates accounts with a published password: it runs only with "
                "DEBUG on (the embedded mode), or with --force"
            )
        User = get_user_model()
        users = {}
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
            users[name] = user
        game = self._demo_game(users)
        self.stdout.write(
            f"Demo accounts (password for each: {DEMO_PASSWORD}): {', '.join(DEMO_USERS)}"
        )
        self.stdout.write(f"Demo game in progress: {settings.SITE_URL}/games/{game.pk}/")

    def _demo_game(self, users: dict[str, Any]) -> Game:
        """Return the demo game among alice, bob and carol, creating and advancing it once."""
        existing = (
            Game.objects.filter(creator=users["alice"], num_players=3, is_rated=False)
            .exclude(status=Game.Status.ABORTED)
            .order_by("pk")
            .first()
        )
        if existing is not None:
            return existing
        game = lifecycle.game_create(
            creator=users["alice"], num_players=3, is_rated=False, days_per_move=None
        )
        for name in DEMO_PLAYERS[1:]:
            lifecycle.game_join(game_id=game.pk, user=users[name])
        rng = random.Random(game.pk)
        seat_users = {s.position: s.user for s in game.seats.all()}
        for _ply in range(DEMO_PLIES):
            game.refresh_from_db()
            if game.status != Game.Status.ACTIVE:
                break
            seat = game.to_act_seat
            assert seat is not None
            view = engine.view_for(game_state(game), seat)
            # Prefer placements so the demo board shows something.
            placing = [
                a for a in view.actions if isinstance(a, engine.PlaceTile | engine.PlaceLeader)
            ]
            action = str(rng.choice(placing or list(view.actions)))
            submit.game_submit_action(
                game_id=game.pk,
                user=seat_users[seat],
                action=action,
                expected_version=game.version,
            )
        game.refresh_from_db()
        return game
