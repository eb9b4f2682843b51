"""A move's side effects, in one place, called explicitly by the services (issues 27, 29).

The submit service (``games.play.submit``) and the lifecycle (``games.play.lifecycle``)
call these functions — no signal, no receiver — in the transaction that applies the change,
with the game row locked:

- rows that must commit or roll back with the move are written now: the outbox's
  notifications and webhook deliveries (exactly once, each with a unique key), the ratings
  of a finished game, the mover's last activity;
- what reaches outside the database runs only after the commit (``transaction.on_commit``,
  robust: nothing fails a committed move): the outbox's sending tasks (queued by the
  outbox itself), rendering the other players' partials ahead, and the live event that
  tells the open game pages the game's new version (``games.core.live``). With rendering
  ahead on, the worker publishes the event once the partials are stored, so the pages'
  fetches find them; without it, the committing process publishes at once.

Every process that commits a move passes here (a web request, a Celery worker, the bots'
worker, the sweeps, ``run_sweeps`` in the embedded mode), so every one publishes it.
"""

from __future__ import annotations

import logging
from functools import partial

from django.conf import settings
from django.core.exceptions import ObjectDoesNotExist
from django.db import transaction

import engine
from games.accounts import profiles, records
from games.core import live, queue
from games.models import Game, Move, Seat, TournamentTable
from games.outbox import notifications, webhooks
from games.play import ratings
from games.selectors.lobby import public_lists_changed

log = logging.getLogger(__name__)


def waiting_room_changed(*, game: Game) -> None:
    """A seat of the open ``game`` (row locked) was taken or given up, or the game closed.

    Count it in ``game.waiting_mark`` (saved now) and, after the commit, tell the open
    pages of its waiting room (``live.WaitingRoom``): the mark only, never who.
    """
    game.waiting_mark += 1
    game.save(update_fields=["waiting_mark", "updated_at"])
    public_lists_changed(watch=False)  # the home page's open games (selectors.lobby)
    live.publish_on_commit(live.WaitingRoom(game.pk), game.waiting_mark)


def game_started(*, game: Game) -> None:
    """The last seat filled and the engine state exists: tell every player, tell the pages."""
    notifications.notify_game_started(game=game)
    public_lists_changed()  # no longer open; a game to watch
    live.publish_on_commit(game.pk, game.version)


def move_applied(
    *, game: Game, move: Move, before: engine.GameState, after: engine.GameState
) -> None:
    """One ply (or an undo) was applied to the locked ``game``, now at ``move.ply``.

    Owe the turn notice (email and webhooks) to whoever the game now waits on; note that
    the mover was active (a person's own move only, not a timeout or a dropped seat);
    after the commit, publish the new version to the open pages — when
    ``settings.PRERENDER_PARTIALS``, only once the worker has rendered the other players'
    partials ahead (``games.web.prerender``). The cached public lists are left as they are
    (the games to watch lag moves by up to ``games.selectors.lobby.LIST_SECONDS``).
    ``before``/``after`` hold every secret: they go to the outbox's rules, never to a page.
    """
    by_bot = move.source == Move.Source.BOT
    # No ``public_lists_changed`` here (issue 31): the games to watch ("latest moved
    # first", their plies) may lag a move by the cache's ``LIST_SECONDS``, so a busy site's
    # moves do not make every next home page read its lists again; a game's end does drop
    # them (``game_finished``, ``game_aborted``).
    notifications.notify_move(game=game, ply=move.ply, before=before, after=after, by_bot=by_bot)
    webhooks.webhooks_notify_move(
        game=game, ply=move.ply, before=before, after=after, by_bot=by_bot
    )
    if settings.PRERENDER_PARTIALS:
        # The worker renders the waiting players' partials, then publishes the version: the
        # pages' fetches that follow the event are answered from the cache, instead of
        # racing the worker and rendering the same board again (issue 29).
        transaction.on_commit(
            partial(_render_ahead_then_publish, game.pk, game.version, move.seat), robust=True
        )
    else:
        live.publish_on_commit(game.pk, game.version)
    if move.source == Move.Source.PLAYER:
        _touch_mover(game, move.seat)


