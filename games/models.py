"""Games, seats and the append-only move history (DESIGN.md, games/).

``Game.state`` is the engine's JSON snapshot after ``version`` plies; replaying every
``Move`` from ``Game.seed`` must give exactly that snapshot (``manage.py verify_games``).
The seed and the snapshot hold secrets (the bag order, every hand): they are never
rendered; pages receive only ``engine.view_for(state, seat)``.
"""

from __future__ import annotations

import secrets
from typing import Any, ClassVar

from django.conf import settings
from django.db import models
from django.db.models import F
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


# --------------------------------------------------------------------------- accounts,
# notifications and ratings (issue 5): profiles, the email outbox, per-kind preferences.


# What the leaderboard ranks by (issue 31): μ − 3σ, the rating shown less its base and scale
# (``ratings.display_rating``: 1500 + 40 × this). Written without a number on purpose: a
# number would be a bound parameter in a query (server-side binding) and the query's
# expression would then never be the index's, so the leaderboard would sort every profile.
CONSERVATIVE_RATING = F("rating_mu") - F("rating_sigma") - F("rating_sigma") - F("rating_sigma")


def conservative_rating(profile: Profile) -> float:
    """Return ``CONSERVATIVE_RATING`` of ``profile`` exactly as the database computes it
    (the same subtractions in the same order, in IEEE doubles)."""
    return profile.rating_mu - profile.rating_sigma - profile.rating_sigma - profile.rating_sigma


PROVISIONAL_GAMES = 5  # rated games before a rating counts (ratings.py); the index predicate


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
    chat_in_email = models.BooleanField(
        default=True, help_text="Quote the chat since one's last move in turn emails (issue 18)."
    )
    # Quiet hours (issue 17), local times in ``time_zone``, every day; both empty: none.
    # No email reaches the player then (held until they end), and their clock stands still
    # in games that allow it (``Game.quiet_hours_allowed``; games/core/quiet.py).
    quiet_start = models.TimeField(null=True, blank=True)
    quiet_end = models.TimeField(null=True, blank=True)
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
        indexes = [
            # The leaderboard, best first, in keyset pages (issue 31): people past their
            # provisional games, by ``CONSERVATIVE_RATING`` then id.
            models.Index(
                CONSERVATIVE_RATING.desc(),
                F("id").desc(),
                condition=models.Q(is_bot=False, rated_games__gte=PROVISIONAL_GAMES),
                name="profile_leaderboard_idx",
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
    GAME_ABORTED = "game_aborted", _("game aborted")
    VACATION_ENDED = "vacation_ended", _("vacation ended")
    INVITATION = "invitation", _("invitation to a game")
    # Issue 17: told the player whose own deadline passed what was played for them.
    TIMED_OUT = "timed_out", _("your clock ran out")


# The kinds that tell a player a game waits on them: delayed and batched by default, moot
# once they have acted (issue 17).
TURN_KINDS = (NotificationKind.YOUR_TURN, NotificationKind.DECISION)


class Delivery(models.TextChoices):
    """How a user wants one kind of email: at once, gathered after N minutes, daily, never.

    ``batched`` (the default for turns and decisions, issue 17) waits the player's minutes
    and then sends only if a game still waits on them, every waiting game in one email.
    """

    IMMEDIATE = "immediate", _("immediately")
    BATCHED = "batched", _("after a delay, if I have not acted")
    DIGEST = "digest", _("daily digest")
    OFF = "off", _("off")


class NotificationPreference(models.Model):
    """One user's choice for one kind; a missing row means the site's default.

    The default is ``selectors.people.default_delivery`` (batched for turns and decisions,
    immediate otherwise, issue 17): a row exists only for a choice the player made.
    """

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


# --------------------------------------------------------------------------- the read API
# and webhooks (issue 19): personal access tokens, and turn / game-over notices posted to a
# player's Discord, Slack or JSON endpoint through an outbox of their own.


class AccessToken(models.Model):
    """A personal access token of the read API (``games/api/``), shown once, stored hashed.

    ``key_hash`` is the SHA-256 of the whole secret (``games.accounts.tokens``): the secret
    holds 256 random bits, so a fast hash is enough and one indexed lookup finds the row.
    ``prefix`` (the secret's first characters) lets the player tell their tokens apart.
    """

    class Scope(models.TextChoices):
        READ = "read", _("read only")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="access_tokens"
    )
    name = models.CharField(max_length=60)
    key_hash = models.CharField(max_length=64, unique=True, editable=False)
    prefix = models.CharField(max_length=16, editable=False)
    scope = models.CharField(max_length=10, choices=Scope.choices, default=Scope.READ)
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        # Never the hash: an admin page titles a token by this.
        return f"token {self.prefix}… of {self.user_id}"


class Webhook(models.Model):
    """A player's webhook URL for their turn and game-over notices (``games/webhooks/``).

    ``failures_in_row`` counts deliveries that failed for good in a row (each after its own
    retries); at ``webhooks.deliver.DISABLE_AFTER`` the webhook is disabled, the player is
    emailed, and the settings page says why (``disabled_at``, ``last_error``).
    """

    class Kind(models.TextChoices):
        DISCORD = "discord", _("Discord")
        SLACK = "slack", _("Slack")
        JSON = "json", _("plain JSON")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="webhooks"
    )
    kind = models.CharField(max_length=10, choices=Kind.choices)
    url = models.URLField(max_length=500)
    on_turn = models.BooleanField(default=True)
    on_game_over = models.BooleanField(default=True)
    is_active = models.BooleanField(default=True)
    failures_in_row = models.PositiveSmallIntegerField(default=0)
    last_error = models.TextField(blank=True)
    disabled_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.kind} webhook of {self.user_id}"


