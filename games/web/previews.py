"""The confirm step's preview (issue 16): what the chosen action will start, in words.

Computed from the acting seat's own view (``engine.view_for``): ``engine.preview`` deals a
state from it and applies the action with the engine's rules, so a preview can tell the
player nothing their view does not already hold. Only the seat that must act gets one.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _

import engine
from games.core.errors import GameError, NotAPlayer, NotYourTurn, StaleVersion
from games.core.states import game_state
from games.models import Game, Move
from games.play.errors import IllegalAction
from games.play.submit import NothingToUndo, parse_action, undoable_count
from games.selectors.games import seat_infos
from games.text.previews import preview_lines
from games.web.viewer import Viewer


@dataclass(frozen=True)
class PreviewAnswer:
    """The preview's words (``lines``), or why the action is refused (``error``, ``status``)."""

    lines: tuple[str, ...] = ()
    error: str = ""
    status: int = 200


def action_preview(
    game: Game, viewer: Viewer, *, action: str, version: int | None
) -> PreviewAnswer:
    """Return the preview of ``action`` (notation, or ``undo``) for ``viewer``'s seat in ``game``.

    Refused, with the message the submit service would give, when the user holds no seat,
    does not act now, the page is older than the game (``version``) or the engine refuses
    the action (its reason, in the player's language).
    """
    try:
        return PreviewAnswer(lines=tuple(_lines(game, viewer, action=action, version=version)))
    except GameError as exc:
        return PreviewAnswer(error=str(exc), status=exc.status)


def _lines(game: Game, viewer: Viewer, *, action: str, version: int | None) -> list[str]:
    position = viewer.seat
    if position is None:
        raise NotAPlayer()
    if game.status != Game.Status.ACTIVE or game.to_act_seat != position:
        raise NotYourTurn()
    if version is not None and version != game.version:
        raise StaleVersion()
    state = game_state(game)
    if action.strip().lower() == Move.UNDO:
        if undoable_count(game=game, state=state) < 1:
            raise NothingToUndo()
        return [_("Takes back your last action: the board is as it was before it.")]
    parsed = parse_action(action)
    view = engine.view_for(state, position)
    try:
        preview = engine.preview(view, parsed)
    except engine.IllegalActionError as exc:
        raise IllegalAction(str(exc), code=exc.code, params=exc.params) from None
    return preview_lines(preview, seat_infos(game), position)
