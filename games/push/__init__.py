"""Browser push notifications (issue 29): VAPID keys, subscriptions, delivery."""
