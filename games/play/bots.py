"""Bots play their seats (issue 15): one action a task, through the human's submit service.

``bot_move_play(game_id=…, version=…)`` is what ``games.tasks.play_bot_move`` runs: it
reads the game without locking it (a bot may think for seconds; nobody waits on that
lock), does nothing when the game moved on from ``version`` or waits on a person, builds
what the bot's seat sees — ``engine.view_for(state, seat)`` and the events its log showed
(``engine.event_visible``, RULES.md §14) — asks ``engine.bots.choose_action`` and submits
the answer with ``game_submit_action`` (``Move.source`` bot) at ``version``. A move that
lost a race is refused there as stale, so a task run twice plays once. The submit queues
the bot's next action when the game still waits on a bot (``botturns``).

``bots_sweep`` finds games left waiting on a bot (a lost task, a worker restarted): with a
broker it queues their task again; in the embedded mode it plays them itself, one action
each a run (the sweeps process runs it every second, ``settings.BOT_SWEEP_AFTER_SECONDS``).
"""

from __future__ import annotations

import logging
from datetime import timedelta
from itertools import zip_longest

from django.conf import settings
from django.utils import timezone

import engine
import engine.bots
from games.core import queue
from games.core.errors import GameNotActive, GameNotFound, NotYourTurn, StaleVersion
from games.core.states import state_from_db
from games.models import Game, Move
from games.play.botturns import (
    TAKEOVER_TIER,
    bot_pause,
    bot_tier_of,
    waiting_bot_seat,
)
from games.play.submit import game_submit_action
from games.selectors import games as selectors
from games.selectors.moves import moves_all

log = logging.getLogger(__name__)

SWEEP_BATCH = 200


def seen_events(game_id: int, *, seat: int) -> list[list[dict[str, object]]]:
    """Return, ply by ply, the events seat ``seat``'s log showed in game ``game_id``.

    One list per stored ``Move`` (in ply order) of the events ``engine.event_visible``
    lets that seat see while the game runs: another seat's swapped colours never
    (RULES.md §14). The shape ``engine.bots.choose_action`` takes as its history.
    """
    return [
        [dict(e) for e in move.events if engine.event_visible(e, seat, game_over=False)]
        for move in moves_all(game_id)
    ]


def bot_move_play(*, game_id: int, version: int) -> Move | None:
    """Play the bot's action in game ``game_id`` at ``version``; return its ``Move`` or None.

    None when there is nothing to do: no such game, not in progress, at another version,
    waiting on a person, or beaten to it (the submit refused the move as stale). The bot
    sees only its seat's view and visible history; its tier is its account's
    (``Profile.bot_tier``, or medium for a seat it took over), its seed the version (never
    the game's seed).
    """
    game = selectors.with_seats(Game.objects.filter(pk=game_id)).first()
    if game is None or game.version != version:
        return None
    seat = waiting_bot_seat(game)
    if seat is None or seat.position is None:
        return None
    tier = bot_tier_of(game, seat) or TAKEOVER_TIER
    state = state_from_db(game.state or {})
    view = engine.view_for(state, seat.position)
    action = engine.bots.choose_action(
        view,
        seen_events(game_id, seat=seat.position),
        tier=tier,
        seed=version,
        time_limit=settings.BOT_HARD_TIME_LIMIT,
    )
    try:
        result = game_submit_action(
            game_id=game_id,
            user=seat.user,
            action=str(action),
            expected_version=version,
            seat=seat.position,
            source=Move.Source.BOT,
        )
    except (GameNotFound, GameNotActive, StaleVersion, NotYourTurn):
        return None  # the game moved on while the bot thought: that run is the one that counts
    return result.move


def games_waiting_on_bots(*, older_than: timedelta) -> list[tuple[int, int]]:
    """Return ``(game id, version)`` of games in progress waiting on a bot-played seat.

    A bot account's seat, or a dropped seat of a 3–4 player game (``botturns``), as
    ``Game.bot_to_act`` marks it.

    Only those unchanged for ``older_than`` (``Game.updated_at``), at most
    ``SWEEP_BATCH``, fairly between accounts (issue 28): the longest waiting game of each
    creator first, then each one's second, and so on, so one account's many bot games do
    not hold back another's (``fair_order``).
    """
    # The games marked as waiting on a bot (``botturns.bot_to_act_mark``), by their own
    # index (issue 31): the sweep reads the games due and no other row. Asking the seats
    # instead read every seat of every game ever played, each run.
    games = Game.objects.filter(
        status=Game.Status.ACTIVE, bot_to_act=True, updated_at__lte=timezone.now() - older_than
    )
    rows = games.order_by("updated_at").values_list("pk", "version", "creator_id")
    return fair_order(list(rows[: SWEEP_BATCH * 4]))[:SWEEP_BATCH]


def fair_order(rows: list[tuple[int, int, int]]) -> list[tuple[int, int]]:
    """Return ``(game id, version)`` of ``rows`` (id, version, account) round-robin by account.

    ``rows`` are in waiting order; the result takes each account's first, then each
    one's second…, accounts in the order of their first game.
    """
    queues: dict[int, list[tuple[int, int]]] = {}
    for pk, version, account in rows:
        queues.setdefault(account, []).append((pk, version))
    return [row for turn in zip_longest(*queues.values()) for row in turn if row is not None]


def _pausing(game_id: int, version: int) -> bool:
    """Return whether ply ``version`` of ``game_id`` is younger than its ``bot_pause``.

    One indexed query (the game's last move); a game at version 0 has none and never waits.
    """
    last = Move.objects.filter(game_id=game_id, ply=version).values_list("source", "created_at")
    row = last.first()
    if row is None:
        return False
    source, played_at = row
    return timezone.now() - played_at < timedelta(seconds=bot_pause(source))


def bots_sweep() -> int:
    """Move every game left waiting on a bot; return how many were queued or played.

    Waiting means unchanged for ``settings.BOT_SWEEP_AFTER_SECONDS``. With
    ``settings.BOTS_QUEUED`` (a broker) each game's task is queued again (the task is
    idempotent by version, so one also still queued plays once); without (the embedded
    mode) the sweep plays one action of each game here, at once after a person's move and
    ``botturns.bot_pause`` after any other (so a bot's turn appears action by action, as
    with a broker). A failing game is logged and the others still move.
    """
    waiting = games_waiting_on_bots(older_than=timedelta(seconds=settings.BOT_SWEEP_AFTER_SECONDS))
    done = 0
    for game_id, version in waiting:
        if settings.BOTS_QUEUED:
            queue.enqueue(queue.PLAY_BOT_MOVE, game_id, version)
            done += 1
            continue
        if _pausing(game_id, version):  # the last action shows first (botturns.bot_pause)
            continue
        try:
            done += bot_move_play(game_id=game_id, version=version) is not None
        except Exception:  # one broken game must not stop every other bot
            log.exception("bot move of game %s failed", game_id)
    return done
