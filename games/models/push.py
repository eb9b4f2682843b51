"""Browser push notifications (issue 29): a player's subscribed browsers and the push outbox."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from games.models.accounts import Notification

# The longest endpoint a push service hands out is well under this (FCM's are ~190
# characters, Mozilla's ~250, Apple's ~200); a longer one is refused when subscribing.
MAX_ENDPOINT_LENGTH = 1000


class PushSubscription(models.Model):
    """One browser that asked for push notifications: the push service's address and keys.

    ``endpoint`` is the push service URL the browser's ``PushManager`` gave (unique: a
    browser is one subscription, and belongs to whoever subscribed it last); ``p256dh``
    (the browser's P-256 public key, 65 bytes) and ``auth`` (16 bytes) are base64url
    without padding, as ``PushSubscription.toJSON()`` writes them. Deleted by the player
    (the settings page) or when the push service answers 404 or 410 (gone).
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions"
    )
    endpoint = models.URLField(max_length=MAX_ENDPOINT_LENGTH, unique=True)
    p256dh = models.CharField(max_length=100)
    auth = models.CharField(max_length=40)
    created_at = models.DateTimeField(auto_now_add=True)
    last_sent_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        # Never the endpoint: it is the only thing a sender needs besides the keys.
        return f"push subscription {self.pk} of {self.user_id}"


class PushDelivery(models.Model):
    """The push outbox: one message owed to ``subscription`` for ``notification`` (once).

    Written when the email channel has decided that ``notification`` goes out now (its
    quiet hours over, its delay passed, still owed: ``games.mail.deliver``), so a push
    follows the email's kinds, delays, batching and quiet hours. ``batch`` rows stand for
    a batched email or digest, ``notification`` being its first row. ``payload`` is what
    the service worker shows, composed in the recipient's language: ``{"title": str,
    "body": str, "url": str, "tag": str}``; never a hand or a hidden score.
    ``tasks.send_push`` claims a pending row (pending → sending) and posts it.
    """

    subscription = models.ForeignKey(
        PushSubscription, on_delete=models.CASCADE, related_name="deliveries"
    )
    notification = models.ForeignKey(
        Notification, on_delete=models.CASCADE, related_name="push_deliveries"
    )
    batch = models.BooleanField(default=False)
    payload = models.JSONField()
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
                fields=["subscription", "notification"], name="push_delivery_once"
            ),
        ]
        indexes = [models.Index(fields=["status", "send_after"], name="push_due_idx")]

    def __str__(self) -> str:
        return f"push {self.pk} to subscription {self.subscription_id} ({self.status})"
