"""The email outbox: one ``Notification`` row per thing owed, exactly once; queued by task name."""
