"""Games, seats and the append-only move history (DESIGN.md, games/).

``Game.state`` is the engine's JSON snapshot after ``version`` plies; replaying every
``Move`` from ``Game.seed`` must give exactly that snapshot (``manage.py verify_games``).
The seed and the snapshot hold secrets (the bag order, every hand): they are never
rendered; pages receive only ``engine.view_for(state, seat)``.
"""

from __future__ import annotations

import secrets
from typing import ClassVar

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


def _new_seed() -> int:
    return secrets.randbits(63)


def _new_invite_token() -> str:
    return secrets.token_urlsafe(16)


class Game(models.Model):
    """One game of 2–4 seats, from the open lobby entry to the final ranking."""

    class Status(models.TextChoices):
        OPEN = "open", _("open")
        ACTIVE = "active", _("in progress")
        FINISHED = "finished", _("finished")
        ABORTED = "aborted", _("aborted")
        EXPIRED = "expired", _("expired")

    # What its creator chose: ``lifecycle.game_create``'s keywords of the same names, so a
    # rematch copies them all and an invitation tells them.
    SETTINGS: ClassVar[tuple[str, ...]] = (
        "num_players",
        "is_public",
        "is_rated",
        "open_scoring",
        "days_per_move",
        "vacation_allowed",
        "quiet_hours_allowed",
        "chat_spectators",
        "bank_days",
        "bank_increment_hours",
        "bank_cap_days",
    )

    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    num_players = models.PositiveSmallIntegerField()
    days_per_move = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Time per decision in days; empty means no limit."
    )
    is_public = models.BooleanField(default=True)
    is_rated = models.BooleanField(default=True)
    open_scoring = models.BooleanField(default=False)
    creator = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="created_games"
    )
    invite_token = models.CharField(max_length=32, unique=True, default=_new_invite_token)
    seed = models.BigIntegerField(default=_new_seed, editable=False)
    state = models.JSONField(null=True, blank=True, editable=False)
    version = models.PositiveIntegerField(default=0)
    # The waiting room's change marker (issue 29): one more at each seat taken or given up
    # and when an open game is aborted or expires, so an open game's page hears of a join
    # as a game in progress hears of a move (``version`` stays 0 until the game starts).
    waiting_mark = models.PositiveIntegerField(default=0, editable=False)
    to_act_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    # Whether a bot plays the seat to act now (issue 31): kept by ``botturns.bot_to_act_mark``
    # wherever ``to_act_seat`` or a seat's player changes, so the bots' sweep reads the games
    # waiting on a bot by their own index, never every game's seats.
    bot_to_act = models.BooleanField(default=False, editable=False)
    deadline = models.DateTimeField(null=True, blank=True)
    # Time controls (issue 6, games/clock.py): whose deadline ``deadline`` is, when its
    # clock started (vacation shifts it from there), when the one reminder is due (cleared
    # once sent), and whether the players' vacations pause this game's deadlines.
    deadline_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    deadline_set_at = models.DateTimeField(null=True, blank=True)
    reminder_at = models.DateTimeField(null=True, blank=True)
    # Standing orders (issue 17) answer in their own step, when a person might have
    # (issue 28, games.play.orderturns): when the answer to the waiting decision is due.
    order_due_at = models.DateTimeField(null=True, blank=True, db_index=True)
    vacation_allowed = models.BooleanField(
        default=True, help_text="Whether a player's vacation pauses this game's deadlines."
    )
    # Table talk (issue 18): the seated players write; spectators read unless the creator
    # turned that off. A rematch is a new game with the same settings, one per game.
    chat_spectators = models.BooleanField(
        default=True, help_text="Whether spectators may read the players' chat."
    )
    rematch_of = models.OneToOneField(
        "self", on_delete=models.SET_NULL, null=True, blank=True, related_name="rematch"
    )
    quiet_hours_allowed = models.BooleanField(
        default=True, help_text="Whether a player's quiet hours stop this game's clock."
    )
    # A time bank with increment (issue 17), instead of ``days_per_move``: each seat starts
    # with ``bank_days``, its clock runs only while the game waits on it (its
    # ``Seat.bank_seconds`` is what is left while stopped), and each of its turns that
    # ends adds ``bank_increment_hours``, up to ``bank_cap_days``.
    bank_days = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Time bank of each seat at the start, in days."
    )
    bank_increment_hours = models.PositiveSmallIntegerField(
        default=0, help_text="Hours added to a seat's bank at the end of each of its turns."
    )
    bank_cap_days = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="The most a seat's time bank may hold, in days."
    )
    # An event's playing hours (issue 30): the clock runs only from ``playing_start`` to
    # ``playing_end`` each day in ``playing_zone`` (``games.core.quiet.PlayingHours``);
    # empty: always. Set by a tournament's games, read with the row (no query of its own).
    playing_start = models.TimeField(null=True, blank=True)
    playing_end = models.TimeField(null=True, blank=True)
    playing_zone = models.CharField(max_length=64, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    rated_at = models.DateTimeField(
        null=True, blank=True, help_text="When the ratings were updated; set once (ratings.py)."
    )
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        indexes = [
            models.Index(fields=["status", "is_public"], name="game_lobby_idx"),
            models.Index(fields=["status", "deadline"], name="game_deadline_idx"),
            models.Index(fields=["status", "reminder_at"], name="game_reminder_idx"),
            # Games in progress by their last move (issue 31): the home page's games to
            # watch, the followed players' games and the bots' sweep walk this, so they read
            # the running games only, never the finished history.
            models.Index(
                fields=["-updated_at"],
                condition=models.Q(status="active"),
                name="game_active_moved_idx",
            ),
            models.Index(
                fields=["updated_at"],
                condition=models.Q(status="active", bot_to_act=True),
                name="game_waits_on_bot_idx",
            ),
            # The finished games' list, newest first, in keyset pages (issue 32) — read a
            # page's rows from here, not every game sorted (issue 31: 20,550 rows at 0.1).
            models.Index(
                models.F("finished_at").desc(),
                models.F("id").desc(),
                condition=models.Q(status="finished"),
                name="game_finished_idx",
            ),
        ]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(num_players__gte=2, num_players__lte=4),
                name="game_num_players_2_to_4",
            ),
        ]

    def __str__(self) -> str:
        return f"Game #{self.pk} ({self.num_players} players, {self.status})"


