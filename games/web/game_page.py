"""Build the template context of the game and replay pages from ``engine.view_for``.

The context holds the view-derived values of ``games.presenters`` and ``games.gamelog``,
database facts that are public (seat names, versions, ranks) and nothing else: never the
engine state, the seed or the bag (RULES.md §14).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

import engine
from games import gamelog, presenters, profiles, selectors, vacations
from games.models import Game, Move, Profile, Seat
from games.states import game_state, replay

LOG_PLIES = 40


def seat_infos(game: Game) -> dict[int, presenters.SeatInfo]:
    """Return position → ``SeatInfo`` for the seated players of a started game."""
    return {
        seat.position: presenters.SeatInfo(
            position=seat.position,
            username=profiles.display_name(seat.user),
            dynasty=seat.dynasty,
            final_rank=seat.final_rank,
            final_score=seat.final_score,
        )
        for seat in game.seats.all()
        if seat.position is not None
    }


def _view_context(
    view: engine.PlayerView,
    seats: dict[int, presenters.SeatInfo],
    *,
    changed: set[str],
) -> dict[str, Any]:
    groups = presenters.action_groups(view)
    me = view.seat
    my_scores = view.scores.get(me) if me is not None else None
    return {
        "view_seat": me,
        "board_rows": presenters.board_rows(
            view,
            seats,
            changed=changed,
            targets=presenters.board_targets(groups),
            # Leaders are picked on the board only for an ordinary action, as in the list.
            picks=presenters.board_picks(view, groups) if view.pending is None else {},
        ),
        "columns": list("abcdefghijklmnop"),
        "hand": presenters.hand_tiles(view.hand),
        "hand_code": presenters.hand_code(view.hand),
        "my_scores": my_scores,
        "my_score_code": presenters.score_code(my_scores),
        "players": presenters.players(view, seats),
        "decision": presenters.decision(view, seats),
        "waiting": presenters.waiting_text(view, seats),
        "action_groups": groups,
        # A pending decision (support, war order, monument, treasures) offers its choices
        # inside the decision panel; an ordinary action starts from a piece in the hand.
        "board_groups": [g for g in groups if g.on_board and view.pending is None],
        "other_groups": [g for g in groups if not g.on_board or view.pending is not None],
        "has_actions": bool(view.legal_actions),
        "bag_size": view.bag_size,
        "treasures_left": view.treasures_left,
        "monuments_available": [presenters.monument_name(m) for m in view.monuments_available],
        "actions_left": view.actions_left,
        "is_over": view.is_over,
        "ranking": presenters.ranking(view, seats) if view.is_over else [],
        "hands_revealed": view.hands is not None,
    }


def clock_context(game: Game, seat: Seat | None) -> dict[str, Any]:
    """Return the public facts of the game's clock for the page (issue 6, time controls).

    ``{"deadline", "deadline_label", "paused", "tz", "away": [{"label", "until"}],
    "dropped": [{"label", "reason"}], "can_resign"}``; datetimes are aware (UTC) and the
    template shows them in ``tz``, the viewer's time zone (UTC when anonymous or unset).
    """
    seats = [s for s in game.seats.all() if s.position is not None]
    labels = {s.position: profiles.display_name(s.user) for s in seats}
    until = vacations.vacations_until([s.user_id for s in seats])
    away = [
        {"label": labels[s.position], "until": until[s.user_id], "seat": s.position}
        for s in seats
        if s.user_id in until
    ]
    paused = game.vacation_allowed and any(a["seat"] == game.deadline_seat for a in away)
    tz = "UTC"
    if seat is not None:
        # The seats come with their users' profiles (selectors.with_seats): no query here.
        try:
            tz = seat.user.profile.time_zone or "UTC"
        except Profile.DoesNotExist:
            tz = "UTC"
    active = game.status == Game.Status.ACTIVE
    return {
        "deadline": game.deadline if active else None,
        "deadline_label": labels.get(game.deadline_seat or 0, ""),
        "paused": paused,
        "tz": tz,
        "away": away if active else [],
        "dropped": [
            {"label": labels[s.position], "reason": s.get_drop_reason_display()}
            for s in seats
            if s.dropped_at is not None
        ],
        "vacation_allowed": game.vacation_allowed,
        "can_resign": active and seat is not None and seat.dropped_at is None,
    }


def _confirm_actions(seat: Seat | None) -> bool:
    """Return whether the seat's player wants each action confirmed in words (Profile).

    Only a seated player has actions to confirm. Reads the profile the game's seats were
    fetched with (``selectors.with_seats``), so the page and the poll pay no extra query.
    """
    if seat is None:
        return True
    try:
        return bool(seat.user.profile.confirm_actions)
    except Profile.DoesNotExist:
        return True


def _recent_moves(game: Game, position: int | None) -> tuple[list[Move], int]:
    """Return the moves the page writes, in ply order, and the viewer's latest ply (or 0).

    The page needs the last ``LOG_PLIES`` plies and every ply since the viewer's latest
    move; it reads only those rows, so a page costs the same at ply 300 as at ply 30.
    """
    moves = list(Move.objects.filter(game=game, ply__gt=game.version - LOG_PLIES).order_by("ply"))
    if position is None:
        return moves, 0
    mine = [m.ply for m in moves if m.seat == position]
    if mine:
        return moves, mine[-1]
    first = moves[0].ply if moves else game.version + 1
    last_mine = (
        Move.objects.filter(game=game, seat=position, ply__lt=first)
        .order_by("-ply")
        .values_list("ply", flat=True)
        .first()
    )
    if last_mine is None:
        return moves, 0
    earlier = list(Move.objects.filter(game=game, ply__gt=last_mine, ply__lt=first).order_by("ply"))
    return earlier + moves, last_mine


def game_context(
    game: Game,
    user: AbstractBaseUser | AnonymousUser,
    *,
    invite_tokens: list[str] | None = None,
    error: str | None = None,
    next_game: Game | None = None,
    typed_action: str = "",
) -> dict[str, Any]:
    """Return the context of ``games/game.html`` for ``user`` looking at ``game``.

    ``error`` is a refusal to show, ``typed_action`` the refused action put back in the
    typed-action box, ``next_game`` another game waiting for the viewer.

    Before the game starts only the seats are shown. Once started, the viewer's seat
    (or None for a spectator) gets ``engine.view_for(state, seat)`` turned into template
    values; the log shows the last ``LOG_PLIES`` plies, with the events since the viewer's
    last move marked.
    """
    seat = selectors.seat_for(game, user)
    position = seat.position if seat else None
    ctx: dict[str, Any] = {
        "game": game,
        "seat": position,
        "my_seat": seat,
        "error": error,
        "typed_action": typed_action,
        "next_game": next_game,
        "can_join": (
            game.status == Game.Status.OPEN
            and seat is None
            and user.is_authenticated
            and (game.is_public or game.invite_token in (invite_tokens or []))
        ),
        "invite_url": (f"/games/{game.pk}/invite/{game.invite_token}" if seat is not None else ""),
        "open_seats": [profiles.display_name(s.user) for s in game.seats.all()],
        "my_turn": game.status == Game.Status.ACTIVE
        and position is not None
        and position == game.to_act_seat,
        "confirm_actions": _confirm_actions(seat),
    }
    if game.state is None:
        ctx["started"] = False
        return ctx
    ctx["started"] = True
    ctx["clock"] = clock_context(game, seat)
    seats = seat_infos(game)
    state = game_state(game)
    view = engine.view_for(state, position)
    moves, last_mine = _recent_moves(game, position)
    game_over = view.is_over
    # "Since your last move": everything after the viewer's latest ply.
    entries = gamelog.log_entries(moves, seats, position, game_over=game_over)
    since_entries = [e for e in entries if e["ply"] > last_mine] if last_mine else []
    changed: set[str] = set()
    for entry in since_entries:
        changed |= entry["squares"]
    ctx.update(_view_context(view, seats, changed=changed))
    log = entries[-LOG_PLIES:]
    for entry in log:
        entry["new"] = last_mine > 0 and entry["ply"] > last_mine
    ctx.update(
        log=list(reversed(log)),
        log_truncated=game.version > LOG_PLIES,
        since=since_entries,
        to_act_label=presenters.seat_label(seats, game.to_act_seat),
        can_replay=game_over or position is not None,
    )
    if game.status != Game.Status.ACTIVE:
        # An aborted game keeps its board for its players, but nothing can be played.
        ctx.update(action_groups=[], board_groups=[], other_groups=[], has_actions=False)
    return ctx


def replay_context(
    game: Game, user: AbstractBaseUser | AnonymousUser, *, ply: int | None
) -> dict[str, Any]:
    """Return the context of ``games/replay.html``: the board at ``ply`` as the viewer saw it.

    Re-applies the moves from the seed up to ``ply`` (default: the last) and renders
    ``engine.view_for(state, seat)`` for the viewer's seat (None for spectators, who may
    replay finished games only); a finished game's replay shows every hand and total at
    every ply. ``ply`` is clamped to 0..version.
    """
    seat = selectors.seat_for(game, user)
    position = seat.position if seat else None
    moves = list(Move.objects.filter(game=game).order_by("ply"))
    last = len(moves)
    ply = last if ply is None else max(0, min(ply, last))
    state = replay(game, moves[:ply])
    seats = seat_infos(game)
    # Once the game has ended everything is public, also at every ply of its replay (§14).
    view = engine.view_for(state, position, game_ended=game.status == Game.Status.FINISHED)
    shown = moves[:ply]
    entries = gamelog.log_entries(shown, seats, position, game_over=view.is_over)
    changed = entries[-1]["squares"] if entries else set()
    ctx = _view_context(view, seats, changed=changed)
    ctx.update(
        game=game,
        seat=position,
        ply=ply,
        last=last,
        prev_ply=max(ply - 1, 0),
        next_ply=min(ply + 1, last),
        log=list(reversed(entries)),
        waiting=presenters.waiting_text(view, seats),
        replay=True,
    )
    # A replay never offers actions.
    ctx.update(action_groups=[], board_groups=[], other_groups=[], has_actions=False)
    return ctx
