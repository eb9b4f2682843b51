"""Render and send notification emails; sign and check one-click unsubscribe tokens.

Emails receive only public facts (RULES.md §14): the game's number, player names, whose
move it is, what kind of decision is asked, what happened since the recipient's last move
(the game log as their own page writes it, hidden events left out), and after the game its
final ranking (then everything is public). Never a hand, never a hidden total.
"""

from __future__ import annotations

import email.policy
from collections.abc import Sequence
from typing import Any
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.conf import settings
from django.core import signing
from django.core.mail import EmailMultiAlternatives, mailers, make_msgid
from django.db.models import prefetch_related_objects
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

import engine
from games import gamelog, pages, profiles, selectors
from games.headers import header_safe
from games.models import Delivery, Game, Move, Notification, NotificationKind, Profile, Seat
from games.presenters import COLOR_NAME, list_text
from games.states import game_state

UNSUBSCRIBE_SALT = "games.unsubscribe"
SINCE_PLIES = 30  # the most plies a turn email retells


class NotificationEmail(EmailMultiAlternatives):
    """An email whose headers are never folded into RFC 2047 encoded words.

    The standard policies fold at 78 columns and encode a long unbreakable word — the
    ``List-Unsubscribe`` URL with its signed token — which mail clients then cannot read
    (RFC 8058 needs the literal ``<https://…>``). RFC 5322 allows 998 characters a line.
    """

    def message(self, *, policy: Any = email.policy.default) -> Any:
        """Return the stdlib message built with ``policy`` allowing 998-character lines."""
        return super().message(policy=(policy or email.policy.default).clone(max_line_length=998))


def unsubscribe_token(user_id: int, kind: str) -> str:
    """Return a signed token naming ``user_id`` and ``kind`` (for List-Unsubscribe)."""
    return signing.dumps({"u": user_id, "k": kind}, salt=UNSUBSCRIBE_SALT, compress=True)


def unsubscribe_read(token: str) -> tuple[int, str]:
    """Return ``(user_id, kind)`` of a token; raise ``signing.BadSignature`` if forged."""
    data = signing.loads(token, salt=UNSUBSCRIBE_SALT)
    if (
        not isinstance(data, dict)
        or not isinstance(data.get("u"), int)
        or data.get("k") not in NotificationKind.values
    ):
        raise signing.BadSignature("malformed unsubscribe token")
    return data["u"], data["k"]


def absolute(path: str) -> str:
    """Return ``settings.SITE_URL`` + ``path``."""
    return f"{settings.SITE_URL}{path}"


def _names(game: Game) -> dict[int, str]:
    """Return position → display name (``game`` comes with its seats: ``_with_seats``)."""
    return {
        seat.position: profiles.display_name(seat.user)
        for seat in game.seats.all()
        if seat.position is not None
    }


def _with_seats(game: Game) -> Game:
    """Fetch ``game``'s seats with their users and profiles, once for the whole email."""
    prefetch_related_objects([game], selectors.seats_prefetch())
    return game


def _public_view(game: Game) -> engine.PlayerView | None:
    """Return what anyone may see of ``game`` (``view_for(state, None)``), or None if unstarted.

    Emails read the game only through this spectator's view, like pages do (RULES.md §14).
    """
    if game.state is None:
        return None
    return engine.view_for(game_state(game), None)


def _decision_text(game: Game) -> str:
    """Return what the pending out-of-turn decision asks, in words (public, §15)."""
    view = _public_view(game)
    kind = view.pending.get("kind") if view is not None and view.pending else None
    return {
        "support": _("commit support in a conflict"),
        "treasure": _("choose treasures"),
        "war_order": _("choose the next war"),
        "monument": _("decide on a monument"),
    }.get(str(kind), _("make a decision"))


def _ranking(game: Game) -> list[dict[str, Any]]:
    names = _names(game)
    rows = []
    for seat in game.seats.order_by("final_rank", "position"):
        score = seat.final_score or {}
        rows.append(
            {
                "rank": seat.final_rank,
                "name": names.get(seat.position or 0, "?"),
                "score": score.get("score"),
                # colour names in the recipient's language (the keys are the engine's English)
                "colors": {
                    str(COLOR_NAME.get(c, c)): vp for c, vp in score.get("colors", {}).items()
                },
                "rating_before": seat.rating_before,
                "rating_after": seat.rating_after,
            }
        )
    return rows


