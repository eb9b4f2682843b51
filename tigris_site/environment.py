"""What the environment's URLs mean to Django: the database and the mailer (settings.py).

``settings.py`` reads every variable; the two whose one value becomes a whole structure of
Django's — ``DATABASE_URL`` (with ``CONN_MAX_AGE`` and ``PG_PREPARE_THRESHOLD``) and
``EMAIL_URL`` (with ``EMAIL_TIMEOUT``) — are turned into it here, by django-environ's
parsers and the site's own choices for SQLite, PostgreSQL and the embedded mode's mail files.
A bad value raises ``ImproperlyConfigured`` naming the variable.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import environ
from django.core.exceptions import ImproperlyConfigured


def database_from(env: environ.Env, *, sqlite_dir: Path) -> dict[str, Any]:
    """Return ``DATABASES["default"]`` from ``DATABASE_URL`` (SQLite in ``sqlite_dir`` if unset).

    SQLite: IMMEDIATE transactions, WAL, a 20 s busy timeout and one test database file
    per process. PostgreSQL: persistent connections (``CONN_MAX_AGE``, default 60 s) with
    health checks, and server-side binding that prepares a query after
    ``PG_PREPARE_THRESHOLD`` runs (default 5; ``off``: none). Raises
    ``ImproperlyConfigured`` for a threshold that is neither a whole number nor ``off``.
    """
    database: dict[str, Any] = env.db_url(
        "DATABASE_URL", default=f"sqlite:///{sqlite_dir / 'db.sqlite3'}"
    )
    if database["ENGINE"] == "django.db.backends.sqlite3":
        # IMMEDIATE transactions serialise writers up front, so two submissions to one game
        # queue instead of failing with "database is locked" half-way (SQLite has no row
        # locks).
        database["OPTIONS"] = {
            "transaction_mode": "IMMEDIATE",
            "timeout": 20,
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        }
        # A file, not shared-cache memory: concurrent writers then wait on the busy timeout
        # as in production (the threaded submission test), and a real Celery worker process
        # started by a test can share the database.
        # One file per test process, so two test runs in one checkout never share it.
        database["TEST"] = {"NAME": str(sqlite_dir / f"test-db-{os.getpid()}.sqlite3")}
        return database
    database["CONN_MAX_AGE"] = env.int("CONN_MAX_AGE", default=60)
    database["CONN_HEALTH_CHECKS"] = True
    # Server-side binding lets psycopg prepare a statement once a connection has run it
    # PG_PREPARE_THRESHOLD times, so PostgreSQL stops planning the page's queries anew on
    # every request (bench/page_cost.py: the game page's reads were mostly planning).
    # PG_PREPARE_THRESHOLD=off for a pooler that cannot keep prepared statements
    # (PgBouncer in transaction mode before 1.21).
    prepare = env.str("PG_PREPARE_THRESHOLD", default="5")
    if prepare.lower() != "off":
        try:
            threshold = int(prepare)
        except ValueError:
            raise ImproperlyConfigured(
                f"PG_PREPARE_THRESHOLD: {prepare!r} is neither a whole number nor 'off'"
            ) from None
        database.setdefault("OPTIONS", {}).update(
            server_side_binding=True, prepare_threshold=threshold
        )
    return database


def mailer_from(env: environ.Env, *, files_dir: Path) -> dict[str, Any]:
    """Return ``MAILERS["default"]`` (Django 6.1) from ``EMAIL_URL``.

    ``smtp://``, ``smtp+tls://`` or ``smtp+ssl://`` pick SMTP (``EMAIL_TIMEOUT`` seconds,
    default 20); unset, each email is a file in ``files_dir`` (made if missing).
    """
    if "EMAIL_URL" in env:
        email = env.email_url("EMAIL_URL")
        return {
            "BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "OPTIONS": {
                "host": email["EMAIL_HOST"],
                "port": email["EMAIL_PORT"],
                "username": email["EMAIL_HOST_USER"],
                "password": email["EMAIL_HOST_PASSWORD"],
                "use_tls": bool(email.get("EMAIL_USE_TLS")),
                "use_ssl": bool(email.get("EMAIL_USE_SSL")),
                "timeout": env.int("EMAIL_TIMEOUT", default=20),
            },
        }
    files_dir.mkdir(parents=True, exist_ok=True)
    return {
        "BACKEND": "django.core.mail.backends.filebased.EmailBackend",
        "OPTIONS": {"file_path": str(files_dir)},
    }
