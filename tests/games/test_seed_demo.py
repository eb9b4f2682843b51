"""``manage.py seed_demo``: the demo accounts and game, never in production."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.management import CommandError, call_command

from games.models import Game, Profile

pytestmark = pytest.mark.django_db


def test_the_demo_seed_refuses_to_run_in_production(settings: Any) -> None:
    settings.DEBUG = False
    with pytest.raises(CommandError, match="published password"):
        call_command("seed_demo")
    assert not Profile.objects.filter(is_bot=False).exists() and not Game.objects.exists()