def _subject(row: Notification, names: dict[int, str], dropped: Seat | None = None) -> str:
    """Return the subject of ``row``'s email (``dropped``: the seat a ``seat_dropped`` is about)."""
    game = row.game
    assert game is not None
    label = _("Game #%(id)s") % {"id": game.pk}
    to_act = names.get(game.to_act_seat or 0, "")
    if row.kind == NotificationKind.YOUR_TURN:
        return _("%(game)s: your move") % {"game": label}
    if row.kind == NotificationKind.DECISION:
        return _("%(game)s: your decision needed on %(name)s's turn") % {
            "game": label,
            "name": names.get(_active_seat(game), to_act),
        }
    if row.kind == NotificationKind.GAME_STARTED:
        return _("%(game)s has started: %(name)s's move") % {"game": label, "name": to_act}
    if row.kind == NotificationKind.GAME_OVER:
        winners = [r["name"] for r in _ranking(game) if r["rank"] == 1]
        return _("%(game)s is over: %(names)s won") % {"game": label, "names": list_text(winners)}
    if row.kind == NotificationKind.REMINDER:
        return _("%(game)s: your move is due soon") % {"game": label}
    if row.kind == NotificationKind.SEAT_DROPPED:
        if dropped is None:
            return _("%(game)s: a player's seat is now played automatically") % {"game": label}
        return _("%(game)s: %(name)s's seat is now played automatically") % {
            "game": label,
            "name": names.get(dropped.position or 0, "?"),
        }
    if row.kind == NotificationKind.GAME_EXPIRED:
        return _("%(game)s expired: nobody filled its seats in 14 days") % {"game": label}
    return _("%(game)s: %(kind)s") % {"game": label, "kind": row.get_kind_display()}


def _dropped_seat(row: Notification) -> Seat | None:
    """Return the seat a ``seat_dropped`` row is about: the last one dropped before it was written.

    The row is written in the transaction that drops the seat (``services._seat_drop``), so
    a later drop in the same game never shadows it.
    """
    assert row.game is not None
    seats = row.game.seats.filter(dropped_at__isnull=False, dropped_at__lte=row.created_at)
    return seats.order_by("-dropped_at").first()


def _since_lines(row: Notification) -> list[str]:
    """Return the log since the recipient's last move, up to the row's ply, as their page has it.

    Each string is one ply's sentences (``gamelog.log_entries`` for the recipient's seat, so
    another player's swapped-out colours stay hidden: RULES.md §14); at most the last
    ``SINCE_PLIES`` plies. Empty when the recipient has no seat in the game.
    """
    game = row.game
    assert game is not None
    mine = selectors.seat_for(game, row.user)
    seat = mine.position if mine is not None else None
    if seat is None:
        return []
    moves = Move.objects.filter(game=game, ply__lte=row.ply)
    last_mine = moves.filter(seat=seat).order_by("-ply").values_list("ply", flat=True).first()
    recent = list(moves.filter(ply__gt=last_mine or 0).order_by("-ply")[:SINCE_PLIES])
    entries = gamelog.log_entries(reversed(recent), pages.seat_infos(game), seat, game_over=False)
    return [entry["text"] for entry in entries if entry["text"]]


def _active_seat(game: Game) -> int:
    view = _public_view(game)
    return view.active_seat if view is not None else 0


def _send(*, user: Any, kind: str, subject: str, template: str, context: dict[str, Any]) -> str:
    """Render ``template``.txt/.html with ``context`` and send to ``user``; return Message-ID."""
    token = unsubscribe_token(user.pk, kind)
    unsubscribe_url = absolute(reverse("games:unsubscribe", args=[token]))
    context = {
        **context,
        "settings_url": absolute(reverse("games:settings")),
        "unsubscribe_url": unsubscribe_url,
        "site_url": settings.SITE_URL,
    }
    text = render_to_string(f"emails/{template}.txt", context)
    html = render_to_string(f"emails/{template}.html", context)
    domain = urlsplit(settings.SITE_URL).hostname or "localhost"
    message_id = make_msgid(domain=domain)
    message = NotificationEmail(
        subject=header_safe(subject),  # names are in subjects: no name may break the email
        body=text,
        to=[user.email],
        headers={
            "Message-ID": message_id,
            "List-Unsubscribe": f"<{unsubscribe_url}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
            "Auto-Submitted": "auto-generated",
        },
    )
    message.attach_alternative(html, "text/html")
    mailers.default.send_messages([message])
    return message_id


def _language(user: Any) -> str:
    profile = Profile.objects.filter(user_id=user.pk).first()
    return profile.language if profile else settings.LANGUAGE_CODE


