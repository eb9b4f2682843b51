"""Players around a game (issue 18): chat, reports, mutes, notes, follows, invitations."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from games.models.games import Game

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
