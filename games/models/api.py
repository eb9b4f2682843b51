"""The read API's tokens and webhooks (issue 19)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from games.models.accounts import Notification, NotificationKind
from games.models.games import Game

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
