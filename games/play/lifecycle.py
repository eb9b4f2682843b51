"""A game's life around play: created, joined, left, started, aborted, expired."""

from __future__ import annotations

import random
from collections.abc import Sequence
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Exists, OuterRef
from django.utils import timezone
from django.utils.translation import gettext as _

import engine
from games.accounts.bots import BOT_TIERS, bot_account
from games.core.errors import GameNotActive, JoinRefused, NotAPlayer
from games.core.quiet import PlayingHours
from games.core.states import state_to_db
from games.core.timecontrol import time_control
from games.models import Game, NotificationKind, Seat
from games.outbox import notifications
from games.play import effects
from games.play.access import UserLike, locked_game, user_id_of
from games.play.botturns import bot_to_act_mark, bot_turn_queue
from games.play.deadlines import banks_fill, clock_start
from games.selectors.lobby import public_lists_changed

OPEN_GAME_LIFETIME = timedelta(days=14)


def game_create(
    *,
    creator: UserLike,
    num_players: int,
    is_public: bool = True,
    is_rated: bool = True,
    open_scoring: bool = False,
    days_per_move: int | None = 3,
    vacation_allowed: bool = True,
    quiet_hours_allowed: bool = True,
    bots: Sequence[str] = (),
    chat_spectators: bool = True,
    bank_days: int | None = None,
    bank_increment_hours: int = 0,
    bank_cap_days: int | None = None,
    playing_hours: PlayingHours | None = None,
) -> Game:
    """Create an open game of ``num_players`` (2–4) seats and seat its creator.

    The time control (``games.core.timecontrol.time_control``): ``days_per_move`` is the
    time per decision in days (None: no limit, unrated games only); ``bank_days`` instead
    gives each seat a time bank of that many days, which runs only while the game waits on
    the seat and gains ``bank_increment_hours`` at the end of each of its turns, up to
    ``bank_cap_days`` (at least ``bank_days``; issue 17).
    ``vacation_allowed`` False means players' vacations do not pause its deadlines,
    ``quiet_hours_allowed`` False that their quiet hours do not stop its clock (issue 17).
    ``bots`` names a tier (``easy``, ``medium``, ``hard``) for each other seat a bot takes
    (issue 15): a game with a bot is unrated, whatever ``is_rated`` says, and a game whose
    seats are then all taken starts at once. Raises ``JoinRefused`` for a player count
    outside 2–4, a rated game without a limit, an unknown tier or more bots than other seats.
    ``chat_spectators`` False keeps the players' chat from spectators (issue 18).
    ``playing_hours`` (an event's, issue 30): the clock runs only inside them each day.
    """
    creator_id = user_id_of(creator)
    if not 2 <= num_players <= 4:
        raise JoinRefused(_("A game has 2 to 4 players."))
    if any(tier not in BOT_TIERS for tier in bots):
        raise JoinRefused(_("A bot is easy, medium or hard."))
    if len(bots) > num_players - 1:
        raise JoinRefused(_("Bots can take only the seats other than yours."))
    if bots:
        is_rated = False  # ratings measure people against people
        running = bot_games_running(creator_id)
        if running >= settings.BOT_GAMES_PER_ACCOUNT:
            raise JoinRefused(
                _(
                    "You already have %(n)s games with bots open or in progress, the most "
                    "one account may have: finish or resign one first."
                )
                % {"n": running}
            )
    control = time_control(
        days_per_move=days_per_move,
        bank_days=bank_days,
        bank_increment_hours=bank_increment_hours,
        bank_cap_days=bank_cap_days,
    )
    if is_rated and not control.limited:
        raise JoinRefused(_("A rated game needs a time limit per move."))
    with transaction.atomic():
        game = Game.objects.create(
            creator_id=creator_id,
            num_players=num_players,
            is_public=is_public,
            is_rated=is_rated,
            open_scoring=open_scoring,
            vacation_allowed=vacation_allowed,
            chat_spectators=chat_spectators,
            quiet_hours_allowed=quiet_hours_allowed,
            **control.fields(),  # one time control, stored as its fields (games.core.timecontrol)
            playing_start=playing_hours.start if playing_hours else None,
            playing_end=playing_hours.end if playing_hours else None,
            playing_zone=playing_hours.zone if playing_hours else "",
        )
        Seat.objects.create(game=game, user_id=creator_id)
        for tier in bots:
            Seat.objects.create(game=game, user=bot_account(tier), is_bot=True)
        if 1 + len(bots) == num_players:
            game_start(game=game)
        else:
            public_lists_changed(watch=False)  # a new open game on the home page
    return game


def bot_games_running(user_id: int) -> int:
    """Return how many games with a bot seat ``user_id`` plays in, open or in progress.

    Their seat not dropped: a game they resigned from has ended (``timeouts.seat_drop``)
    or goes on among other people. Bounded by ``settings.BOT_GAMES_PER_ACCOUNT`` (issue
    28: one account's bot games may not take the bots' workers from everyone else).
    """
    return (
        Game.objects.filter(
            status__in=(Game.Status.OPEN, Game.Status.ACTIVE),
            seats__user_id=user_id,
            seats__dropped_at__isnull=True,
        )
        .filter(Exists(Seat.objects.filter(game_id=OuterRef("pk"), is_bot=True)))
        .count()
    )


QUICK_BOT_TIER = "medium"  # "Play a bot now" (issue 15)


