"""Pages of the games app."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from games.models import Game


@require_GET
def lobby(request: HttpRequest) -> HttpResponse:
    """Render the lobby: games in progress and open games."""
    games = Game.objects.exclude(status=Game.Status.ABORTED).order_by("-updated_at")[:50]
    return render(request, "games/lobby.html", {"games": games})
