"""Accounts, notifications and ratings (issue 5) and vacations (issue 6)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import F
from django.db.models.functions import Upper
from django.utils.translation import gettext_lazy as _

from games.models.games import Game
from games.text import names

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
            # A player named in a filter (``display_name__iexact``: the finished games of
            # "Alice"), found by index, not by reading every profile (issue 31).
            models.Index(Upper("display_name"), name="profile_display_name_upper_idx"),
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
    # Issue 30: a tournament's round (its game, or a bye), its end, a league season's end.
    TOURNAMENT_ROUND = "tournament_round", _("tournament round started")
    TOURNAMENT_BYE = "tournament_bye", _("tournament bye")
    TOURNAMENT_OVER = "tournament_over", _("tournament over")
    SEASON_OVER = "season_over", _("league season over")
    TOURNAMENT_INVITE = "tournament_invite", _("invitation to a tournament")
    LEAGUE_INVITE = "league_invite", _("invitation to a league")


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
    # The event a tournament's or league's notice is about (issue 30); ``ply`` is then the
    # round's number (tournament_round, tournament_bye) or the season's (season_over).
    tournament = models.ForeignKey(
        "games.Tournament",
        on_delete=models.CASCADE,
        related_name="notifications",
        null=True,
        blank=True,
    )
    # The league an invitation to a league is about (issue 30; ``ply`` 0).
    league = models.ForeignKey(
        "games.League",
        on_delete=models.CASCADE,
        related_name="notifications",
        null=True,
        blank=True,
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
            # a bye or an event's end has no game: once per event, number and kind
            models.UniqueConstraint(
                fields=["user", "tournament", "ply", "kind"],
                condition=models.Q(tournament__isnull=False),
                name="notification_tournament_once",
            ),
            models.UniqueConstraint(
                fields=["user", "league", "ply", "kind"],
                condition=models.Q(league__isnull=False),
                name="notification_league_once",
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