def notification_send(row: Notification) -> str:
    """Render and send the email of one outbox row; return its Message-ID.

    Raises whatever the mail backend raises (the task classifies it).
    """
    user = row.user
    if row.game is None:
        return _account_send(row)
    with translation.override(_language(user)):
        game = _with_seats(row.game)
        names = _names(game)
        context: dict[str, Any] = {
            "kind": row.kind,
            "recipient": profiles.display_name(user),
            "game_label": _("Game #%(id)s") % {"id": game.pk},
            "game_url": absolute(reverse("games:game", args=[game.pk])),
            "to_act_name": names.get(game.to_act_seat or 0, ""),
            "active_name": names.get(_active_seat(game), ""),
            "decision_text": _decision_text(game) if row.kind == NotificationKind.DECISION else "",
            "ranking": _ranking(game) if row.kind == NotificationKind.GAME_OVER else [],
            "players": [names[p] for p in sorted(names)],
            "kind_display": row.get_kind_display(),
            "deadline_text": _deadline_text(game, user),
            "since": (
                _since_lines(row)
                if row.kind in (NotificationKind.YOUR_TURN, NotificationKind.DECISION)
                else []
            ),
        }
        dropped = _dropped_seat(row) if row.kind == NotificationKind.SEAT_DROPPED else None
        if dropped is not None:
            context["dropped_name"] = names.get(dropped.position or 0, "?")
            context["dropped_resigned"] = dropped.drop_reason == Seat.DropReason.RESIGNED
        subject = _subject(row, names, dropped)
        return _send(
            user=user, kind=row.kind, subject=subject, template="notification", context=context
        )


def _account_send(row: Notification) -> str:
    """Send an email about the account rather than one game (``vacation_ended``)."""
    user = row.user
    with translation.override(_language(user)):
        if row.kind == NotificationKind.VACATION_ENDED:
            subject = _("Your vacation is over: your games' clocks are running again")
        else:
            subject = str(row.get_kind_display())
        context = {
            "kind": row.kind,
            "recipient": profiles.display_name(user),
            "game_label": "",
            "game_url": absolute(reverse("games:lobby")),
            "kind_display": row.get_kind_display(),
        }
        return _send(
            user=user, kind=row.kind, subject=subject, template="notification", context=context
        )


def _deadline_text(game: Game, user: Any) -> str:
    """Return the running deadline in ``user``'s time zone (``"2026-03-04 18:00 CET"``)."""
    if game.deadline is None:
        return ""
    zone = Profile.objects.filter(user_id=user.pk).values_list("time_zone", flat=True).first()
    try:
        local = game.deadline.astimezone(ZoneInfo(zone or "UTC"))
    except (ZoneInfoNotFoundError, ValueError):
        local = game.deadline
    return local.strftime("%Y-%m-%d %H:%M %Z")


def still_owed(row: Notification) -> bool:
    """Return False for a turn or decision email the recipient has acted on, or whose game ended.

    An email delayed (a broker or mail server that was down) must not say "your move" for
    a turn the player has taken since; other kinds are always owed.
    """
    if row.kind not in (NotificationKind.YOUR_TURN, NotificationKind.DECISION):
        return True
    game = row.game
    if game is None or game.status != Game.Status.ACTIVE:
        return False
    seat = selectors.seat_for(game, row.user)
    if seat is None or seat.position is None:
        return False
    return not Move.objects.filter(game=game, seat=seat.position, ply__gt=row.ply).exists()


def _still_relevant(row: Notification, waiting_ids: set[int]) -> bool:
    if row.kind in (NotificationKind.YOUR_TURN, NotificationKind.DECISION):
        return row.game_id in waiting_ids
    return True


def digest_send(rows: Sequence[Notification], *, delivery: str) -> str | None:
    """Send one email for a user's gathered ``rows``; return its Message-ID, or None if moot.

    The email lists every game waiting for the user now, and the games that started or
    ended. Rows about turns the user has taken meanwhile are dropped; with nothing left,
    nothing is sent. Raises whatever the mail backend raises.
    """
    user = rows[0].user
    with translation.override(_language(user)):
        waiting = list(selectors.games_waiting_for(user))
        waiting_ids = {g.pk for g in waiting}
        relevant = [r for r in rows if _still_relevant(r, waiting_ids)]
        if not relevant and not waiting:
            return None
        games_waiting = [
            {
                "label": _("Game #%(id)s") % {"id": g.pk},
                "url": absolute(reverse("games:game", args=[g.pk])),
                "deadline": _deadline_text(g, user),
            }
            for g in waiting
        ]
        events = []
        for r in relevant:
            if r.kind in (NotificationKind.GAME_STARTED, NotificationKind.GAME_OVER):
                events.append(
                    {
                        "label": _("Game #%(id)s") % {"id": r.game_id},
                        "what": r.get_kind_display(),
                        "url": absolute(reverse("games:game", args=[r.game_id])),
                    }
                )
        kinds = sorted({r.kind for r in rows})
        n = len(waiting)
        if delivery == Delivery.DIGEST:
            subject = ngettext(
                "Your daily Tigris & Euphrates digest: %(n)s game waiting for you",
                "Your daily Tigris & Euphrates digest: %(n)s games waiting for you",
                n,
            )
        else:
            subject = ngettext(
                "Tigris & Euphrates: %(n)s game waiting for you",
                "Tigris & Euphrates: %(n)s games waiting for you",
                n,
            )
        subject = subject % {"n": n}
        context = {
            "recipient": profiles.display_name(user),
            "games_waiting": games_waiting,
            "events": events,
            "delivery": delivery,
        }
        return _send(user=user, kind=kinds[0], subject=subject, template="digest", context=context)
