"""Run beat's periodic sweeps in this process: the embedded mode's stand-in for Celery beat."""

from __future__ import annotations

import logging
import time
from typing import Any

from celery import current_app as celery_app
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

log = logging.getLogger(__name__)


class Command(BaseCommand):
    help = (
        "Run every task of CELERY_BEAT_SCHEDULE in this process on its interval (the embedded "
        "mode, where tasks run eagerly and no beat runs): deadlines, reminders, batched emails, "
        "digests, and the bots' seats every second (a bot never plays in a player's request). "
        "--once runs each one once and exits."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--once", action="store_true", help="run each sweep once, then exit")

    def handle(self, *args: Any, once: bool = False, **options: Any) -> None:
        """Call each scheduled task when due (``schedule`` in seconds); log a failing one.

        Raises ``CommandError`` when tasks do not run eagerly: with a broker, Celery beat
        schedules the sweeps and a second scheduler would run them twice.
        """
        if not settings.CELERY_TASK_ALWAYS_EAGER:
            raise CommandError("tasks go through a broker here: run Celery beat instead")
        entries = [
            (name, entry["task"], float(str(entry["schedule"])))
            for name, entry in settings.CELERY_BEAT_SCHEDULE.items()
        ]
        due = dict.fromkeys((name for name, _task, _every in entries), 0.0)
        while True:
            for name, task, every in entries:
                if time.monotonic() < due[name]:
                    continue
                try:
                    result = celery_app.tasks[str(task)]()
                except Exception:
                    log.exception("sweep %s failed", name)
                else:
                    if result and (not isinstance(result, dict) or any(result.values())):
                        log.info("sweep %s: %s", name, result)
                due[name] = time.monotonic() + every
            if once:
                return
            # until the next sweep is due (the bots' every quarter second), at most a second
            time.sleep(min(1.0, max(0.05, min(due.values()) - time.monotonic())))