class Seat(models.Model):
    """A player's place in a game: seat number 1..N once the game starts, and results."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="seats"
    )
    position = models.PositiveSmallIntegerField(null=True, blank=True)

    class Dynasty(models.TextChoices):
        ARCHER = "archer", _("Archer")
        BULL = "bull", _("Bull")
        POT = "pot", _("Pot")
        LION = "lion", _("Lion")

    dynasty = models.CharField(max_length=10, blank=True, choices=Dynasty.choices)
    joined_at = models.DateTimeField(auto_now_add=True)
    final_rank = models.PositiveSmallIntegerField(null=True, blank=True)
    final_score = models.JSONField(null=True, blank=True)
    rating_before = models.FloatField(null=True, blank=True)
    rating_after = models.FloatField(null=True, blank=True)

    class DropReason(models.TextChoices):
        TIMEOUTS = "timeouts", _("timed out repeatedly")
        RESIGNED = "resigned", _("resigned")

    # Time controls (issue 6): consecutive timeouts (a human action resets it), and when and
    # why the seat was dropped — from then on the default policy plays it at once.
    timeouts_in_row = models.PositiveSmallIntegerField(default=0)
    dropped_at = models.DateTimeField(null=True, blank=True)
    drop_reason = models.CharField(max_length=10, blank=True, choices=DropReason.choices)
    # A bot account plays this seat (issue 15): copied from the profile when seated, so the
    # bots' sweep and ratings read the seat alone. One bot account may hold several seats
    # of a game (three easy bots), a person only one.
    is_bot = models.BooleanField(default=False)
    # The time left in this seat's bank while its clock is stopped (issue 17; a time-bank
    # game only): while it runs, ``Game.deadline`` is when the bank runs out.
    bank_seconds = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["game", "user"],
                condition=models.Q(is_bot=False),
                name="seat_one_per_user",
            ),
            models.UniqueConstraint(fields=["game", "position"], name="seat_unique_position"),
        ]
        indexes = [
            # A player's games newest first (the API's ?player= and /players/<id>/games, in
            # pages by id): read from the player's own seats in game order, not by walking
            # every seat of the site backwards until enough of theirs turn up (issue 31:
            # 16,863 rows at half the full size, 21 games returned).
            models.Index(fields=["user", "game"], name="seat_user_game_idx"),
            # A player's games not yet ranked (issue 31): a seat gets its final_rank only when
            # its game finishes (play.submit.game_finish), so these are the games in progress
            # and open (plus any aborted or expired): "My games", the waiting count and the
            # profile's running games read them, not the player's whole history.
            models.Index(
                fields=["user", "game"],
                condition=models.Q(final_rank__isnull=True),
                name="seat_unranked_user_idx",
            ),
        ]
        ordering = ["game", "position"]

    def __str__(self) -> str:
        return f"Seat {self.position} of game #{self.game_id}"


class MoveQuerySet(models.QuerySet["Move"]):
    """Moves, with the line of play (issue 16) as one filter every reader shares."""

    def played(self) -> MoveQuerySet:
        """Return these moves without the plies taken back nor the undo rows (issue 16)."""
        return self.filter(undone=False).exclude(action=Move.UNDO)


class Move(models.Model):
    """One applied engine action: ply ``n`` turns ``Game.state`` at version n-1 into n."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="moves")
    ply = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField()
    action = models.CharField(max_length=64)
    events = models.JSONField(default=list)

    class Source(models.TextChoices):
        PLAYER = "player", _("the player")
        TIMEOUT = "timeout", _("timeout")
        DROPPED = "dropped", _("dropped seat")
        BOT = "bot", _("bot")
        ORDER = "order", _("standing order")

    # Who chose the action: the player, the default policy at a timeout, the default
    # policy playing a dropped seat (issue 6; the log says so), a bot's account playing
    # its own seat (issue 15, ``games.play.bots``), or the player's standing order
    # (issue 17, ``games.play.orders``; secret: only the player's own log says so).
    source = models.CharField(max_length=10, choices=Source.choices, default=Source.PLAYER)
    # Undo within a turn (issue 16): the history stays append-only. Taking back ply n appends
    # an ``UNDO`` row (its own ply, so every version is one row and ``verify_games`` still
    # counts them) whose event names n, and marks row n ``undone``: kept for the record, left
    # out of the line of play (replays, bots' history, the log) by this one flag.
    undone = models.BooleanField(default=False, db_default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    UNDO = "undo"  # the action of an undo row: not an engine action

    objects = MoveQuerySet.as_manager()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "ply"], name="move_unique_ply"),
        ]
        ordering = ["game", "ply"]

    def __str__(self) -> str:
        # Not the notation: a swap's colours are secret until the game is over (admin pages
        # title a move by this).
        return f"#{self.game_id} ply {self.ply}"

    @property
    def is_undo(self) -> bool:
        """Return whether this row takes back an earlier ply (issue 16) instead of acting."""
        return self.action == self.UNDO

    @property
    def public_source(self) -> str:
        """Return ``source`` as anyone but the mover may know it: a standing order's answer
        reads as the player's own (issue 17: orders are secret, in pages, emails, the API
        and the admin alike)."""
        return self.Source.PLAYER if self.source == self.Source.ORDER else self.source

    @property
    def by_timeout(self) -> bool:
        """Return whether the default policy chose this action (timeout or dropped seat)."""
        return self.source in (self.Source.TIMEOUT, self.Source.DROPPED)
