"""The part of a game page's context drawn from ``engine.view_for``: board, hand, players."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import engine
from games.text.seats import SeatInfo
from games.text.waiting import waiting_text
from games.text.words import monument_name
from games.web import players
from games.web.action_groups import action_groups, board_picks, board_targets
from games.web.board import board_rows


def view_context(
    view: engine.PlayerView,
    seats: dict[int, SeatInfo],
    *,
    changed: set[str],
    scored: list[Mapping[str, Any]] | None = None,
) -> dict[str, Any]:
    """Return the view-derived part of a game or replay page's context for ``view``.

    ``seats`` are the seats' public facts, ``changed`` the squares to mark on the board,
    ``scored`` the recent ``vp_scored`` events to show as "+1 red" beside their seat.
    """
    groups = action_groups(view)
    me = view.seat
    my_scores = view.scores.get(me) if me is not None else None
    panels = players.players(view, seats, gains=players.gains(view, scored or []))
    return {
        "view_seat": me,
        "board_rows": board_rows(
            view,
            seats,
            changed=changed,
            targets=board_targets(groups),
            # Leaders are picked on the board only for an ordinary action, as in the list.
            picks=board_picks(view, groups) if view.pending is None else {},
        ),
        "hand": players.hand_tiles(view.hand),
        "hand_code": players.hand_code(view.hand),
        "my_scores": my_scores,
        "my_score_code": players.score_code(my_scores),
        "players": panels,
        "me": next((p for p in panels if p["is_me"]), None),
        "decision": players.decision(view, seats),
        "waiting": waiting_text(view, seats),
        "action_groups": groups,
        # A pending decision (support, war order, monument, treasures) offers its choices
        # inside the decision panel; an ordinary action starts from a piece in the hand.
        "board_groups": [g for g in groups if g.on_board and view.pending is None],
        "other_groups": [g for g in groups if not g.on_board or view.pending is not None],
        "has_actions": bool(view.actions),
        "bag_size": view.bag_size,
        "treasures_left": view.treasures_left,
        "monuments_available": [monument_name(m) for m in view.monuments_available],
        "actions_left": view.actions_left,
        "is_over": view.is_over,
        "ranking": players.ranking(view, seats) if view.is_over else [],
        "hands_revealed": view.hands is not None,
    }