class WebhookDelivery(models.Model):
    """The webhooks' outbox: one notice owed to ``webhook`` about ``game`` at ``ply`` (once).

    Written in the transaction that applies the move, beside the email outbox's rows;
    ``tasks.send_webhook`` claims a pending row (pending → sending) and posts it.
    """

    webhook = models.ForeignKey(Webhook, on_delete=models.CASCADE, related_name="deliveries")
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="webhook_deliveries")
    ply = models.PositiveIntegerField()
    kind = models.CharField(max_length=20, choices=NotificationKind.choices)
    status = models.CharField(
        max_length=10, choices=Notification.Status.choices, default=Notification.Status.PENDING
    )
    send_after = models.DateTimeField()
    attempts = models.PositiveSmallIntegerField(default=0)
    error = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    claimed_at = models.DateTimeField(null=True, blank=True)
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["webhook", "game", "ply", "kind"], name="webhook_delivery_once"
            ),
        ]
        indexes = [models.Index(fields=["status", "send_after"], name="webhook_due_idx")]

    def __str__(self) -> str:
        return f"{self.kind} to webhook {self.webhook_id} for #{self.game_id} ply {self.ply}"


# --------------------------------------------------------------------------- players, not
# just games (issue 18, games/community/): chat, private notes, follows, invitations.

CHAT_MAX_LENGTH = 500  # characters of one chat message
NOTE_MAX_LENGTH = 5000  # characters of one player's notes on one game


class ChatMessage(models.Model):
    """One line of a game's table talk, written by a seated player; never game state."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="chat_messages")
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_messages"
    )
    text = models.CharField(max_length=CHAT_MAX_LENGTH)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [models.Index(fields=["game", "id"], name="chat_game_idx")]
        ordering = ["game", "id"]

    def __str__(self) -> str:
        return f"#{self.game_id} chat {self.pk}"


class ChatReport(models.Model):
    """A player's report of a chat message to the operators (listed in the admin)."""

    message = models.ForeignKey(ChatMessage, on_delete=models.CASCADE, related_name="reports")
    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_reports"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    handled = models.BooleanField(default=False)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["message", "reporter"], name="chat_report_once"),
        ]

    def __str__(self) -> str:
        return f"report of chat {self.message_id} by {self.reporter_id}"


class Mute(models.Model):
    """``user`` no longer sees ``muted``'s chat messages, in any game or email."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    muted = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "muted"], name="mute_once")]

    def __str__(self) -> str:
        return f"{self.user_id} mutes {self.muted_id}"


class PrivateNote(models.Model):
    """One player's notes on one game: seen by its author only (a secret, RULES.md §14)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    text = models.TextField(max_length=NOTE_MAX_LENGTH, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "user"], name="note_one_per_game")]

    def __str__(self) -> str:
        # Never the text: the admin titles a row by this.
        return f"notes of {self.user_id} on #{self.game_id}"


class Follow(models.Model):
    """``follower`` sees ``followed``'s games in progress in the lobby."""

    follower = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="following"
    )
    followed = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="followers"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["follower", "followed"], name="follow_once"),
            models.CheckConstraint(
                condition=~models.Q(follower=models.F("followed")), name="follow_not_self"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.follower_id} follows {self.followed_id}"


class Invitation(models.Model):
    """A player invited by name to an open game: an email, a notice in "My games"."""

    class Status(models.TextChoices):
        PENDING = "pending", _("pending")
        ACCEPTED = "accepted", _("accepted")
        DECLINED = "declined", _("declined")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="invitations")
    invitee = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="invitations"
    )
    inviter = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "invitee"], name="invitation_once"),
        ]

    def __str__(self) -> str:
        return f"invitation of {self.invitee_id} to #{self.game_id} ({self.status})"


# --------------------------------------------------------------------------- standing orders
# (issue 17): how a player's decisions are answered while away (engine.orders).


class StandingOrders(models.Model):
    """A player's standing orders: for one game, or (``game`` empty) their default.

    ``orders`` is ``engine.StandingOrders.to_dict()`` (``{slot: kind}``, slots that ask
    left out). Secret: only their owner reads them (``games.play.orders``); no page of
    another seat, email, API output or admin page shows them.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="standing_orders"
    )
    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="standing_orders", null=True, blank=True
    )
    orders = models.JSONField(default=dict, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["user", "game"],
                condition=models.Q(game__isnull=False),
                name="standing_orders_one_a_game",
            ),
            models.UniqueConstraint(
                fields=["user"],
                condition=models.Q(game__isnull=True),
                name="standing_orders_one_default",
            ),
        ]

    def __str__(self) -> str:
        # Never the orders themselves (admin and log lines title a row by this).
        where = f" in #{self.game_id}" if self.game_id else ""
        return f"standing orders of {self.user_id}{where}"
