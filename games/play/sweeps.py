"""The clocks' sweep (issue 6), run every minute by beat through ``games.tasks``.

Ended vacations first (their deadlines move later), then due reminders, then passed
deadlines, then open games left unfilled for 14 days. Each step is a service that locks
the game and re-checks under the lock (version and times), so a sweep run twice at the
same instant sends nothing twice, applies nothing twice. The reminders go as one batch
(``seats_remind``: a few queries for all, one insert each); a timeout plays a move, one
game at a time in its own transaction, in about ten queries (issue 31).
"""

from __future__ import annotations

import logging

from django.db.models import Exists, OuterRef, Q
from django.utils import timezone

from games.accounts.vacations import vacation_end
from games.models import Game, Seat, Vacation
from games.play.lifecycle import OPEN_GAME_LIFETIME, game_expire
from games.play.timeouts import seat_timeout, seats_remind
from games.selectors.people import vacations_due

log = logging.getLogger(__name__)

SWEEP_BATCH = 500


def _paused_by_vacation() -> Exists:
    """Match games whose running deadline belongs to a player on vacation, where it counts."""
    on_vacation = Vacation.objects.filter(
        user_id=OuterRef("user_id"), ended_at__isnull=True, starts_at__lte=timezone.now()
    )
    return Exists(
        Seat.objects.filter(game_id=OuterRef("pk"), position=OuterRef("deadline_seat")).filter(
            Exists(on_vacation)
        )
    )


def deadlines_sweep() -> dict[str, int]:
    """Apply the clocks of every game; return counts ``{"vacations", "reminders", …}``.

    ``vacations``: vacations ended at their planned end; ``reminders``: reminder rows
    written; ``timeouts``: seats whose deadline passed and were played by the default
    policy; ``expired``: open games expired. Idempotent (see above).
    """
    now = timezone.now()
    counts = {"vacations": 0, "reminders": 0, "timeouts": 0, "expired": 0}
    for vacation_id in vacations_due():
        counts["vacations"] += vacation_end(vacation_id=vacation_id)
    active = Game.objects.filter(status=Game.Status.ACTIVE).exclude(
        Q(vacation_allowed=True) & _paused_by_vacation()
    )
    due = active.filter(reminder_at__lte=now).order_by("reminder_at")
    counts["reminders"] = seats_remind(due=list(due.values_list("pk", "version")[:SWEEP_BATCH]))
    late = active.filter(deadline__lte=now).order_by("deadline")
    for game_id, version in late.values_list("pk", "version")[:SWEEP_BATCH]:
        try:
            moved = seat_timeout(game_id=game_id, expected_version=version)
        except Exception:  # one broken game must not stop every other clock
            log.exception("timeout of game %s failed", game_id)
            continue
        counts["timeouts"] += bool(moved)
    stale = Game.objects.filter(status=Game.Status.OPEN, created_at__lte=now - OPEN_GAME_LIFETIME)
    for game_id in stale.values_list("pk", flat=True)[:SWEEP_BATCH]:
        counts["expired"] += game_expire(game_id=game_id)
    return counts
