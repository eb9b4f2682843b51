"""Compose and send the email of one outbox row (``notification_send``).

Emails receive only public facts (RULES.md §14): the game's number, player names, whose
move it is, what kind of decision is asked, what happened since the recipient's last move
(the game log as their own page writes it, hidden events left out), and after the game its
final ranking (then everything is public). Never a hand, never a hidden total.
"""

from __future__ import annotations

from typing import Any

from django.db.models import prefetch_related_objects
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _

import engine
from games.core.states import game_state
from games.core.timecontrol import clock_of, time_control_of
from games.mail.sending import OutboxSend, absolute, deadline_text, email_send, language_of
from games.models import (
    TURN_KINDS,
    Game,
    League,
    LeagueDivision,
    LeagueSeason,
    Notification,
    NotificationKind,
    Seat,
    Tournament,
)
from games.play.timeouts import TIMEOUTS_TO_DROP
from games.selectors.community import ChatLine, chat_since_for_user, invitation_pending
from games.selectors.games import seat_for, seat_infos, seats_prefetch
from games.selectors.moves import last_move_time, moves_since_seat, seat_moved_since, timeout_moves
from games.text import headlines
from games.text.decisions import decision_words
from games.text.events import event_name
from games.text.gamelog import log_entries
from games.text.seats import display_name
from games.text.words import color_word, list_text

SINCE_PLIES = 30  # the most plies a turn email retells


def _names(game: Game) -> dict[int, str]:
    """Return position → display name (``game`` comes with its seats: ``_with_seats``)."""
    return {
        seat.position: display_name(seat.user)
        for seat in game.seats.all()
        if seat.position is not None
    }


def _with_seats(game: Game) -> Game:
    """Fetch ``game``'s seats with their users and profiles, once for the whole email."""
    prefetch_related_objects([game], seats_prefetch())
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
    kind = view.pending.kind if view is not None and view.pending else None
    return str(decision_words(kind).notice)


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
                "colors": {color_word(c): vp for c, vp in score.get("colors", {}).items()},
                "rating_before": seat.rating_before,
                "rating_after": seat.rating_after,
            }
        )
    return rows


def _subject(
    row: Notification, names: dict[int, str], dropped: Seat | None = None, *, you_act: bool
) -> str:
    """Return the subject of ``row``'s email (``dropped``: the seat a ``seat_dropped`` is about;
    ``you_act``: the recipient's seat is the one to act).

    Turn and decision emails are titled by ``turn_news`` instead.
    """
    game = row.game
    assert game is not None
    label = _("Game #%(id)s") % {"id": game.pk}
    to_act = names.get(game.to_act_seat or 0, "")
    if row.kind == NotificationKind.TIMED_OUT:
        return _("%(game)s · your clock ran out — the site played for you") % {"game": label}
    if row.kind == NotificationKind.GAME_STARTED:
        if you_act:
            return _("%(game)s has started: your move") % {"game": label}
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
    if row.kind == NotificationKind.GAME_ABORTED:
        return _("%(game)s was aborted by an administrator") % {"game": label}
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


def turn_news(game: Game, user: Any, *, kind: str, up_to: int) -> dict[str, Any]:
    """Return what a turn or decision email tells ``user`` about ``game`` (with its seats).

    Keys: ``subject`` ("Game #2 · Bob started a war over black — your support is needed"),
    ``happened`` and ``asked`` (its two halves), ``since`` (the log since the recipient's
    last move up to ply ``up_to``, one string a ply, as their page writes it: another
    player's swapped-out colours stay hidden, RULES.md §14; at most ``SINCE_PLIES``).

    ``since`` is the hook for what else the player should hear at their next email: a
    standing order's answer is a move of theirs in this log (its source says so), and
    chat lines can be merged here in ply order.
    """
    names = _names(game)
    label = _("Game #%(id)s") % {"id": game.pk}
    mine = seat_for(game, user)
    seat = mine.position if mine is not None else None
    view = _public_view(game)
    pending = view.pending if view is not None else None
    if pending is not None and pending.seat != seat:
        pending = None  # the decision is someone else's: this email is not about it
    moves = (
        moves_since_seat(game.pk, seat=seat, up_to=up_to, limit=SINCE_PLIES)
        if seat is not None
        else []
    )
    entries = log_entries(moves, seat_infos(game), seat, game_over=False) if seat else []
    happened = headlines.headline(moves, names, viewer=seat or 0, pending=pending)
    actions_left = 2
    if view is not None and view.to_act == seat and view.active_seat == seat:
        actions_left = view.actions_left  # a turn half played says so (issue 33)
    asked = headlines.ask_text(kind, pending, actions_left=actions_left)
    return {
        "subject": headlines.turn_subject(label, happened, asked),
        "happened": happened,
        "asked": asked,
        "since": [entry["text"] for entry in entries if entry["text"]],
    }


