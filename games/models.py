"""Games, seats and the append-only move history (DESIGN.md, games/).

``Game.state`` is the engine's JSON snapshot after ``version`` plies; replaying every
``Move`` from ``Game.seed`` must give exactly that snapshot (``manage.py verify_games``).
The seed and the snapshot hold secrets (the bag order, every hand): they are never
rendered; pages receive only ``engine.view_for(state, seat)``.
"""

from __future__ import annotations

import secrets
from typing import Any

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from games.text import names


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
    to_act_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    deadline = models.DateTimeField(null=True, blank=True)
    # Time controls (issue 6, games/clock.py): whose deadline ``deadline`` is, when its
    # clock started (vacation shifts it from there), when the one reminder is due (cleared
    # once sent), and whether the players' vacations pause this game's deadlines.
    deadline_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    deadline_set_at = models.DateTimeField(null=True, blank=True)
    reminder_at = models.DateTimeField(null=True, blank=True)
    vacation_allowed = models.BooleanField(
        default=True, help_text="Whether a player's vacation pauses this game's deadlines."
    )
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

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["game", "user"],
                condition=models.Q(is_bot=False),
                name="seat_one_per_user",
            ),
            models.UniqueConstraint(fields=["game", "position"], name="seat_unique_position"),
        ]
        ordering = ["game", "position"]

    def __str__(self) -> str:
        return f"Seat {self.position} of game #{self.game_id}"


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

    # Who chose the action: the player, the default policy at a timeout, the default
    # policy playing a dropped seat (issue 6; the log says so), or a bot's account playing
    # its own seat (issue 15, ``games.play.bots``).
    source = models.CharField(max_length=10, choices=Source.choices, default=Source.PLAYER)
    # Undo within a turn (issue 16): the history stays append-only. Taking back ply n appends
    # an ``UNDO`` row (its own ply, so every version is one row and ``verify_games`` still
    # counts them) whose event names n, and marks row n ``undone``: kept for the record, left
    # out of the line of play (replays, bots' history, the log) by this one flag.
    undone = models.BooleanField(default=False, db_default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    UNDO = "undo"  # the action of an undo row: not an engine action

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
    def by_timeout(self) -> bool:
        """Return whether the default policy chose this action (timeout or dropped seat)."""
        return self.source in (self.Source.TIMEOUT, self.Source.DROPPED)


# --------------------------------------------------------------------------- accounts,
# notifications and ratings (issue 5): profiles, the email outbox, per-kind preferences.


class Profile(models.Model):
    """A player's public face and rating; one per user, made on first use (``profiles.py``).

    ``rating_mu``/``rating_sigma`` are the OpenSkill Plackett–Luce rating; the number shown
    is ``ratings.display_rating`` (provisional until ``ratings.PROVISIONAL_GAMES`` games).
    """

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile"
    )
    display_name = models.CharField(max_length=40, blank=True)
    rating_mu = models.FloatField(default=25.0)
    rating_sigma = models.FloatField(default=25.0 / 3)
    rated_games = models.PositiveIntegerField(default=0)
    language = models.CharField(max_length=10, choices=settings.LANGUAGES, default="en")
    time_zone = models.CharField(max_length=64, default="UTC")
    last_active_at = models.DateTimeField(null=True, blank=True)
    confirm_actions = models.BooleanField(
        default=True, help_text="Ask for a confirmation in words before an action is sent."
    )
    # The look-alike key of ``display_name`` (games/text/names.py), set by ``save``; unique, so
    # two players who look alike never both exist. An empty key (no name) claims nothing.
    name_key = models.CharField(max_length=names.MAX_KEY_LENGTH, blank=True, editable=False)

    class BotTier(models.TextChoices):
        """The strength of a bot account (``engine.bots.TIERS`` without ``random``)."""

        EASY = "easy", _("easy")
        MEDIUM = "medium", _("medium")
        HARD = "hard", _("hard")

    # Bot accounts (issue 15): one per tier, made by migration 0010, with an unusable
    # password and no email address; ``bot_tier`` is empty for people.
    is_bot = models.BooleanField(default=False)
    bot_tier = models.CharField(max_length=10, blank=True, choices=BotTier.choices)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["name_key"],
                condition=~models.Q(name_key=""),
                name="profile_name_key_unique",
            ),
            models.CheckConstraint(
                condition=models.Q(is_bot=False, bot_tier="") | models.Q(is_bot=True),
                name="profile_tier_only_for_bots",
            ),
            models.UniqueConstraint(
                fields=["bot_tier"], condition=models.Q(is_bot=True), name="profile_one_bot_a_tier"
            ),
        ]

    def __str__(self) -> str:
        return self.display_name or f"user {self.user_id}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        """Save with ``name_key`` following ``display_name`` (also under ``update_fields``)."""
        self.name_key = names.name_key(self.display_name)
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and "display_name" in update_fields:
            kwargs["update_fields"] = {*update_fields, "name_key"}
        super().save(*args, **kwargs)


class NotificationKind(models.TextChoices):
    """What an email is about (DESIGN.md, Notification)."""

    YOUR_TURN = "your_turn", _("your move")
    DECISION = "decision", _("decision needed")
    GAME_STARTED = "game_started", _("game started")
    GAME_OVER = "game_over", _("game over")
    REMINDER = "reminder", _("deadline reminder")
    SEAT_DROPPED = "seat_dropped", _("seat dropped")
    GAME_EXPIRED = "game_expired", _("open game expired")
    VACATION_ENDED = "vacation_ended", _("vacation ended")


class Delivery(models.TextChoices):
    """How a user wants one kind of email: at once, gathered after N minutes, daily, never."""

    IMMEDIATE = "immediate", _("immediately")
    BATCHED = "batched", _("batched")
    DIGEST = "digest", _("daily digest")
    OFF = "off", _("off")


class NotificationPreference(models.Model):
    """One user's choice for one kind; a missing row means immediate delivery."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notification_prefs"
    )
    kind = models.CharField(max_length=20, choices=NotificationKind.choices)
    delivery = models.CharField(max_length=10, choices=Delivery.choices, default=Delivery.IMMEDIATE)
    batch_minutes = models.PositiveSmallIntegerField(default=15)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "kind"], name="notification_pref_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} {self.kind}: {self.delivery}"


