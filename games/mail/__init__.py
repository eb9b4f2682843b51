"""Composing and delivering the emails the outbox holds, and the account emails."""
