"""The analysis board's context: one position of a board, drawn as the game page draws it.

The board, the hand and the action buttons are the game page's (``view_context``, the
partials of ``games/game.html``); the acting seat is offered its legal actions, which
post to the analysis board instead of a game. Everything comes from ``engine.view_for``:
every hand of a finished game or a pasted position (``game_ended``), only the acting
seat's own of a position re-dealt from a player's view.
"""

from __future__ import annotations

from collections.abc import Sequence
from types import SimpleNamespace
from typing import Any

from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _

import engine
from games.records.analysis import Board, Position
from games.text.gamelog import log_entries
from games.text.seats import SeatInfo
from games.text.words import DYNASTY_NAME
from games.web.view_context import view_context

DYNASTIES = tuple(DYNASTY_NAME)
# What a re-dealt board shows of the dealt seat's view, whoever acts (RULES.md §14).
_OWN_KEYS = (
    "view_seat",
    "hand_code",
    "my_scores",
    "my_score_code",
    "players",
    "hands_revealed",
)


def board_query(source: dict[str, Any], ply: int, line: Sequence[engine.Action | str]) -> str:
    """Return the query naming a position: its source, ``ply`` and the ``line`` tried."""
    return urlencode([*source.items(), ("ply", ply), *(("line", str(a)) for a in line)])


def _seats(board: Board) -> dict[int, SeatInfo]:
    out = {}
    for n in range(1, board.start.num_players + 1):
        name = board.names.get(n) or _("Seat %(n)s") % {"n": n}
        dynasty = board.dynasties.get(n) or DYNASTIES[(n - 1) % len(DYNASTIES)]
        out[n] = SeatInfo(position=n, username=name, dynasty=dynasty)
    return out


def analysis_context(
    position: Position, source: dict[str, Any], *, error: str | None = None
) -> dict[str, Any]:
    """Return the context of ``games/analysis.html`` for ``position``.

    ``source`` names the board in URLs (``{"game": id}`` or ``{"board": key}``); links
    step along the main line (dropping the line tried), undo the last move tried, and
    the action forms post to ``/analysis/act`` with the position in their URL.
    """
    board = position.board
    state = position.state
    seats = _seats(board)
    acting = state.to_act
    view = engine.view_for(state, acting, game_ended=board.public)
    changed = set(engine.event_squares(view.events))
    ctx = view_context(view, seats, changed=changed)
    shown_seat = acting
    if board.public:
        # Nobody is "you" on a public board: the acting seat's hand is shown as anyone's,
        # and its points in the players' list only (not as "My points" in the tray).
        ctx["players"] = [{**p, "is_me": False} for p in ctx["players"]]
        ctx["my_scores"] = None
    if not board.public and acting != board.seat:
        # Re-dealt from one seat's view: another seat's hand here is a random deal. Its
        # actions are offered, but the hands and totals shown are the dealt seat's own.
        mine = view_context(engine.view_for(state, board.seat), seats, changed=changed)
        ctx.update({key: mine[key] for key in _OWN_KEYS})
        ctx["hand"] = []  # no tiles to tick for the other seat's swap: typed instead
        shown_seat = None
    last = len(board.main)
    here = board_query(source, position.ply, position.line)

    def at(ply: int, line: Sequence[engine.Action] = ()) -> str:
        return f"{reverse('games:analysis')}?{board_query(source, ply, line)}"

    tried = [
        {"n": i + 1, "notation": str(a), "url": at(position.ply, position.line[: i + 1])}
        for i, a in enumerate(position.line)
    ]
    ctx.update(
        # What the game page's partials read of ``game``: the hidden version field only.
        game={"pk": board.game_id, "version": position.ply + len(position.line)},
        seat=shown_seat,
        act_url=f"{reverse('games:analysis_act')}?{here}",
        confirm_actions=False,
        analysis=True,  # the tray says nothing of the player's settings here
        typed_action="",
        error=error,
        kind=board.kind,
        source_game_id=board.game_id,
        redealt=not board.public,
        dealt_seat=board.seat,
        from_ply=board.from_ply,
        ply=position.ply,
        last=last,
        tried=tried,
        here_url=at(position.ply, position.line),
        first_url=at(0),
        prev_url=at(max(position.ply - 1, 0)),
        next_url=at(min(position.ply + 1, last)),
        last_url=at(last),
        main_url=at(position.ply),
        undo_url=at(position.ply, position.line[:-1]) if position.line else "",
        diagram=engine.render_diagram(state) if board.public else "",
        to_act_label=seats[acting].label if acting in seats else "",
        recent=_recent(position, seats),
    )
    return ctx


def _recent(position: Position, seats: dict[int, SeatInfo]) -> list[str]:
    """Return the log's words for the last action (what it caused), newest first."""
    events = [e.to_dict() for e in position.state.events]
    if not events:
        return []
    # The shape of a ``Move`` that ``log_entries`` reads.
    move = SimpleNamespace(ply=0, seat=0, events=events, source="player")
    shown = log_entries([move], seats, None, game_over=True)
    return [line for e in shown for line in e["lines"]]