def _render_ahead_then_publish(game_id: int, version: int, mover: int | None) -> None:
    """Queue the rendering ahead of ``game_id`` at ``version``; it publishes the version.

    Runs after the commit, in the committing process: it publishes the version as *ahead*
    (the streams of the players whose partials are being rendered hold it back, for
    ``LIVE_AHEAD_WAIT_SECONDS`` at most, so a worker busy with emails delays them by no
    more; the mover's other tabs and the spectators hear it at once) and queues the task;
    neither the mover's answer nor a bot's next action waits for a render. A broker that
    does not answer (or an eager run that breaks) is logged and the version published at
    once: the pages then render their partials themselves, as without rendering ahead.
    """
    live.publish(game_id, version, ahead=True, mover=mover)
    try:
        queue.delay(queue.PRERENDER_PARTIALS, game_id, version, mover, True)
    except Exception as exc:  # the move stands whatever queueing raised; the pages must hear
        log.warning(
            "game %s v%s: not rendered ahead (%s); published at once", game_id, version, exc
        )
        live.publish(game_id, version)


def _touch_mover(game: Game, position: int) -> None:
    seat = next((s for s in game.seats.all() if s.position == position), None)
    if seat is None:
        return
    try:  # the submit service reads the seats with their users' profiles
        seen = seat.user.profile.last_active_at
    except ObjectDoesNotExist:
        seen = None
    profiles.profile_touch(user_id=seat.user_id, last_active_at=seen)


def game_finished(*, game: Game, ranking: list[engine.Placing]) -> None:
    """The game ended (seats hold their final places): rate it, tell every player and hook.

    Dropped seats rank last in the rating (``ratings.game_rate``); each player's kept
    record counts the game (``accounts.records``, issue 31: the profile reads those
    counts, not history), in this transaction; the live event was
    published by the last ply's ``move_applied``. A tournament's game queues its
    tournament's step (``games.tournaments.rounds.tournament_game_ended``).
    """
    public_lists_changed(open_games=False)  # no longer a game to watch
    dropped = game.seats.filter(dropped_at__isnull=False).values_list("position", flat=True)
    ratings.game_rate(
        game_id=game.pk, ranking=ranking, dropped_seats={p for p in dropped if p is not None}
    )
    # the players' kept records (issue 31): places, ratings after, against the bots
    facts = records.game_facts(game)
    records.game_changed(before=facts.with_status(Game.Status.ACTIVE), after=facts)
    notifications.notify_game_over(game=game)
    webhooks.webhooks_notify_game_over(game=game)
    if TournamentTable.objects.filter(game_id=game.pk).exists():
        # a tournament's table: record it and start the next round when it was the last
        # (issue 30); by task name, after the commit — play never imports the tournaments
        queue.enqueue_on_commit(queue.TOURNAMENT_GAME_ENDED, game.pk)


def seat_dropped(*, game: Game, seat: Seat) -> None:
    """``seat`` of the locked ``game`` was dropped (resigned or timed out) and the game goes
    on among other people: its player's kept record counts the drop now (the profile's
    "dropped" and reliability, ``accounts.records``)."""
    facts = records.game_facts(game)
    records.game_changed(before=facts.with_seat_undropped(seat.position), after=facts)


def game_aborted(*, game: Game, was: str, dropped_now: Seat | None = None) -> None:
    """The locked ``game`` was aborted (saved) from status ``was``: by an operator, or given
    up — ``dropped_now``, the seat whose drop left no person playing (``timeouts.seat_drop``).

    Every kept record forgets the game (a drop counted while it ran), except that each
    person's seat dropped in it counts as a loss against each bot in it (the game given up;
    ``accounts.records``); the public lists drop it (no longer a game to watch).
    """
    public_lists_changed(open_games=was == Game.Status.OPEN)  # no longer listed
    if was != Game.Status.ACTIVE:
        return  # an open game: no seat dropped, nothing counted
    facts = records.game_facts(game)
    before = facts.with_status(Game.Status.ACTIVE)
    if dropped_now is not None:  # its drop was never counted: the game ends with it
        before = before.with_seat_undropped(dropped_now.position)
    records.game_changed(before=before, after=facts)