def _timed_out(row: Notification) -> dict[str, Any]:
    """Return what a ``timed_out`` email tells: the actions played, the timeouts left."""
    game = row.game
    assert game is not None
    mine = seat_for(game, row.user)
    seat = mine.position if mine is not None and mine.position is not None else 0
    moves = timeout_moves(game.pk, seat=seat, up_to=row.ply)
    entries = log_entries(moves, seat_infos(game), seat, game_over=False)
    in_row = mine.timeouts_in_row if mine is not None else 0
    return {
        "played_for_you": [entry["text"] for entry in entries if entry["text"]],
        "seat_dropped": mine is not None and mine.dropped_at is not None,
        "timeouts_left": max(0, TIMEOUTS_TO_DROP - in_row),
    }


def _since_chat(row: Notification) -> list[ChatLine]:
    """Return the chat since the recipient's last move that they read (issue 18): none when
    they turned it off (``Profile.chat_in_email``), without the players they muted."""
    game = row.game
    assert game is not None
    mine = seat_for(game, row.user)
    if mine is None or mine.position is None:
        return []
    since = last_move_time(game.pk, seat=mine.position)
    return chat_since_for_user(game.pk, user_id=row.user_id, since=since)


def _active_seat(game: Game) -> int:
    view = _public_view(game)
    return view.active_seat if view is not None else 0


def notification_send(row: Notification, delivery: OutboxSend | None = None) -> str:
    """Render and send the email of one outbox row; return its Message-ID.

    ``delivery``: the row's stable Message-ID and what records its acceptance
    (``sending.email_send``). Raises whatever the mail backend raises (the task classifies it).
    """
    user = row.user
    if row.tournament_id is not None or row.league_id is not None:
        return _event_send(row, delivery)
    if row.game is None:
        return _account_send(row, delivery)
    with translation.override(language_of(user)):
        game = _with_seats(row.game)
        names = _names(game)
        you_act = getattr(seat_for(game, user), "position", None) == game.to_act_seat
        context: dict[str, Any] = {
            "kind": row.kind,
            "recipient": display_name(user),
            "game_label": _("Game #%(id)s") % {"id": game.pk},
            "game_url": absolute(reverse("games:game", args=[game.pk])),
            "to_act_name": names.get(game.to_act_seat or 0, ""),
            "you_act": you_act,
            "active_name": names.get(_active_seat(game), ""),
            "decision_text": _decision_text(game) if row.kind == NotificationKind.DECISION else "",
            "happened": "",
            "ranking": _ranking(game) if row.kind == NotificationKind.GAME_OVER else [],
            "players": [names[p] for p in sorted(names)],
            "kind_display": row.get_kind_display(),
            "deadline_text": deadline_text(game.deadline, user),
            "since": [],
            "chat": _since_chat(row) if row.kind in TURN_KINDS else [],
        }
        dropped = _dropped_seat(row) if row.kind == NotificationKind.SEAT_DROPPED else None
        if dropped is not None:
            context["dropped_name"] = names.get(dropped.position or 0, "?")
            context["dropped_resigned"] = dropped.drop_reason == Seat.DropReason.RESIGNED
        if row.kind == NotificationKind.INVITATION:
            context.update(_invitation(game, user))
        if row.kind in TURN_KINDS:
            news = turn_news(game, user, kind=row.kind, up_to=row.ply)
            context.update(happened=news["happened"], since=news["since"])
            subject = news["subject"]
        else:
            if row.kind == NotificationKind.TIMED_OUT:
                context.update(_timed_out(row))
            subject = _subject(row, names, dropped, you_act=you_act)
        return email_send(
            user=user,
            kind=row.kind,
            subject=subject,
            template="notification",
            context=context,
            delivery=delivery,
        )


def _invitation(game: Game, user: Any) -> dict[str, Any]:
    """Return who invites ``user`` to ``game`` (while pending) and the game's terms.

    ``{"inviter_name": str ("" once answered), "terms": {setting: value}}`` for each of
    ``Game.SETTINGS`` (the email names the players, rating, scoring and time control), with
    ``time_control`` the game's ``TimeControl`` (said in the recipient's language).
    """
    notice = invitation_pending(game, user)
    terms = {field: getattr(game, field) for field in Game.SETTINGS}
    terms["time_control"] = time_control_of(game)
    return {"inviter_name": notice.inviter if notice else "", "terms": terms}


