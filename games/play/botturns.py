"""Queue a bot's move when a game comes to wait on a bot's seat (issue 15).

Called by every path that changes whom a game waits on (``submit.action_apply``, and
``lifecycle.game_start`` when a bot plays first). It never plays: the move is the task
``games.tasks.play_bot_move(game_id, version)`` on the ``bots`` queue, queued by name
after the commit, so no player's request waits on a bot's thinking (DESIGN.md).
"""

from __future__ import annotations

from django.conf import settings

from games.core import queue
from games.models import Game, Move, Seat

TAKEOVER_TIER = "medium"  # plays a dropped or resigned seat of a 3–4 player game
TAKEOVER_MIN_PLAYERS = 3  # in a 2-player game the default policy plays it (issue 6)


def bot_tier_of(game: Game, seat: Seat) -> str | None:
    """Return the tier of the bot that plays ``seat`` of ``game``, or None for a person.

    A bot account's seat plays at its account's tier (reads ``seat.user.profile``); a
    seat dropped or resigned in a game of 3–4 players is taken over by the
    ``TAKEOVER_TIER`` bot for the rest of the game (issue 15); in a 2-player game the
    default policy keeps playing it (``submit.autoplay``).
    """
    if seat.is_bot:
        return str(seat.user.profile.bot_tier)
    if is_taken_over(game, seat):
        return TAKEOVER_TIER
    return None


def is_taken_over(game: Game, seat: Seat) -> bool:
    """Return whether the medium bot plays ``seat``: a person's, dropped, 3–4 players."""
    return seat.dropped_at is not None and game.num_players >= TAKEOVER_MIN_PLAYERS


def bot_played(game: Game, seat: Seat) -> bool:
    """Return whether a bot plays ``seat``: a bot account's seat, or one taken over."""
    return seat.is_bot or is_taken_over(game, seat)


def waiting_bot_seat(game: Game) -> Seat | None:
    """Return the bot-played seat ``game`` waits on now, or None (a person, not in progress).

    Reads ``game.seats.all()`` (prefetched by the submit service: no query then).
    """
    if game.status != Game.Status.ACTIVE or game.to_act_seat is None:
        return None
    seats = game.seats.all()
    return next((s for s in seats if s.position == game.to_act_seat and bot_played(game, s)), None)


def bot_to_act_mark(game: Game) -> bool:
    """Set ``game.bot_to_act`` to whether it waits on a bot-played seat now; return whether
    that changed (not saved: the caller saves it with the rest of the game's row).

    Call wherever whom a game waits on may change (a ply, an undo, the start, a dropped
    seat): the bots' sweep reads only the games marked so (``bots.games_waiting_on_bots``).
    Reads ``game.seats.all()`` (prefetched by the submit service: no query then).
    """
    waits = waiting_bot_seat(game) is not None
    changed = waits != game.bot_to_act
    game.bot_to_act = waits
    return changed


def bot_pause(after_source: str | None) -> float:
    """Return the seconds a bot waits before its next action (issue 29), by who played last.

    ``after_source`` is the ``Move.source`` of the ply just committed, None at the start.
    After a person's own move (``Move.Source.PLAYER``) or at the start: none — their move is
    on their page already (their submit's answer), so the bot's answer shows as soon as it is
    played, with nothing added to its thinking time. After an action played for a seat (a
    bot's, a dropped seat's, a standing order's): ``settings.BOT_PAUSE_SECONDS``, so a person
    sees that action on the page (about 0.2–0.4 s after its commit) before the next one
    replaces it: each action of a bot's turn, and each bot's turn in a game of several bots,
    appears on its own.
    """
    if after_source is None or after_source == Move.Source.PLAYER:
        return 0.0
    return float(settings.BOT_PAUSE_SECONDS)


def bot_turn_queue(*, game: Game, after_source: str | None = None) -> bool:
    """Queue ``play_bot_move(game.pk, game.version)`` on commit if ``game`` waits on a bot.

    Returns whether it was queued. With ``settings.BOTS_QUEUED`` off (the embedded mode,
    where tasks run eagerly, so in the request) nothing is queued: the sweeps process
    beside the server plays waiting bots (``bots.bots_sweep``). ``after_source`` is the
    ``Move.source`` of the ply just committed (None: the start, a seat taken over): the
    task waits ``bot_pause(after_source)`` first.
    """
    if not settings.BOTS_QUEUED or waiting_bot_seat(game) is None:
        return False
    pause = bot_pause(after_source)
    queue.enqueue_on_commit(queue.PLAY_BOT_MOVE, game.pk, game.version, countdown=pause or None)
    return True
