"""Connect notifications, ratings and activity to the services' signals (``games.core.signals``).

Every receiver runs inside the service's transaction; imported once by ``GamesConfig.ready``.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth.signals import user_logged_in
from django.core.exceptions import ObjectDoesNotExist
from django.dispatch import receiver

import engine
from games.accounts import profiles
from games.core import queue, signals
from games.models import Game, Move
from games.outbox import notifications, webhooks
from games.play import ratings
from games.web.middleware import remember_language


@receiver(signals.game_started, dispatch_uid="games.notify_game_started")
def on_game_started(sender: Any, *, game: Game, **kwargs: Any) -> None:
    """Tell every player the game started."""
    notifications.notify_game_started(game=game)


@receiver(signals.move_applied, dispatch_uid="games.notify_move")
def on_move_applied(
    sender: Any,
    *,
    game: Game,
    move: Move,
    before: engine.GameState,
    after: engine.GameState,
    **kwargs: Any,
) -> None:
    """Tell whoever the game now waits on, note that the mover was active, and (when
    ``settings.PRERENDER_PARTIALS``) render the other players' partials once it commits."""
    notifications.notify_move(
        game=game,
        ply=move.ply,
        before=before,
        after=after,
        by_bot=move.source == Move.Source.BOT,
    )
    if settings.PRERENDER_PARTIALS:
        # robust: a broker that does not answer, or an eager run that fails, is logged;
        # the move stands and the polls render.
        queue.enqueue_on_commit(queue.PRERENDER_PARTIALS, game.pk, game.version, move.seat)
    if move.source != Move.Source.PLAYER:
        return  # the default policy played (timeout or dropped seat): the player was not here
    seat = next((s for s in game.seats.all() if s.position == move.seat), None)
    if seat is not None:
        try:  # the submit service reads the seats with their users' profiles
            seen = seat.user.profile.last_active_at
        except ObjectDoesNotExist:
            seen = None
        profiles.profile_touch(user_id=seat.user_id, last_active_at=seen)


@receiver(signals.game_finished, dispatch_uid="games.game_finished")
def on_game_finished(
    sender: Any, *, game: Game, ranking: list[engine.Placing], **kwargs: Any
) -> None:
    """Rate the game (if it counts; dropped seats rank last) and tell every player the result."""
    dropped = game.seats.filter(dropped_at__isnull=False).values_list("position", flat=True)
    ratings.game_rate(
        game_id=game.pk, ranking=ranking, dropped_seats={p for p in dropped if p is not None}
    )
    notifications.notify_game_over(game=game)


@receiver(signals.move_applied, dispatch_uid="games.webhooks_move")
def on_move_applied_webhooks(
    sender: Any,
    *,
    game: Game,
    move: Move,
    before: engine.GameState,
    after: engine.GameState,
    **kwargs: Any,
) -> None:
    """Owe a turn notice to the webhooks of whoever the game now waits on (issue 19)."""
    webhooks.webhooks_notify_move(
        game=game,
        ply=move.ply,
        before=before,
        after=after,
        by_bot=move.source == Move.Source.BOT,
    )


@receiver(signals.game_finished, dispatch_uid="games.webhooks_game_over")
def on_game_finished_webhooks(sender: Any, *, game: Game, **kwargs: Any) -> None:
    """Owe a game-over notice to every player's webhooks (issue 19)."""
    webhooks.webhooks_notify_game_over(game=game)


@receiver(user_logged_in, dispatch_uid="games.language_at_login")
def on_user_logged_in(sender: Any, *, request: Any, user: Any, **kwargs: Any) -> None:
    """Speak the account's language from the first page after logging in."""
    if request is not None and hasattr(request, "session"):
        remember_language(request, profiles.profile_get(user).language, user=user)
