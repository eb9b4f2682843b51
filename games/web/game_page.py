"""Build the template context of the game and replay pages from ``engine.view_for``.

The context holds the view-derived values of ``games.web.board``, ``games.web.players``,
``games.web.action_groups`` and ``games.text.gamelog``, a ``GameHeader`` and other public
database facts (seat names, ranks, the clock) and nothing else: never the ``Game`` row,
the engine state, the seed or the bag (RULES.md §14).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from functools import lru_cache
from typing import Any

from django.template.loader import get_template
from django.urls import reverse
from django.utils import timezone
from django.utils.safestring import SafeString

import engine
from games.core.states import game_state
from games.core.timecontrol import time_control_of
from games.models import Game, Move, Profile, Seat
from games.play.quiet import quiet_running
from games.play.submit import undoable_count
from games.selectors.games import seat_infos, seats_away_until
from games.selectors.moves import LOG_PLIES, moves_recent
from games.selectors.people import quiet_hours_of, vacation_current, vacations_until
from games.text.gamelog import log_entries, marked_html
from games.text.seats import SeatInfo, display_name
from games.web.community_page import since_chat
from games.web.header import GameHeader
from games.web.view_context import view_context
from games.web.viewer import Viewer


@lru_cache(maxsize=16384)
def _log_item(number: int, new: bool, undo: bool, text: str) -> SafeString:
    """Return the log's ``<li>`` of one ply (``games/_log_item.html``), rendered once.

    ``number`` counts the plies that stand up to this one; an undo row (``undo``) shows
    no number of its own.

    Moves never change (append-only), so between two renders of a page its log items
    are the same; ``text`` is already in the viewer's language.
    """
    # The autoescaping template's output is already safe; the stubs type it as ``str``.
    return SafeString(
        get_template("games/_log_item.html").render(
            {"number": number, "new": new, "undo": undo, "text": text}
        )
    )


@lru_cache(maxsize=16384)
def _marked(text: str, names: tuple[tuple[int, str, str], ...]) -> SafeString:
    """Return a log text with its seats drawn (``gamelog.marked_html``), once per text."""
    seats = {n: SeatInfo(n, username, dynasty) for n, username, dynasty in names}
    return marked_html(text, seats)


def clock_context(game: Game, viewer: Viewer) -> dict[str, Any]:
    """Return the public facts of the game's clock for the page (issue 6, time controls).

    ``{"seated", "deadline", "deadline_label", "deadline_mine", "paused", "tz", "away":
    [{"label", "until", "seat", "mine"}], "quiet": [{"label", "until", "mine"}], "quiet_allowed",
    "dropped": [{"label", "reason"}] (in progress only), "all_dropped", "can_resign"}``;
    datetimes are aware (UTC) and the template shows them in ``tz``, the seated viewer's
    time zone (UTC for a spectator, or when unset). ``mine``: the viewer's own, written as "you".
    ``seated``: whether the viewer plays in the game. Who is on vacation or in their quiet
    hours, and until when, tells when a person is away or asleep: only the players of the
    game learn it (it explains their clock); a spectator sees a paused clock as paused.
    So do the deadline and the time banks, which quiet hours move (issue 28, finding 2):
    a spectator gets ``deadline`` None and no ``banks``, only ``waiting`` (whose clock
    runs, as its label, "" when none does).
    """
    seats = [s for s in game.seats.all() if s.position is not None]
    labels = {s.position: display_name(s.user) for s in seats}
    until = seats_away_until(seats)
    if until is None:  # seats read without their vacations
        until = vacations_until([s.user_id for s in seats])
    mine = viewer.seat  # the viewer's seat, written "you"
    away = [
        {
            "label": labels[s.position],
            "until": until[s.user_id],
            "seat": s.position,
            "mine": s.position == mine,
        }
        for s in seats
        if s.user_id in until
    ]
    paused = game.vacation_allowed and any(a["seat"] == game.deadline_seat for a in away)
    # A seated viewer's comes from the profile the seats were read with: no query here.
    tz = (str(viewer.time_zone) or "UTC") if viewer.seated else "UTC"
    active = game.status == Game.Status.ACTIVE
    seated = viewer.seated
    return {
        "seated": seated,
        "quiet": _in_quiet_hours(seats, labels, mine=mine) if active and seated else [],
        "quiet_allowed": game.quiet_hours_allowed,
        "banks": bank_rows(game, seats, labels, paused=paused) if active and seated else [],
        "deadline": game.deadline if active and seated else None,
        "waiting": (
            labels.get(game.deadline_seat or 0, "")
            if active and not seated and game.deadline is not None
            else ""
        ),
        "deadline_label": labels.get(game.deadline_seat or 0, ""),
        # The viewer's own clock, vacation and quiet hours are written to them as "you".
        "deadline_mine": mine is not None and mine == game.deadline_seat,
        "paused": paused,
        "tz": tz,
        "away": away if active and seated else [],
        "dropped": [
            {"label": labels[s.position], "reason": s.get_drop_reason_display()}
            for s in seats
            if s.dropped_at is not None and active
        ],
        # Aborted because every person's seat resigned or dropped (issue 6; a bot plays on
        # for nobody, issue 28), not by an administrator.
        "all_dropped": any(not s.is_bot for s in seats)
        and all(s.dropped_at is not None for s in seats if not s.is_bot),
        "vacation_allowed": game.vacation_allowed,
        "can_resign": active and seated and not viewer.seat_dropped,
    }


def _move_time(moves: list[Move], ply: int) -> datetime | None:
    """Return when ply ``ply`` was played, if it is among ``moves`` (no query)."""
    return next((m.created_at for m in moves if m.ply == ply), None)


def _in_quiet_hours(
    seats: list[Seat], labels: dict[int | None, str], *, mine: int | None
) -> list[dict[str, Any]]:
    """Return ``[{"label", "until", "mine"}]`` of the players in their quiet hours now
    (issue 17); ``mine`` is the viewer's seat (None: a spectator).

    Reads the profiles the seats were fetched with (``with_seats``): no query.
    """
    now = timezone.now()
    out = []
    for s in seats:
        try:
            quiet = quiet_hours_of(s.user.profile)
        except Profile.DoesNotExist:
            continue
        until = quiet.quiet_until(now) if quiet is not None else None
        if until is not None and s.position is not None:
            out.append({"label": labels[s.position], "until": until, "mine": s.position == mine})
    return out


def bank_rows(
    game: Game, seats: list[Seat], labels: dict[int | None, str], *, paused: bool
) -> list[dict[str, Any]]:
    """Return every player's time bank (issue 17): ``[{"label", "until", "running"}]``.

    ``until`` is when the bank would run out if it ran from now (the running one's is the
    deadline), so the page writes what is left with ``timeuntil``; empty unless the game
    has a time bank. A bank paused by a vacation is shown with the time it had left.
    """
    if not time_control_of(game).has_bank:
        return []
    now = timezone.now()
    rows = []
    for s in seats:
        running = s.position == game.deadline_seat and game.deadline is not None
        if running and game.deadline is not None:
            since = now
            vacation = vacation_current(user_id=s.user_id) if paused else None
            if vacation is not None:  # the clock stopped when the vacation began
                since = max(vacation.starts_at, game.deadline_set_at or vacation.starts_at)
            left = quiet_running(game, s, since, game.deadline)  # quiet time is not spent
        else:
            left = timedelta(seconds=s.bank_seconds or 0)
        rows.append({"label": labels[s.position], "until": now + left, "running": running})
    return rows


def game_context(
    game: Game,
    viewer: Viewer,
    *,
    invite_tokens: list[str] | None = None,
    error: str | None = None,
    next_game_id: int | None = None,
    typed_action: str = "",
    state: engine.GameState | None = None,
) -> dict[str, Any]:
    """Return the context of ``games/game.html`` for ``viewer`` looking at ``game``.

    ``viewer`` is the request's ``Viewer`` in this game (``viewer_in_game``: its seat looked
    up once); ``game`` comes with its seats, users and profiles (``with_seats``).

    ``error`` is a refusal to show, ``typed_action`` the refused action put back in the
    typed-action box, ``next_game_id`` another game waiting for the viewer. ``state`` is
    the game's engine state when the caller holds it (a submit's ``SubmitResult.state``),
    else it is decoded from the snapshot.

    Before the game starts only the seats are shown. Once started, the viewer's seat
    (or None for a spectator) gets ``engine.view_for(state, seat)`` turned into template
    values; the log shows the last ``LOG_PLIES`` plies, with the events since the viewer's
    last move marked.
    """
    position = viewer.seat
    seated = viewer.seated
    ctx: dict[str, Any] = {
        "game": GameHeader.of(game, seated=seated),
        "seat": position,
        "seated": seated,
        "error": error,
        "typed_action": typed_action,
        "next_game_id": next_game_id,
        "can_join": (
            game.status == Game.Status.OPEN
            and not seated
            and viewer.is_authenticated
            and (game.is_public or game.invite_token in (invite_tokens or []))
        ),
        "invite_url": (f"/games/{game.pk}/invite/{game.invite_token}" if seated else ""),
        # The waiting room's list of who sat down (a started game names them on the board).
        "open_seats": [display_name(s.user) for s in game.seats.all()]
        if game.state is None
        else [],
        "my_turn": game.status == Game.Status.ACTIVE
        and position is not None
        and position == game.to_act_seat,
        # Only a seated player has actions to confirm (their profile's wish, issue 16).
        "confirm_actions": viewer.confirm_actions if seated else True,
        # Where the hand's and the decision's forms post (the analysis board posts elsewhere).
        "act_url": reverse("games:act", args=[game.pk]),
        "preview_url": reverse("games:preview", args=[game.pk]),
    }
    if game.state is None:
        ctx["started"] = False
        return ctx
    ctx["started"] = True
    ctx["clock"] = clock_context(game, viewer)
    seats = seat_infos(game)
    if state is None:
        state = game_state(game)
    view = engine.view_for(state, position)
    moves, last_mine = moves_recent(game.pk, version=game.version, position=position)
    game_over = view.is_over
    # "Since your last move": everything after the viewer's latest ply.
    entries = log_entries(moves, seats, position, game_over=game_over, marked=True)
    names = tuple((n, info.username, info.dynasty) for n, info in sorted(seats.items()))
    for entry in entries:
        entry["lines_html"] = [_marked(line, names) for line in entry["lines"]]
    since_entries = [e for e in entries if e["ply"] > last_mine] if position else []
    changed: set[str] = set()
    for entry in since_entries:
        changed |= entry["squares"]
    # "+1 red": the points scored since the viewer's last move, or by it when it is the last.
    # The visible events the log read already (one entry per move).
    recent = ([e for e in entries if e["ply"] > last_mine] if last_mine else []) or entries[-1:]
    scored = [ev for e in recent for ev in e["events"] if ev.get("code") == "vp_scored"]
    ctx.update(view_context(view, seats, changed=changed, scored=scored))
    # The window's plies (an undo leaves fewer than LOG_PLIES rows in it: fewer items).
    log = [e for e in entries if e["ply"] > game.version - LOG_PLIES]
    undo_plies = {m.ply for m in moves if m.is_undo}
    # The log numbers what stands (issue 32): plies taken back and undo rows are not counted.
    window = [m for m in moves if m.ply > game.version - LOG_PLIES]
    number = int(getattr(window[0], "standing_before", 0)) if window else 0
    for entry in log:
        undo = entry["ply"] in undo_plies
        number += 0 if undo else 1
        entry["new"] = position is not None and entry["ply"] > last_mine
        entry["html"] = _log_item(number, entry["new"], undo, _marked(entry["text"], names))
    ctx.update(
        log=list(reversed(log)),
        log_truncated=game.version > LOG_PLIES,
        since=since_entries,
        # The chat since the viewer's last move joins that part of the log (issue 18).
        since_chat=since_chat(game, viewer, since=_move_time(moves, last_mine))
        if since_entries
        else [],
        can_replay=game_over or position is not None,
        can_rematch=game.status == Game.Status.FINISHED and seated and not viewer.seat_is_bot,
    )
    # Undo (issue 16): the active player's own quiet actions of this turn, from the log's rows.
    ctx["can_undo"] = bool(
        ctx["my_turn"] and undoable_count(game=game, state=state, moves=moves) > 0
    )
    if game.status != Game.Status.ACTIVE:
        # An aborted game keeps its board for its players, but nothing can be played.
        ctx.update(action_groups=[], board_groups=[], other_groups=[], has_actions=False)
    return ctx