class Notification(models.Model):
    """The outbox: one email owed to ``user`` about ``game`` at ``ply`` (exactly once).

    Written in the transaction that applies the move; ``tasks.send_notification`` claims a
    pending row (pending → sending), sends it and marks it sent with the Message-ID.
    Batched and digest rows wait until ``send_after`` and are sent together by beat.
    """

    class Status(models.TextChoices):
        PENDING = "pending", _("pending")
        SENDING = "sending", _("sending")
        SENT = "sent", _("sent")
        FAILED = "failed", _("failed")
        SKIPPED = "skipped", _("skipped")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications"
    )
    # Empty only for account-level emails (vacation ended), which concern no one game.
    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="notifications", null=True, blank=True
    )
    ply = models.PositiveIntegerField()
    kind = models.CharField(max_length=20, choices=NotificationKind.choices)
    delivery = models.CharField(max_length=10, choices=Delivery.choices, default=Delivery.IMMEDIATE)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    send_after = models.DateTimeField()
    attempts = models.PositiveSmallIntegerField(default=0)
    error = models.TextField(blank=True)
    message_id = models.CharField(max_length=255, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    claimed_at = models.DateTimeField(null=True, blank=True)
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["user", "game", "ply", "kind"], name="notification_once"
            ),
        ]
        indexes = [
            models.Index(fields=["status", "delivery", "send_after"], name="outbox_due_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} to {self.user_id} for #{self.game_id} ply {self.ply} ({self.status})"


# --------------------------------------------------------------------------- time controls
# (issue 6): vacations pause the deadlines of a player's decisions (games/vacations.py).


class Vacation(models.Model):
    """One vacation of a user: from ``starts_at`` to ``ends_at`` (planned) or ``ended_at``.

    Days count against the calendar year in which the vacation starts
    (``vacations.VACATION_DAYS_PER_YEAR``), in whole days started.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="vacations"
    )
    starts_at = models.DateTimeField()
    ends_at = models.DateTimeField()
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["ended_at", "ends_at"], name="vacation_due_idx")]

    def __str__(self) -> str:
        return f"vacation of {self.user_id} {self.starts_at:%Y-%m-%d}–{self.ends_at:%Y-%m-%d}"
