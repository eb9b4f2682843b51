"""Bad configuration fails loudly in one line; good production configuration passes checks."""

from __future__ import annotations

import os
import subprocess
import sys

from tests.services import ROOT, free_port

PRODUCTION = {
    "DEBUG": "0",
    "SECRET_KEY": "x" * 50 + "-a-long-random-production-key",
    "ALLOWED_HOSTS": "tigris.example",
    "DATABASE_URL": "postgres://tigris:secret@127.0.0.1:5432/tigris",
    "CELERY_BROKER_URL": "redis://127.0.0.1:6379/0",
    "EMAIL_URL": "smtp+tls://mailer:secret@smtp.example:587",
    "SITE_URL": "https://tigris.example",
    # browser push (issue 29): a key `manage.py vapid_keys` made, for this test only
    "WEBPUSH_VAPID_PRIVATE_KEY": (
        "MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgHN5t3tarpSEsNUQgpTQKqlRcS2bCFxfstfCZ"
        "ZVcHIjuhRANCAASUCqtH-JEMFL5aSAVFV-Ywedj8WWS9rykqb_mRou0Lg2qGmZX1HpMmdiHCeS2eYn5qyzx6"
        "JR99mRHAXSoYRtHG"
    ),
}
OUR_VARIABLES = set(PRODUCTION) | {
    "CELERY_TASK_ALWAYS_EAGER",
    "CACHE_URL",
    "PG_PREPARE_THRESHOLD",
    "WEBPUSH_VAPID_KEY_FILE",
    "PASSWORD_HASHERS",
}


def manage(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k not in OUR_VARIABLES}
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_check_deploy_passes_with_production_variables() -> None:
    result = manage("check", "--deploy", "--fail-level", "WARNING", **PRODUCTION)
    assert result.returncode == 0, result.stderr
    assert "no issues" in result.stdout


def test_missing_secret_key_is_one_line_naming_it() -> None:
    env = {k: v for k, v in PRODUCTION.items() if k != "SECRET_KEY"}
    result = manage("check", **env)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: SECRET_KEY must be set")
    assert "Traceback" not in result.stderr


def test_unreachable_database_is_one_line_naming_it_without_the_password() -> None:
    url = f"postgres://tigris:hunter2@127.0.0.1:{free_port()}/tigris"
    result = manage("migrate", **{**PRODUCTION, "DATABASE_URL": url})
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: DATABASE_URL: cannot connect to postgres://tigris:***@")
    assert "hunter2" not in result.stderr


def test_embedded_defaults_need_no_environment() -> None:
    result = manage("check")
    assert result.returncode == 0, result.stderr


def test_postgresql_prepares_repeated_queries_unless_told_off() -> None:
    show = "from django.conf import settings; print(settings.DATABASES['default'].get('OPTIONS'))"
    default = manage("shell", "-c", show, **PRODUCTION)
    assert default.returncode == 0, default.stderr
    assert "'server_side_binding': True" in default.stdout
    assert "'prepare_threshold': 5" in default.stdout
    off = manage("shell", "-c", show, **PRODUCTION, PG_PREPARE_THRESHOLD="off")
    assert off.returncode == 0 and "server_side_binding" not in off.stdout, off.stderr
    bad = manage("shell", "-c", show, **PRODUCTION, PG_PREPARE_THRESHOLD="soon")
    lines = bad.stderr.strip().splitlines()
    assert bad.returncode == 2 and len(lines) == 1, bad.stderr
    assert lines[0].startswith("error: PG_PREPARE_THRESHOLD: 'soon' is neither")


IMPORT_IN_LOOP = (
    "import asyncio\n"
    "async def main():\n"
    "    import tigris_site.asgi\n"
    "    print('loaded', type(tigris_site.asgi.application).__name__)\n"
    "asyncio.run(main())\n"
)


def _import_asgi_in_a_loop(**env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k not in OUR_VARIABLES}
    return subprocess.run(
        [sys.executable, "-c", IMPORT_IN_LOOP],
        cwd=ROOT,
        env={**clean, "DJANGO_SETTINGS_MODULE": "tigris_site.settings", **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_the_asgi_app_loads_inside_a_running_event_loop() -> None:
    # uvicorn --workers N imports the app in each worker's running loop (the README's
    # production command): the database check must not be refused there.
    result = _import_asgi_in_a_loop()
    assert result.returncode == 0, result.stderr
    assert "loaded LiveStreams" in result.stdout
    url = f"postgres://tigris:hunter2@127.0.0.1:{free_port()}/tigris"
    result = _import_asgi_in_a_loop(**{**PRODUCTION, "DATABASE_URL": url})
    assert result.returncode == 2
    assert result.stderr.strip().startswith("error: DATABASE_URL: cannot connect to postgres")