def _event_context(row: Notification) -> tuple[str, dict[str, Any]]:
    """Return the subject and the context of a tournament's or league's email (issue 30).

    Public facts only: the event's name and page, the round's number and the game's
    number (a round), the recipient's own place and move in their division (a season's
    end, from their ``LeagueMember`` row), when the next season starts and its clock.
    """
    if row.league is not None:  # an invitation to a group's league
        league = row.league
        inviter = display_name(league.creator)
        opening = (
            league.seasons.filter(status=LeagueSeason.Status.OPT_IN).order_by("number").first()
        )
        invitation: dict[str, Any] = {
            "event_name": league.name,
            "inviter_name": inviter,
            "game_url": absolute(reverse("games:league", args=[league.pk])),
            "event_starts": deadline_text(opening.starts_at, row.user) if opening else "",
            **_clock_terms(league),
        }
        subject = _("%(host)s invites you to the league %(event)s") % {
            "host": inviter,
            "event": league.name,
        }
        return subject, invitation
    tournament = row.tournament
    assert tournament is not None  # the caller sends only a row of an event here
    numbers = (
        LeagueDivision.objects.filter(tournament=tournament)
        .values_list("season__number", "number")
        .first()
    )
    event = event_name(tournament.name, *(numbers or (None, None)))
    context: dict[str, Any] = {
        "event_name": event,
        "round_number": row.ply,
        "game_url": absolute(reverse("games:tournament", args=[tournament.pk])),
    }
    if row.kind == NotificationKind.TOURNAMENT_ROUND and row.game_id is not None:
        label = _("Game #%(id)s") % {"id": row.game_id}
        context.update(
            game_label=label,
            game_url=absolute(reverse("games:game", args=[row.game_id])),
            event_url=context["game_url"],
            **_clock_terms(tournament),
        )
        subject = _("Round %(n)s of %(event)s has started: your game is %(game)s") % {
            "n": row.ply,
            "event": event,
            "game": label,
        }
        return subject, context
    if row.kind == NotificationKind.TOURNAMENT_BYE:
        subject = _("Round %(n)s of %(event)s: you have a bye") % {"n": row.ply, "event": event}
        return subject, context
    if row.kind == NotificationKind.TOURNAMENT_INVITE:
        inviter = display_name(tournament.creator)
        context.update(inviter_name=inviter, **_event_terms(tournament, row.user))
        subject = _("%(host)s invites you to the tournament %(event)s") % {
            "host": inviter,
            "event": event,
        }
        return subject, context
    if row.kind == NotificationKind.SEASON_OVER:
        division = LeagueDivision.objects.select_related("season__league").get(
            tournament=tournament
        )
        season = division.season
        member = season.members.filter(user_id=row.user_id).first()
        following = season.league.seasons.filter(number=season.number + 1).first()
        context.update(
            event_name=season.league.name,
            season_number=season.number,
            division_number=division.number,
            final_rank=member.final_rank if member else None,
            move=member.move if member else "",
            next_season=season.number + 1,
            next_starts=deadline_text(following.starts_at, row.user) if following else "",
            game_url=absolute(reverse("games:league", args=[season.league_id])),
            # the league's clock now: the next season's (a running one keeps its own)
            **_clock_terms(season.league),
        )
        subject = _("%(league)s: season %(n)s is over") % {
            "league": season.league.name,
            "n": season.number,
        }
        return subject, context
    subject = _("%(event)s is over: see the final standings") % {"event": event}
    return subject, context


def _event_terms(tournament: Tournament, user: Any) -> dict[str, str]:
    """Return an invitation's terms of ``tournament`` in ``user``'s time zone and language.

    ``{"event_starts": "2026-12-10 18:00 CET" or "" (started by its creator or when
    full), **_clock_terms}``: the settings its page shows to anyone invited, nothing of a
    game.
    """
    return {"event_starts": deadline_text(tournament.starts_at, user), **_clock_terms(tournament)}


def _clock_terms(event: League | Tournament) -> dict[str, str]:
    """Return a tournament's or league's time control and playing hours, in words.

    ``{"event_time_control": its games' control in the active language ("3 days per
    move", a bank), "event_hours": its daily playing hours ("09:00–21:00 (Europe/Paris)")
    or ""}``.
    """
    clock = clock_of(event)
    return {"event_time_control": clock.control().words(), "event_hours": clock.hours_words()}


def _event_send(row: Notification, delivery: OutboxSend | None = None) -> str:
    """Send a tournament's or league's email: a round, a bye, an event's or season's end."""
    user = row.user
    with translation.override(language_of(user)):
        subject, context = _event_context(row)
        context = {
            "kind": row.kind,
            "recipient": display_name(user),
            "game_label": "",
            "kind_display": row.get_kind_display(),
            **context,
        }
        return email_send(
            user=user,
            kind=row.kind,
            subject=subject,
            template="notification",
            context=context,
            delivery=delivery,
        )


def _account_send(row: Notification, delivery: OutboxSend | None = None) -> str:
    """Send an email about the account rather than one game (``vacation_ended``)."""
    user = row.user
    with translation.override(language_of(user)):
        if row.kind == NotificationKind.VACATION_ENDED:
            subject = _("Your vacation is over: your games' clocks are running again")
        else:
            subject = str(row.get_kind_display())
        context = {
            "kind": row.kind,
            "recipient": display_name(user),
            "game_label": "",
            "game_url": absolute(reverse("games:lobby")),
            "kind_display": row.get_kind_display(),
        }
        return email_send(
            user=user,
            kind=row.kind,
            subject=subject,
            template="notification",
            context=context,
            delivery=delivery,
        )


def still_owed(row: Notification) -> bool:
    """Return False for a turn or decision email the recipient has acted on, or whose game ended.

    An email delayed (a broker or mail server that was down) must not say "your move" for
    a turn the player has taken since; other kinds are always owed.
    """
    if row.kind not in TURN_KINDS:
        return True
    game = row.game
    if game is None or game.status != Game.Status.ACTIVE:
        return False
    seat = seat_for(game, row.user)
    if seat is None or seat.position is None:
        return False
    return not seat_moved_since(game.pk, seat=seat.position, ply=row.ply)