def game_against_bot_create(*, creator: UserLike, tier: str = QUICK_BOT_TIER) -> Game:
    """Create and start "Play a bot now": ``creator`` against the bot of ``tier``, 2 players.

    Unrated, public (anyone may watch), no time limit; the order of play is drawn at the
    start (``game_start``, RULES.md §1.3), so the bot moves first half the time. Raises
    ``NotAPlayer`` (anonymous) or ``JoinRefused`` (unknown tier).
    """
    return game_create(
        creator=creator, num_players=2, is_rated=False, days_per_move=None, bots=(tier,)
    )


def game_join(*, game_id: int, user: UserLike, invite_token: str | None = None) -> Game:
    """Seat ``user`` in the open game ``game_id``; start the game when the last seat fills.

    A private game needs its ``invite_token``. Raises ``GameNotFound``, ``GameNotActive``
    (not open any more), ``JoinRefused`` (already seated, full, wrong invitation) or
    ``NotAPlayer`` (anonymous).
    """
    user_id = user_id_of(user)
    with transaction.atomic():
        game = locked_game(game_id)
        if game.status != Game.Status.OPEN:
            raise GameNotActive(_("This game is not open for joining."))
        if not game.is_public and invite_token != game.invite_token:
            raise JoinRefused(_("This game is private: you need its invitation link."))
        seats = list(game.seats.all())
        if any(seat.user_id == user_id for seat in seats):
            raise JoinRefused(_("You already have a seat in this game."))
        if len(seats) >= game.num_players:
            raise JoinRefused(_("This game is full."))
        Seat.objects.create(game=game, user_id=user_id)
        effects.waiting_room_changed(game=game)
        if len(seats) + 1 == game.num_players:
            game_start(game=game)
    return game


def game_leave(*, game_id: int, user: UserLike) -> Game:
    """Give up ``user``'s seat in an open game; a game left empty is aborted.

    Raises ``GameNotFound``, ``GameNotActive`` (already started) or ``NotAPlayer``.
    """
    user_id = user_id_of(user)
    with transaction.atomic():
        game = locked_game(game_id)
        if game.status != Game.Status.OPEN:
            raise GameNotActive(_("The game has started: you can no longer leave it."))
        deleted, _unused = Seat.objects.filter(game=game, user_id=user_id).delete()
        if not deleted:
            raise NotAPlayer()
        if not game.seats.exists():
            game.status = Game.Status.ABORTED
            game.save(update_fields=["status", "updated_at"])
        effects.waiting_room_changed(game=game)
    return game


def game_start(*, game: Game) -> Game:
    """Start a full open game: random seat order and dynasties, then ``engine.new_game``.

    Call it inside a transaction holding the game's row lock (``game_join`` does).
    The engine is seeded with ``game.seed`` (secret) and ``game.open_scoring``.
    Raises ``GameNotActive`` if the game is not open or ``JoinRefused`` if not full.
    """
    if game.status != Game.Status.OPEN:
        raise GameNotActive(_("This game has already started."))
    seats = list(game.seats.all())
    if len(seats) != game.num_players:
        raise JoinRefused(_("The game starts when every seat is taken."))
    rng = random.SystemRandom()
    rng.shuffle(seats)
    dynasties = [d.value for d in Seat.Dynasty]
    rng.shuffle(dynasties)
    for position, (seat, dynasty) in enumerate(zip(seats, dynasties, strict=False), start=1):
        seat.position = position
        seat.dynasty = dynasty
        seat.save(update_fields=["position", "dynasty"])
    state = engine.new_game(game.num_players, game.seed, open_scoring=game.open_scoring)
    game.state = state_to_db(state)
    game.version = 0
    game.status = Game.Status.ACTIVE
    game.to_act_seat = state.to_act
    game.started_at = timezone.now()
    banks_fill(game)
    clock_start(game)
    bot_to_act_mark(game)
    game.save()
    effects.game_started(game=game)
    bot_turn_queue(game=game)  # a bot may play first
    return game


def game_abort(*, game_id: int) -> Game:
    """Abort an open or active game (operators, from the admin); finished games stay.

    Every person seated is emailed (``game_aborted``): the game vanishes from their list of
    games in progress, and nothing else would tell them why.

    Raises ``GameNotFound`` or ``GameNotActive`` for a finished or already aborted game.
    """
    with transaction.atomic():
        game = locked_game(game_id)
        if game.status not in (Game.Status.OPEN, Game.Status.ACTIVE):
            raise GameNotActive(_("Only open games and games in progress can be aborted."))
        was_open = game.status == Game.Status.OPEN
        game.status = Game.Status.ABORTED
        game.to_act_seat = None
        game.deadline = None
        game.save(update_fields=["status", "to_act_seat", "deadline", "updated_at"])
        notifications.notify_game_aborted(game=game)
        if was_open:
            effects.waiting_room_changed(game=game)
        else:  # no longer a game to watch; the players' kept records forget it
            effects.game_aborted(game=game, was=Game.Status.ACTIVE)
    return game


def game_expire(*, game_id: int) -> bool:
    """Expire an open game created more than ``OPEN_GAME_LIFETIME`` ago; tell its creator.

    Returns whether it expired now (False when it filled, was left, or expired already).
    """
    with transaction.atomic():
        game = locked_game(game_id)
        if game.status != Game.Status.OPEN or game.created_at > timezone.now() - OPEN_GAME_LIFETIME:
            return False
        game.status = Game.Status.EXPIRED
        game.save(update_fields=["status", "updated_at"])
        effects.waiting_room_changed(game=game)
        notifications.notification_create(
            user_id=game.creator_id,
            game=game,
            ply=0,
            kind=NotificationKind.GAME_EXPIRED,
        )
    return True
